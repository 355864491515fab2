/** The shapes a parsed command line comes in (see shell.ts), and the words that make a line a shell program. */

/**
 * One piece of a word as the shell reads it: literal text (`q`: quoted or escaped, so no glob, brace or tilde
 * expansion applies to it), a plain variable (`$x`, `${x}`), or any other expansion (`$(…)`, backticks,
 * `${x:-…}`, `$1`, `$@`, `<(…)`): something only running the line can tell.
 */
export type Seg =
  | { readonly t: 'lit'; readonly s: string; readonly q: boolean }
  | { readonly t: 'var'; readonly name: string; readonly q: boolean }
  | { readonly t: 'exp'; readonly raw: string };

/** An output or input redirection of one simple command. `target` is the unquoted word after the operator. */
export interface Redirect {
  readonly op: string;
  readonly target: string;
  /** The target's pieces (see {@link Seg}). */
  readonly segs?: readonly Seg[];
}

/** One simple command between operators: its words (quotes removed, expansions kept verbatim). */
export interface CommandPart {
  readonly words: readonly string[];
  readonly redirects: readonly Redirect[];
  /** The words joined by single spaces: what patterns and grants are matched against. */
  readonly text: string;
  /** The operator before this part (`;`, `&&`, `||`, `|`, `|&`, `&`, newline), or '' for the first. */
  readonly after: string;
  /** Each word's pieces, parallel to `words` (absent on parts built by hand). */
  readonly segs?: readonly (readonly Seg[])[];
}

export type SubstitutionType = '$(' | '`' | '<(' | '>(' | '${';

export interface Substitution {
  readonly type: SubstitutionType;
  /** The body, parsed in turn (its parts are what would run). */
  readonly body: ParsedCommand;
}

export interface ParsedCommand {
  readonly parts: readonly CommandPart[];
  /** Command and process substitutions anywhere in the line, including inside double quotes. */
  readonly substitutions: readonly Substitution[];
  /** What the lexer could not read with certainty; non-empty means no pattern or grant may allow the command. */
  readonly problems: readonly string[];
}

export /** Words that make a line a shell program (loops, conditionals, functions) rather than a plain command list. */
const KEYWORDS = new Set([
  'if',
  'then',
  'elif',
  'else',
  'fi',
  'for',
  'while',
  'until',
  'do',
  'done',
  'case',
  'esac',
  'select',
  'function',
  'coproc',
  '!',
  '[[',
  ']]',
  '{',
  '}',
]);

const ESCAPES: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  e: '\x1b',
  E: '\x1b',
};

/** The body of `$'…'` starting at `start` (after the quote), decoded; `end` is the index after the closing quote. */
export function decodeAnsiC(src: string, start: number): { text: string; end: number; closed: boolean } {
  let j = start;
  let out = '';
  while (j < src.length && src[j] !== "'") {
    const c = src[j];
    if (c === '\\' && j + 1 < src.length) {
      const d = src[j + 1];
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(src.slice(j + 1, j + 4));
      const oct = /^([0-7]{1,3})/.exec(src.slice(j + 1, j + 4));
      if (hex) {
        out += String.fromCharCode(parseInt(hex[1], 16));
        j += 1 + hex[0].length;
      } else if (oct) {
        out += String.fromCharCode(parseInt(oct[1], 8));
        j += 1 + oct[0].length;
      } else {
        out += ESCAPES[d] ?? `\\${d}`;
        j += 2;
      }
    } else {
      out += c;
      j++;
    }
  }
  return { text: out, end: Math.min(j + 1, src.length), closed: j < src.length };
}

/** The body of a backtick substitution starting at `start`, with `\`` read as a backtick; `end` after the closer. */
export function scanBacktick(src: string, start: number): { body: string; end: number; closed: boolean } {
  let body = '';
  let j = start;
  while (j < src.length && src[j] !== '`') {
    if (src[j] === '\\' && j + 1 < src.length) {
      body += src[j + 1];
      j += 2;
    } else {
      body += src[j++];
    }
  }
  return { body, end: Math.min(j + 1, src.length), closed: j < src.length };
}

/** The index of the `}` closing a `${` whose `{` is at `open`, or src.length; nested `{}` counted, linear. */
export function scanBrace(src: string, open: number): number {
  let depth = 0;
  for (let j = open; j < src.length; j++) {
    if (src[j] === '{') {
      depth++;
    } else if (src[j] === '}' && --depth === 0) {
      return j;
    }
  }
  return src.length;
}

/** Whether any substitution (`$(…)`, backticks, `<(…)`, `>(…)`, `${…}` with operators) appears anywhere. */
export function hasSubstitution(parsed: ParsedCommand): boolean {
  return parsed.substitutions.length > 0;
}

/** Every simple command that would run, the line's own parts and those inside substitutions, depth first. */
export function allParts(parsed: ParsedCommand): CommandPart[] {
  const out: CommandPart[] = [];
  const stack: ParsedCommand[] = [parsed];
  // Breadth by level, iteratively: a deeply nested line never deepens the JavaScript stack.
  for (let k = 0; k < stack.length; k++) {
    out.push(...stack[k].parts);
    for (const sub of stack[k].substitutions) {
      stack.push(sub.body);
    }
  }
  return out;
}
