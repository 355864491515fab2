/**
 * Path scope: which file accesses a local agent has without asking. Inside a workspace root: read and write.
 * Elsewhere the longest matching `allowPaths` entry decides; nothing matching means no access.
 *
 * Paths are POSIX, absolute, and normalised lexically (`.`, `..`, repeated and trailing slashes). Symlinks are NOT
 * resolved: this module is pure and never touches the file system, so a link inside a root that points outside it
 * counts as inside. The caller that has a file system may resolve links (realpath) before asking.
 */
import { wildcardMatches } from './wildcard';

export type Access = 'r' | 'w' | 'rw';
export type AccessNeeded = 'read' | 'write';

export interface AllowPath {
  readonly pattern: string;
  readonly access: Access;
}

/**
 * `path` normalised: `.` segments and repeated or trailing slashes dropped, `..` applied (never above `/`).
 * Undefined for anything that is not an absolute POSIX path (relative paths cannot be placed in a scope).
 */
export function normalisePath(path: string): string | undefined {
  if (typeof path !== 'string' || !path.startsWith('/') || path.includes('\0')) {
    return undefined;
  }
  // Already normal (no empty, `.` or `..` segment, no trailing slash): the common case, read without splitting.
  if (!/\/\.{0,2}(?:\/|$)/.test(path)) {
    return path;
  }
  const out: string[] = [];
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') {
      continue;
    }
    if (seg === '..') {
      out.pop();
    } else {
      out.push(seg);
    }
  }
  return '/' + out.join('/');
}

/** Whether `path` is `dir` or inside it, segment-wise: `/work/repo-evil` is not inside `/work/repo`. */
export function isInside(path: string, dir: string): boolean {
  const p = normalisePath(path);
  const d = normalisePath(dir);
  if (p === undefined || d === undefined) {
    return false;
  }
  return d === '/' || p === d || p.startsWith(d + '/');
}

/** One segment against one glob segment: `*` any run, `?` one character; two pointers, no backtracking blow-up. */
function segmentMatches(glob: string, seg: string): boolean {
  return wildcardMatches(glob, seg, true);
}

/**
 * Whether an absolute path glob matches a normalised absolute path: `*` and `?` stay inside one segment, a `**`
 * segment matches zero or more whole segments (`/a/**` matches `/a` and everything under it), and a trailing
 * `/...` means the directory and everything under it. Segment by segment with a table, so any glob and any path
 * are matched in O(glob segments × path segments × segment length).
 */
export function pathGlobMatches(glob: string, path: string): boolean {
  const g = (glob.endsWith('/...') ? glob.slice(0, -4) + '/**' : glob).split('/').filter((x) => x !== '');
  const s = path.split('/').filter((x) => x !== '');
  // ok[j]: the glob's first i segments match the path's first j segments.
  let ok: boolean[] = Array.from({ length: s.length + 1 }, (_, j) => j === 0);
  for (const gs of g) {
    const next: boolean[] = new Array<boolean>(s.length + 1).fill(false);
    for (let j = 0; j <= s.length; j++) {
      if (gs === '**') {
        next[j] = ok[j] || (j > 0 && next[j - 1]);
      } else if (j > 0) {
        next[j] = ok[j - 1] && segmentMatches(gs, s[j - 1]);
      }
    }
    ok = next;
  }
  return ok[s.length];
}

function isGlob(pattern: string): boolean {
  return /[*?]/.test(pattern) || pattern.endsWith('/...');
}

/** The pattern normalised where it is a plain path (its glob characters are kept). */
function normalisePattern(pattern: string): string | undefined {
  const tree = pattern.endsWith('/...');
  const base = normalisePath(tree ? pattern.slice(0, -4) || '/' : pattern);
  if (base === undefined) {
    return undefined;
  }
  return tree ? (base === '/' ? '/...' : base + '/...') : base;
}

/** Why an allowPaths entry is unusable, or undefined when it is fine. */
export function allowPathProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null) {
    return 'an allowPaths entry must be an object with "pattern" and "access"';
  }
  const { pattern, access } = entry as { pattern?: unknown; access?: unknown };
  if (typeof pattern !== 'string' || normalisePattern(pattern) === undefined) {
    return `allowPaths: ${JSON.stringify(pattern)} is not an absolute path or path glob`;
  }
  if (access !== 'r' && access !== 'w' && access !== 'rw') {
    return `allowPaths: ${JSON.stringify(pattern)} has access ${JSON.stringify(access)}; use "r", "w" or "rw"`;
  }
  return undefined;
}

/** Whether one allowPaths pattern covers `path` (already normalised). */
export function pathPatternMatches(pattern: string, path: string): boolean {
  const p = normalisePattern(pattern);
  if (p === undefined) {
    return false;
  }
  return isGlob(p) ? pathGlobMatches(p, path) : p === path;
}

export interface ScopeAccess {
  readonly access: Access | undefined;
  /** What granted it: `root` for a workspace folder, else the allowPaths pattern. */
  readonly by?: string;
}

/**
 * The access `path` has: read+write inside any root, else the longest matching allowPaths entry's access
 * (a narrower entry can carve an exception inside a wider one), else none.
 */
export function accessFor(path: string, roots: readonly string[], allowPaths: readonly AllowPath[] = []): ScopeAccess {
  const p = normalisePath(path);
  if (p === undefined) {
    return { access: undefined };
  }
  for (const root of roots) {
    if (isInside(p, root)) {
      return { access: 'rw', by: 'root' };
    }
  }
  let best: AllowPath | undefined;
  let bestLen = -1;
  for (const entry of allowPaths) {
    if (allowPathProblem(entry) !== undefined || !pathPatternMatches(entry.pattern, p)) {
      continue;
    }
    const len = normalisePattern(entry.pattern)!.length;
    if (len > bestLen) {
      best = entry;
      bestLen = len;
    }
  }
  return best ? { access: best.access, by: best.pattern } : { access: undefined };
}

/** Whether `access` includes what is needed. */
export function grants(access: Access | undefined, needed: AccessNeeded): boolean {
  return access !== undefined && access.includes(needed === 'read' ? 'r' : 'w');
}
