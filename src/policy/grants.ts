/**
 * Session grants: what the user chose, beside the runtime's options, to stop being asked for the rest of a
 * session. `exact`: this exact request again; `verb`: every command of this program (`git *`) except its
 * options and subcommands that run programs, name hooks or write files (its specification's hazards); `tool`:
 * every call of this kind (for execute: what a verb grant for each command's program would cover); `path`: one
 * folder outside the scope (a real, resolved path) for reading or writing, as an allowPaths entry `<dir>/...` would,
 * and nothing past it (segment-wise: a grant for `/a/b` does not cover `/a/bc`). None lifts the denylist, plan mode,
 * a deny pattern, a protected file or a command the gate cannot read; interpreters, package runners, shells and
 * wrappers get no verb grant (only exact ones).
 */
import { EXACT_ONLY, verbCovers } from './commandRules';
import { denylistMatch } from './denylist';
import { normaliseLine } from './normalise';
import { grants, isInside, normalisePath, type Access, type AccessNeeded } from './scope';
import { hasSubstitution, parseCommand, type CommandPart } from './shell';

export type Grant =
  | { scope: 'exact'; kind: string; key: string }
  | { scope: 'verb'; verb: string }
  | { scope: 'tool'; kind: string }
  | { scope: 'path'; dir: string; access: Access };

/** Whether a path grant covers `path` (absolute, links resolved) for `needed`: inside its folder, segment-wise. */
export function pathGrantCovers(grant: Grant, path: string, needed: AccessNeeded): boolean {
  return grant.scope === 'path' && isInside(path, grant.dir) && grants(grant.access, needed);
}

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
  if (!/^[A-Za-z0-9][A-Za-z0-9._+-]*$/.test(verb) || !raw.startsWith(verb) || EXACT_ONLY.has(verb)) {
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

/** Whether a grant covers one simple command of an execute request (normalised; see commandRules.ts). */
export function grantCoversPart(grant: Grant, part: CommandPart): boolean {
  const line = normaliseLine(
    part.words.map((w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(' '),
  );
  if (line.unreadable.length > 0 || line.commands.length !== 1) {
    return false;
  }
  const cmd = line.commands[0];
  switch (grant.scope) {
    case 'path':
      return false; // a path grant widens the scope (gateSteps.ts); it covers no command
    case 'verb':
      return verbCovers(grant.verb, cmd);
    case 'tool':
      return grant.kind === 'execute' && verbCovers(cmd.argv[0], cmd);
    case 'exact':
      return grant.kind === 'execute' && grant.key === part.text;
  }
}

/** Whether a grant covers a whole non-execute request (paths, a fetch, a title). */
export function grantCoversRequest(grant: Grant, req: KeyedRequest): boolean {
  const kind = req.kind ?? 'other';
  switch (grant.scope) {
    case 'verb':
    case 'path':
      return false;
    case 'tool':
      return grant.kind === kind;
    case 'exact':
      return grant.kind === kind && grant.key === requestKey(req);
  }
}

/** A grant's identity: two grants with the same identity are the same grant. */
export function grantIdentity(g: Grant): string {
  switch (g.scope) {
    case 'exact':
      return `exact\0${g.kind}\0${g.key}`;
    case 'verb':
      return `verb\0${g.verb}`;
    case 'tool':
      return `tool\0${g.kind}`;
    case 'path':
      return `path\0${g.access}\0${g.dir}`;
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
    case 'path':
      // Only a normal absolute folder other than `/`, with an access allowPaths knows.
      return (
        typeof g.dir === 'string' &&
        normalisePath(g.dir) === g.dir &&
        g.dir !== '/' &&
        (g.access === 'r' || g.access === 'w' || g.access === 'rw')
      );
    default:
      return false;
  }
}
