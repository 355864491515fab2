/**
 * Program specifications: for each program the gate may allow without asking, by basename, the options it may
 * carry (an allowlist), which operands are paths and how they are used, and the options that never go unasked
 * (they run a program, name a hook, write a file, or follow links out of the scope). The built-in bundles are
 * made of these; allow patterns and grants read their hazards (see commandRules.ts).
 *
 * Left out on purpose: `awk`, `sed` (awk's `system()`, GNU sed's `e` run programs), `env` with operands (runs
 * them), `git ls-remote` (connects out), `go` (any go command may download and run another toolchain named by
 * go.mod), `grep -R`, `rg -L`, `find -L`, `du -L`, `tree -l` (follow links anywhere), `rg -z`/`file -z` (run
 * decompressors), `date -s`, `hostname NAME` (change the machine).
 */
import { longs, type ProgramSpec } from './specParse';

export type { ProgramSpec, SpecPath, SpecReading, Val } from './specParse';

const DIGITS = '0123456789';

const GREP: ProgramSpec = {
  flags: `EFGPiyvwxcLloqsbHhnTZzUaIr${DIGITS}`,
  valued: { e: 'text', f: 'read', m: 'num', A: 'num', B: 'num', C: 'num', d: 'text', D: 'text' },
  long: longs(
    'extended-regexp fixed-strings basic-regexp perl-regexp regexp=text file=read ignore-case no-ignore-case ' +
      'word-regexp line-regexp null-data no-messages invert-match version help max-count=num byte-offset ' +
      'line-number no-line-number line-buffered with-filename no-filename label=text only-matching quiet silent ' +
      'binary-files=text text directories=text devices=text recursive include=text exclude=text ' +
      'exclude-from=read exclude-dir=text files-without-match files-with-matches count initial-tab null ' +
      'before-context=num after-context=num context=num color=opt colour=opt binary',
  ),
  gnu: true,
  operands: 'pattern',
  readsCwd: true,
  hazards: ['-R', '--dereference-recursive'],
};

const READ_ONLY: Record<string, ProgramSpec> = {
  pwd: { flags: 'LP', operands: 'none' },
  whoami: { operands: 'none' },
  id: {
    flags: 'gGnruzZ',
    long: longs('group groups name real user zero context'),
    gnu: true,
    operands: 'text',
    maxOperands: 1,
  },
  groups: { operands: 'text' },
  hostname: {
    flags: 'afiIsdAy',
    long: longs('fqdn long short domain ip-address all-ip-addresses all-fqdns alias yp nis'),
    gnu: true,
    operands: 'none',
  },
  uname: {
    flags: 'asnrvmpio',
    long: longs(
      'all kernel-name nodename kernel-release kernel-version machine processor hardware-platform operating-system',
    ),
    gnu: true,
    operands: 'none',
  },
  date: {
    flags: 'uRI',
    valued: { d: 'text', r: 'read', f: 'read' },
    long: longs('utc universal rfc-email iso-8601=opt rfc-3339=text date=text reference=read file=read debug'),
    gnu: true,
    operands: 'text',
    check: (_a, ops) => (ops.every((o) => o.startsWith('+')) ? undefined : 'a date operand (it sets the clock)'),
  },
  uptime: { flags: 'ps', long: longs('pretty since'), gnu: true, operands: 'none' },
  env: { operands: 'none' },
  printenv: { flags: '0', long: longs('null'), gnu: true, operands: 'text' },
  ls: {
    flags: `aAbBcCdfFgGhHiklmnNopqQrRsStuUvxXZ1`,
    valued: { I: 'text', T: 'num', w: 'num' },
    long: longs(
      'all almost-all escape ignore-backups color=opt directory classify=opt file-type format=text full-time ' +
        'group-directories-first no-group human-readable si dereference-command-line ' +
        'dereference-command-line-symlink-to-dir hide=text hyperlink=opt indicator-style=text inode ignore=text ' +
        'kibibytes literal numeric-uid-gid quote-name quoting-style=text reverse recursive size sort=text time=text ' +
        'time-style=text tabsize=num width=num context zero help version block-size=text author',
    ),
    gnu: true,
    operands: 'read',
    readsCwd: true,
    hazards: ['-L', '--dereference'],
  },
  tree: {
    flags: 'adfixpsughDFqNQrtvUcSnCAJX',
    valued: { L: 'num', P: 'text', I: 'text' },
    long: longs('noreport dirsfirst filelimit=num charset=text sort=text du prune gitignore'),
    operands: 'read',
    readsCwd: true,
    hazards: ['-o', '-l', '-R', '-H', '--fromfile', '--output'],
  },
  cat: {
    flags: 'AbeEnstTuv',
    long: longs('show-all number-nonblank show-ends number squeeze-blank show-tabs show-nonprinting'),
    gnu: true,
    operands: 'read',
  },
  head: {
    flags: `qvz${DIGITS}`,
    valued: { n: 'text', c: 'text' },
    long: longs('lines=text bytes=text quiet silent verbose zero-terminated'),
    gnu: true,
    operands: 'read',
  },
  tail: {
    flags: `qvzfFr${DIGITS}`,
    valued: { n: 'text', c: 'text', s: 'num' },
    long: longs(
      'lines=text bytes=text quiet silent verbose zero-terminated follow=opt retry pid=num sleep-interval=num ' +
        'max-unchanged-stats=num',
    ),
    gnu: true,
    operands: 'read',
  },
  wc: {
    flags: 'clmwL',
    long: longs('bytes chars lines words max-line-length total=text files0-from=read'),
    gnu: true,
    operands: 'read',
  },
  file: {
    flags: 'bihLNnpsSk0l',
    valued: { m: 'read', f: 'read', F: 'text', e: 'text', P: 'text' },
    long: longs(
      'brief mime mime-type mime-encoding dereference no-dereference keep-going raw special-files no-pad print0 ' +
        'separator=text exclude=text exclude-quiet=text parameter=text magic-file=read files-from=read extension apple',
    ),
    gnu: true,
    operands: 'read',
    hazards: ['-C', '--compile', '-z', '-Z', '--uncompress', '--uncompress-noreport'],
  },
  echo: { flags: 'neE', operands: 'text', posix: true },
  printf: { operands: 'text', posix: true },
  true: { operands: 'text', posix: true },
  false: { operands: 'text', posix: true },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    flags: `iSsvwxcloqnNHIaUPuF0h.${DIGITS}`,
    valued: {
      e: 'text',
      f: 'read',
      g: 'text',
      t: 'text',
      T: 'text',
      m: 'num',
      A: 'num',
      B: 'num',
      C: 'num',
      M: 'num',
      j: 'num',
      r: 'text',
      E: 'text',
      d: 'num',
    },
    long: longs(
      'regexp=text file=read glob=text iglob=text type=text type-not=text ignore-case smart-case case-sensitive ' +
        'word-regexp line-regexp count count-matches files-with-matches files-without-match files only-matching ' +
        'quiet line-number no-line-number with-filename no-filename hidden no-hidden no-ignore no-ignore-vcs ' +
        'no-ignore-dot no-ignore-parent no-ignore-global unrestricted text max-count=num after-context=num ' +
        'before-context=num context=num max-depth=num max-filesize=text fixed-strings invert-match multiline ' +
        'multiline-dotall json color=text colors=text heading no-heading vimgrep column byte-offset trim sort=text ' +
        'sortr=text stats passthru null null-data replace=text threads=num type-list debug no-messages no-config ' +
        'pcre2 engine=text encoding=text field-match-separator=text field-context-separator=text path-separator=text ' +
        'max-columns=num max-columns-preview ignore-file=read',
    ),
    operands: 'pattern',
    readsCwd: true,
    hazards: ['--pre', '--pre-glob', '-L', '--follow', '-z', '--search-zip', '--hostname-bin'],
  },
  sort: {
    flags: 'bdfgiMhnRrVcCsmuz',
    valued: { k: 'text', t: 'text', S: 'text' },
    long: longs(
      'ignore-leading-blanks dictionary-order ignore-case general-numeric-sort ignore-nonprinting month-sort ' +
        'human-numeric-sort numeric-sort random-sort reverse version-sort sort=text check=opt key=text merge ' +
        'field-separator=text buffer-size=text stable unique zero-terminated parallel=num debug batch-size=num ' +
        'files0-from=read random-source=read',
    ),
    gnu: true,
    operands: 'read',
    hazards: ['-o', '--output', '--compress-program', '-T', '--temporary-directory'],
  },
  uniq: {
    flags: 'cdDiuz',
    valued: { f: 'num', s: 'num', w: 'num' },
    long: longs(
      'count repeated all-repeated=opt skip-fields=num skip-chars=num check-chars=num ignore-case unique zero-terminated group=opt',
    ),
    gnu: true,
    operands: 'read',
    maxOperands: 1,
  },
  cut: {
    flags: 'nsz',
    valued: { b: 'text', c: 'text', f: 'text', d: 'text' },
    long: longs(
      'bytes=text characters=text fields=text delimiter=text complement only-delimited output-delimiter=text zero-terminated',
    ),
    gnu: true,
    operands: 'read',
  },
  tr: { flags: 'cCdst', long: longs('complement delete squeeze-repeats truncate-set1'), gnu: true, operands: 'text' },
  which: { flags: 'as', operands: 'text' },
  type: { flags: 'afptP', operands: 'text' },
  whereis: { flags: 'bmsu', operands: 'text' },
  command: {
    flags: 'vV',
    operands: 'text',
    check: (argv) => (argv[1] === '-v' || argv[1] === '-V' ? undefined : 'command without -v (it runs its operand)'),
  },
  df: {
    flags: 'ahHiklPTx',
    valued: { t: 'text', x: 'text', B: 'text' },
    long: longs(
      'all block-size=text human-readable si inodes local no-sync sync output=opt portability total type=text print-type exclude-type=text',
    ),
    gnu: true,
    operands: 'read',
  },
  du: {
    flags: '0abcDhHklmsSx',
    valued: { d: 'num', B: 'text', t: 'text' },
    long: longs(
      'all apparent-size block-size=text bytes total dereference-args human-readable inodes max-depth=num null si ' +
        'summarize separate-dirs threshold=text time=opt time-style=text exclude=text exclude-from=read ' +
        'one-file-system count-links',
    ),
    gnu: true,
    operands: 'read',
    readsCwd: true,
    hazards: ['-L', '--dereference'],
  },
  free: {
    flags: 'bkmgthlwv',
    valued: { s: 'num', c: 'num' },
    long: longs(
      'bytes kibi mebi gibi tebi pebi kilo mega giga tera peta human wide lohi total seconds=num count=num si committed',
    ),
    gnu: true,
    operands: 'none',
  },
  ps: {
    flags: 'AaCcdeFfHjlLMNPrsTVvwxXyZ',
    valued: {
      o: 'text',
      p: 'text',
      u: 'text',
      U: 'text',
      g: 'text',
      G: 'text',
      t: 'text',
      q: 'text',
      O: 'text',
      k: 'text',
    },
    long: longs(
      'format=text sort=text pid=text ppid=text user=text group=text forest no-headers headers cols=num columns=num width=num',
    ),
    operands: 'text',
    // BSD-style `e` (`ps e`, `ps eww`, `ps auxe`) prints every process's environment (secrets included).
    check: (argv, ops) =>
      ops.some((o) => /^[A-Za-z]*e[A-Za-z]*$/.test(o)) || argv.some((a) => /environ/i.test(a))
        ? "the BSD option e (it prints other processes' environments)"
        : undefined,
  },
  cd: { flags: 'LP', operands: 'read', maxOperands: 1 },
};

/** find: its expression primaries, none of which runs, deletes, writes or follows links. */
const FIND_PRIMARIES = new Set(
  (
    '-name -iname -path -ipath -wholename -iwholename -lname -ilname -regex -iregex -type -xtype -maxdepth ' +
    '-mindepth -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -size -empty -print -print0 -prune ' +
    '-not -a -o -and -or ( ) ! , -perm -user -group -uid -gid -links -inum -samefile -xdev -mount -depth -true ' +
    '-false -readable -writable -executable -nouser -nogroup -printf -ls -quit -regextype -daystart -noleaf ' +
    '-ignore_readdir_race -used -fstype'
  ).split(' '),
);
const FIND_VALUED = new Set(
  '-name -iname -path -ipath -wholename -iwholename -lname -ilname -regex -iregex -type -xtype -maxdepth -mindepth -mtime -mmin -atime -amin -ctime -cmin -newer -anewer -cnewer -size -perm -user -group -uid -gid -links -inum -samefile -printf -regextype -used -fstype'.split(
    ' ',
  ),
);
/** Find's primaries that run a program, delete, write a file or follow links: never under a pattern or grant. */
export const FIND_HAZARDS = [
  '-exec',
  '-execdir',
  '-ok',
  '-okdir',
  '-delete',
  '-fprint',
  '-fprint0',
  '-fprintf',
  '-fls',
  '-L',
  '-follow',
];

const FIND: ProgramSpec = {
  operands: 'read',
  hazards: FIND_HAZARDS,
  check: () => undefined,
};

/** Reads a find command: its roots are read (recursively), its primaries must all be known and harmless. */
export function readFind(argv: readonly string[]): { ok: true; roots: string[] } | { ok: false; why: string } {
  let i = 1;
  while (i < argv.length && (argv[i] === '-P' || argv[i] === '-H')) {
    i++;
  }
  const roots: string[] = [];
  while (i < argv.length && !argv[i].startsWith('-') && !['(', ')', '!', ','].includes(argv[i])) {
    roots.push(argv[i++]);
  }
  for (; i < argv.length; i++) {
    const a = argv[i];
    if (!FIND_PRIMARIES.has(a)) {
      return { ok: false, why: `the find primary ${a.slice(0, 40)}` };
    }
    if (FIND_VALUED.has(a)) {
      i++;
      if (a === '-newer' || a === '-anewer' || a === '-cnewer' || a === '-samefile') {
        roots.push(argv[i] ?? '');
      }
    }
  }
  return { ok: true, roots: roots.length > 0 ? roots : ['.'] };
}

export const READ_ONLY_SPECS: Readonly<Record<string, ProgramSpec>> = Object.freeze({ ...READ_ONLY, find: FIND });

export { GIT_SPECS, GOFMT, gitReading } from './gitSpecs';
