/**
 * Allow-pattern suggestions from one local session's approval log, for `fountain.local.allow` (never applied
 * here: the product previews each and writes the setting only on confirmation).
 *
 * Rules:
 * - only clean shell commands count: one that the lexer read with problems, has a substitution or is on the
 *   denylist suggests nothing; a command line counts each of its simple commands;
 * - `execute:<command>` for a command allowed at least `minCount` times (and with no `*` in it);
 *   `execute:<verb> <sub>*` for at least `minCount` allows of at least two different commands starting with the
 *   same verb and subcommand; `execute:<verb> *` for allows spread over at least two subcommands. Verbs that
 *   run other programs (`sudo`, `env`, shells, `xargs`, …), `rm` and `dd` get no wildcard suggestion;
 * - file kinds: `<kind>:<path>` for one path allowed `minCount` times, `<kind>:<dir>/**` for `minCount` allows
 *   under one directory (relative to its workspace root when inside one); fetch: `fetch:<origin>/*`;
 * - nothing that would also cover a request the user rejected in the same log, nothing already configured;
 * - more specific first: fewer wildcards, then a longer literal part, then the pattern's text.
 */
import { denylistMatch } from './denylist';
import { extractVerb } from './grants';
import { commandMatches, pathMatches } from './patterns';
import { isInside, normalisePath } from './scope';
import { parseCommand } from './shell';

export interface ApprovalEntry {
  /** The ACP kind. */
  readonly kind: string;
  readonly command?: string;
  readonly paths?: readonly string[];
  readonly url?: string;
  /** What the human answered: any allow (once, always, a grant) or a reject. */
  readonly answer: 'allow' | 'reject';
}

export interface LocalRecommendation {
  /** `<kind>:<glob>`, ready for `fountain.local.allow`. */
  readonly pattern: string;
  /** One sentence saying what it covers and why it is suggested. */
  readonly reason: string;
  /** Up to five distinct sample commands, paths or URLs that motivated it. */
  readonly evidence: readonly string[];
  /** A verb-wide shell pattern (`git *`): show what it covers before it is applied. */
  readonly risky: boolean;
}

export interface LocalRecommendationOptions {
  /** Allows needed. Default 2. */
  readonly minCount?: number;
  readonly roots?: readonly string[];
  /** Patterns already configured: never suggested again. */
  readonly existing?: readonly string[];
}

const FILE_KINDS = new Set(['read', 'edit', 'delete', 'move', 'search']);

interface Group {
  pattern: string;
  count: number;
  samples: string[];
  what: string;
  /** exact: one command or path; wide: a glob that needs two different samples; verb: also two subcommands. */
  level: 'exact' | 'wide' | 'verb';
  subs: Set<string>;
}

function cleanParts(command: string | undefined): string[] {
  if (typeof command !== 'string' || denylistMatch(command)) {
    return [];
  }
  const parsed = parseCommand(command);
  if (parsed.problems.length > 0 || parsed.substitutions.length > 0) {
    return [];
  }
  return parsed.parts.filter((p) => p.redirects.length === 0).map((p) => p.text);
}

function bump(groups: Map<string, Group>, pattern: string, sample: string, what: string, level: Group['level']): Group {
  let g = groups.get(pattern);
  if (!g) {
    g = { pattern, count: 0, samples: [], what, level, subs: new Set() };
    groups.set(pattern, g);
  }
  g.count++;
  if (!g.samples.includes(sample)) {
    g.samples.push(sample);
  }
  return g;
}

function addCommand(groups: Map<string, Group>, text: string): void {
  if (!text.includes('*')) {
    bump(groups, `execute:${text}`, text, 'this exact command', 'exact');
  }
  const verb = extractVerb(text);
  if (verb === undefined || text.split(' ')[0] !== verb) {
    return;
  }
  const sub = text.split(' ')[1];
  if (sub !== undefined && /^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(sub) && !sub.includes('*')) {
    bump(groups, `execute:${verb} ${sub}*`, text, `commands starting with "${verb} ${sub}"`, 'wide');
  }
  const g = bump(groups, `execute:${verb} *`, text, `every "${verb}" command`, 'verb');
  g.subs.add(sub !== undefined && !sub.startsWith('-') ? sub : '');
}

function relative(path: string, roots: readonly string[]): string {
  const root = roots.map(normalisePath).find((r) => r !== undefined && r !== '/' && isInside(path, r));
  return root ? path.slice(root.length + 1) : path;
}

function addPath(groups: Map<string, Group>, kind: string, raw: string, roots: readonly string[]): void {
  const path = normalisePath(raw);
  if (path === undefined || path === '/' || /[*?]/.test(path)) {
    return;
  }
  bump(groups, `${kind}:${relative(path, roots) || path}`, path, 'this exact path', 'exact');
  const dir = path.slice(0, path.lastIndexOf('/'));
  if (dir !== '') {
    const rel = relative(dir, roots);
    const glob = rel === dir ? `${dir}/**` : rel === '' ? '**' : `${rel}/**`;
    bump(groups, `${kind}:${glob}`, path, `everything under ${dir}`, 'wide');
  }
}

function addUrl(groups: Map<string, Group>, url: string): void {
  let origin: string;
  try {
    const u = new URL(url);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') {
      return;
    }
    origin = u.origin;
  } catch {
    return;
  }
  bump(groups, `fetch:${origin}/*`, url, `every fetch from ${origin}`, 'wide');
}

function covers(pattern: string, e: ApprovalEntry, roots: readonly string[]): boolean {
  const colon = pattern.indexOf(':');
  const kind = pattern.slice(0, colon);
  const glob = pattern.slice(colon + 1);
  if (kind !== e.kind) {
    return false;
  }
  if (kind === 'execute') {
    const parsed = parseCommand(e.command ?? '');
    return parsed.parts.some((p) => commandMatches(glob, p.text)) || commandMatches(glob, e.command ?? '');
  }
  if (kind === 'fetch') {
    return typeof e.url === 'string' && commandMatches(glob, e.url);
  }
  return (e.paths ?? []).some((p) => pathMatches(glob, p, roots) || pathMatches(glob, p, ['/']));
}

function specificity(pattern: string): [number, number] {
  const stars = (pattern.match(/\*/g) ?? []).length;
  const literal = pattern.indexOf('*') < 0 ? pattern.length : pattern.indexOf('*');
  return [stars, -literal];
}

function reasonFor(g: Group): string {
  const n = g.count;
  const distinct = g.samples.length;
  if (g.level === 'exact') {
    return `You allowed ${g.what} ${n} times in this session.`;
  }
  return `You allowed ${n} requests (${distinct} different) covered by ${g.what} in this session.`;
}

/** Suggestions from a session's approval log (oldest first), more specific first. */
export function recommendLocal(
  log: readonly ApprovalEntry[],
  opts: LocalRecommendationOptions = {},
): LocalRecommendation[] {
  const min = typeof opts.minCount === 'number' && opts.minCount >= 1 ? Math.floor(opts.minCount) : 2;
  const roots = opts.roots ?? [];
  const groups = new Map<string, Group>();
  const entries: readonly ApprovalEntry[] = Array.isArray(log) ? (log as readonly ApprovalEntry[]) : [];
  for (const e of entries) {
    if (e?.answer !== 'allow' || typeof e.kind !== 'string') {
      continue;
    }
    if (e.kind === 'execute') {
      cleanParts(e.command).forEach((t) => addCommand(groups, t));
    } else if (FILE_KINDS.has(e.kind)) {
      (Array.isArray(e.paths) ? (e.paths as readonly string[]) : []).forEach((p) => addPath(groups, e.kind, p, roots));
    } else if (e.kind === 'fetch' && typeof e.url === 'string') {
      addUrl(groups, e.url);
    }
  }
  const rejected = entries.filter((e) => e?.answer === 'reject');
  const out: LocalRecommendation[] = [];
  for (const g of groups.values()) {
    if (g.count < min || (g.level !== 'exact' && g.samples.length < 2) || (g.level === 'verb' && g.subs.size < 2)) {
      continue;
    }
    if (opts.existing?.includes(g.pattern) || rejected.some((r) => covers(g.pattern, r, roots))) {
      continue;
    }
    out.push({ pattern: g.pattern, reason: reasonFor(g), evidence: g.samples.slice(0, 5), risky: g.level === 'verb' });
  }
  return out.sort((a, b) => {
    const [sa, la] = specificity(a.pattern);
    const [sb, lb] = specificity(b.pattern);
    return sa - sb || la - lb || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0);
  });
}
