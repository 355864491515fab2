/**
 * git's specification: global options, the inspection subcommands the dev_tools bundle allows (each with its
 * option allowlist; git's long options are matched exactly, never abbreviated), and what a `git *` grant or
 * pattern never covers: `-c` (it can define an alias that runs a shell), `--exec-path`, `--git-dir`,
 * `--work-tree`, `--config-env`, a pager, unknown subcommands (aliases), subcommands that run programs by design
 * (`bisect run`, `submodule foreach`, `difftool`, `mergetool`, `filter-branch`, `config` writes, …) and options
 * that run programs or write files (`--upload-pack`, `--exec`, `-x`, `--output`, `--ext-diff`, `-O`, `--template`).
 */
import { hazardOf, longs, readArgv, type ProgramSpec, type SpecReading } from './specParse';

const LOGISH = longs(
  'oneline graph stat shortstat numstat dirstat=opt name-only name-status patch no-patch raw summary abbrev-commit ' +
    'no-abbrev-commit abbrev=opt color=opt no-color decorate=opt no-decorate all branches=opt tags=opt remotes=opt ' +
    'since=text until=text after=text before=text author=text committer=text grep=text max-count=num skip=num ' +
    'reverse first-parent merges no-merges format=text pretty=opt date=text unified=num cached staged word-diff=opt ' +
    'ignore-space-change ignore-all-space ignore-blank-lines diff-filter=text follow check relative=opt exit-code ' +
    'quiet full-diff topo-order date-order author-date-order left-right cherry-pick cherry-mark boundary ' +
    'ancestry-path simplify-by-decoration full-history source show-signature no-textconv minimal patience histogram ' +
    'find-renames=opt find-copies=opt no-renames name-rev walk-reflogs count parents children encoding=text ' +
    'notes=opt no-notes expand-tabs=opt no-expand-tabs mailmap no-mailmap use-mailmap log-size invert-grep ' +
    'all-match regexp-ignore-case extended-regexp fixed-strings perl-regexp basic-regexp no-walk=opt do-walk ' +
    'objects objects-edge verify-objects timestamp not in-commit-order no-prefix src-prefix=text dst-prefix=text ' +
    'line-prefix=text word-diff-regex=text color-words=opt color-moved=opt no-color-moved submodule=opt ' +
    'ignore-submodules=opt merge-base default=text max-parents=num min-parents=num no-min-parents no-max-parents ' +
    'remerge-diff dd combined-all-paths pickaxe-all pickaxe-regex show-linear-break=opt porcelain incremental ' +
    'line-porcelain show-stats show-email show-name show-number root reverse-order',
);
const LOG: ProgramSpec = {
  flags: `pusmwbMCRDzcrtSlefn0123456789`,
  valued: { n: 'num', U: 'num', S: 'text', G: 'text', L: 'text', M: 'text', C: 'text' },
  long: LOGISH,
  operands: 'text',
};

const listing = (flag: string) => (argv: readonly string[], ops: readonly string[]) =>
  ops.length === 0 || argv.some((a) => a === '--list' || a === flag || /^-[a-z]*l/.test(a))
    ? undefined
    : 'an operand without --list (it creates something)';

const DEV: Record<string, ProgramSpec> = {
  status: {
    flags: 'sbuvz',
    long: longs(
      'short branch porcelain=opt long verbose untracked-files=opt ignore-submodules=opt ignored=opt column=opt ' +
        'no-column ahead-behind no-ahead-behind renames no-renames find-renames=opt show-stash null',
    ),
    operands: 'text',
  },
  log: LOG,
  show: LOG,
  diff: LOG,
  'rev-list': LOG,
  reflog: {
    ...LOG,
    check: (_a, ops) =>
      ops.length === 0 ||
      ops[0] === 'show' ||
      ops[0] === 'list' ||
      !/^(?:expire|delete|exists|drop|write)$/.test(ops[0])
        ? undefined
        : `reflog ${ops[0]}`,
  },
  blame: { ...LOG, flags: 'bclsetfnpwMC' },
  branch: {
    flags: 'arvl',
    long: longs(
      'list all remotes verbose show-current contains=opt no-contains=opt merged=opt no-merged=opt points-at=text ' +
        'sort=text format=text column=opt no-column color=opt no-color abbrev=num ignore-case omit-empty',
    ),
    operands: 'text',
    check: listing('-l'),
  },
  tag: {
    flags: 'l',
    valued: { n: 'num' },
    long: longs(
      'list contains=opt no-contains=opt merged=opt no-merged=opt points-at=text sort=text format=text column=opt no-column color=opt ignore-case omit-empty',
    ),
    operands: 'text',
    check: listing('-l'),
  },
  remote: {
    flags: 'v',
    long: longs('verbose'),
    operands: 'text',
    check: (_a, ops) =>
      ops.length === 0 || (ops[0] === 'get-url' && ops.length <= 2) ? undefined : `remote ${ops[0]}`,
  },
  config: {
    flags: 'lz',
    long: longs(
      'get get-all get-regexp list show-origin show-scope name-only null local global system worktree includes no-includes type=text default=text',
    ),
    operands: 'text',
    check: (argv, ops) =>
      argv.some((a) => /^--(?:get|get-all|get-regexp|list)$/.test(a) || /^-[a-z]*l/.test(a)) ||
      ops[0] === 'get' ||
      ops[0] === 'list'
        ? undefined
        : 'a config write',
  },
  'rev-parse': {
    flags: 'q',
    long: longs(
      'show-toplevel git-dir git-common-dir is-inside-work-tree is-inside-git-dir is-bare-repository abbrev-ref=opt ' +
        'short=opt verify quiet symbolic symbolic-full-name show-prefix show-cdup absolute-git-dir all branches=opt ' +
        'tags=opt remotes=opt since=text until=text show-object-format=opt show-ref-format is-shallow-repository ' +
        'shared-index-path path-format=text local-env-vars default=text',
    ),
    operands: 'text',
  },
  'ls-files': {
    flags: 'cdmoiskuztvf',
    long: longs(
      'cached deleted modified others ignored stage killed unmerged exclude-standard directory no-empty-directory ' +
        'full-name error-unmatch abbrev=opt eol deduplicate recurse-submodules exclude=text ' +
        'exclude-per-directory=text exclude-from=read format=text sparse',
    ),
    operands: 'text',
  },
  stash: { ...LOG, check: (_a, ops) => (ops[0] === 'list' ? undefined : `stash ${ops[0] ?? ''}`.trim()) },
};

const GLOBAL_OK = new Set([
  '--no-pager',
  '-P',
  '--no-optional-locks',
  '--literal-pathspecs',
  '--no-replace-objects',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
]);
/** Global options a pattern or grant never covers. */
export const GIT_GLOBAL_HAZARDS = [
  '-c',
  '--exec-path',
  '--git-dir',
  '--work-tree',
  '--config-env',
  '-p',
  '--paginate',
  '--attr-source',
  '--super-prefix',
];
/** Subcommands that run programs, hooks or editors by design, or rewrite configuration. */
export const GIT_HAZARD_SUBS = new Set([
  'bisect',
  'submodule',
  'difftool',
  'mergetool',
  'filter-branch',
  'instaweb',
  'daemon',
  'send-email',
  'credential',
  'credential-cache',
  'credential-store',
  'for-each-repo',
  'upload-pack',
  'receive-pack',
  'upload-archive',
  'web--browse',
  'archimport',
  'cvsimport',
  'cvsserver',
  'svn',
  'p4',
  'quiltimport',
  'shell',
  'gui',
  'citool',
  'help',
  'var',
  'hook',
  'maintenance',
  'config',
  'remote-ext',
  'remote-fd',
]);
/** Options of any subcommand that run a program or write a file where they say. */
export const GIT_OPTION_HAZARDS = [
  '--output',
  '--output-directory',
  '--ext-diff',
  '--upload-pack',
  '--receive-pack',
  '--exec',
  '--open-files-in-pager',
  '--template',
  '--separate-git-dir',
  '--config',
  '--extcmd',
  '--tool',
  '--gpg-program',
  '--remote',
  '--no-index',
  '--textconv',
  '--run',
];
const SUB_HAZARDS: Readonly<Record<string, readonly string[]>> = {
  rebase: ['-x'],
  grep: ['-O'],
  clone: ['-c', '-u'],
  fetch: ['-u'],
  'ls-remote': ['-u'],
  'format-patch': ['-o'],
  archive: ['-o'],
  diff: ['-O'],
  log: ['-O'],
  show: ['-O'],
};
const KNOWN_SUBS = new Set(
  (
    'add am apply archive bisect blame branch bundle checkout cherry cherry-pick clean clone commit describe diff ' +
    'fetch format-patch gc grep init log merge mv notes pull push range-diff rebase reset restore revert rm ' +
    'shortlog show sparse-checkout stash status submodule switch tag worktree config fast-export fast-import ' +
    'filter-branch mergetool pack-refs prune reflog remote repack replace annotate count-objects difftool fsck ' +
    'merge-tree rerere show-branch verify-commit verify-tag whatchanged cat-file check-ignore check-attr ' +
    'check-mailmap checkout-index commit-tree diff-files diff-index diff-tree for-each-ref hash-object ls-files ' +
    'ls-remote ls-tree merge-base name-rev read-tree rev-list rev-parse show-ref symbolic-ref update-index ' +
    'update-ref write-tree version'
  ).split(' '),
);

/** A git command read against the dev_tools bundle: the repository is read (and `-C dir`), nothing else. */
export function gitReading(argv: readonly string[], globals: readonly string[]): SpecReading {
  for (let i = 0; i < globals.length; i++) {
    if (globals[i] === '-C') {
      i++;
    } else if (!GLOBAL_OK.has(globals[i])) {
      return { ok: false, why: `the git option ${globals[i].slice(0, 40)}` };
    }
  }
  const sub = argv[1];
  const rest = argv.slice(1);
  const spec = sub !== undefined && Object.hasOwn(DEV, sub) ? DEV[sub] : undefined;
  if (spec === undefined) {
    return { ok: false, why: sub === undefined ? 'git without a subcommand' : `git ${sub.slice(0, 40)}` };
  }
  const r = readArgv(rest, spec);
  return r.ok ? { ...r, paths: [...r.paths, { word: '.', access: 'read' }] } : r;
}

/** Why a git command is outside what a `git …*` pattern or grant may cover, or undefined. */
export function gitHazard(argv: readonly string[], globals: readonly string[]): string | undefined {
  for (const g of globals) {
    const h = hazardOf(g, GIT_GLOBAL_HAZARDS, false);
    if (h) {
      return `the git option ${h}`;
    }
  }
  const sub = argv[1];
  if (sub === undefined) {
    return undefined;
  }
  if (!KNOWN_SUBS.has(sub)) {
    return `git ${sub.slice(0, 40)} (not a git command the gate knows; it may be an alias)`;
  }
  if (GIT_HAZARD_SUBS.has(sub) && !(sub === 'config' && gitReading(['git', 'config', ...argv.slice(2)], []).ok)) {
    return `git ${sub}, which runs programs or rewrites configuration`;
  }
  const hazards = [...GIT_OPTION_HAZARDS, ...(SUB_HAZARDS[sub] ?? [])];
  for (const w of argv.slice(2)) {
    const h = hazardOf(w, hazards, true);
    if (h) {
      return `the git option ${h}`;
    }
  }
  return undefined;
}

/** gofmt in the dev_tools bundle: listing or diffing, never rewriting (`-w`) or profiling to a file. */
export const GOFMT: ProgramSpec = {
  flags: 'ldse',
  operands: 'read',
  readsCwd: true,
  hazards: ['-w', '-cpuprofile', '-r'],
};

export const GIT_SPECS = DEV;
