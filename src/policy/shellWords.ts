/**
 * How the words of a simple command read once the shell is done with them: a literal word (quotes resolved; `~`,
 * `~/…`, `$HOME` and the other variables the gate knows expanded by the gate itself), or "unreadable" when only
 * running the line could tell (another variable, a substitution, a glob, brace expansion, `~user`).
 */
import type { CommandPart, Seg } from './shellSyntax';

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'yash']);

export function basename(word: string): string {
  const i = word.lastIndexOf('/');
  return i >= 0 ? word.slice(i + 1) : word;
}

/** What the gate knows of the environment the command runs in. */
export interface ShellEnv {
  /** The user's home directory (for `~` and `$HOME`). */
  readonly home?: string;
  /** The working directory (for `$PWD`). */
  readonly cwd?: string;
}

export type WordReading = { readonly word: string } | { readonly why: string };

const GLOB = /[*?[]/;

function knownVar(name: string, env: ShellEnv): string | undefined {
  if (name === 'HOME') {
    return env.home;
  }
  if (name === 'PWD') {
    return env.cwd;
  }
  return undefined;
}

/** Whether unquoted braces around an unquoted `,` or `..` make the word a brace expansion. */
function braceExpands(chars: readonly { c: string; q: boolean }[]): boolean {
  let open = -1;
  for (let k = 0; k < chars.length; k++) {
    const { c, q } = chars[k];
    if (q) {
      continue;
    }
    if (c === '{') {
      open = k;
    } else if (c === '}' && open >= 0) {
      for (let m = open + 1; m < k; m++) {
        if (!chars[m].q && (chars[m].c === ',' || (chars[m].c === '.' && chars[m + 1]?.c === '.' && !chars[m + 1].q))) {
          return true;
        }
      }
      open = -1;
    }
  }
  return false;
}

/** One word's literal value, or why it has none. `segs` from the lexer; `raw` when a part was built by hand. */
export function readWord(segs: readonly Seg[] | undefined, raw: string, env: ShellEnv): WordReading {
  if (segs === undefined && /[$`]/.test(raw)) {
    return { why: `the expansion in "${raw.slice(0, 60)}"` };
  }
  const pieces: readonly Seg[] = segs ?? [{ t: 'lit', s: raw, q: false }];
  // Quoting matters below only for brace expansion: the per-character record is kept only when a brace is there.
  const braces = pieces.some((x) => x.t === 'lit' && !x.q && x.s.includes('{'));
  const chars: { c: string; q: boolean }[] = [];
  let out = '';
  const put = (text: string, q: boolean) => {
    out += text;
    if (braces) {
      for (const c of text) {
        chars.push({ c, q });
      }
    }
  };
  for (const [k, seg] of pieces.entries()) {
    if (seg.t === 'exp') {
      return { why: `the expansion ${seg.raw.slice(0, 40)}` };
    }
    if (seg.t === 'var') {
      const v = knownVar(seg.name, env);
      if (v === undefined) {
        return { why: `the variable $${seg.name}` };
      }
      if (!seg.q && /[\s*?[{]/.test(v)) {
        return { why: `the unquoted variable $${seg.name}, whose value would be split or globbed` };
      }
      put(v, true);
      continue;
    }
    let s = seg.s;
    if (!seg.q && k === 0 && s.startsWith('~')) {
      const m = /^~([^/]*)/.exec(s)!;
      if (m[1] !== '' || env.home === undefined) {
        return { why: m[1] !== '' ? `the home directory ${m[0]}` : 'the home directory ~ (not known to the gate)' };
      }
      put(env.home, true);
      s = s.slice(1);
    }
    if (!seg.q && GLOB.test(s)) {
      return { why: `the glob pattern in "${raw.slice(0, 60)}"` };
    }
    if (!seg.q && /[=:]~/.test(s)) {
      return { why: `the tilde after "=" or ":" in "${raw.slice(0, 60)}"` };
    }
    put(s, seg.q);
  }
  if (braces && braceExpands(chars)) {
    return { why: `the brace expansion in "${raw.slice(0, 60)}"` };
  }
  return { word: out };
}

/** Every word of a part read literally, or the first reason one cannot be. */
export function readWords(part: CommandPart, env: ShellEnv): { words: string[] } | { why: string } {
  const words: string[] = [];
  for (const [k, raw] of part.words.entries()) {
    const r = readWord(part.segs?.[k], raw, env);
    if ('why' in r) {
      return r;
    }
    words.push(r.word);
  }
  return { words };
}
