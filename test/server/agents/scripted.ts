/**
 * Scripted in-process ACP agents. Each one replays the request *shapes* a real runtime sends (taken from the real-acp
 * captures: claude-agent-acp 0.23, gemini-cli 0.61, codex-acp 1.x, qwen-code 0.24, opencode 1.18), driven by a small
 * prompt DSL, one command per line:
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
 * Any other prompt is answered with a short text. A prompt that is exactly one JSON object with the only key
 * `fountain/permission_answer` is a resume: the agent looks up what it asked (by the JSON-RPC id in front of the dot
 * of request_id, kept in `<cwd>/.fountain-agent-waits.json`) and runs it if the chosen option is an allow.
 *
 * "Running" never executes anything: `touch <relative path>...` creates empty files inside the cwd (so tests can
 * check the effect), an allowed edit writes the file inside the cwd, everything else is simulated output.
 * Every prompt received is appended to `<cwd>/.fountain-agent-prompts.jsonl`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { NdJsonPeer, RpcFailure, type JsonRpcId } from './ndjson';
import type { AgentDefinition, AgentLaunchContext, AgentProcess, AgentRuntime } from './types';

export interface Option {
  optionId: string;
  name: string;
  kind: string;
  [extra: string]: unknown;
}

export type ToolCall = Record<string, unknown> & { toolCallId: string };

interface Ask {
  toolCall: ToolCall;
  options: Option[];
  /** session/update notifications sent before the request (e.g. claude's pending `tool_call`). */
  before?: Record<string, unknown>[];
  meta?: Record<string, unknown>;
}

interface Style {
  id: string;
  name: string;
  runtime: AgentRuntime;
  description: string;
  /** JSON-RPC ids: numbers from 0 (most runtimes) or UUID strings (codex). */
  ids: 'number' | 'uuid';
  /** Every `run:` behaves as `wait:` (the detached-capable agent). */
  detachByDefault?: boolean;
  execute(command: string, cwd: string): Ask;
  edit(file: string, oldText: string | null, newText: string, cwd: string): Ask;
  fetch(url: string): Ask;
}

const hex = (n: number) => randomBytes(n).toString('hex');

export const CLAUDE_OPTIONS: Option[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
export const CLAUDE_PLAN_OPTIONS: Option[] = [
  { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'allow_always' },
  { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' },
  { optionId: 'plan', name: 'No, keep planning', kind: 'reject_once' },
];
export const GEMINI_OPTIONS: Option[] = [
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];
const codexOptions = (command: string): Option[] => [
  {
    optionId: 'allow_once',
    name: 'Allow Once',
    kind: 'allow_once',
    _meta: { codex: { decision: 'accept' }, permission: { version: 1, changes: [] } },
  },
  {
    optionId: 'allow_always',
    name: 'Allow for Session',
    kind: 'allow_always',
    _meta: { codex: { decision: 'acceptForSession' }, permission: { version: 1, changes: [{ command }] } },
  },
  {
    optionId: 'reject_once',
    name: 'Reject',
    kind: 'reject_once',
    _meta: { codex: { decision: 'decline' }, permission: { version: 1, changes: [] } },
  },
];
const qwenOptions = (command: string): Option[] => {
  const prefix = command.split(/\s+/)[0] ?? command;
  return [
    { optionId: 'proceed_always_project', name: `Always Allow in project: ${prefix} *`, kind: 'allow_always' },
    { optionId: 'proceed_always_user', name: `Always Allow for user: ${prefix} *`, kind: 'allow_always' },
    { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
    { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
  ];
};
export const OPENCODE_OPTIONS: Option[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
export const WAITER_OPTIONS: Option[] = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

const rel = (file: string, cwd: string) => (path.isAbsolute(file) ? path.relative(cwd, file) || file : file);
const abs = (file: string, cwd: string) => (path.isAbsolute(file) ? file : path.join(cwd, file));

const claudeExecute = (command: string): Ask => {
  const toolCallId = `toolu_${hex(12)}`;
  const description = 'Run a shell command';
  return {
    before: [
      {
        sessionUpdate: 'tool_call',
        toolCallId,
        rawInput: {},
        status: 'pending',
        title: 'Terminal',
        kind: 'execute',
        content: [],
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId,
        rawInput: { command, description },
        title: command,
        kind: 'execute',
      },
    ],
    toolCall: {
      toolCallId,
      title: command,
      kind: 'execute',
      rawInput: { command, description },
      content: [{ type: 'content', content: { type: 'text', text: description } }],
    },
    options: CLAUDE_OPTIONS,
  };
};
const claudeEdit = (file: string, oldText: string | null, newText: string, cwd: string): Ask => {
  const toolCallId = `toolu_${hex(12)}`;
  const p = abs(file, cwd);
  return {
    before: [
      {
        sessionUpdate: 'tool_call',
        toolCallId,
        rawInput: {},
        status: 'pending',
        title: 'Edit',
        kind: 'edit',
        content: [],
        locations: [],
      },
    ],
    toolCall: {
      toolCallId,
      title: `${oldText === null ? 'Write' : 'Edit'} ${rel(file, cwd)}`,
      kind: 'edit',
      rawInput: { file_path: p, old_string: oldText ?? '', new_string: newText, replace_all: false },
      content: [{ type: 'diff', path: p, oldText, newText }],
      locations: [{ path: p }],
    },
    options: CLAUDE_OPTIONS,
  };
};
const claudeFetch = (url: string): Ask => ({
  toolCall: {
    toolCallId: `toolu_${hex(12)}`,
    title: `Fetch ${url}`,
    kind: 'fetch',
    rawInput: { url, prompt: 'Summarise the page' },
    content: [{ type: 'content', content: { type: 'text', text: 'Summarise the page' } }],
  },
  options: CLAUDE_OPTIONS,
});

const STYLES: Style[] = [
  {
    id: 'claude',
    name: 'Claude Code',
    runtime: 'claude',
    description: 'claude-agent-acp 0.23 shapes: title = the command, allow_always/allow/reject, rawInput + content',
    ids: 'number',
    execute: claudeExecute,
    edit: claudeEdit,
    fetch: claudeFetch,
  },
  {
    id: 'gemini',
    name: 'Gemini CLI',
    runtime: 'gemini',
    description: 'gemini-cli 0.61 shapes: proceed_always/proceed_once/cancel, no rawInput',
    ids: 'number',
    execute: (command, cwd) => ({
      toolCall: {
        toolCallId: `run_shell_command__call_${hex(16)}`,
        status: 'pending',
        title: command,
        content: [
          { type: 'content', content: { type: 'text', text: `[current working directory ${cwd}] (Run a command)` } },
        ],
        locations: [],
        kind: 'execute',
      },
      options: GEMINI_OPTIONS,
    }),
    edit: (file, oldText, newText, cwd) => {
      const p = abs(file, cwd);
      return {
        toolCall: {
          toolCallId: `replace__call_${hex(16)}`,
          status: 'pending',
          title:
            oldText === null
              ? `Writing to ${rel(file, cwd)}`
              : `${rel(file, cwd)}: ${oldText.slice(0, 30)} => ${newText.slice(0, 30)}`,
          content: [{ type: 'diff', path: p, oldText, newText, _meta: { kind: oldText === null ? 'add' : 'modify' } }],
          locations: [{ path: p }],
          kind: 'edit',
        },
        options: GEMINI_OPTIONS,
      };
    },
    fetch: (url) => ({
      toolCall: {
        toolCallId: `web_fetch__call_${hex(16)}`,
        status: 'pending',
        title: `Processing URLs and instructions from prompt: "${url}"`,
        content: [{ type: 'content', content: { type: 'text', text: `Fetch ${url}` } }],
        locations: [],
        kind: 'fetch',
      },
      options: GEMINI_OPTIONS,
    }),
  },
  {
    id: 'codex',
    name: 'Codex',
    runtime: 'codex',
    description: 'codex-acp 1.x shapes: no title, rawInput {command, cwd}, UUID JSON-RPC ids, options with _meta',
    ids: 'uuid',
    execute: (command, cwd) => ({
      toolCall: { toolCallId: `call_${hex(12)}`, kind: 'execute', status: 'pending', rawInput: { command, cwd } },
      options: codexOptions(command),
      meta: { codex: { params: { command, cwd } } },
    }),
    edit: (file, oldText, newText, cwd) => ({
      toolCall: {
        toolCallId: `call_${hex(12)}`,
        kind: 'edit',
        status: 'pending',
        content: [{ type: 'diff', path: abs(file, cwd), oldText, newText }],
        locations: [{ path: abs(file, cwd) }],
      },
      options: codexOptions(`apply_patch ${file}`),
    }),
    fetch: (url) => ({
      toolCall: {
        toolCallId: `call_${hex(12)}`,
        kind: 'execute',
        status: 'pending',
        rawInput: { command: `curl -sS ${url}`, cwd: '.' },
      },
      options: codexOptions(`curl -sS ${url}`),
    }),
  },
  {
    id: 'qwen',
    name: 'Qwen Code',
    runtime: 'acp',
    description: 'qwen-code 0.24 shapes: four options (two allow_always), title "<command> (<description>)"',
    ids: 'number',
    execute: (command) => {
      const toolCallId = `run_shell_command-${Date.now()}-${hex(4)}`;
      return {
        before: [
          {
            sessionUpdate: 'tool_call',
            toolCallId,
            status: 'pending',
            title: 'Shell',
            kind: 'execute',
            content: [],
            locations: [],
          },
        ],
        toolCall: {
          _meta: { toolName: 'run_shell_command' },
          toolCallId,
          status: 'pending',
          title: `${command} (Run a command)`,
          kind: 'execute',
          locations: [],
          content: [],
          rawInput: { command, description: 'Run a command' },
        },
        options: qwenOptions(command),
      };
    },
    edit: (file, oldText, newText, cwd) => ({
      toolCall: {
        _meta: { toolName: 'edit' },
        toolCallId: `edit-${Date.now()}-${hex(4)}`,
        status: 'pending',
        title: rel(file, cwd),
        kind: 'edit',
        locations: [{ path: abs(file, cwd) }],
        content: [{ type: 'diff', path: abs(file, cwd), oldText, newText }],
        rawInput: { file_path: abs(file, cwd), old_string: oldText ?? '', new_string: newText },
      },
      options: [
        { optionId: 'proceed_always', name: 'Allow All Edits', kind: 'allow_always' },
        { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
        { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
      ],
    }),
    fetch: (url) => ({
      toolCall: { toolCallId: `web_fetch-${hex(6)}`, status: 'pending', title: url, kind: 'fetch', rawInput: { url } },
      options: qwenOptions('web_fetch'),
    }),
  },
  {
    id: 'opencode',
    name: 'opencode',
    runtime: 'opencode',
    description: 'opencode 1.18 shapes: once/always/reject (Fountain cannot enforce a policy stricter than auto_allow)',
    ids: 'number',
    execute: (command) => ({
      toolCall: {
        toolCallId: `call_${hex(12)}`,
        status: 'pending',
        title: command,
        kind: 'execute',
        locations: [],
        rawInput: { command },
      },
      options: OPENCODE_OPTIONS,
    }),
    edit: (file, oldText, newText, cwd) => ({
      toolCall: {
        toolCallId: `call_${hex(12)}`,
        status: 'pending',
        title: abs(file, cwd),
        kind: 'edit',
        locations: [{ path: abs(file, cwd) }],
        rawInput: { filepath: abs(file, cwd), diff: `-${oldText ?? ''}\n+${newText}` },
        content: [{ type: 'diff', path: abs(file, cwd), oldText, newText }],
      },
      options: OPENCODE_OPTIONS,
    }),
    fetch: (url) => ({
      toolCall: {
        toolCallId: `call_${hex(12)}`,
        status: 'pending',
        title: url,
        kind: 'fetch',
        locations: [],
        rawInput: { url, format: 'markdown' },
      },
      options: OPENCODE_OPTIONS,
    }),
  },
  {
    id: 'waiter',
    name: 'Background worker',
    runtime: 'acp',
    description: 'a detached-capable agent: every run: ends the turn "waiting" with _meta.fountain.timeout',
    ids: 'number',
    detachByDefault: true,
    execute: (command) => {
      const a = claudeExecute(command);
      return { ...a, options: WAITER_OPTIONS };
    },
    edit: (file, oldText, newText, cwd) => ({ ...claudeEdit(file, oldText, newText, cwd), options: WAITER_OPTIONS }),
    fetch: (url) => ({ ...claudeFetch(url), options: WAITER_OPTIONS }),
  },
];

/** Agent-level policies the scripted agents ship with: they ask for everything, so every request reaches a human. */
const DEFAULT_POLICY: Record<string, unknown> = { default: 'ask' };

export function scriptedAgents(): AgentDefinition[] {
  return STYLES.map((s) => ({
    id: s.id,
    name: s.name,
    runtime: s.runtime,
    description: s.description,
    policy:
      s.runtime === 'opencode'
        ? {}
        : s.detachByDefault
          ? { default: 'ask', ask_timeout: 259200 }
          : { ...DEFAULT_POLICY },
    launch: (ctx) => launchScripted(s, ctx),
  }));
}

// ---------------------------------------------------------------------------------------------------------------

type Step =
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

interface WaitRecord {
  step: Step;
  options: Option[];
  toolCallId: string;
}

class ScriptedAgent {
  private readonly peer: NdJsonPeer;
  private nextId = 0;
  private sessionId = '';
  private cancelled = false;
  private readonly waitsFile: string;
  private readonly promptsFile: string;

  constructor(
    private readonly style: Style,
    private readonly ctx: AgentLaunchContext,
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
  ) {
    this.waitsFile = path.join(ctx.cwd, '.fountain-agent-waits.json');
    this.promptsFile = path.join(ctx.cwd, '.fountain-agent-prompts.jsonl');
    // Keep numbering past ids still remembered as detached waits, so a relaunched agent never reuses one.
    for (const k of Object.keys(this.loadWaits())) {
      const n = Number(k);
      if (Number.isInteger(n) && n >= this.nextId) {
        this.nextId = n + 1;
      }
    }
    this.peer = new NdJsonPeer(input, output, {
      request: (method, params) => this.onRequest(method, params),
      notification: (method) => {
        if (method === 'session/cancel') {
          this.cancelled = true;
        }
      },
    });
  }

  close(): void {
    this.peer.close();
  }

  private mintId(): JsonRpcId {
    return this.style.ids === 'uuid' ? randomUUID() : this.nextId++;
  }

  private async onRequest(method: string, params: unknown): Promise<unknown> {
    const p = (params ?? {}) as Record<string, unknown>;
    switch (method) {
      case 'initialize':
        return {
          protocolVersion: 1,
          agentCapabilities: { loadSession: false, promptCapabilities: { image: false, embeddedContext: true } },
          agentInfo: { name: `scripted-${this.style.id}`, title: this.style.name, version: '1.0.0' },
          authMethods: [],
        };
      case 'session/new':
        this.sessionId = `sess_${hex(8)}`;
        return { sessionId: this.sessionId };
      case 'session/prompt':
        return this.prompt(p);
      default:
        throw new RpcFailure(-32601, `Method not found: ${method}`);
    }
  }

  private update(update: Record<string, unknown>): void {
    this.peer.notify('session/update', { sessionId: this.sessionId, update });
  }

  private say(text: string): void {
    this.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  private async prompt(p: Record<string, unknown>): Promise<unknown> {
    this.cancelled = false;
    const blocks = Array.isArray(p.prompt) ? (p.prompt as Record<string, unknown>[]) : [];
    const text = blocks
      .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n');
    try {
      appendFileSync(this.promptsFile, JSON.stringify({ text }) + '\n');
    } catch {
      // the cwd may be gone after dispose
    }
    const resume = parseResume(text);
    if (resume) {
      return this.resume(resume);
    }
    const steps = parseScript(text, this.style.detachByDefault);
    if (!steps) {
      this.say(`Received: ${text.slice(0, 80)}`);
      return { stopReason: 'end_turn' };
    }
    for (const step of steps) {
      if (this.cancelled) {
        return { stopReason: 'cancelled' };
      }
      switch (step.op) {
        case 'say':
          this.say(step.text);
          break;
        case 'think':
          this.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: step.text } });
          break;
        case 'sleep':
          await new Promise((r) => setTimeout(r, step.ms));
          break;
        case 'fail':
          throw new RpcFailure(-32603, step.message);
        case 'stop':
          return { stopReason: step.reason };
        default: {
          const ask = this.askFor(step);
          const wait = this.waitOf(step);
          const r = await this.ask(step, ask, wait);
          if (r === 'waiting') {
            return { stopReason: 'waiting' };
          }
          if (r === 'cancelled' && this.cancelled) {
            return { stopReason: 'cancelled' };
          }
        }
      }
    }
    return { stopReason: 'end_turn' };
  }

  private waitOf(step: Step): number | null | undefined {
    if (step.op === 'run' || step.op === 'edit' || step.op === 'fetch') {
      return step.wait;
    }
    if (step.op === 'ask') {
      const w = step.spec.wait;
      return w === true ? DEFAULT_DETACHED_TIMEOUT_SEC : typeof w === 'number' ? w : w === null ? null : undefined;
    }
    return undefined;
  }

  private askFor(step: Step): Ask {
    const cwd = this.ctx.cwd;
    switch (step.op) {
      case 'run':
        return this.style.execute(step.command, cwd);
      case 'edit': {
        let old: string | null = null;
        const p = safePath(step.file, cwd);
        if (p && existsSync(p)) {
          old = readFileSync(p, 'utf8');
        }
        return this.style.edit(step.file, old, step.newText, cwd);
      }
      case 'fetch':
        return this.style.fetch(step.url);
      case 'plan':
        return {
          before: [],
          toolCall: {
            toolCallId: `toolu_${hex(12)}`,
            title: 'Ready to code?',
            kind: 'switch_mode',
            rawInput: { plan: step.plan },
            content: [{ type: 'content', content: { type: 'text', text: step.plan } }],
          },
          options: CLAUDE_PLAN_OPTIONS,
        };
      case 'ask': {
        const spec = step.spec;
        const tc = (spec.toolCall && typeof spec.toolCall === 'object' ? spec.toolCall : {}) as Record<string, unknown>;
        const raw = (tc.rawInput ?? {}) as Record<string, unknown>;
        const base = this.style.execute(typeof raw.command === 'string' ? raw.command : 'true', cwd);
        const toolCall = { ...base.toolCall, ...tc } as ToolCall;
        for (const [k, v] of Object.entries(tc)) {
          if (v === null) {
            delete toolCall[k]; // `"title": null` removes the field (e.g. a codex-like request with no title)
          }
        }
        return {
          toolCall,
          options: Array.isArray(spec.options) ? (spec.options as Option[]) : base.options,
          meta: spec.meta && typeof spec.meta === 'object' ? (spec.meta as Record<string, unknown>) : base.meta,
        };
      }
      default:
        throw new Error('not an ask step');
    }
  }

  /** Send one session/request_permission. Returns how it ended for the script. */
  private async ask(
    step: Step,
    a: Ask,
    wait: number | null | undefined,
  ): Promise<'ran' | 'refused' | 'cancelled' | 'waiting'> {
    for (const u of a.before ?? []) {
      this.update(u);
    }
    const meta: Record<string, unknown> = { ...(a.meta ?? {}) };
    if (typeof wait === 'number') {
      meta.fountain = { ...(meta.fountain ?? {}), timeout: wait };
    }
    const params: Record<string, unknown> = { sessionId: this.sessionId, toolCall: a.toolCall, options: a.options };
    if (Object.keys(meta).length) {
      params._meta = meta;
    }
    const id = this.mintId();
    const reply = this.peer.request('session/request_permission', params, id);
    if (wait !== undefined) {
      // Detached: remember what was asked (in the cwd, which outlives this process), stop waiting for the reply.
      reply.catch(() => undefined);
      this.saveWait(String(id), { step, options: a.options, toolCallId: a.toolCall.toolCallId });
      this.say('Waiting for a human to answer; ending the turn.');
      return 'waiting';
    }
    let outcome: Record<string, unknown> | undefined;
    try {
      const r = (await reply) as Record<string, unknown> | null;
      outcome = (r?.outcome ?? undefined) as Record<string, unknown> | undefined;
    } catch (err) {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: a.toolCall.toolCallId, status: 'failed' });
      this.say(`Tool permission request failed: ${(err as Error).message}`);
      return 'refused';
    }
    if (!outcome || outcome.outcome === 'cancelled') {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: a.toolCall.toolCallId, status: 'failed' });
      return 'cancelled';
    }
    const chosen = a.options.find((o) => o.optionId === outcome.optionId);
    if (!chosen || !String(chosen.kind).startsWith('allow')) {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: a.toolCall.toolCallId, status: 'failed' });
      this.say('User refused permission to run tool');
      return 'refused';
    }
    this.perform(step, a.toolCall.toolCallId);
    return 'ran';
  }

  private perform(step: Step, toolCallId: string): void {
    let out: string;
    try {
      out = performStep(step, this.ctx.cwd);
      this.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', rawOutput: out });
    } catch (err) {
      out = (err as Error).message;
      this.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', rawOutput: out });
    }
    this.say(`Done: ${out}`);
  }

  private async resume(answer: ResumeAnswer): Promise<unknown> {
    const jsonrpcId = answer.request_id.slice(0, Math.max(0, answer.request_id.lastIndexOf('.')));
    const waits = this.loadWaits();
    const rec = waits[jsonrpcId];
    if (!rec) {
      this.say(`Permission answer for an unknown request ${answer.request_id}; nothing to do.`);
      return { stopReason: 'end_turn' };
    }
    delete waits[jsonrpcId];
    this.storeWaits(waits);
    const chosen = rec.options.find((o) => o.optionId === answer.option_id);
    if (answer.outcome === 'answered' && chosen && String(chosen.kind).startsWith('allow')) {
      this.perform(rec.step, rec.toolCallId);
    } else {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: rec.toolCallId, status: 'failed' });
      this.say(`Not running it (${answer.outcome}, ${String(answer.option_id)}).`);
    }
    return { stopReason: 'end_turn' };
  }

  private loadWaits(): Record<string, WaitRecord> {
    try {
      return JSON.parse(readFileSync(this.waitsFile, 'utf8')) as Record<string, WaitRecord>;
    } catch {
      return {};
    }
  }

  private storeWaits(w: Record<string, WaitRecord>): void {
    writeFileSync(this.waitsFile, JSON.stringify(w));
  }

  private saveWait(id: string, rec: WaitRecord): void {
    const w = this.loadWaits();
    w[id] = rec;
    this.storeWaits(w);
  }
}

interface ResumeAnswer {
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
function safePath(file: string, cwd: string): string | undefined {
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

async function launchScripted(style: Style, ctx: AgentLaunchContext): Promise<AgentProcess> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const fromAgent = new TransformStream<Uint8Array, Uint8Array>();
  const agent = new ScriptedAgent(style, ctx, toAgent.readable, fromAgent.writable);
  let disposed = false;
  return {
    input: toAgent.writable,
    output: fromAgent.readable,
    dispose: async () => {
      if (disposed) {
        return;
      }
      disposed = true;
      agent.close();
    },
  };
}
