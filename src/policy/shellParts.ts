/**
 * The word and command model the shell lexer (shell.ts) builds as it reads: the current word and its pieces
 * ({@link Seg}), the simple command the word belongs to, its redirections, and the problems found so far. The lexer
 * decides what the characters mean; this only records the result, so a word's pieces and the part boundaries follow
 * one set of rules whichever syntax produced them.
 */

import { KEYWORDS, type CommandPart, type Redirect, type Seg } from './shellSyntax';

export class PartBuilder {
  readonly parts: CommandPart[] = [];
  readonly problems: string[] = [];
  /** Whether a word is being read (a `#` inside a word is no comment). */
  inWord = false;
  /** Whether a quote or escape went into the current word (a quoted `if` or `!` is no keyword). */
  quoted = false;
  private words: string[] = [];
  private wordSegs: Seg[][] = [];
  private redirects: Redirect[] = [];
  private word = '';
  private segs: Seg[] = [];
  private pendingRedirect: string | undefined;
  private after = '';

  /** Records a problem once. */
  problem(p: string): void {
    if (!this.problems.includes(p)) {
      this.problems.push(p);
    }
  }

  /** Ends the current word (if any): an argument, or the target of a pending redirection. */
  endWord(): void {
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

  /** Ends the current simple command at operator `op` ('' at the end of the line or of a nested body). */
  endPart(op: string): void {
    this.endWord();
    if (this.pendingRedirect !== undefined) {
      this.problem(`redirection "${this.pendingRedirect}" without a target`);
      this.pendingRedirect = undefined;
    }
    const pushed = this.words.length > 0 || this.redirects.length > 0;
    if (pushed) {
      this.parts.push({
        words: this.words,
        redirects: this.redirects,
        text: this.words.join(' '),
        after: this.after,
        segs: this.wordSegs,
      });
    } else if (op !== '\n' && op !== '' && op !== ';') {
      this.problem(`operator "${op}" with no command before it`);
    } else if (op === '' && ['|', '|&', '&&', '||'].includes(this.after)) {
      // bash refuses the whole line (`grep&&`: unexpected end of file) and runs none of it.
      this.problem(`the line ends after "${this.after}"`);
    }
    this.words = [];
    this.wordSegs = [];
    this.redirects = [];
    // A newline after `|`, `&&` or `||` continues the command list: `curl x |<newline>sh` is still a pipe.
    if (op !== '' && (pushed || op !== '\n' || !['|', '|&', '&&', '||'].includes(this.after))) {
      this.after = op;
    }
  }

  /** Literal text; `q`: quoted or escaped. Adjacent literal pieces of the same quoting are merged in place. */
  lit(s: string, q: boolean): void {
    this.word += s;
    this.inWord = true;
    const last = this.segs[this.segs.length - 1] as { t: string; s: string; q: boolean } | undefined;
    if (last !== undefined && last.t === 'lit' && last.q === q) {
      last.s += s;
    } else {
      this.segs.push({ t: 'lit', s, q });
    }
  }

  /** An expansion only running the line can tell (`raw` is kept verbatim in the word). */
  exp(raw: string): void {
    this.word += raw;
    this.inWord = true;
    this.segs.push({ t: 'exp', raw });
  }

  /** A plain variable `$name` / `${name}`, written `raw` in the line. */
  variable(raw: string, name: string, q: boolean): void {
    this.word += raw;
    this.inWord = true;
    this.segs.push({ t: 'var', name, q });
  }

  /** A double quote opens: the word exists even if the quotes stay empty (`""` is an empty argument). */
  openDoubleQuote(): void {
    this.quoted = true;
    this.inWord = true;
    if (this.segs.length === 0) {
      this.segs.push({ t: 'lit', s: '', q: true });
    }
  }

  /** A redirection operator: the next word is its target. */
  startRedirect(op: string): void {
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
}
