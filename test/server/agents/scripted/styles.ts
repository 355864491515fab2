/**
 * Per-runtime request shapes of the scripted agents, taken from the real-acp captures: claude-agent-acp 0.23,
 * gemini-cli 0.61, codex-acp 1.x, qwen-code 0.24, opencode 1.18, plus `waiter` (a detached-capable agent).
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import type { AgentRuntime } from '../types';

export interface Option {
  optionId: string;
  name: string;
  kind: string;
  [extra: string]: unknown;
}

export type ToolCall = Record<string, unknown> & { toolCallId: string };

export interface Ask {
  toolCall: ToolCall;
  options: Option[];
  /** session/update notifications sent before the request (e.g. claude's pending `tool_call`). */
  before?: Record<string, unknown>[];
  meta?: Record<string, unknown>;
}

export interface Style {
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

export const hex = (n: number) => randomBytes(n).toString('hex');

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

export const STYLES: Style[] = [
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
