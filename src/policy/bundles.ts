/**
 * Built-in allow bundles: named lists of allow patterns. `read_only` is on unless `builtinAllow` is false;
 * `dev_tools` and `core_agent_tools` are opt-in through `builtinAllowExtras`. An unknown name is a configuration
 * error, never a silent no-op: a typo must not quietly leave the user without the permissions they meant.
 *
 * Conservative by construction: inspection verbs only, without the option that would make one write or run
 * something. Compared with the gate this is modelled on, `awk *` and `sed -n*` are left out (awk's `system()`
 * and GNU sed's `e` command run programs), `git branch`/`tag`/`remote` are limited to their listing forms, and
 * `go env` to reading; a few verbs carry a list of options that take them out of the bundle ({@link HAZARDS}).
 */

export const BUNDLE_READ_ONLY = 'read_only';
export const BUNDLE_DEV_TOOLS = 'dev_tools';
export const BUNDLE_CORE_AGENT_TOOLS = 'core_agent_tools';

const READ_ONLY = [
  'pwd',
  'whoami',
  'id',
  'groups',
  'hostname',
  'uname',
  'uname *',
  'date',
  'uptime',
  'env',
  'printenv',
  'printenv *',
  'ls',
  'ls *',
  'tree',
  'tree *',
  'cat *',
  'head',
  'head *',
  'tail',
  'tail *',
  'wc',
  'wc *',
  'file *',
  'echo',
  'echo *',
  'printf *',
  'true',
  'false',
  'grep *',
  'egrep *',
  'fgrep *',
  'rg *',
  'sort *',
  'uniq *',
  'cut *',
  'tr *',
  'which *',
  'type *',
  'whereis *',
  'command -v *',
  'df',
  'df *',
  'du',
  'du *',
  'free',
  'free *',
  'ps',
  'ps *',
  'find *',
].map((g) => `execute:${g}`);

const DEV_TOOLS = [
  'git status*',
  'git log*',
  'git diff*',
  'git show*',
  'git branch',
  'git branch -a*',
  'git branch -r*',
  'git branch -v*',
  'git branch --list*',
  'git branch --show-current',
  'git tag',
  'git tag -l*',
  'git tag --list*',
  'git remote',
  'git remote -v',
  'git remote show*',
  'git remote get-url *',
  'git config --get *',
  'git config --list*',
  'git rev-parse*',
  'git rev-list*',
  'git ls-files*',
  'git ls-remote*',
  'git blame *',
  'git reflog',
  'git reflog show*',
  'git stash list*',
  'go version',
  'go env',
  'go env GO*',
  'go list*',
  'go doc*',
  'go vet*',
  'gofmt -l*',
  'gofmt -d*',
].map((g) => `execute:${g}`);

const CORE_AGENT_TOOLS = ['read:**', 'search:**'];

export const BUNDLES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  [BUNDLE_READ_ONLY]: Object.freeze(READ_ONLY),
  [BUNDLE_DEV_TOOLS]: Object.freeze(DEV_TOOLS),
  [BUNDLE_CORE_AGENT_TOOLS]: Object.freeze(CORE_AGENT_TOOLS),
});

/** The bundle names the gate knows, sorted. */
export function knownBundles(): string[] {
  return Object.keys(BUNDLES).sort();
}

/**
 * Options that take a command out of the bundles, by verb: they write files (`sort -o`, `tree -o`, `--output`),
 * run programs (`find -exec`, `rg --pre`), or delete (`find -delete`). Matched on whole words and on `--opt=`.
 */
export const HAZARDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  find: ['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls'],
  sort: ['-o', '--output'],
  tree: ['-o'],
  rg: ['--pre', '--pre-glob'],
  file: ['-C', '--compile'],
  git: ['--output', '--ext-diff', '--textconv'],
});

/** Whether a bundle-allowed command's words carry one of its verb's hazardous options (or, for uniq, an output file). */
export function bundleHazard(words: readonly string[]): string | undefined {
  const verb = words[0] ?? '';
  if (verb === 'uniq') {
    // `uniq INPUT OUTPUT` writes OUTPUT.
    return words.slice(1).filter((w) => !w.startsWith('-')).length > 1 ? 'an output file' : undefined;
  }
  const list = HAZARDS[verb];
  if (!list) {
    return undefined;
  }
  for (const w of words.slice(1)) {
    const opt = w.split('=')[0];
    if (list.includes(opt) || (verb === 'sort' && /^-[a-zA-Z]*o/.test(w) && !w.startsWith('--'))) {
      return `the option ${opt}`;
    }
  }
  return undefined;
}

/**
 * The allow patterns the bundles add: none when `builtinAllow` is false, else `read_only` plus the extras,
 * de-duplicated in a stable order. Unknown extras come back as problems (the gate turns them into an error).
 */
export function resolveBuiltinAllow(
  builtinAllow: boolean | undefined,
  extras: readonly unknown[] | undefined,
): { patterns: string[]; entries: { pattern: string; bundle: string }[]; problems: string[] } {
  const problems: string[] = [];
  const names: string[] = [];
  for (const e of Array.isArray(extras) ? extras : []) {
    if (typeof e !== 'string' || !Object.hasOwn(BUNDLES, e)) {
      problems.push(`unknown allow bundle ${JSON.stringify(e)} (known: ${knownBundles().join(', ')})`);
    } else {
      names.push(e);
    }
  }
  if (builtinAllow === false) {
    return { patterns: [], entries: [], problems };
  }
  const entries: { pattern: string; bundle: string }[] = [];
  for (const name of [BUNDLE_READ_ONLY, ...names]) {
    for (const pattern of BUNDLES[name]) {
      if (!entries.some((e) => e.pattern === pattern)) {
        entries.push({ pattern, bundle: name });
      }
    }
  }
  return { patterns: entries.map((e) => e.pattern), entries, problems };
}
