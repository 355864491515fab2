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
 * pieces ({@link Seg}) so that a later step can tell a literal word from one the shell would still expand.
 */

import {
  KEYWORDS,
  decodeAnsiC,
  scanBacktick,
  scanBrace,
  type CommandPart,
  type ParsedCommand,
  type Redirect,
  type Seg,
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
for (const c of ' \t\n\r\\\'"$`<>|&;()#') {
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
  readonly parts: CommandPart[] = [];
  readonly substitutions: Substitution[] = [];
  readonly problems: string[] = [];
  private words: string[] = [];
  private wordSegs: Seg[][] = [];
  private redirects: Redirect[] = [];
  private word = '';
  private segs: Seg[] = [];
  private inWord = false;
  /** Whether a quote or escape went into the current word (a quoted `if` or `!` is no keyword). */
  private quoted = false;
  private pendingRedirect: string | undefined;
  private after = '';

  constructor(
    private readonly src: string,
    private readonly depth: number,
    /** ')' when lexing a `$(…)`/`<(…)` body in place: stop at the matching paren. */
    private readonly closer: ')' | undefined,
  ) {}

  private problem(p: string): void {
    if (!this.problems.includes(p)) {
      this.problems.push(p);
    }
  }

  private endWord(): void {
    if (!this.inWord) {
      return;
    }
    if (this.pendingRedirect !== undefined) {
      this.redirects.push({ op: this.pendingRedirect, target: this.word, segs: this.segs });
      this.pendingRedirect = undefined;
    } else {
      if (this.words.length === 0 && !this.quoted && KEYWORDS.has(this.word)) {
        this.problem(`shell keyword "${this.word}"`);
      }
      this.words.push(this.word);
      this.wordSegs.push(this.segs);
    }
    this.word = '';
    this.segs = [];
    this.inWord = false;
    this.quoted = false;
  }

  private endPart(op: string): void {
    this.endWord();
    if (this.pendingRedirect !== undefined) {
      this.problem(`redirection "${this.pendingRedirect}" without a target`);
      this.pendingRedirect = undefined;
    }
    if (this.words.length > 0 || this.redirects.length > 0) {
      this.parts.push({
        words: this.words,
        redirects: this.redirects,
        text: this.words.join(' '),
        after: this.after,
        segs: this.wordSegs,
      });
    } else if (op !== '\n' && op !== '' && op !== ';') {
      this.problem(`operator "${op}" with no command before it`);
    }
    this.words = [];
    this.wordSegs = [];
    this.redirects = [];
    if (op !== '') {
      this.after = op;
    }
  }

  /** Literal text; `q`: quoted or escaped. Adjacent literal pieces of the same quoting are merged in place. */
  private lit(s: string, q: boolean): void {
    this.word += s;
    this.inWord = true;
    const last = this.segs[this.segs.length - 1] as { t: string; s: string; q: boolean } | undefined;
    if (last !== undefined && last.t === 'lit' && last.q === q) {
      last.s += s;
    } else {
      this.segs.push({ t: 'lit', s, q });
    }
  }

  private exp(raw: string): void {
    this.word += raw;
    this.inWord = true;
    this.segs.push({ t: 'exp', raw });
  }

  private startRedirect(op: string): void {
    // A word of digits right before the operator is a file descriptor (`2>`), not an argument.
    if (this.inWord && !this.quoted && /^\d+$/.test(this.word)) {
      this.word = '';
      this.segs = [];
      this.inWord = false;
    }
    this.endWord();
    if (this.pendingRedirect !== undefined) {
      this.problem(`redirection "${this.pendingRedirect}" without a target`);
    }
    this.pendingRedirect = op;
  }

  private tooDeep(): boolean {
    if (this.depth >= MAX_DEPTH) {
      this.problem('substitutions nested too deeply');
      return true;
    }
    return false;
  }

  private record(type: SubstitutionType, body: ParsedCommand): void {
    this.substitutions.push({ type, body });
    for (const p of body.problems) {
      this.problem(p);
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
      this.problem('unterminated backtick');
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
      this.exp(s.slice(start, end));
      this.i = end;
    } else if (next === '{') {
      const j = scanBrace(s, this.i + 1);
      const body = s.slice(this.i + 2, j);
      const end = Math.min(j + 1, s.length);
      if (j >= s.length) {
        this.problem('unterminated ${…}');
      }
      if (NAME.test(body)) {
        this.word += s.slice(start, end);
        this.inWord = true;
        this.segs.push({ t: 'var', name: body, q });
      } else {
        // ${x:-$(cmd)}, ${x@P} and the like can run code: read it as a substitution of unknown effect.
        this.problem('parameter expansion with operators');
        if (!this.tooDeep()) {
          this.record('${', new Lexer(body, this.depth + 1, undefined).run());
        }
        this.exp(s.slice(start, end));
      }
      this.i = end;
    } else {
      const m = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(s.slice(this.i + 1, this.i + 257));
      if (m === null) {
        this.lit('$', q);
        this.i++;
      } else if (NAME.test(m[0])) {
        this.word += '$' + m[0];
        this.inWord = true;
        this.segs.push({ t: 'var', name: m[0], q });
        this.i += 1 + m[0].length;
      } else {
        this.exp('$' + m[0]);
        this.i += 2;
      }
    }
  }

  private singleQuoted(): void {
    this.quoted = true;
    const end = this.src.indexOf("'", this.i + 1);
    if (end < 0) {
      this.problem('unterminated single quote');
      this.lit(this.src.slice(this.i + 1), true);
      this.i = this.src.length;
      return;
    }
    this.lit(this.src.slice(this.i + 1, end), true);
    this.i = end + 1;
  }

  private ansiC(): void {
    this.quoted = true;
    // $'…': decode the escapes so the denylist sees the real word; never allowed by a pattern.
    this.problem("ANSI-C quoting $'…'");
    const { text, end, closed } = decodeAnsiC(this.src, this.i + 2);
    if (!closed) {
      this.problem('unterminated single quote');
    }
    this.lit(text, true);
    this.i = end;
  }

  private doubleQuoted(): void {
    this.quoted = true;
    const s = this.src;
    this.i++;
    this.inWord = true;
    if (this.segs.length === 0) {
      this.segs.push({ t: 'lit', s: '', q: true });
    }
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\' && this.i + 1 < s.length) {
        const d = s[this.i + 1];
        if (d !== '\n') {
          this.lit('$`"\\'.includes(d) ? d : c + d, true);
        }
        this.i += 2;
      } else if (c === '$') {
        this.dollar(true);
      } else if (c === '`') {
        const end = this.backtick(this.i + 1);
        this.exp(s.slice(this.i, end));
        this.i = end;
      } else {
        const end = Math.max(plainEnd(s, this.i, SPECIAL_DQ), this.i + 1);
        this.lit(s.slice(this.i, end), true);
        this.i = end;
      }
    }
    this.problem('unterminated double quote');
  }

  private operator(c: string, two: string, three: string): boolean {
    if (two === '&&' || two === '||' || two === '|&' || two === ';;' || two === ';&') {
      if (two === ';;' || two === ';&') {
        this.problem(`operator "${two}"`);
      }
      this.endPart(two);
      this.i += 2;
    } else if (c === ';' || c === '|') {
      this.endPart(c);
      this.i++;
    } else if (three === '&>>' || three === '<<<' || three === '<<-') {
      if (three === '<<-') {
        this.problem('here-document');
      }
      this.startRedirect(three);
      this.i += 3;
    } else if (['&>', '>>', '>|', '<>', '>&', '<&', '<<'].includes(two)) {
      if (two === '<<') {
        this.problem('here-document');
      }
      this.startRedirect(two);
      this.i += 2;
    } else if (c === '&') {
      this.endPart('&');
      this.i++;
    } else if (c === '>' || c === '<') {
      this.startRedirect(c);
      this.i++;
    } else if (c === '(' || c === ')') {
      this.problem(c === '(' ? 'subshell or function definition' : 'unbalanced ")"');
      this.endPart(c);
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
        this.lit(s.slice(this.i, plain), false);
        this.i = plain;
        continue;
      }
      const c = s[this.i];
      const two = s.slice(this.i, this.i + 2);
      if (this.closer !== undefined && c === this.closer) {
        this.i++;
        this.endPart('');
        return this.result();
      }
      if (c === ' ' || c === '\t') {
        this.endWord();
        this.i++;
      } else if (c === '\n' || c === '\r') {
        this.endPart('\n');
        this.i++;
      } else if (c === '\\') {
        if (s[this.i + 1] === '\n') {
          this.i += 2;
        } else {
          this.quoted = true;
          this.lit(s[this.i + 1] ?? '', true);
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
        this.exp(s.slice(this.i, end));
        this.i = end;
      } else if (two === '<(' || two === '>(') {
        this.endWord();
        const end = this.nested(two, this.i + 2);
        this.exp(s.slice(this.i, end));
        this.i = end;
      } else if (c === '#' && !this.inWord) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl;
      } else if (!this.operator(c, two, s.slice(this.i, this.i + 3))) {
        this.lit(c, false);
        this.i++;
      }
    }
    this.endPart('');
    if (this.closer !== undefined) {
      this.problem('unterminated substitution');
    }
    return this.result();
  }

  private result(): ParsedCommand {
    return { parts: this.parts, substitutions: this.substitutions, problems: this.problems };
  }
}

/** Parse a command line. Never throws; see {@link ParsedCommand.problems} for what could not be read. */
export function parseCommand(command: string): ParsedCommand {
  return new Lexer(typeof command === 'string' ? command : '', 0, undefined).run();
}
