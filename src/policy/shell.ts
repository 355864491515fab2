/**
 * A shell command line read the way a POSIX shell (bash) would split it, for matching rules against what runs
 * rather than against substrings. Pure and total: any string, of any length, parses without throwing.
 *
 * Why not a library: `shell-quote` (1.12.0, the maintained one) was evaluated and is lossy exactly where a gate
 * needs precision: it reads a newline as plain whitespace (so `ls\nrm -rf src` is one `ls` command), keeps
 * backticks as ordinary text, cannot tell `"$(id)"` (runs) from `'$(id)'` (does not), and accepts unterminated
 * quotes silently. `@ericcornelissen/bash-parser` pulls in 17 dependencies. So this is a small hand-written lexer
 * that fails closed: whatever it does not fully understand is reported in `problems`, and a command with problems
 * or substitutions is never allowed by a pattern or grant.
 */

import {
  KEYWORDS,
  type CommandPart,
  type ParsedCommand,
  type Redirect,
  type Substitution,
  type SubstitutionType,
} from './shellSyntax';

export type { CommandPart, ParsedCommand, Redirect, Substitution, SubstitutionType } from './shellSyntax';

const MAX_DEPTH = 16;

class Lexer {
  i = 0;
  readonly parts: CommandPart[] = [];
  readonly substitutions: Substitution[] = [];
  readonly problems: string[] = [];
  private words: string[] = [];
  private redirects: Redirect[] = [];
  private word = '';
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
      this.redirects.push({ op: this.pendingRedirect, target: this.word });
      this.pendingRedirect = undefined;
    } else {
      if (this.words.length === 0 && !this.quoted && KEYWORDS.has(this.word)) {
        this.problem(`shell keyword "${this.word}"`);
      }
      this.words.push(this.word);
    }
    this.word = '';
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
      this.parts.push({ words: this.words, redirects: this.redirects, text: this.words.join(' '), after: this.after });
    } else if (op !== '\n' && op !== '' && op !== ';') {
      this.problem(`operator "${op}" with no command before it`);
    }
    this.words = [];
    this.redirects = [];
    if (op !== '') {
      this.after = op;
    }
  }

  private add(s: string): void {
    this.word += s;
    this.inWord = true;
  }

  private startRedirect(op: string): void {
    // A word of digits right before the operator is a file descriptor (`2>`), not an argument.
    if (this.inWord && !this.quoted && /^\d+$/.test(this.word)) {
      this.word = '';
      this.inWord = false;
    }
    this.endWord();
    if (this.pendingRedirect !== undefined) {
      this.problem(`redirection "${this.pendingRedirect}" without a target`);
    }
    this.pendingRedirect = op;
  }

  /** Lex a nested body starting at `start` up to its matching ')'; returns the index after it. */
  private nested(type: SubstitutionType, start: number): number {
    if (this.depth >= MAX_DEPTH) {
      this.problem('substitutions nested too deeply');
      this.i = this.src.length;
      return this.src.length;
    }
    const inner = new Lexer(this.src, this.depth + 1, ')');
    inner.i = start;
    const body = inner.run();
    this.substitutions.push({ type, body });
    for (const p of body.problems) {
      this.problem(p);
    }
    return inner.i;
  }

  private backtick(start: number): number {
    // The body runs to the next unescaped backtick; `\`` inside is a literal backtick of the body.
    let body = '';
    let j = start;
    while (j < this.src.length && this.src[j] !== '`') {
      if (this.src[j] === '\\' && j + 1 < this.src.length) {
        body += this.src[j + 1];
        j += 2;
      } else {
        body += this.src[j++];
      }
    }
    if (j >= this.src.length) {
      this.problem('unterminated backtick');
    }
    if (this.depth >= MAX_DEPTH) {
      this.problem('substitutions nested too deeply');
    } else {
      const parsed = parseAt(body, this.depth + 1);
      this.substitutions.push({ type: '`', body: parsed });
      for (const p of parsed.problems) {
        this.problem(p);
      }
    }
    return Math.min(j + 1, this.src.length);
  }

  /** `$…` at this.i (outside single quotes). Appends the raw text to the word and records substitutions. */
  private dollar(): void {
    const s = this.src;
    const start = this.i;
    const next = s[this.i + 1];
    if (next === '(') {
      const end = this.nested('$(', this.i + 2);
      this.add(s.slice(start, end));
      this.i = end;
    } else if (next === '{') {
      let depth = 0;
      let j = this.i + 1;
      for (; j < s.length; j++) {
        if (s[j] === '{') {
          depth++;
        } else if (s[j] === '}' && --depth === 0) {
          break;
        }
      }
      const body = s.slice(this.i + 2, j);
      if (j >= s.length) {
        this.problem('unterminated ${…}');
      }
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(body)) {
        // ${x:-$(cmd)}, ${x@P} and the like can run code: read it as a substitution of unknown effect.
        this.substitutions.push({ type: '${', body: parseAt(body, MAX_DEPTH) });
        this.problem('parameter expansion with operators');
      }
      this.add(s.slice(start, Math.min(j + 1, s.length)));
      this.i = Math.min(j + 1, s.length);
    } else {
      this.add('$');
      this.i++;
    }
  }

  private singleQuoted(): void {
    this.quoted = true;
    const end = this.src.indexOf("'", this.i + 1);
    if (end < 0) {
      this.problem('unterminated single quote');
      this.add(this.src.slice(this.i + 1));
      this.i = this.src.length;
      return;
    }
    this.add(this.src.slice(this.i + 1, end));
    this.i = end + 1;
  }

  private ansiC(): void {
    this.quoted = true;
    // $'…': decode the common escapes so the denylist sees the real word; never allowed by a pattern.
    this.problem("ANSI-C quoting $'…'");
    let j = this.i + 2;
    let out = '';
    const map: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', e: '\x1b' };
    while (j < this.src.length && this.src[j] !== "'") {
      const c = this.src[j];
      if (c === '\\' && j + 1 < this.src.length) {
        const d = this.src[j + 1];
        const hex = /^x([0-9a-fA-F]{1,2})/.exec(this.src.slice(j + 1, j + 4));
        const oct = /^([0-7]{1,3})/.exec(this.src.slice(j + 1, j + 4));
        if (hex) {
          out += String.fromCharCode(parseInt(hex[1], 16));
          j += 1 + hex[0].length;
        } else if (oct) {
          out += String.fromCharCode(parseInt(oct[1], 8));
          j += 1 + oct[0].length;
        } else {
          out += map[d] ?? d;
          j += 2;
        }
      } else {
        out += c;
        j++;
      }
    }
    if (j >= this.src.length) {
      this.problem('unterminated single quote');
    }
    this.add(out);
    this.i = Math.min(j + 1, this.src.length);
  }

  private doubleQuoted(): void {
    this.quoted = true;
    const s = this.src;
    this.i++;
    this.inWord = true;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === '\\' && this.i + 1 < s.length) {
        const d = s[this.i + 1];
        if (d === '\n') {
          // line continuation
        } else if ('$`"\\'.includes(d)) {
          this.add(d);
        } else {
          this.add(c + d);
        }
        this.i += 2;
      } else if (c === '$') {
        this.dollar();
      } else if (c === '`') {
        const end = this.backtick(this.i + 1);
        this.add(s.slice(this.i, end));
        this.i = end;
      } else {
        this.add(c);
        this.i++;
      }
    }
    this.problem('unterminated double quote');
  }

  run(): ParsedCommand {
    const s = this.src;
    while (this.i < s.length) {
      const c = s[this.i];
      const two = s.slice(this.i, this.i + 2);
      const three = s.slice(this.i, this.i + 3);
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
          this.add(s[this.i + 1] ?? '');
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
        this.dollar();
      } else if (c === '`') {
        const end = this.backtick(this.i + 1);
        this.add(s.slice(this.i, end));
        this.i = end;
      } else if (two === '<(' || two === '>(') {
        this.endWord();
        const end = this.nested(two, this.i + 2);
        this.add(s.slice(this.i, end));
        this.i = end;
      } else if (c === '#' && !this.inWord) {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl;
      } else if (two === '&&' || two === '||' || two === '|&' || two === ';;' || two === ';&') {
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
        this.add(c);
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

function parseAt(src: string, depth: number): ParsedCommand {
  return new Lexer(src, depth, undefined).run();
}

/** Parse a command line. Never throws; see {@link ParsedCommand.problems} for what could not be read. */
export function parseCommand(command: string): ParsedCommand {
  return parseAt(typeof command === 'string' ? command : '', 0);
}

/** Whether any substitution (`$(…)`, backticks, `<(…)`, `>(…)`, `${…}` with operators) appears anywhere. */
export function hasSubstitution(parsed: ParsedCommand): boolean {
  return parsed.substitutions.length > 0;
}

/** Every simple command that would run, the line's own parts and those inside substitutions, depth first. */
export function allParts(parsed: ParsedCommand): CommandPart[] {
  const out: CommandPart[] = [...parsed.parts];
  for (const sub of parsed.substitutions) {
    out.push(...allParts(sub.body));
  }
  return out;
}
