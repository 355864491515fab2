/**
 * The built-in denylist: shell commands that destroy the machine or run code fetched from the network. Nothing
 * lifts it: no mode, pattern, grant or policy. It reads the normalised command line (normalise.ts): every
 * simple command, including those inside substitutions, `sh -c '…'`, `find -exec`, `xargs`, `env -S`, git
 * aliases and string literals of an interpreter's inline code, with runners unwrapped, programs by basename and
 * GNU long-option prefixes resolved (`--rec` is `--recursive`). A program it knows found later in a command's words
 * is checked from there too, so an unknown wrapper does not hide it. It is a guard, not a boundary: it refuses
 * what it can tell, and the gate never allows what it cannot read.
 *
 * The same function marks a remote (Fountain) request dangerous, so it takes nothing but the command string (and,
 * when the caller knows it, the home directory and working directory).
 */
import { normaliseLine, type NormCommand, type NormLine } from './normalise';
import { DEVICE, SYSTEM_DIRS, isForkBomb, normalise } from './denylistTargets';
import { longNames } from './options';
import { allParts, type ParsedCommand } from './shell';
import { SHELLS, basename, type ShellEnv } from './shellWords';

export { SHELLS } from './shellWords';

export interface DenylistHit {
  /** Why, as a phrase a sentence can end with: "recursively removes the root directory". */
  readonly reason: string;
}

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh', 'nc', 'ncat', 'socat']);
function catastrophic(target: string, env: ShellEnv, cwd: string | undefined): string | undefined {
  let t = normalise(target);
  if (t === undefined && cwd !== undefined && cwd.startsWith('/') && !target.startsWith('$')) {
    t = normalise(`${cwd}/${target}`);
  }
  const home = env.home !== undefined ? normalise(env.home) : undefined;
  if (t !== undefined && home !== undefined && home !== '/' && t.startsWith('/')) {
    if (t === home) {
      t = '~';
    } else if (home.startsWith(t + '/')) {
      t = '~/..';
    }
  }
  if (t === '/') {
    return 'the root directory (/)';
  }
  if (t === '~' || t === '~/..') {
    return t === '~' ? 'your home directory' : 'the directory above your home';
  }
  if (t !== undefined && SYSTEM_DIRS.has(t)) {
    return `the system directory ${t}`;
  }
  // Someone's home (the remote danger mark does not know which is the user's): /home/NAME, /Users/NAME.
  if (t !== undefined && /^\/(?:home|Users)\/[^/]+$/.test(t)) {
    return `the home directory ${t}`;
  }
  return undefined;
}

interface Flags {
  short: Set<string>;
  long: Set<string>;
  operands: string[];
}

function flags(args: readonly string[], longs: readonly string[]): Flags {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') {
      ended = true;
    } else if (!ended && a.startsWith('--')) {
      for (const n of longNames(a, longs)) {
        long.add(n);
      }
    } else if (!ended && a.startsWith('-') && a.length > 1) {
      for (const ch of a.slice(1)) {
        short.add(ch);
      }
    } else {
      operands.push(a);
    }
  }
  return { short, long, operands };
}

const RM_LONGS = [
  'force',
  'interactive',
  'one-file-system',
  'no-preserve-root',
  'preserve-root',
  'recursive',
  'dir',
  'verbose',
  'help',
  'version',
];
const CHMOD_LONGS = [
  'changes',
  'quiet',
  'silent',
  'verbose',
  'no-preserve-root',
  'preserve-root',
  'reference',
  'recursive',
  'help',
  'version',
  'dereference',
  'no-dereference',
  'from',
];

const RSYNC_LONGS = [
  'del',
  'delete',
  'delete-before',
  'delete-during',
  'delete-delay',
  'delete-after',
  'delete-excluded',
  'delete-missing-args',
  'archive',
  'recursive',
  'verbose',
  'dry-run',
  'force',
  'ignore-errors',
];
const MV_LONGS = [
  'backup',
  'force',
  'interactive',
  'no-clobber',
  'strip-trailing-slashes',
  'suffix',
  'target-directory',
  'no-target-directory',
  'update',
  'verbose',
  'context',
  'exchange',
  'no-copy',
  'debug',
  'help',
  'version',
];

function isDevice(path: string): boolean {
  return DEVICE.test(path.replace(/\/+/g, '/'));
}

interface RuleInput {
  readonly w: readonly string[];
  readonly cmd: NormCommand;
  readonly env: ShellEnv;
}

type Rule = (x: RuleInput) => string | undefined;

const rules: Rule[] = [
  // rm -r / -R / --recursive (any prefix) of /, /*, ~, $HOME or a top-level system directory; rimraf of one.
  ({ w, cmd, env }) => {
    const v = basename(w[0] ?? '');
    if (v !== 'rm' && v !== 'rimraf' && v !== 'del') {
      return undefined;
    }
    const f = flags(w.slice(1), RM_LONGS);
    if (v === 'rm' && !f.short.has('r') && !f.short.has('R') && !f.long.has('recursive')) {
      return undefined;
    }
    for (const op of f.operands) {
      const what = catastrophic(op, env, cmd.cwd ?? env.cwd);
      if (what) {
        return `recursively removes ${what}`;
      }
    }
    return undefined;
  },
  // find / -delete, find ~ -exec rm …: the same removal by another route.
  ({ w, cmd, env }) => {
    if (basename(w[0] ?? '') !== 'find') {
      return undefined;
    }
    const destructive =
      w.some((a) => a === '-delete') ||
      w.some((a, i) =>
        a.startsWith('-exec') || a.startsWith('-ok')
          ? ['rm', 'shred', 'rimraf'].includes(basename(w[i + 1] ?? ''))
          : false,
      );
    const root = w.slice(1).find((a) => !a.startsWith('-') && catastrophic(a, env, cmd.cwd ?? env.cwd));
    return destructive && root
      ? `deletes everything under ${catastrophic(root, env, cmd.cwd ?? env.cwd)} with find`
      : undefined;
  },
  ({ w }) => {
    const v = basename(w[0] ?? '');
    if (v.startsWith('mkfs') || v === 'mke2fs' || v === 'wipefs' || v === 'mkswap') {
      return `formats or wipes a file system (${v})`;
    }
    return undefined;
  },
  ({ w }) => {
    const v = basename(w[0] ?? '');
    if (v === 'dd') {
      const of = w.find((a) => a.startsWith('of='));
      if (of && isDevice(of.slice(3))) {
        return `writes with dd onto the device ${of.slice(3)}`;
      }
    }
    const args = w.slice(1).filter((a) => !a.startsWith('-'));
    const dev = args.find(isDevice);
    if (dev && (v === 'shred' || v === 'tee' || v === 'wipe' || v === 'blkdiscard')) {
      return `overwrites the raw disk ${dev} (${v})`;
    }
    if (['cp', 'mv', 'install', 'pv', 'cat'].includes(v) && args.length > 1 && isDevice(args[args.length - 1])) {
      return `writes straight onto the raw disk ${args[args.length - 1]}`;
    }
    for (const tool of ['fdisk', 'sfdisk', 'parted', 'sgdisk', 'gdisk', 'cfdisk']) {
      if (v === tool && w.slice(1).some(isDevice) && !w.includes('-l') && !w.includes('--list')) {
        return `repartitions a disk (${tool})`;
      }
    }
    return undefined;
  },
  ({ w, cmd, env }) => {
    const v = basename(w[0] ?? '');
    if (v !== 'chmod' && v !== 'chown' && v !== 'chgrp') {
      return undefined;
    }
    const f = flags(w.slice(1), CHMOD_LONGS);
    if (!f.short.has('R') && !f.long.has('recursive')) {
      return undefined;
    }
    // The first operand is the mode or owner (unless --reference gave it); the rest are targets.
    for (const op of f.long.has('reference') ? f.operands : f.operands.slice(1)) {
      const what = catastrophic(op, env, cmd.cwd ?? env.cwd);
      if (what) {
        return `recursively changes the ${v === 'chmod' ? 'permissions' : 'ownership'} of ${what}`;
      }
    }
    return undefined;
  },
  // rsync --delete (any --del… option) onto /, a home or a system directory: it removes what the source lacks.
  ({ w, cmd, env }) => {
    if (basename(w[0] ?? '') !== 'rsync') {
      return undefined;
    }
    const f = flags(w.slice(1), RSYNC_LONGS);
    const target = f.operands[f.operands.length - 1];
    if (f.operands.length < 2 || ![...f.long].some((n) => n.startsWith('del'))) {
      return undefined;
    }
    const what = catastrophic(target.replace(/^[^/:~$]*::?(?=[/~])/, ''), env, cmd.cwd ?? env.cwd);
    return what ? `deletes everything in ${what} that the source lacks (rsync --delete)` : undefined;
  },
  // mv of /, a home or a system directory (a source operand, not the destination): it is gone from where it was.
  ({ w, cmd, env }) => {
    if (basename(w[0] ?? '') !== 'mv') {
      return undefined;
    }
    const f = flags(w.slice(1), MV_LONGS);
    const target = [...f.long].some((n) => n === 'target-directory') || f.short.has('t');
    for (const op of target ? f.operands : f.operands.slice(0, -1)) {
      const what = catastrophic(op, env, cmd.cwd ?? env.cwd);
      if (what) {
        return `moves away ${what}`;
      }
    }
    return undefined;
  },
];

/** Programs the rules know: a command is also checked from any of these found later in its words. */
const RULE_PROGRAMS =
  /^(?:rm|rimraf|rsync|mv|find|mkfs.*|mke2fs|wipefs|mkswap|dd|shred|wipe|blkdiscard|chmod|chown|chgrp|fdisk|sfdisk|parted|sgdisk|gdisk|cfdisk)$/;

function redirectRule(cmd: NormCommand): string | undefined {
  const r = cmd.redirects.find((x) => /^(?:>|>>|>\||&>|&>>|<>|\d*>&?)$/.test(x.op) && isDevice(x.target ?? x.raw));
  return r ? `writes straight onto the raw disk ${r.target ?? r.raw}` : undefined;
}

function checkCommand(cmd: NormCommand, env: ShellEnv): string | undefined {
  const redirect = redirectRule(cmd);
  if (redirect) {
    return redirect;
  }
  for (let k = 0; k < cmd.argv.length; k++) {
    const word = cmd.argv[k];
    if (
      k > 0 &&
      !(RULE_PROGRAMS.test(basename(word)) && (!word.includes('/') || /^\/(?:usr\/)?(?:local\/)?s?bin\//.test(word)))
    ) {
      continue;
    }
    const w = k === 0 ? cmd.argv : cmd.argv.slice(k);
    for (const rule of rules) {
      const reason = rule({ w, cmd, env });
      if (reason) {
        return reason;
      }
    }
  }
  return undefined;
}

const BIN_PATH = /^\/(?:usr\/)?(?:local\/)?s?bin\//;

const runsShell = (c: NormCommand): boolean =>
  SHELLS.has(c.argv[0]) || c.argv[0] === 'source' || c.argv[0] === '.' || c.argv[0] === 'eval';

/** `curl … | sh`, `wget -O- … | sudo bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, `source <(curl …)`. */
function networkToShell(line: NormLine): string | undefined {
  let download: string | undefined;
  for (const c of line.commands) {
    if (c.after !== '|' && c.after !== '|&') {
      download = undefined;
    }
    if (download !== undefined && runsShell(c) && !c.argv.some((a) => /^-[A-Za-z]*c[A-Za-z]*$/.test(a))) {
      return `pipes a download from ${download} into a shell`;
    }
    // A downloader anywhere in the words (as a name or under a bin directory): an unknown wrapper does not hide it.
    const fetcher = c.argv.find(
      (w, k) => (k === 0 || !w.includes('/') || BIN_PATH.test(w)) && DOWNLOADERS.has(basename(w)),
    );
    if (fetcher !== undefined) {
      download = basename(fetcher);
    }
  }
  const subs = (p: ParsedCommand) =>
    p.substitutions.some((s) => allParts(s.body).some((x) => DOWNLOADERS.has(basename(x.words[0] ?? ''))));
  if (subs(line.parsed) && line.commands.some(runsShell)) {
    return 'runs a downloaded script in a shell';
  }
  return undefined;
}

/** The denylist's verdict on a normalised line (`raw`: its text, for the fork-bomb check). */
export function denylistLine(line: NormLine, raw: string, env: ShellEnv = {}): DenylistHit | undefined {
  if (isForkBomb(raw)) {
    return { reason: 'is a fork bomb' };
  }
  const net = networkToShell(line);
  if (net) {
    return { reason: net };
  }
  for (const cmd of line.commands) {
    const reason = checkCommand(cmd, env);
    if (reason) {
      return { reason };
    }
  }
  return undefined;
}

/**
 * Whether a command that takes more operands at run time (`xargs rm -rf`) would be denied with a catastrophic one:
 * the gate cannot tell, so it asks about such a command in every mode.
 */
export function denylistMaybe(line: NormLine, env: ShellEnv = {}): DenylistHit | undefined {
  for (const cmd of line.commands) {
    if (cmd.more) {
      const reason = checkCommand({ ...cmd, argv: [...cmd.argv.map((a) => (a === '{}' ? '/' : a)), '/'] }, env);
      if (reason) {
        return { reason: `may take its operands from input, and ${reason.replace(/^/, 'then ')}` };
      }
    }
  }
  return undefined;
}

/**
 * Whether `command` is on the built-in denylist, and why. Total: any string, any length (callers cap what they
 * pass). `env`: the home directory and working directory, when known.
 */
export function denylistMatch(command: string, _parsed?: ParsedCommand, env: ShellEnv = {}): DenylistHit | undefined {
  if (typeof command !== 'string' || command === '') {
    return undefined;
  }
  return denylistLine(normaliseLine(command, env), command, env);
}
