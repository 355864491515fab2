/**
 * The sandboxes behind conversations, as the sandbox read routes see them (Fountain's `sandbox_files_controller`,
 * ADR 0063): the files are the conversation's real working directory; the rest is a knob tests set through
 * `/_control/sandboxes/{id}`: whether the sandbox is ready, unavailable (503 + Retry-After) or parked (answered from
 * its snapshot, `snapshot_at`), whether it is a git repository, its branch, and what the agent has changed so far
 * (git-status entries, each with its unified diff).
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ConversationRec } from './store';

export type SandboxState = 'ready' | 'not_ready' | 'unavailable' | 'parked';

export interface SandboxChange {
  path: string;
  /** git's short status: `M`, `A`, `D`, `R`, `??`, … */
  status: string;
  staged: boolean;
  orig_path?: string;
  /** The unified diff `/diff` answers for this path. */
  diff: string;
}

export interface SandboxKnob {
  state: SandboxState;
  /** Seconds, for `unavailable`. */
  retryAfter: number;
  /** ISO time of the snapshot a parked sandbox answers from. */
  snapshotAt: string;
  repository: boolean;
  branch: string;
  changes: SandboxChange[];
}

const STATES: readonly SandboxState[] = ['ready', 'not_ready', 'unavailable', 'parked'];

const fresh = (): SandboxKnob => ({
  state: 'ready',
  retryAfter: 5,
  snapshotAt: new Date(0).toISOString(),
  repository: true,
  branch: 'main',
  changes: [],
});

/** The knob of every sandbox, by sandbox id (a sandbox never set is ready, a clean repository on `main`). */
export class SandboxKnobs {
  private readonly knobs = new Map<string, SandboxKnob>();

  of(sandboxId: string): SandboxKnob {
    let k = this.knobs.get(sandboxId);
    if (!k) {
      k = fresh();
      this.knobs.set(sandboxId, k);
    }
    return k;
  }

  /**
   * Applies a control body to the conversation's sandbox; the problems found, if any (nothing changes then).
   * `files` writes (text) or deletes (null) files in the working directory, relative to it.
   */
  set(c: ConversationRec, body: Record<string, unknown>): string[] {
    const problems = validate(body);
    for (const rel of Object.keys(isObject(body.files) ? body.files : {})) {
      if (insideSandbox(c.cwd, rel) === undefined) {
        problems.push(`files.${rel} is outside the sandbox`);
      }
    }
    if (problems.length) {
      return problems;
    }
    const k = this.of(c.sandbox_id);
    if (typeof body.state === 'string') {
      k.state = body.state as SandboxState;
    }
    if (typeof body.retry_after === 'number') {
      k.retryAfter = body.retry_after;
    }
    if (typeof body.snapshot_at === 'string') {
      k.snapshotAt = body.snapshot_at;
    }
    if (typeof body.repository === 'boolean') {
      k.repository = body.repository;
    }
    if (typeof body.branch === 'string') {
      k.branch = body.branch;
    }
    if (Array.isArray(body.changes)) {
      k.changes = (body.changes as Record<string, unknown>[]).map((ch) => ({
        path: String(ch.path),
        status: typeof ch.status === 'string' ? ch.status : 'M',
        staged: ch.staged === true,
        ...(typeof ch.orig_path === 'string' ? { orig_path: ch.orig_path } : {}),
        diff: typeof ch.diff === 'string' ? ch.diff : '',
      }));
    }
    const files = (body.files ?? {}) as Record<string, string | null>;
    for (const [rel, text] of Object.entries(files)) {
      const p = insideSandbox(c.cwd, rel)!;
      if (text === null) {
        rmSync(p, { force: true });
      } else {
        mkdirSync(path.dirname(p), { recursive: true });
        writeFileSync(p, text);
      }
    }
    return [];
  }

  view(c: ConversationRec): Record<string, unknown> {
    const k = this.of(c.sandbox_id);
    return {
      sandbox_id: c.sandbox_id,
      conversation_id: c.id,
      root: c.cwd,
      state: k.state,
      retry_after: k.retryAfter,
      snapshot_at: k.snapshotAt,
      repository: k.repository,
      branch: k.branch,
      changes: k.changes,
    };
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function validate(b: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (b.state !== undefined && !STATES.includes(b.state as SandboxState)) {
    out.push(`state must be one of ${STATES.join(', ')}`);
  }
  if (b.retry_after !== undefined && !(typeof b.retry_after === 'number' && b.retry_after >= 0)) {
    out.push('retry_after must be a number of seconds');
  }
  if (b.snapshot_at !== undefined && (typeof b.snapshot_at !== 'string' || isNaN(Date.parse(b.snapshot_at)))) {
    out.push('snapshot_at must be an ISO time');
  }
  if (b.changes !== undefined) {
    const ok =
      Array.isArray(b.changes) &&
      b.changes.every(
        (ch) => typeof ch === 'object' && ch !== null && typeof (ch as { path?: unknown }).path === 'string',
      );
    if (!ok) {
      out.push('changes must be a list of {path, status?, staged?, orig_path?, diff?}');
    }
  }
  if (b.files !== undefined) {
    if (!isObject(b.files)) {
      out.push('files must be an object of relative path → text or null');
    } else {
      for (const [rel, text] of Object.entries(b.files)) {
        if (text !== null && typeof text !== 'string') {
          out.push(`files.${rel} must be text or null`);
        }
      }
    }
  }
  return out;
}

/** The absolute path of `p` (absolute, or relative to the sandbox root) when it is inside the root; else undefined. */
export function insideSandbox(root: string, p: string): string | undefined {
  if (p === '' || p.includes('\0')) {
    return undefined;
  }
  const abs = path.resolve(root, p);
  const rel = path.relative(root, abs);
  return !rel.startsWith('..') && !path.isAbsolute(rel) ? abs : undefined;
}
