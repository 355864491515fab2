/**
 * The built-in denylist: shell commands that destroy the machine or run code fetched from the network. Nothing
 * lifts it: no mode, pattern, grant or policy. It matches the parsed command (every simple command, including
 * those inside `$(…)`, backticks, process substitutions and `sh -c '…'`), after wrappers such as `sudo`, `env`
 * or `nice` are stripped, never a substring: `rm -rf build` is not on it.
 *
 * The same function marks a remote (Fountain) request dangerous, so it takes nothing but the command string.
 */
import { allParts, parseCommand, type CommandPart, type ParsedCommand } from './shell';
import { SHELLS, basename, stripWrappers, verbOf } from './shellWords';

export { SHELLS, stripWrappers, verbOf } from './shellWords';

export interface DenylistHit {
  /** Why, as a phrase a sentence can end with: "recursively removes the root directory". */
  readonly reason: string;
}

const DOWNLOADERS = new Set(['curl', 'wget', 'fetch', 'aria2c', 'http', 'https', 'xh']);
/** Top-level system directories whose recursive removal (or re-permissioning) wrecks the machine. */
const SYSTEM_DIRS = new Set([
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/home',
  '/lib',
  '/lib32',
  '/lib64',
  '/opt',
  '/proc',
  '/root',
  '/sbin',
  '/srv',
  '/sys',
  '/usr',
  '/var',
  '/System',
  '/Users',
  '/Library',
  '/Applications',
]);
/** Block devices (disks, partitions): /dev/sda, /dev/nvme0n1p1, /dev/mmcblk0, /dev/disk2, /dev/mapper/x, … */
const DEVICE = /^\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|mapper\/|loop|nbd|sr)[^\s]*/;

/** An absolute or home-relative path with `.`, `..`, repeated and trailing slashes and trailing `*` resolved. */
function normalise(target: string): string | undefined {
  const t = target.replace(/^(?:\$\{HOME\}|\$HOME)(?=\/|$)/, '~').replace(/^~[A-Za-z0-9_.-]*(?=\/|$)/, '~');
  const home = t.startsWith('~');
  if (!home && !t.startsWith('/')) {
    return undefined;
  }
  const segs: string[] = [];
  for (const seg of t.slice(home ? 1 : 0).split('/')) {
    if (seg === '' || seg === '.') {
      continue;
    }
    if (seg === '..') {
      if (segs.length > 0) {
        segs.pop();
      } else if (home) {
        return '~/..';
      }
      continue;
    }
    segs.push(seg);
  }
  // `/*`, `~/*`, `/usr/**`: the directory's whole content.
  while (segs.length > 0 && /^\*+$/.test(segs[segs.length - 1])) {
    segs.pop();
  }
  return (home ? '~' : '') + (segs.length > 0 || !home ? '/' : '') + segs.join('/');
}

function catastrophic(target: string): string | undefined {
  const t = normalise(target);
  if (t === '/') {
    return 'the root directory (/)';
  }
  if (t === '~' || t === '~/..') {
    return t === '~' ? 'your home directory' : 'the directory above your home';
  }
  if (t !== undefined && SYSTEM_DIRS.has(t)) {
    return `the system directory ${t}`;
  }
  return undefined;
}

function flags(args: readonly string[]): { short: Set<string>; long: Set<string>; operands: string[] } {
  const short = new Set<string>();
  const long = new Set<string>();
  const operands: string[] = [];
  let ended = false;
  for (const a of args) {
    if (!ended && a === '--') {
      ended = true;
    } else if (!ended && a.startsWith('--')) {
      long.add(a.split('=')[0]);
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

function isDevice(path: string): boolean {
  return DEVICE.test(path.replace(/\/+/g, '/'));
}

type Rule = (words: readonly string[], part: CommandPart) => string | undefined;

const rules: Rule[] = [
  // rm -r / -R / --recursive of /, /*, ~, $HOME or a top-level system directory.
  (w) => {
    if (basename(w[0] ?? '') !== 'rm') {
      return undefined;
    }
    const f = flags(w.slice(1));
    if (!f.short.has('r') && !f.short.has('R') && !f.long.has('--recursive')) {
      return undefined;
    }
    for (const op of f.operands) {
      const what = catastrophic(op);
      if (what) {
        return `recursively removes ${what}`;
      }
    }
    return undefined;
  },
  // find / -delete, find ~ -exec rm …: the same removal by another route.
  (w) => {
    if (basename(w[0] ?? '') !== 'find') {
      return undefined;
    }
    const destructive = w.some((a) => a === '-delete') || w.some((a, i) => a.startsWith('-exec') && w[i + 1] === 'rm');
    const root = w.slice(1).find((a) => !a.startsWith('-') && catastrophic(a));
    return destructive && root ? `deletes everything under ${catastrophic(root)} with find` : undefined;
  },
  (w) => {
    const v = basename(w[0] ?? '');
    if (v.startsWith('mkfs') || v === 'mke2fs' || v === 'wipefs' || v === 'mkswap') {
      return `formats or wipes a file system (${v})`;
    }
    return undefined;
  },
  (w) => {
    const v = basename(w[0] ?? '');
    if (v === 'dd') {
      const of = w.find((a) => a.startsWith('of='));
      if (of && isDevice(of.slice(3))) {
        return `writes with dd onto the device ${of.slice(3)}`;
      }
    }
    const args = w.slice(1).filter((a) => !a.startsWith('-'));
    const dev = args.find(isDevice);
    if (dev && (v === 'shred' || v === 'tee' || v === 'wipe')) {
      return `overwrites the raw disk ${dev} (${v})`;
    }
    if (
      (v === 'cp' || v === 'mv' || v === 'install' || v === 'pv') &&
      args.length > 1 &&
      isDevice(args[args.length - 1])
    ) {
      return `writes straight onto the raw disk ${args[args.length - 1]}`;
    }
    for (const tool of ['fdisk', 'sfdisk', 'parted', 'sgdisk', 'gdisk']) {
      if (v === tool && w.slice(1).some(isDevice) && !w.includes('-l') && !w.includes('--list')) {
        return `repartitions a disk (${tool})`;
      }
    }
    return undefined;
  },
  (_w, part) => {
    const r = part.redirects.find((x) => /^(?:>|>>|>\||&>|&>>|<>|\d*>&?)$/.test(x.op) && isDevice(x.target));
    return r ? `writes straight onto the raw disk ${r.target}` : undefined;
  },
  (w) => {
    const v = basename(w[0] ?? '');
    if (v !== 'chmod' && v !== 'chown' && v !== 'chgrp') {
      return undefined;
    }
    const f = flags(w.slice(1));
    if (!f.short.has('R') && !f.long.has('--recursive')) {
      return undefined;
    }
    // The first operand is the mode or owner; the rest are targets.
    for (const op of f.operands.slice(1)) {
      const what = catastrophic(op);
      if (what) {
        return `recursively changes the ${v === 'chmod' ? 'permissions' : 'ownership'} of ${what}`;
      }
    }
    return undefined;
  },
];

function isShell(word: string | undefined): boolean {
  return SHELLS.has(basename(word ?? ''));
}

function runsDownload(parsed: ParsedCommand): boolean {
  return allParts(parsed).some((p) => DOWNLOADERS.has(verbOf(p)));
}

/** `curl … | sh`, `wget -O- … | sudo bash`, `bash <(curl …)`, `sh -c "$(curl …)"`, `source <(curl …)`. */
function networkToShell(parsed: ParsedCommand): string | undefined {
  const parts = parsed.parts;
  for (let i = 0; i < parts.length; i++) {
    const v = verbOf(parts[i]);
    const interpreter = isShell(v) || v === 'source' || v === '.' || v === 'eval';
    if (interpreter) {
      // Downstream of a download in the same pipeline.
      for (let j = i - 1; j >= 0 && (parts[j + 1].after === '|' || parts[j + 1].after === '|&'); j--) {
        if (DOWNLOADERS.has(verbOf(parts[j]))) {
          return `pipes a download from ${verbOf(parts[j])} into a shell`;
        }
      }
    }
  }
  for (const sub of parsed.substitutions) {
    if (runsDownload(sub.body)) {
      const host = parts.find((p) => {
        const v = verbOf(p);
        return isShell(v) || v === 'source' || v === '.' || v === 'eval';
      });
      if (host) {
        return 'runs a downloaded script in a shell';
      }
    }
  }
  return undefined;
}

const NAME_CHAR = /[A-Za-z0-9_:.-]/;

/**
 * `:(){ :|:& };:`, `bomb(){ bomb|bomb& };bomb`, `function f { f|f& }`: a function whose body pipes itself into
 * itself in the background. Read from the raw text (the lexer refuses function definitions), in linear time.
 */
function isForkBomb(raw: string): boolean {
  let close = -1;
  for (let open = raw.indexOf('{'); open >= 0; open = raw.indexOf('{', open + 1)) {
    if (close < open) {
      close = raw.indexOf('}', open);
      if (close < 0) {
        return false;
      }
    }
    // Walk back over `()` and blanks to the function's name.
    let j = open - 1;
    while (j >= 0 && /\s/.test(raw[j])) {
      j--;
    }
    if (raw[j] === ')') {
      j--;
      while (j >= 0 && /\s/.test(raw[j])) {
        j--;
      }
      if (raw[j] !== '(') {
        continue;
      }
      j--;
      while (j >= 0 && /\s/.test(raw[j])) {
        j--;
      }
    }
    let k = j;
    while (k >= 0 && j - k < 64 && NAME_CHAR.test(raw[k])) {
      k--;
    }
    const name = raw.slice(k + 1, j + 1);
    if (name === '') {
      continue;
    }
    const body = raw.slice(open + 1, Math.min(close, open + 512)).replace(/\s+/g, '');
    if (body.includes(`${name}|${name}&`) || body.includes(`${name}|&${name}&`)) {
      return true;
    }
  }
  return false;
}

function check(parsed: ParsedCommand, raw: string, depth: number): DenylistHit | undefined {
  if (isForkBomb(raw)) {
    return { reason: 'is a fork bomb' };
  }
  const net = networkToShell(parsed);
  if (net) {
    return { reason: net };
  }
  for (const sub of parsed.substitutions) {
    const inner = check(sub.body, '', depth);
    if (inner) {
      return inner;
    }
  }
  for (const part of parsed.parts) {
    const words = stripWrappers(part.words);
    for (const rule of rules) {
      const reason = rule(words, part);
      if (reason) {
        return { reason };
      }
    }
    // sh -c '…', bash -lc "…", eval '…': the string is a command line of its own.
    const v = basename(words[0] ?? '');
    if (depth < 4 && (isShell(v) || v === 'eval')) {
      const script =
        v === 'eval' ? words.slice(1).join(' ') : words.find((_a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(words[i - 1]));
      if (script !== undefined) {
        const inner = check(parseCommand(script), script, depth + 1);
        if (inner) {
          return inner;
        }
      }
    }
  }
  return undefined;
}

/** Whether `command` is on the built-in denylist, and why. Total: any string, any length. `parsed`: its parse, if at hand. */
export function denylistMatch(command: string, parsed?: ParsedCommand): DenylistHit | undefined {
  if (typeof command !== 'string' || command === '') {
    return undefined;
  }
  return check(parsed ?? parseCommand(command), command, 0);
}
