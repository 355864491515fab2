/**
 * What covers one normalised command (normalise.ts) without asking: a bundle's program specification, an allow
 * pattern read as a specification, or a grant. None covers a command that is not literal, that a runner reached
 * (`sudo`, `sh -c`, `xargs`, `find -exec`, …), that carries `NAME=value` assignments, or whose program is
 * path-qualified (`./cat` is not `cat`); a pattern's `*` and a verb grant never cover an option that runs a
 * program, names a hook or writes a file (the specification's hazards, GNU prefixes included); interpreters,
 * package runners, shells and wrappers only by an exact pattern or an exact grant.
 */
import { FIND_HAZARDS, GOFMT, READ_ONLY_SPECS, readFind } from './programSpecs';
import { gitHazard, gitReading } from './gitSpecs';
import { INTERPRETERS, wholeArgv, type NormCommand } from './normalise';
import { hazardOf, readArgv, type SpecPath, type SpecReading } from './specParse';
import { SHELLS } from './shellWords';
import { wildcardMatches } from './wildcard';
import { parseCommand } from './shell';

/** Programs only an exact pattern or grant covers: they run whatever their arguments say. */
export const EXACT_ONLY = new Set([
  ...SHELLS,
  ...INTERPRETERS,
  ...'sudo doas su runuser env exec eval command builtin source . nohup nice ionice time timeout xargs watch strace ltrace gdb valgrind chroot setsid stdbuf busybox flock unbuffer caffeinate proxychains proxychains4 torsocks nsenter unshare firejail systemd-run catchsegv chrt taskset script expect rm dd'.split(
    ' ',
  ),
  ...'npm npx pnpm pnpx yarn bunx corepack volta nvm uv uvx pipx pip pip3 poetry pdm hatch conda mamba gem bundle rake cargo rustup go make cmake ninja gradle gradlew mvn ant sbt dotnet composer deno'.split(
    ' ',
  ),
  ...'curl wget nc ncat netcat socat ssh scp sftp rsync telnet ftp aria2c http https xh'.split(' '),
  ...'export declare typeset local readonly alias unalias unset set shopt enable hash trap ulimit umask pushd popd'.split(
    ' ',
  ),
  // Programs whose operands are files they write, move or change: each use names its own targets.
  ...'tee cp mv install ln link touch mkdir rmdir unlink truncate shred split csplit patch tar unzip gunzip gzip bzip2 xz zstd 7z chmod chown chgrp chattr setfacl mkfifo mknod sqlite3 crontab at'.split(
    ' ',
  ),
]);

/** A long option of an unknown program whose name says it runs something or writes where it says. */
const GENERIC_HAZARD =
  /^--?[A-Za-z0-9-]*(?:exec|command|cmd|program|pager|editor|hook|shell|upload-pack|receive-pack|plugin|eval|preload|require|loader|inject|rcfile|init-file|template|interpreter|wrapper|output|outfile|out-file)/i;

export type Bundles = ReadonlySet<string>;
const ALL_BUNDLES: Bundles = new Set(['read_only', 'dev_tools']);

/** Why a command is not eligible for any automatic allow at all, or undefined. */
export function ineligible(cmd: NormCommand): string | undefined {
  if (!cmd.literal) {
    return 'it is not made of literal words';
  }
  if (cmd.via.length > 0) {
    return `it runs through ${cmd.via.join(', ')}`;
  }
  if (cmd.assigns.length > 0) {
    return `it sets ${cmd.assigns[0].split('=')[0]} for the program`;
  }
  if (cmd.program !== cmd.argv[0]) {
    return `its program is named by a path (${cmd.program.slice(0, 60)})`;
  }
  return undefined;
}

/** The command read against the enabled bundles' specifications. */
export function bundleReading(cmd: NormCommand, bundles: Bundles): SpecReading & { bundle?: string } {
  const v = cmd.argv[0];
  if (bundles.has('read_only') && Object.hasOwn(READ_ONLY_SPECS, v)) {
    if (v === 'find') {
      const f = readFind(cmd.argv);
      return f.ok
        ? {
            ok: true,
            paths: f.roots.map((word) => ({ word, access: 'read' as const })),
            operands: f.roots,
            bundle: 'read_only',
          }
        : { ...f, bundle: 'read_only' };
    }
    return { ...readArgv(cmd.argv, READ_ONLY_SPECS[v]), bundle: 'read_only' };
  }
  if (bundles.has('dev_tools') && v === 'git') {
    return { ...gitReading(cmd.argv, cmd.gitGlobals ?? []), bundle: 'dev_tools' };
  }
  if (bundles.has('dev_tools') && v === 'gofmt') {
    return { ...readArgv(cmd.argv, GOFMT), bundle: 'dev_tools' };
  }
  return { ok: false, why: `"${v.slice(0, 40)}" is not in an enabled bundle` };
}

/** Why one of `words` (of `cmd`) is an option no pattern's `*` or verb grant covers, or undefined. */
export function hazardIn(cmd: NormCommand, words: readonly string[]): string | undefined {
  const v = cmd.argv[0];
  if (v === 'git') {
    return gitHazard(cmd.argv, cmd.gitGlobals ?? []);
  }
  if (v === 'find') {
    const h = words.find((w) => FIND_HAZARDS.includes(w) || /^-(?:exec|ok|fprint|fls)/.test(w));
    return h !== undefined ? `the find primary ${h}` : undefined;
  }
  const spec = Object.hasOwn(READ_ONLY_SPECS, v) ? READ_ONLY_SPECS[v] : v === 'gofmt' ? GOFMT : undefined;
  for (const w of words) {
    const h = spec
      ? hazardOf(w, spec.hazards ?? [], spec.gnu === true)
      : GENERIC_HAZARD.test(w)
        ? w.split('=')[0]
        : undefined;
    if (h !== undefined) {
      return `the option ${h}`;
    }
  }
  return undefined;
}

/** The paths a command uses: by its specification when it has one, else every word that looks like a path. */
export function commandPaths(cmd: NormCommand): SpecPath[] {
  const r = cmd.literal ? bundleReading(cmd, ALL_BUNDLES) : undefined;
  const out: SpecPath[] = r?.ok ? [...r.paths] : [];
  if (!r?.ok) {
    for (const w of cmd.argv.slice(1)) {
      const value = w.startsWith('-') && w.includes('=') ? w.slice(w.indexOf('=') + 1) : w;
      if (/^(?:\/|~|\.\.?(?:\/|$))/.test(value) || (value.includes('/') && !/^[a-z][a-z0-9+.-]*:\/\//i.test(value))) {
        out.push({ word: value, access: 'read' });
      }
    }
    if (cmd.argv[0] === 'git') {
      out.push({ word: '.', access: 'read' });
    }
  }
  return out;
}

/** A pattern's words (quotes resolved, `*` kept), or undefined when it is not one simple command. */
export function patternWords(glob: string): string[] | undefined {
  const p = parseCommand(glob);
  return p.parts.length === 1 && p.substitutions.length === 0 && p.parts[0].redirects.length === 0
    ? [...p.parts[0].words]
    : undefined;
}

/**
 * Whether an allow pattern (its words) covers a command: the pattern's words match the command's words one by
 * one (`*` inside a word stays inside it); a last word `*` or `word*` also covers any further words. The words
 * a `*` covers must carry no hazard; a pattern for a program that runs what its arguments say covers only its
 * exact command.
 */
export function patternCovers(pattern: readonly string[], cmd: NormCommand): boolean {
  if (pattern.length === 0 || ineligible(cmd) !== undefined) {
    return false;
  }
  // The whole argv: git's global options are words a pattern must name (or a `*` cover, hazards checked).
  const argv = wholeArgv(cmd);
  const wild = pattern.some((w) => w.includes('*'));
  if (!wild) {
    return pattern.length === argv.length && pattern.every((w, i) => w === argv[i]);
  }
  // A wildcard never stands for a program that runs what its arguments say.
  if (EXACT_ONLY.has(argv[0])) {
    return false;
  }
  const last = pattern[pattern.length - 1];
  const tail = last.endsWith('*');
  const fixed = tail ? pattern.length - 1 : pattern.length;
  // `ls *` needs at least one word after `ls` (as the glob `ls *` did); `git status*` needs `status…`.
  if (argv.length < fixed + (tail ? 1 : 0) || (!tail && argv.length !== pattern.length)) {
    return false;
  }
  const covered: string[] = [];
  for (let i = 0; i < fixed; i++) {
    if (!wildcardMatches(pattern[i], argv[i], false)) {
      return false;
    }
    if (pattern[i].includes('*')) {
      covered.push(argv[i]);
    }
  }
  if (tail) {
    if (last !== '*' && !wildcardMatches(last, argv[fixed], false)) {
      return false;
    }
    covered.push(...argv.slice(fixed));
  }
  return hazardIn(cmd, covered) === undefined;
}

/** Whether a verb grant for `verb` covers a command: its program, with no hazard anywhere in its words. */
export function verbCovers(verb: string, cmd: NormCommand): boolean {
  return (
    ineligible(cmd) === undefined &&
    cmd.argv[0] === verb &&
    !EXACT_ONLY.has(verb) &&
    hazardIn(cmd, cmd.argv.slice(1)) === undefined
  );
}
