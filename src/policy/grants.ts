/**
 * Session grants: what the user chose, beside the runtime's options, to stop being asked for the rest of a
 * session. `exact`: this exact request again; `verb`: every command starting with this verb (`git *`); `tool`:
 * every call of this kind. None lifts the denylist, and none allows a command with a substitution.
 */
import { denylistMatch } from './denylist';
import { SHELLS } from './shellWords';
import { normalisePath } from './scope';
import { hasSubstitution, parseCommand, type CommandPart } from './shell';

export type Grant =
  { scope: 'exact'; kind: string; key: string } | { scope: 'verb'; verb: string } | { scope: 'tool'; kind: string };

/** The request fields a grant's key is made from. */
export interface KeyedRequest {
  kind?: string;
  title?: string;
  command?: string;
  paths?: readonly { path: string; access: 'read' | 'write' }[];
  url?: string;
}

/**
 * The key an exact grant stores for a request, and compares with: the command (trimmed), else the
 * paths (normalised, with their access, one per line), else the URL, else the title.
 */
export function requestKey(req: KeyedRequest): string {
  if (typeof req.command === 'string' && req.command.trim() !== '') {
    return req.command.trim();
  }
  if (req.paths !== undefined && req.paths !== null && req.paths.length > 0) {
    return req.paths.map((p) => `${p.access} ${normalisePath(p.path) ?? p.path}`).join('\n');
  }
  if (typeof req.url === 'string' && req.url !== '') {
    return req.url;
  }
  return typeof req.title === 'string' ? req.title : '';
}

/**
 * Verbs that only run another command or a program given as text: a verb grant for one of them would be a grant
 * for everything, so none is offered.
 */
const NO_VERB_GRANT = new Set([
  ...SHELLS,
  'sudo',
  'doas',
  'su',
  'env',
  'exec',
  'eval',
  'command',
  'builtin',
  'source',
  '.',
  'nohup',
  'nice',
  'ionice',
  'time',
  'timeout',
  'xargs',
  'watch',
  'strace',
  'chroot',
  'setsid',
  'stdbuf',
  'busybox',
  'rm',
  'dd',
]);

/**
 * The verb a `verb` grant would cover, only when it can be read safely: one simple command (no `;`, `&&`, `|`,
 * newline), no substitution, nothing the lexer was unsure of, not on the denylist, and a first word that is a
 * plain name (not a path, not an assignment, not quoted or escaped) and not a wrapper or shell such as `sudo`,
 * `env` or `bash`. Undefined otherwise, and then the product does not offer the grant.
 */
export function extractVerb(command: string): string | undefined {
  if (typeof command !== 'string') {
    return undefined;
  }
  const parsed = parseCommand(command);
  if (parsed.parts.length !== 1 || parsed.problems.length > 0 || hasSubstitution(parsed)) {
    return undefined;
  }
  const verb = parsed.parts[0].words[0] ?? '';
  const raw = command.trimStart();
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(verb) || !raw.startsWith(verb) || NO_VERB_GRANT.has(verb)) {
    return undefined;
  }
  if (!/^(?:\s|$)/.test(raw.slice(verb.length)) || denylistMatch(command)) {
    return undefined;
  }
  return verb;
}

/** The grant shown for a verb grant, as a pattern: `git *`. */
export function verbGrantLabel(verb: string): string {
  return `${verb} *`;
}

/** Whether a grant covers one simple command of an execute request. */
export function grantCoversPart(grant: Grant, part: CommandPart): boolean {
  switch (grant.scope) {
    case 'verb':
      return part.words[0] === grant.verb && part.words.length >= 1;
    case 'tool':
      return grant.kind === 'execute';
    case 'exact':
      return grant.kind === 'execute' && grant.key === part.text;
  }
}

/** Whether a grant covers a whole non-execute request (paths, a fetch, a title). */
export function grantCoversRequest(grant: Grant, req: KeyedRequest): boolean {
  const kind = req.kind ?? 'other';
  switch (grant.scope) {
    case 'verb':
      return false;
    case 'tool':
      return grant.kind === kind;
    case 'exact':
      return grant.kind === kind && grant.key === requestKey(req);
  }
}

/** Whether a value is a well-formed grant (the session's list comes from our own storage, but is checked anyway). */
export function isGrant(v: unknown): v is Grant {
  if (typeof v !== 'object' || v === null) {
    return false;
  }
  const g = v as Record<string, unknown>;
  switch (g.scope) {
    case 'exact':
      return typeof g.kind === 'string' && typeof g.key === 'string';
    case 'verb':
      return typeof g.verb === 'string' && g.verb !== '';
    case 'tool':
      return typeof g.kind === 'string' && g.kind !== '';
    default:
      return false;
  }
}
