/**
 * A shell command line read the way a POSIX shell (bash) would split it, for matching rules against what runs
 * rather than against substrings. Pure and total: any string, of any length, parses without throwing, in time
 * linear in its length (each nesting level re-reads its body at most once, and nesting stops at {@link MAX_DEPTH}).
 *
 * Why not a library: `shell-quote` (1.12.0, the maintained one) was evaluated and is lossy exactly where a gate
 * needs precision: it reads a newline as plain whitespace (so `ls\nrm -rf src` is one `ls` command), keeps
 * backticks as ordinary text, cannot tell `"$(id)"` (runs) from `'$(id)'` (does not), and accepts unterminated
 * quotes silently. `@ericcornelissen/bash-parser` pulls in 17 dependencies. So this is a small hand-written lexer
 * that fails closed: whatever it does not fully understand is reported in `problems`, and every word keeps its
 * pieces ({@link Seg}) so that a later step can tell a literal word from one the shell would still expand. This
 * file scans the characters; shellParts.ts records the words and parts they make, shellSyntax.ts has the shapes.
 */

import { PartBuilder } from './shellParts';
import {
  decodeAnsiC,
  scanBacktick,
  scanBrace,
  type ParsedCommand,
  type Substitution,
  type SubstitutionType,
} from './shellSyntax';

export type { CommandPart, ParsedCommand, Redirect, Seg, Substitution, SubstitutionType } from './shellSyntax';
export { allParts, hasSubstitution } from './shellSyntax';

/** How deep substitutions nest before the lexer stops reading them (the line is then unreadable). */
export const MAX_DEPTH = 16;

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Characters with a meaning to the shell, outside quotes and inside double quotes; runs of others are read in one step. */
const SPECIAL = new Uint8Array(128);
const SPECIAL_DQ = new Uint8Array(128);
for (const c of ' \t\n\\\'"$`<>|&;()#') {
  SPECIAL[c.charCodeAt(0)] = 1;
}
for (const c of '"\\$`') {
  SPECIAL_DQ[c.charCodeAt(0)] = 1;
}

/** The end of the run of ordinary characters starting at `i` (allocation-free; linear). */
function plainEnd(s: string, i: number, special: Uint8Array): number {
  let j = i;
  while (j < s.length) {
    const code = s.charCodeAt(j);
    if (code < 128 && special[code] === 1) {
      break;
    }
    j++;
  }
  return j;
}

class Lexer {
  i = 0;
  readonly substitutions: Substitution[] = [];
  /** The words, parts and problems read so far. */
  private readonly out = new PartBuilder();

  constructor(
    private readonly src: string,
    private readonly depth: number,
    /** ')' when lexing a `$(…)`/`<(…)` body in place: stop at the matching paren. */
    private readonly closer: ')' | undefined,
  ) {}

  private tooDeep(): boolean {
    if (this.depth >= MAX_DEPTH) {
      this.out.problem('substitutions nested too deeply');
      return true;
    }
    return false;
  }

  private record(type: SubstitutionType, body: ParsedCommand): void {
    this.substitutions.push({ type, body });
    for (const p of body.problems) {
      this.out.problem(p);
    }
  }

  /** Lex a nested body starting at `start` up to its matching ')'; returns the index after it. */
  private nested(type: SubstitutionType, start: number): number {
    if (this.tooDeep()) {
      return this.src.length;
    }
    const inner = new Lexer(this.src, this.depth + 1, ')');
    inner.i = start;
    this.record(type, inner.run());
    return inner.i;
  }

  private backtick(start: number): number {
    const { body, end, closed } = scanBacktick(this.src, start);
    if (!closed) {
      this.out.problem('unterminated backtick');
    }
    if (!this.tooDeep()) {
      this.record('`', new Lexer(body, this.depth + 1, undefined).run());
    }
    return end;
  }

  /** `$…` at this.i (outside single quotes): a substitution, a variable, or a literal `$`. */
  private dollar(q: boolean): void {
    const s = this.src;
    const start = this.i;
    const next = s[this.i + 1];
    if (next === '(') {
      const end = this.nested('$(', this.i + 2);
      this.out.exp(s.slice(start, end));
      this.i = end;
    } else if (next === '{') {
      const j = scanBrace(s, this.i + 1);
      const body = s.slice(this.i + 2, j);
      const end = Math.min(j + 1, s.length);
      if (j >= s.length) {
        this.out.problem('unterminated ${…}');
      }
      if (NAME.test(body)) {
        this.out.variable(s.slice(start, end), body, q);
      } else {
        // ${x:-$(cmd)}, ${x@P} and the like can run code: read it as a substitution of unknown effect.
        this.out.problem('parameter expansion with operators');
        if (!this.tooDeep()) {
          this.record('${', new Lexer(body, this.depth + 1, undefined).run());
        }
        this.out.exp(s.slice(start, end));
      }
      this.i = end;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(s.slice(this.i + 1, this.i + 257));
      if (m === null) {
        this.out.lit('$', q);
        this.i++;
      } else if (NAME.test(m[0])) {
        this.out.variable('$' + m[0], m[0], q);
        this.i += 1 + m[0].length;
      } else {
        this.out.exp('$' + m[0]);
        this.i += 2;
      }
    }
  }

  private singleQuoted(): void {
    this.out.quoted = true;
    const end = this.src.indexOf("'", this.i + 1);
    if (end < 0) {
      this.out.problem('unterminated single quote');
      this.out.lit(this.src.slice(this.i + 1), true);
      this.i = this.src.length;
      return;
    }
    this.out.lit(this.src.slice(this.i + 1, end), true);
    this.i = end + 1;
  }

  private ansiC(): void {
    this.out.quoted = true;
    // $'…': decode the escapes so the denylist sees the real word; never allowed by a pattern.
    this.out.problem("ANSI-C quoting $'…'");
    const { text, end, closed } = decodeAnsiC(this.src, this.i + 2);
    if (!closed) {
      this.out.problem('unterminated single quote');
    }
    this.out.lit(text, true);
    this.i = end;
  }

  private doubleQuoted(): void {
    this.out.openDoubleQuote();
    const s = this.src;
    this.i++;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\' && this.i + 1 < s.length) {
        const d = s[this.i + 1];
        if (d !== '\n') {
          this.out.lit('$`"\\'.includes(d) ? d : c + d, true);
        }
        this.i += 2;
      } else if (c === '$') {
        this.dollar(true);
      } else if (c === '`') {
        const end = this.backtick(this.i + 1);
        this.out.exp(s.slice(this.i, end));
        this.i = end;
      } else {
        const end = Math.max(plainEnd(s, this.i, SPECIAL_DQ), this.i + 1);
        this.out.lit(s.slice(this.i, end), true);
        this.i = end;
      }
    }
    this.out.problem('unterminated double quote');
  }

  private operator(c: string, two: string, three: string): boolean {
    if (two === '&&' || two === '||' || two === '|&' || two === ';;' || two === ';&') {
      if (two === ';;' || two === ';&') {
        this.out.problem(`operator "${two}"`);
      }
      this.out.endPart(two);
      this.i += 2;
    } else if (c === ';' || c === '|') {
      this.out.endPart(c);
      this.i++;
    } else if (three === '&>>' || three === '<<<' || three === '<<-') {
      if (three === '<<-') {
        this.out.problem('here-document');
      }
      this.out.startRedirect(three);
      this.i += 3;
    } else if (['&>', '>>', '>|', '<>', '>&', '<&', '<<'].includes(two)) {
      if (two === '<<') {
        this.out.problem('here-document');
      }
      this.out.startRedirect(two);
      this.i += 2;
    } else if (c === '&') {
      this.out.endPart('&');
      this.i++;
    } else if (c === '>' || c === '<') {
      this.out.startRedirect(c);
      this.i++;
    } else if (c === '(' || c === ')') {
      this.out.problem(c === '(' ? 'subshell or function definition' : 'unbalanced ")"');
      this.out.endPart(c);
      this.i++;
    } else {
      return false;
    }
    return true;
  }

  run(): ParsedCommand {
    const s = this.src;
    while (this.i < s.length) {
      const plain = plainEnd(s, this.i, SPECIAL);
      if (plain > this.i) {
        this.out.lit(s.slice(this.i, plain), false);
        this.i = plain;
        continue;
      }
      const c = s[this.i];
      const two = s.slice(this.i, this.i + 2);
      if (this.closer !== undefined && c === this.closer) {
        this.i++;
        this.out.endPart('');
        return this.result();
      }
      if (c === ' ' || c === '\t') {
        this.out.endWord();
        this.i++;
      } else if (c === '\n') {
        this.out.endPart('\n');
        this.i++;
      } else if (c === '\\') {
        if (s[this.i + 1] === '\n') {
          this.i += 2;
        } else {
          this.out.quoted = true;
          this.out.lit(s[this.i + 1] ?? '', true);
          this.i += 2;
        }
      } else if (c === "'") {
        this.singleQuoted();
      } else if (two === "$'") {
        this.ansiC();
      } else if (two === '$"') {
        this.i++;
        this.doubleQuoted();
      } else if (c === '"') {
        this.doubleQuoted();
      } else if (c === '$') {
        this.dollar(false);
      } else if (c === '`') {
        const end = this.backtick(this.i + 1);
        this.out.exp(s.slice(this.i, end));
        this.i = end;
      } else if (two === '<(' || two === '>(') {
        this.out.endWord();
        const end = this.nested(two, this.i + 2);
        this.out.exp(s.slice(this.i, end));
        this.i = end;
      } else if (c === '#' && !this.out.inWord) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl;
      } else if (!this.operator(c, two, s.slice(this.i, this.i + 3))) {
        this.out.lit(c, false);
        this.i++;
      }
    }
    this.out.endPart('');
    if (this.closer !== undefined) {
      this.out.problem('unterminated substitution');
    }
    return this.result();
  }

  private result(): ParsedCommand {
    return { parts: this.out.parts, substitutions: this.substitutions, problems: this.out.problems };
  }
}

/** Control characters but tab and newline (C0, DEL, C1): bash reads them as ordinary bytes, a reader may not. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** A backslash and the character it escapes: a backslash-newline is removed, an escaped backslash kept. */
const ESCAPED = /\\([\s\S])/g;

function lex(src: string): ParsedCommand {
  return new Lexer(src, 0, undefined).run();
}

/**
 * Parse a command line. Never throws; see {@link ParsedCommand.problems} for what could not be read.
 * - A control character other than tab and newline (a carriage return, NUL, ESC, …) is a problem: bash reads a CR
 *   as part of a word (so `hi<CR># x` is no comment), and whoever reads the line after the gate may not.
 * - bash removes each backslash-newline before it reads any token (outside single quotes, comments and here-document
 *   bodies). The lexer skips it between characters, but a construct read ahead (`$` then `HOME`, `&` then `&`)
 *   would see it, so the line is read both as written and with every backslash-newline removed: the same reading
 *   means no continuation mattered; different readings are a problem, and the joined reading is returned (what
 *   bash runs unless the continuation sat inside single quotes or a comment).
 */
export function parseCommand(command: string): ParsedCommand {
  const src = typeof command === 'string' ? command : '';
  const control = CONTROL.exec(src);
  const extra: string[] = [];
  if (control !== null) {
    extra.push(`the control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
  }
  let parsed = lex(src);
  if (src.includes('\\\n')) {
    const joined = lex(src.replace(ESCAPED, (m, c: string) => (c === '\n' ? '' : m)));
    if (JSON.stringify(joined) !== JSON.stringify(parsed)) {
      extra.push('a backslash-newline that changes how the line reads');
      parsed = joined;
    }
  }
  return extra.length === 0 ? parsed : { ...parsed, problems: [...parsed.problems, ...extra] };
}
