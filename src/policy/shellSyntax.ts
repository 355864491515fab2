/** The shapes a parsed command line comes in (see shell.ts), and the words that make a line a shell program. */

/** An output or input redirection of one simple command. `target` is the unquoted word after the operator. */
export interface Redirect {
  readonly op: string;
  readonly target: string;
}

/** One simple command between operators: its words (quotes removed, expansions kept verbatim). */
export interface CommandPart {
  readonly words: readonly string[];
  readonly redirects: readonly Redirect[];
  /** The words joined by single spaces: what patterns and grants are matched against. */
  readonly text: string;
  /** The operator before this part (`;`, `&&`, `||`, `|`, `|&`, `&`, newline), or '' for the first. */
  readonly after: string;
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
