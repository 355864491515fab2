/**
 * Reading a command's argv against a program specification (programSpecs.ts): which options it carries (an
 * allowlist; GNU long-option prefixes resolved where the program accepts them), which operands are paths and how
 * they are used. Pure.
 */

/** What an option's value or an operand is: free text, a number, or a path that is read. */
export type Val = 'text' | 'num' | 'read';

export interface ProgramSpec {
  /** Short options without a value. */
  readonly flags?: string;
  /** Short options with a value, and what the value is. */
  readonly valued?: Readonly<Record<string, Val>>;
  /** Long options (without `--`): `none` takes no value, `opt` an optional `=value`, else a value of that type. */
  readonly long?: Readonly<Record<string, Val | 'none' | 'opt'>>;
  /** Whether long options may be abbreviated (GNU getopt_long); git and ripgrep do not (exact names only). */
  readonly gnu?: boolean;
  /** What operands are: paths read; text; none allowed; `pattern` (the first is a pattern unless -e/-f gave one). */
  readonly operands: 'read' | 'text' | 'none' | 'pattern';
  readonly maxOperands?: number;
  /** Options end at the first operand (printf, echo-likes): later words are operands even when they start with `-`. */
  readonly posix?: boolean;
  /** With no path operand it reads the working directory (ls, grep -r, find, du, tree, rg). */
  readonly readsCwd?: boolean;
  /**
   * Options that run a program, name a hook, write a file or follow links out of the scope. Never covered by a
   * pattern's `*` or a grant; a GNU prefix of one counts as the option (`--comp` is `--compress-program`).
   */
  readonly hazards?: readonly string[];
  /** Extra check of the whole argv (after options were read); a sentence when it is not allowed. */
  readonly check?: (argv: readonly string[], operands: readonly string[]) => string | undefined;
}

export interface SpecPath {
  readonly word: string;
  readonly access: 'read' | 'write';
}

export type SpecReading =
  | { readonly ok: true; readonly paths: readonly SpecPath[]; readonly operands: readonly string[] }
  | { readonly ok: false; readonly why: string };

/** `'a b=text c=opt'` → `{a: 'none', b: 'text', c: 'opt'}`. */
export function longs(spec: string): Record<string, Val | 'none' | 'opt'> {
  const out: Record<string, Val | 'none' | 'opt'> = {};
  for (const t of spec.split(/\s+/).filter((x) => x !== '')) {
    const [name, type] = t.split('=');
    out[name] = (type as Val | 'opt' | undefined) ?? 'none';
  }
  return out;
}

function resolve(spec: ProgramSpec, given: string): string | undefined {
  const names = Object.keys(spec.long ?? {});
  if (names.includes(given)) {
    return given;
  }
  if (spec.gnu !== true) {
    return undefined;
  }
  const c = names.filter((n) => n.startsWith(given));
  return c.length === 1 && given !== '' ? c[0] : undefined;
}

/** The argv (program first) read against `spec`: its paths, or why it is outside the specification. */
export function readArgv(argv: readonly string[], spec: ProgramSpec): SpecReading {
  const paths: SpecPath[] = [];
  const operands: string[] = [];
  let ended = false;
  let patternGiven = false;
  const value = (type: Val, v: string | undefined, opt: string): string | undefined => {
    if (v === undefined) {
      return `the option ${opt} needs a value`;
    }
    if (type === 'num' && !/^[+-]?[0-9]+[A-Za-z%]*$/.test(v)) {
      return `the option ${opt} takes a number, not "${v}"`;
    }
    if (type === 'read') {
      paths.push({ word: v, access: 'read' });
    }
    return undefined;
  };
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (ended || w === '-' || !w.startsWith('-') || (spec.posix === true && operands.length > 0)) {
      operands.push(w);
      if (spec.posix === true) {
        ended = true;
      }
      continue;
    }
    if (w === '--') {
      ended = true;
      continue;
    }
    if (w.startsWith('--')) {
      const eq = w.indexOf('=');
      const name = resolve(spec, w.slice(2, eq < 0 ? undefined : eq));
      if (name === undefined) {
        return { ok: false, why: `the option ${w.slice(0, 60)}` };
      }
      const type = spec.long![name];
      if (type === 'none' && eq >= 0) {
        return { ok: false, why: `the option --${name} with a value` };
      }
      if (type !== 'none' && type !== 'opt') {
        const bad = value(type, eq >= 0 ? w.slice(eq + 1) : argv[++i], `--${name}`);
        if (bad) {
          return { ok: false, why: bad };
        }
      }
      if (name === 'regexp' || name === 'file') {
        patternGiven = true;
      }
      continue;
    }
    for (let j = 1; j < w.length; j++) {
      const c = w[j];
      const type = spec.valued?.[c];
      if (type !== undefined) {
        const bad = value(type, j + 1 < w.length ? w.slice(j + 1) : argv[++i], `-${c}`);
        if (bad) {
          return { ok: false, why: bad };
        }
        if (c === 'e' || c === 'f') {
          patternGiven = true;
        }
        break;
      }
      if (!(spec.flags ?? '').includes(c)) {
        return { ok: false, why: `the option -${c}` };
      }
    }
  }
  let rest = operands;
  if (spec.operands === 'pattern') {
    rest = patternGiven ? operands : operands.slice(1);
  }
  if (spec.operands === 'none' && operands.length > 0) {
    return { ok: false, why: `the operand "${operands[0].slice(0, 60)}"` };
  }
  if (spec.maxOperands !== undefined && operands.length > spec.maxOperands) {
    return { ok: false, why: `more than ${spec.maxOperands} operand${spec.maxOperands === 1 ? '' : 's'}` };
  }
  const extra = spec.check?.(argv, operands);
  if (extra) {
    return { ok: false, why: extra };
  }
  if (spec.operands === 'read' || spec.operands === 'pattern') {
    for (const r of rest) {
      if (r !== '-') {
        paths.push({ word: r, access: 'read' });
      }
    }
    if (spec.readsCwd === true && rest.length === 0) {
      paths.push({ word: '.', access: 'read' });
    }
  }
  return { ok: true, paths, operands };
}

/** Why an option word is one of the spec's hazards (GNU prefixes and short clusters included), or undefined. */
export function hazardOf(word: string, hazards: readonly string[], gnu: boolean): string | undefined {
  if (!word.startsWith('-') || word === '-' || word === '--') {
    return undefined;
  }
  if (word.startsWith('--')) {
    const given = word.slice(2).split('=')[0];
    const hit = hazards.find(
      (h) => h.startsWith('--') && (h.slice(2) === given || (gnu && given !== '' && h.slice(2).startsWith(given))),
    );
    return hit;
  }
  // Single-dash words: an exact hazard (`-exec`, `-toolexec`), or a letter of a short cluster (`-uo` has `-o`).
  const exact = hazards.find((h) => h === word || word.startsWith(`${h}=`));
  if (exact) {
    return exact;
  }
  return hazards.find((h) => /^-[A-Za-z0-9]$/.test(h) && word.slice(1).includes(h[1]));
}
