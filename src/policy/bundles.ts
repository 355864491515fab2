/**
 * Built-in allow bundles: named lists of allow patterns. `read_only` is on unless `builtinAllow` is false;
 * `dev_tools` and `core_agent_tools` are opt-in through `builtinAllowExtras`. An unknown name is a configuration
 * error, never a silent no-op: a typo must not quietly leave the user without the permissions they meant.
 *
 * The execute entries name the programs (and git subcommands) of each bundle; what a command may carry is not a
 * glob but the program's specification in programSpecs.ts / gitSpecs.ts (an option allowlist, which operands are
 * paths, inside the scope). Compared with the gate this is modelled on, `awk`, `sed`, `go` and `git ls-remote`
 * are left out (awk's `system()` and GNU sed's `e` run programs, go may fetch and run another toolchain,
 * ls-remote connects out), and `git branch`/`tag`/`remote`/`config` are limited to their listing forms.
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
  'cd *',
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
  'git remote get-url *',
  'git config --get *',
  'git config --list*',
  'git rev-parse*',
  'git rev-list*',
  'git ls-files*',
  'git blame *',
  'git reflog',
  'git reflog show*',
  'git stash list*',
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
