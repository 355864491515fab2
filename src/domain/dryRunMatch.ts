/**
 * The one place the dry run (./dryRun.ts) meets the gate's matching: parse a stored allow pattern and ask whether
 * it covers a request's text the way the local gate would (every simple command of a shell line; every path; the
 * URL or the title otherwise). Only the exported functions of src/policy are used, so this file is the only one to
 * re-point when the pattern language changes.
 */
import { allParts, commandMatches, parseCommand, parsePattern, pathMatches } from '../policy';
import type { GatePattern } from '../policy';

/** What is known of a request to match a rule against (from a live request, or a history entry's label). */
export interface MatchSubject {
  readonly kind?: string;
  readonly command?: string;
  readonly paths?: readonly string[];
  readonly url?: string;
  /** The title or label, matched when nothing more specific is known. */
  readonly text?: string;
}

export type ParsedRule =
  { readonly ok: true; readonly rule: GatePattern } | { readonly ok: false; readonly problem: string };

export function parseRule(source: string): ParsedRule {
  const p = parsePattern(source);
  return 'problem' in p ? { ok: false, problem: p.problem } : { ok: true, rule: p };
}

const PATH_KINDS = new Set(['read', 'edit', 'delete', 'move', 'search']);

/** Whether `rule` covers the subject, as the gate matches allow patterns. */
export function ruleCovers(rule: GatePattern, s: MatchSubject, roots: readonly string[]): boolean {
  if (rule.kind !== undefined && rule.kind !== s.kind) {
    return false;
  }
  if (s.command !== undefined) {
    const parsed = parseCommand(s.command);
    const parts = allParts(parsed);
    if (parsed.problems.length > 0 || parts.length === 0) {
      return commandMatches(rule.glob, s.command);
    }
    return parts.every((part) => commandMatches(rule.glob, part.text));
  }
  if (s.paths !== undefined && s.paths.length > 0) {
    return s.paths.every((p) => pathMatches(rule.glob, p, roots));
  }
  if (s.url !== undefined) {
    return commandMatches(rule.glob, s.url);
  }
  if (s.text !== undefined) {
    return commandMatches(rule.glob, s.text);
  }
  return false;
}

/**
 * A history entry keeps only its kind and label (the request's title, else its command): an `execute` label is read
 * as the command (backticks around it dropped), a path kind's label as a path when it is one, else as text.
 */
export function subjectOfLabel(kind: string | undefined, label: string): MatchSubject {
  const t = label.trim().replace(/^`(.*)`$/s, '$1');
  if (kind === 'execute') {
    return { kind, command: t };
  }
  if (kind !== undefined && PATH_KINDS.has(kind)) {
    const last = t.split(/\s+/).pop() ?? '';
    return last.startsWith('/') ? { kind, paths: [last] } : { kind, text: t };
  }
  if (kind === 'fetch' && /^https?:\/\//.test(t)) {
    return { kind, url: t };
  }
  return { kind, text: t };
}
