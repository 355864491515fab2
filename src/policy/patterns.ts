/**
 * Allow and deny patterns of the local gate: `'<kind>:<glob>'` or a bare `'<glob>'` for every kind. `bash:` is
 * another name for `execute:`. What the glob is matched against depends on the request:
 * - a shell command: each simple command of the parsed line (words joined by single spaces); `*` matches any
 *   characters, including spaces and slashes;
 * - file paths: every path of the request; `*` and `?` stay inside one segment, `**` crosses segments, `dir/...`
 *   is the tree; a glob not starting with `/` is read relative to each workspace root, except that one starting
 *   with `**` matches at any depth anywhere;
 * - a fetch: the URL, `*` matching any characters; anything else: its title.
 */
import { TOOL_KINDS } from './verdicts';
import { isInside, normalisePath, pathGlobMatches } from './scope';
import { wildcardMatches } from './wildcard';

export interface GatePattern {
  /** As written in the configuration, for naming in a decision. */
  readonly source: string;
  /** The ACP kind it is limited to (`bash` already read as `execute`), or undefined for every kind. */
  readonly kind?: string;
  readonly glob: string;
}

/** Thrown by the gate for configuration that cannot be honoured (an unknown bundle, a malformed pattern, …). */
export class GateConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`The local permission settings cannot be used: ${problems.join('; ')}.`);
    this.name = 'GateConfigError';
  }
}

const KIND_ALIASES: Readonly<Record<string, string>> = { bash: 'execute', shell: 'execute' };

/** A pattern parsed, or the sentence saying why it cannot be. */
export function parsePattern(source: unknown): GatePattern | { problem: string } {
  if (typeof source !== 'string' || source.trim() === '') {
    return { problem: `${JSON.stringify(source)} is not a pattern (use "<kind>:<glob>" or "<glob>")` };
  }
  const m = /^([A-Za-z_]+):(?!\/\/)(.*)$/s.exec(source);
  if (!m) {
    return { source, glob: source };
  }
  const kind = KIND_ALIASES[m[1]] ?? m[1];
  if (!TOOL_KINDS.includes(kind)) {
    return {
      problem: `pattern "${source}" names the unknown kind "${m[1]}" (one of bash, ${TOOL_KINDS.join(', ')})`,
    };
  }
  if (m[2].trim() === '') {
    return { problem: `pattern "${source}" has nothing after "${m[1]}:" (use "${m[1]}:*" for every call)` };
  }
  return { source, kind, glob: m[2] };
}

/**
 * What a malformed deny entry might have covered, read as widely as it can be: `foo:rm *` (an unknown kind) is the
 * glob `rm *` for every kind, `execute:` is every execute call, and an entry that is no text at all (a number, a
 * list) is everything; a blank string names nothing and covers nothing. The gate asks about what such an entry might
 * cover, in every mode (gateSteps.ts).
 */
export function brokenDenyCover(source: unknown): GatePattern | undefined {
  if (typeof source === 'string' && source.trim() === '') {
    return undefined;
  }
  const text = typeof source === 'string' ? source : '';
  const m = /^([A-Za-z_]+):(?!\/\/)(.*)$/s.exec(text);
  const kind = m ? (KIND_ALIASES[m[1]] ?? m[1]) : undefined;
  const glob = m ? m[2] : text;
  return {
    source: typeof source === 'string' ? source : (JSON.stringify(source) ?? String(source)),
    ...(kind !== undefined && TOOL_KINDS.includes(kind) ? { kind } : {}),
    glob: glob.trim() === '' ? '*' : glob,
  };
}

/** Parse a list, collecting every problem; `broken`: the malformed entries, read as {@link brokenDenyCover}. */
export function parsePatterns(list: readonly unknown[] | undefined): {
  patterns: GatePattern[];
  problems: string[];
  broken: GatePattern[];
} {
  const patterns: GatePattern[] = [];
  const problems: string[] = [];
  const broken: GatePattern[] = [];
  for (const s of Array.isArray(list) ? list : []) {
    const p = parsePattern(s);
    if ('problem' in p) {
      problems.push(p.problem);
      const cover = brokenDenyCover(s);
      if (cover !== undefined) {
        broken.push(cover);
      }
    } else {
      patterns.push(p);
    }
  }
  return { patterns, problems, broken };
}

/**
 * Whether a text glob matches: `*` matches any run of characters (spaces and slashes included), everything else
 * is literal. The two-pointer wildcard match is O(glob × text) at worst, never exponential or polynomial in the
 * number of stars as a backtracking regular expression would be on a hostile 1 MB command.
 */
export function textGlobMatches(glob: string, text: string): boolean {
  return wildcardMatches(glob, text, false);
}

/** A URL's scheme and authority (`https://host:port`), and the rest; undefined when it has no `scheme://`. */
function splitUrl(text: string): [string, string] | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/s.exec(text);
  return m ? [m[1].toLowerCase() + m[2], m[3]] : undefined;
}

/**
 * Whether a URL glob matches a URL. A glob written as `scheme://host/…` is matched in two parts: its host part
 * against the URL's scheme and authority, where `*` never crosses `/`, `?`, `#` or `@` (so `https://*.github.com/*`
 * does not cover `https://attacker.example/.github.com/x` nor `https://github.com@attacker.example/`), and its rest
 * against the URL's path, query and fragment, where `*` matches any characters. Any other glob: {@link textGlobMatches}.
 */
export function urlGlobMatches(glob: string, url: string): boolean {
  const g = splitUrl(glob);
  if (g === undefined) {
    return textGlobMatches(glob, url);
  }
  const u = splitUrl(url);
  if (u === undefined || /[@]/.test(g[0].replace(/\*/g, '')) !== u[0].includes('@')) {
    return false;
  }
  return hostGlobMatches(g[0].toLowerCase(), u[0]) && textGlobMatches(g[1], u[1]);
}

/** `*` as any run of characters but `@` (the authority is already cut at `/`, `?` and `#`). */
function hostGlobMatches(glob: string, host: string): boolean {
  const parts = glob.split('*');
  let at = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (i === 0) {
      if (!host.startsWith(part)) {
        return false;
      }
      at = part.length;
      continue;
    }
    // Leftmost match of the next literal part, with no `@` in the run the `*` covers.
    const found = i === parts.length - 1 ? host.length - part.length : host.indexOf(part, at);
    if (found < at || (i === parts.length - 1 && !host.endsWith(part)) || host.slice(at, found).includes('@')) {
      return false;
    }
    at = found + part.length;
  }
  return parts.length === 1 ? host === glob : at === host.length;
}

const blanks = (s: string): string => s.trim().replace(/\s+/g, ' ');

// The gate matches one text against every pattern in turn: normalise it once, not once per pattern.
let lastText = '';
let lastBlanks = '';

/** Whether a command glob matches one simple command's text; runs of blanks count as one space on both sides. */
export function commandMatches(glob: string, text: string): boolean {
  if (text !== lastText) {
    lastText = text;
    lastBlanks = blanks(text);
  }
  return textGlobMatches(blanks(glob), lastBlanks);
}

/** Paths longer than this (Linux's PATH_MAX) match no allow pattern and every deny pattern of their kind. */
export const MAX_PATH_LENGTH = 4096;

/** Whether a path glob matches an absolute path; a relative glob is tried against each root it is inside. */
export function pathMatches(glob: string, path: string, roots: readonly string[]): boolean {
  const p = normalisePath(path);
  if (p === undefined || p.length > MAX_PATH_LENGTH) {
    return false;
  }
  if (glob.startsWith('/')) {
    return pathGlobMatches(glob, p);
  }
  const rel = '/' + glob.replace(/^\.\//, '');
  if (glob.startsWith('**') && pathGlobMatches(rel, p)) {
    // `**` and `**/.env` match at any depth, inside the roots or not.
    return true;
  }
  return roots.some((root) => {
    const r = normalisePath(root);
    return r !== undefined && isInside(p, r) && pathGlobMatches(rel, r === '/' ? p : p.slice(r.length) || '/');
  });
}

/** Whether a pattern applies to a request of `kind` at all. */
export function appliesTo(pattern: GatePattern, kind: string | undefined): boolean {
  return pattern.kind === undefined || pattern.kind === kind;
}
