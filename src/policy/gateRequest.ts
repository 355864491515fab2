/**
 * A gate request read from an ACP tool call (the fields of `session/request_permission` merged over the earlier
 * `tool_call`). Everything in it is the agent's and untrusted: only strings are taken, nothing is followed.
 * - command (any kind): `rawInput.command` as a string, or an argv array shell-quoted back into one line (so
 *   `["bash", "-lc", "rm -rf ~"]` is still read, and denied, as `bash -lc 'rm -rf ~'`); for execute, else the title;
 * - cwd: `rawInput.cwd` (absolute, or relative to the session's) else the session's working directory;
 * - paths (file kinds only): `locations[].path`, `content[]` diffs' `path`, and `rawInput` `file_path`, `path`,
 *   `notebook_path`, `source`/`destination`; relative ones resolved against `cwd` when given. `edit`, `delete`
 *   and `move` need write access, `read` and `search` read access;
 * - url (fetch): `rawInput.url`.
 */
import type { GateRequest } from './gate';
import { KEYWORDS } from './shellSyntax';

export interface ToolCallLike {
  readonly title?: unknown;
  readonly kind?: unknown;
  readonly content?: unknown;
  readonly locations?: unknown;
  readonly rawInput?: unknown;
}

const WRITE_KINDS = new Set(['edit', 'delete', 'move']);
const READ_KINDS = new Set(['read', 'search']);
const PATH_KEYS = ['file_path', 'path', 'notebook_path', 'source', 'destination', 'abs_path'];

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function field(obj: unknown, key: string): unknown {
  return typeof obj === 'object' && obj !== null && Object.hasOwn(obj, key)
    ? (obj as Record<string, unknown>)[key]
    : undefined;
}

/**
 * One argv word quoted for a POSIX shell, unless it needs no quoting. A reserved word (`fi`, `done`, `time`…) is
 * quoted too: unquoted in first place, bash reads it as syntax, not as the program the argv names.
 */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) && !KEYWORDS.has(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function commandOf(rawInput: unknown): string | undefined {
  const c = field(rawInput, 'command');
  if (typeof c === 'string') {
    return str(c);
  }
  if (Array.isArray(c) && c.length > 0 && c.every((w) => typeof w === 'string')) {
    return c.map(shellQuote).join(' ');
  }
  return undefined;
}

function absolute(path: string, cwd: string | undefined): string {
  if (path.startsWith('/') || cwd === undefined || !cwd.startsWith('/')) {
    return path;
  }
  return `${cwd.replace(/\/+$/, '')}/${path}`;
}

/** The gate's view of a tool call. `cwd`: the session's working directory, for relative paths. */
export function gateRequestFrom(toolCall: ToolCallLike, cwd?: string): GateRequest {
  const kind = str(toolCall?.kind);
  const title = str(toolCall?.title);
  const raw = toolCall?.rawInput;
  const req: GateRequest = {};
  if (kind !== undefined) {
    req.kind = kind;
  }
  if (title !== undefined) {
    req.title = title;
  }
  // A command is checked whatever the kind says: a `read` or `other` call that carries one runs it.
  const command = commandOf(raw) ?? (kind === 'execute' ? title : undefined);
  if (command !== undefined) {
    req.command = command;
  }
  const ownCwd = str(field(raw, 'cwd'));
  const where = ownCwd !== undefined ? absolute(ownCwd, cwd) : cwd;
  if (where !== undefined && where.startsWith('/')) {
    req.cwd = where;
  }
  const url = str(field(raw, 'url'));
  if (kind === 'fetch' && url !== undefined) {
    req.url = url;
  }
  if (kind !== undefined && (WRITE_KINDS.has(kind) || READ_KINDS.has(kind))) {
    const access = WRITE_KINDS.has(kind) ? 'write' : 'read';
    const found: string[] = [];
    const add = (p: unknown) => {
      const s = str(p);
      if (s !== undefined && !found.includes(absolute(s, cwd))) {
        found.push(absolute(s, cwd));
      }
    };
    for (const loc of Array.isArray(toolCall.locations) ? (toolCall.locations as unknown[]) : []) {
      add(field(loc, 'path'));
    }
    for (const item of Array.isArray(toolCall.content) ? (toolCall.content as unknown[]) : []) {
      if (field(item, 'type') === 'diff') {
        add(field(item, 'path'));
      }
    }
    for (const key of PATH_KEYS) {
      add(field(raw, key));
    }
    if (found.length > 0) {
      req.paths = found.map((path) => ({ path, access }));
    }
  }
  return req;
}
