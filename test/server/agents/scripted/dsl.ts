/**
 * The prompt DSL of the scripted agents, one command per line:
 *
 *   run: <command>            ask to run a shell command (the agent's own execute shape), run it if allowed
 *   edit: <path> [=> <text>]  ask to edit a file in the cwd (diff content); write <text> if allowed
 *   fetch: <url>              ask to fetch a URL
 *   plan [: <plan text>]      claude ExitPlanMode (`switch_mode`, "Ready to code?")
 *   wait[(<sec>|none)]: <command>
 *                             ask, then end the turn at once with stopReason "waiting" (a detached request);
 *                             `_meta.fountain.timeout` is <sec> (default 172800), or absent with `none`
 *   ask: <json>               a custom request: {"toolCall": {...merged over the agent's execute shape},
 *                             "options": [...], "meta": {...}, "wait": true|<sec>}
 *   say: <text>   think: <text>   sleep: <ms>   fail: <message>   stop: <stop reason>
 *
 * A prompt that is exactly one JSON object with the only key `fountain/permission_answer` is a resume (parseResume).
 * "Running" an allowed step never executes anything (performStep): `touch <relative path>...` creates empty files
 * inside the cwd, an allowed edit writes the file inside the cwd, everything else is simulated output.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export type Step =
  | { op: 'run'; command: string; wait?: number | null }
  | { op: 'edit'; file: string; newText: string; wait?: number | null }
  | { op: 'fetch'; url: string; wait?: number | null }
  | { op: 'plan'; plan: string }
  | { op: 'ask'; spec: Record<string, unknown> }
  | { op: 'say' | 'think'; text: string }
  | { op: 'sleep'; ms: number }
  | { op: 'fail'; message: string }
  | { op: 'stop'; reason: string };

export const DEFAULT_DETACHED_TIMEOUT_SEC = 172800;

/** Parse the DSL; returns undefined when the prompt has no command at all. */
export function parseScript(text: string, detachByDefault = false): Step[] | undefined {
  const steps: Step[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) {
      continue;
    }
    const m = /^([a-z]+)(?:\(([^)]*)\))?\s*(?::\s?(.*))?$/s.exec(line);
    if (!m) {
      continue;
    }
    const [, op, paren, argRaw] = m;
    const arg = argRaw ?? '';
    const waitOf = (): number | null | undefined => {
      if (paren === undefined) {
        return detachByDefault ? DEFAULT_DETACHED_TIMEOUT_SEC : undefined;
      }
      if (paren === 'none') {
        return null;
      }
      const n = Number(paren);
      return Number.isFinite(n) ? n : DEFAULT_DETACHED_TIMEOUT_SEC;
    };
    switch (op) {
      case 'run':
        steps.push({ op: 'run', command: arg, wait: waitOf() });
        break;
      case 'wait':
        steps.push({ op: 'run', command: arg, wait: paren === undefined ? DEFAULT_DETACHED_TIMEOUT_SEC : waitOf() });
        break;
      case 'edit': {
        const [file, newText] = arg.split(/\s*=>\s*/, 2);
        steps.push({
          op: 'edit',
          file: (file ?? '').trim(),
          newText: newText ?? 'edited by the scripted agent\n',
          wait: waitOf(),
        });
        break;
      }
      case 'fetch':
        steps.push({ op: 'fetch', url: arg, wait: waitOf() });
        break;
      case 'plan':
        steps.push({ op: 'plan', plan: arg || '1. make the change\n2. run the tests' });
        break;
      case 'ask':
        try {
          const spec = JSON.parse(arg) as unknown;
          if (spec && typeof spec === 'object' && !Array.isArray(spec)) {
            steps.push({ op: 'ask', spec: spec as Record<string, unknown> });
          }
        } catch {
          steps.push({ op: 'say', text: 'ask: needs a JSON object' });
        }
        break;
      case 'say':
      case 'think':
        steps.push({ op, text: arg });
        break;
      case 'sleep':
        steps.push({ op: 'sleep', ms: Math.min(Math.max(Number(arg) || 0, 0), 60_000) });
        break;
      case 'fail':
        steps.push({ op: 'fail', message: arg || 'scripted failure' });
        break;
      case 'stop':
        steps.push({ op: 'stop', reason: arg || 'end_turn' });
        break;
      default:
        break;
    }
  }
  return steps.length ? steps : undefined;
}

export interface ResumeAnswer {
  request_id: string;
  tool?: string;
  outcome: string;
  option_id: string | null;
  answered_at?: string;
}

/** The whole prompt is one JSON object whose only key is `fountain/permission_answer`. */
export function parseResume(text: string): ResumeAnswer | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) {
    return undefined;
  }
  try {
    const v = JSON.parse(t) as Record<string, unknown>;
    const keys = Object.keys(v);
    const a = v['fountain/permission_answer'] as ResumeAnswer | undefined;
    if (keys.length === 1 && a && typeof a.request_id === 'string') {
      return a;
    }
  } catch {
    // not JSON
  }
  return undefined;
}

/** A path inside `cwd`, or undefined if it escapes it. */
export function safePath(file: string, cwd: string): string | undefined {
  const p = path.resolve(cwd, file);
  const r = path.relative(cwd, p);
  return r && !r.startsWith('..') && !path.isAbsolute(r) ? p : undefined;
}

/** "Run" an allowed step. Only `touch` of paths inside the cwd and edits inside the cwd have effects. */
export function performStep(step: Step, cwd: string): string {
  if (step.op === 'run') {
    const parts = step.command.trim().split(/\s+/);
    if (parts[0] === 'touch' && parts.length > 1) {
      const made: string[] = [];
      for (const f of parts.slice(1)) {
        const p = safePath(f, cwd);
        if (!p) {
          throw new Error(`touch: ${f}: outside the working directory`);
        }
        mkdirSync(path.dirname(p), { recursive: true });
        appendFileSync(p, '');
        made.push(f);
      }
      return `created ${made.join(' ')}`;
    }
    return `simulated: ${step.command.slice(0, 200)}`;
  }
  if (step.op === 'edit') {
    const p = safePath(step.file, cwd);
    if (!p) {
      throw new Error(`edit: ${step.file}: outside the working directory`);
    }
    mkdirSync(path.dirname(p), { recursive: true });
    writeFileSync(p, step.newText);
    return `wrote ${step.file}`;
  }
  if (step.op === 'plan') {
    return 'User has approved your plan.';
  }
  return 'done';
}
