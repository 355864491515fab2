/**
 * The one place the dry run (./dryRun.ts) meets the local gate: whether a `fountain.local.allow` pattern (or a
 * `fountain.local.allowPaths` entry) would make the gate allow a request it does not allow now, asked of the gate's own `decide` (src/policy dryRunPattern) with
 * the session's mode, settings and scope, so the dry run is exactly what the gate would allow. Session grants are
 * left out (a kept pattern outlives the session). A history entry keeps only its kind and label; it is read back
 * into the tool call the gate reads (its command, path or URL).
 */
import {
  allowPathProblem,
  checkAllowPattern,
  dryRunAllowPath,
  dryRunPattern,
  type AllowPath,
  gateRequestFrom,
  type GateInput,
  type GateRequest,
  type ToolCallLike,
} from '../policy';
import type { HistoryEntry } from './history';

/** What is known of a waiting request to match a rule against (handed across bundles as plain data). */
export interface MatchSubject {
  readonly kind?: string;
  readonly title?: string;
  readonly command?: string;
  readonly paths?: readonly string[];
  readonly url?: string;
}

/** A gate's input without a request (LocalGate.snapshot()) and its working directory. */
export interface RuleGate {
  readonly snapshot: Omit<GateInput, 'request'>;
  readonly cwd?: string;
}

export type RuleCheck =
  { readonly ok: true; readonly warnings: readonly string[] } | { readonly ok: false; readonly problem: string };

/** An edited pattern read the way the gate reads it (src/policy checkAllowPattern). */
export function checkRule(pattern: string): RuleCheck {
  const c = checkAllowPattern(pattern);
  return c.ok ? { ok: true, warnings: c.warnings } : { ok: false, problem: c.problem };
}

/** The gate's request for a subject, read as the gate reads a tool call. */
export function requestOfSubject(s: MatchSubject, cwd?: string): GateRequest {
  return gateRequestFrom(
    {
      ...(s.kind !== undefined ? { kind: s.kind } : {}),
      ...(s.title !== undefined ? { title: s.title } : {}),
      rawInput: {
        ...(s.command !== undefined ? { command: s.command } : {}),
        ...(s.url !== undefined ? { url: s.url } : {}),
      },
      locations: (s.paths ?? []).map((path) => ({ path })),
    },
    cwd,
  );
}

/** Whether a rule (a pattern, an allowPaths entry as its JSON text) makes the gate allow `req`, as the gate says. */
export type RuleAllows = (rule: string, req: GateRequest, gate: RuleGate) => boolean;

/** Whether the gate allows `req` with `pattern` added and did not without it (session grants left out). */
export const patternAllows: RuleAllows = (pattern, req, gate) => {
  const input = { ...gate.snapshot, session: { ...gate.snapshot.session, grants: [] } };
  try {
    return dryRunPattern(pattern, req, input).coveredByPattern;
  } catch {
    return false; // a request the gate cannot read is never covered
  }
};

/**
 * An allowPaths entry as it is stored (`{"pattern": "/opt/data/...", "access": "r"}`), read from its JSON text; a
 * problem when it is not one.
 */
export function parseAllowPathRule(text: string): { readonly entry: AllowPath } | { readonly problem: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { problem: 'write the entry as JSON: {"pattern": "/absolute/folder/...", "access": "r"}' };
  }
  const problem = allowPathProblem(v);
  if (problem !== undefined) {
    return { problem };
  }
  const { pattern, access } = v as AllowPath;
  return { entry: { pattern, access } };
}

/** Whether the gate allows `req` with the allowPaths entry `rule` (JSON) added and did not without it. */
export const allowPathAllows: RuleAllows = (rule, req, gate) => {
  const parsed = parseAllowPathRule(rule);
  if (!('entry' in parsed)) {
    return false;
  }
  const input = { ...gate.snapshot, session: { ...gate.snapshot.session, grants: [] } };
  try {
    return dryRunAllowPath(parsed.entry, req, input).coveredByPattern;
  } catch {
    return false;
  }
};

const PATH_KINDS = new Set(['read', 'edit', 'delete', 'move', 'search']);

/**
 * A history entry's label (the request's title, else its command) read back as a subject: an `execute` label as
 * the command (backticks around it dropped), a path kind's label by its last word when that is an absolute path, a
 * fetch by its URL. Undefined when the label was not kept or names nothing the gate could match.
 */
export function subjectOfEntry(e: HistoryEntry): MatchSubject | undefined {
  const t = (e.label ?? '').trim().replace(/^`(.*)`$/s, '$1');
  if (t === '' || e.kind === undefined) {
    return undefined;
  }
  if (e.kind === 'execute') {
    return { kind: e.kind, title: t, command: t };
  }
  if (PATH_KINDS.has(e.kind)) {
    const last = t.split(/\s+/).pop() ?? '';
    return last.startsWith('/') ? { kind: e.kind, title: t, paths: [last] } : undefined;
  }
  if (e.kind === 'fetch') {
    const url = /https?:\/\/\S+/.exec(t)?.[0];
    return url !== undefined ? { kind: e.kind, title: t, url } : undefined;
  }
  return undefined;
}

/** Whether `pattern` would have allowed a past request; undefined when its label cannot be read back. */
export function entryAllowed(
  pattern: string,
  e: HistoryEntry,
  gate: RuleGate,
  allows: RuleAllows = patternAllows,
): boolean | undefined {
  const s = subjectOfEntry(e);
  return s && allows(pattern, requestOfSubject(s, gate.cwd), gate);
}

/**
 * Whether `pattern` would make the gate allow a waiting request, asked of the gate of the request's own session
 * (`gateOf` its source id: each session has its own folders, mode and settings): never another session's, and a
 * request whose session is unknown is not covered.
 */
export function waitingAllowed(
  pattern: string,
  w: { readonly server: string; readonly toolCall: ToolCallLike },
  gateOf: (server: string) => RuleGate | undefined,
  allows: RuleAllows = patternAllows,
): boolean {
  const g = gateOf(w.server);
  return g !== undefined && allows(pattern, gateRequestFrom(w.toolCall, g.cwd), g);
}
