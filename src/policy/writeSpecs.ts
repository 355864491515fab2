/**
 * The operands a program writes, and the options that name its files in a list the gate cannot read. The read_only
 * and dev_tools specifications (programSpecs.ts, gitSpecs.ts) cover programs that write nothing; these are the
 * common programs that do, read so that path scope and the protected-file rule (which holds in every mode, yolo
 * and an `execute: auto_allow` policy included) see what they write: `cp x .git/hooks/pre-commit` is a write of
 * `.git/hooks/pre-commit`, not a read. Operands are read without each program's option table, so an option's
 * value may be placed as an operand too: that can only ask more, never less. Pure.
 */
import type { SpecPath } from './specParse';

/** Every operand written (the file is created, changed or removed). */
const ALL_WRITTEN = new Set(['tee', 'touch', 'truncate', 'shred', 'rm', 'rmdir', 'unlink', 'mkdir', 'mkfifo']);
/** The first operand is a mode or an owner, the rest are written. */
const FIRST_IS_MODE = new Set(['chmod', 'chown', 'chgrp', 'chattr', 'setfacl']);
/** The last operand (or `-t DIR`) is written, the others read; mv also removes its sources. */
const TO_LAST = new Set(['cp', 'mv', 'install', 'ln', 'link', 'rsync', 'scp']);
/** Programs that read `@file` arguments as more arguments (GCC, binutils, javac, 7-Zip). */
const AT_FILE = new Set([
  ...'gcc g++ cc c++ clang clang++ ld ar nm objdump objcopy strip readelf size strings javac java 7z 7za 7zr'.split(
    ' ',
  ),
]);
const TAR_VALUED = 'bCfFgHKLNTVX';

/** The non-option words of argv (after the program), `--` ending the options. */
function operandsOf(argv: readonly string[]): string[] {
  const out: string[] = [];
  let ended = false;
  for (const w of argv.slice(1)) {
    if (!ended && w === '--') {
      ended = true;
    } else if (ended || !w.startsWith('-') || w === '-') {
      out.push(w);
    }
  }
  return out;
}

/** The value of `-x V`/`-xV` or `--long=V`/`--long V` (the first), or undefined. */
function optionValue(argv: readonly string[], short: string, long: string): string | undefined {
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w === '--') {
      return undefined;
    }
    if (w === `--${long}` || w === `-${short}`) {
      return argv[i + 1];
    }
    if (w.startsWith(`--${long}=`)) {
      return w.slice(long.length + 3);
    }
    if (short !== '' && w.startsWith(`-${short}`) && !w.startsWith('--')) {
      return w.slice(2);
    }
  }
  return undefined;
}

const write = (word: string): SpecPath => ({ word, access: 'write' });
const read = (word: string): SpecPath => ({ word, access: 'read' });

function toLast(v: string, argv: readonly string[]): SpecPath[] {
  // rsync and scp name remote operands host:path; those are no local paths.
  const local = (w: string) => !((v === 'rsync' || v === 'scp') && /^[^/]*:/.test(w));
  const ops = operandsOf(argv).filter(local);
  const target = optionValue(argv, v === 'rsync' ? '' : 't', 'target-directory');
  const sources = target !== undefined ? ops : ops.slice(0, -1);
  const dest = target ?? ops[ops.length - 1];
  return [...sources.map(v === 'mv' ? write : read), ...(dest !== undefined ? [write(dest)] : [])];
}

/** sed's file operands, written when -i/--in-place is given (the script is the first operand unless -e/-f). */
function sed(argv: readonly string[]): SpecPath[] {
  const inPlace = argv.some((w) => /^--in-place(?:=|$)/.test(w) || /^-[a-zA-Z]*i/.test(w));
  if (!inPlace) {
    return [];
  }
  const scripted = argv.some((w) => /^-[a-zA-Z]*[ef]/.test(w) || /^--(?:expression|file)/.test(w));
  const ops = operandsOf(argv);
  return (scripted ? ops : ops.slice(1)).map(write);
}

/** tar: extraction writes its directory (`-C`, else the working directory), creation writes its archive. */
function tar(argv: readonly string[]): SpecPath[] {
  let mode = '';
  let dir: string | undefined;
  let file: string | undefined;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w.startsWith('--')) {
      const [name, value] = [w.slice(2).split('=')[0], w.includes('=') ? w.slice(w.indexOf('=') + 1) : undefined];
      if (['extract', 'get', 'create', 'append', 'update', 'delete'].includes(name)) {
        mode = name === 'get' ? 'x' : name === 'extract' ? 'x' : 'c';
      } else if (name === 'directory' || name === 'file') {
        const v = value ?? argv[++i];
        if (name === 'directory') {
          dir = v;
        } else {
          file = v;
        }
      }
      continue;
    }
    // The first word may be a cluster without a dash (`tar xzf a.tgz`).
    if (!w.startsWith('-') && i > 1) {
      continue;
    }
    const letters = w.startsWith('-') ? w.slice(1) : w;
    for (let j = 0; j < letters.length; j++) {
      const c = letters[j];
      if ('xcrAu'.includes(c)) {
        mode = c === 'x' ? 'x' : 'c';
      }
      if (TAR_VALUED.includes(c)) {
        const v = j + 1 < letters.length && w.startsWith('-') ? letters.slice(j + 1) : argv[++i];
        if (c === 'C') {
          dir = v;
        } else if (c === 'f') {
          file = v;
        }
        break;
      }
    }
  }
  if (mode === 'x') {
    return [write(dir ?? '.'), ...(file !== undefined && file !== '-' ? [read(file)] : [])];
  }
  return mode === 'c' && file !== undefined && file !== '-' ? [write(file)] : [];
}

const GIT_CONFIG_READS =
  /^(?:--get|--get-all|--get-regexp|--get-urlmatch|--get-color|--get-colorbool|--list|-l|get|list|--show-origin|--show-scope|--name-only)$/;
const GIT_CONFIG_WRITES =
  /^(?:--add|--unset|--unset-all|--replace-all|--rename-section|--remove-section|-e|--edit|set|unset|rename-section|remove-section|edit)$/;

/** `git config` that sets something writes the repository's config (or the file --global, --system, -f name). */
function gitConfig(argv: readonly string[], home: string | undefined): SpecPath[] {
  const args = argv.slice(2);
  const ops = args.filter((w) => !w.startsWith('-'));
  const writes =
    args.some((w) => GIT_CONFIG_WRITES.test(w)) ||
    (!args.some((w) => GIT_CONFIG_READS.test(w)) && ops.length - (/^(?:get|set)$/.test(ops[0] ?? '') ? 1 : 0) >= 2);
  if (!writes) {
    return [];
  }
  const file = optionValue(argv, 'f', 'file');
  if (file !== undefined) {
    return [write(file)];
  }
  if (args.includes('--global')) {
    return home !== undefined ? [write(`${home}/.gitconfig`)] : [write('~/.gitconfig')];
  }
  return args.includes('--system') ? [write('/etc/gitconfig')] : [write('.git/config')];
}

/** The paths `argv` (program by basename first) writes, and what it reads beside them; [] for other programs. */
export function writtenPaths(argv: readonly string[], home?: string): SpecPath[] {
  const v = argv[0] ?? '';
  if (ALL_WRITTEN.has(v)) {
    return operandsOf(argv).map(write);
  }
  if (FIRST_IS_MODE.has(v)) {
    const ref = argv.some((w) => w.startsWith('--reference'));
    return operandsOf(argv)
      .slice(ref ? 0 : 1)
      .map(write);
  }
  if (TO_LAST.has(v)) {
    return toLast(v, argv);
  }
  if (v === 'dd') {
    return argv
      .slice(1)
      .filter((w) => /^(?:of|if)=/.test(w))
      .map((w) => (w.startsWith('of=') ? write(w.slice(3)) : read(w.slice(3))));
  }
  if (v === 'sed' || v === 'gsed') {
    return sed(argv);
  }
  if (v === 'tar' || v === 'bsdtar' || v === 'gtar') {
    return tar(argv);
  }
  if (v === 'git' && argv[1] === 'config') {
    return gitConfig(argv, home);
  }
  return [];
}

/**
 * The word by which `argv` names files in a list (a file of names, or standard input) rather than as operands,
 * or undefined: `--files0-from`, `--files-from`, `--arg-file` (GNU prefixes too), `tar -T`, `file -f`, `@file`
 * arguments, `cpio -o/-p` (names on standard input). The gate cannot place what such a list names.
 */
export function listFileWord(argv: readonly string[]): string | undefined {
  const v = argv[0] ?? '';
  for (const w of argv.slice(1)) {
    if (w === '--') {
      break;
    }
    if (/^--(?:files0|files-f|arg-f|from-f)/.test(w)) {
      return w;
    }
    if ((v === 'tar' || v === 'bsdtar' || v === 'gtar') && /^-[A-Za-z]*T/.test(w)) {
      return w;
    }
    if (v === 'file' && /^-[A-Za-z]*f/.test(w)) {
      return w;
    }
    if (AT_FILE.has(v) && w.startsWith('@') && w.length > 1) {
      return w;
    }
    if (v === 'cpio' && /^-[A-Za-z]*[op]/.test(w)) {
      return w;
    }
  }
  return undefined;
}
