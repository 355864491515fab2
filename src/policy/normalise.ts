/**
 * A command line normalised into the commands that would run: every simple command (also inside substitutions),
 * with its words read literally (see shellWords.ts), its program named by basename, and known runners unwrapped
 * so that the command they run is a command of its own: `sudo`, `doas`, `env` (with `-S` split), `nice`,
 * `nohup`, `stdbuf`, `timeout`, `ionice`, `setsid`, `chrt`, `taskset`, `time`, `command`, `builtin`, `exec`,
 * `watch`, `flock`, `xargs`, `busybox`, `find -exec/-execdir/-ok/-okdir`, `sh/bash/dash/zsh/… -c`, `eval`,
 * `git -c alias.x='!…'` and git's global options (`git -C . push` is `git push`), `npm exec`/`npx`/`pnpm dlx`/
 * `yarn dlx`/`bunx`. Deny patterns, the denylist, program specifications and grants all read this form.
 * What cannot be read (a word that is not literal, a construct the lexer did not understand) is listed in
 * `unreadable`: such a line is never allowed on the gate's own account.
 */
import {
  ASSIGNMENT,
  ENV_LONGS,
  GIT_VALUED,
  INTERPRETERS,
  RUNNERS,
  WRAPPERS,
  XARGS_LONGS,
  XARGS_VALUED,
} from './normaliseTables';
import { skipOptions, resolveLong } from './options';

export { INTERPRETERS } from './normaliseTables';
import { allParts, parseCommand, type CommandPart, type ParsedCommand } from './shell';
import { SHELLS, basename, readWords, type ShellEnv } from './shellWords';

export interface NormRedirect {
  readonly op: string;
  /** The literal target, or undefined when it is not literal. */
  readonly target: string | undefined;
  readonly raw: string;
}

export interface NormCommand {
  /** The command's words, the program (argv[0]) by basename: what deny patterns, specs and grants read. */
  readonly argv: readonly string[];
  /** The program word as written (`/usr/bin/git`). */
  readonly program: string;
  /** Whether every word is literal (false: raw words, which only the denylist reads, best effort). */
  readonly literal: boolean;
  /** Leading `NAME=value` assignments (of this command or of an `env` around it). */
  readonly assigns: readonly string[];
  /** The runners unwrapped to reach it, outermost first (`sudo`, `sh -c`, `find -exec`, `xargs`, …). */
  readonly via: readonly string[];
  readonly redirects: readonly NormRedirect[];
  /** The directory it runs in when the line changed it (`cd x &&`, `git -C x`, `env -C x`); relative to the request's cwd. */
  readonly cwd?: string;
  /** More operands are added at run time (xargs, find -exec … {}). */
  readonly more?: boolean;
  /** git's global options before the subcommand (`-C x`, `-c k=v`, `--no-pager`, …), as written. */
  readonly gitGlobals?: readonly string[];
  /** The operator before it in its line ('' for the first). */
  readonly after: string;
}

export interface NormLine {
  readonly parsed: ParsedCommand;
  readonly commands: readonly NormCommand[];
  /** Why the line cannot be read completely (empty when it can). */
  readonly unreadable: readonly string[];
}

interface State {
  readonly via: readonly string[];
  readonly assigns: readonly string[];
  readonly cwd: string | undefined;
  readonly redirects: readonly NormRedirect[];
  readonly after: string;
  readonly depth: number;
  readonly env: ShellEnv;
  readonly out: NormCommand[];
  readonly unreadable: string[];
  readonly literal: boolean;
}

function join(cwd: string | undefined, dir: string): string {
  if (dir.startsWith('/') || cwd === undefined) {
    return dir;
  }
  return `${cwd.replace(/\/+$/, '')}/${dir}`;
}

function emit(st: State, words: readonly string[], extra: Partial<NormCommand> = {}): void {
  st.out.push({
    argv: [basename(words[0]), ...words.slice(1)],
    program: words[0],
    literal: st.literal,
    assigns: st.assigns,
    via: st.via,
    redirects: st.redirects,
    ...(st.cwd !== undefined ? { cwd: st.cwd } : {}),
    after: st.after,
    ...extra,
  });
}

/** A script given as text (`sh -c`, `eval`, an alias, `env -S`): its commands are commands of this line. */
function script(st: State, text: string, via: string): void {
  if (st.depth >= 6) {
    st.unreadable.push(`runners nested too deeply (${via})`);
    return;
  }
  const line = normaliseWith(text, { ...st.env, ...(st.cwd !== undefined ? { cwd: st.cwd } : {}) }, st.depth + 1);
  st.unreadable.push(...line.unreadable);
  for (const c of line.commands) {
    st.out.push({
      ...c,
      via: [...st.via, via, ...c.via],
      assigns: [...st.assigns, ...c.assigns],
      redirects: [...st.redirects, ...c.redirects],
      ...(c.cwd !== undefined ? { cwd: join(st.cwd, c.cwd) } : st.cwd !== undefined ? { cwd: st.cwd } : {}),
      literal: c.literal && st.literal,
    });
  }
}

/** String literals inside an interpreter's inline code, each read as a command line (for the denylist only). */
function inlineCode(st: State, code: string, via: string): void {
  const re = /'([^'\n]{1,4096})'|"([^"\n]{1,4096})"|`([^`\n]{1,4096})`/g;
  let n = 0;
  for (let m = re.exec(code); m !== null && n < 64; m = re.exec(code), n++) {
    script({ ...st, literal: false }, m[1] ?? m[2] ?? m[3], via);
  }
}

function unwrapFind(st: State, w: readonly string[]): void {
  emit(st, w);
  let i = 1;
  while (i < w.length && ['-H', '-L', '-P'].includes(w[i])) {
    i++;
  }
  const roots: string[] = [];
  while (i < w.length && !w[i].startsWith('-') && w[i] !== '(' && w[i] !== '!') {
    roots.push(w[i++]);
  }
  for (; i < w.length; i++) {
    if (['-exec', '-execdir', '-ok', '-okdir'].includes(w[i])) {
      let end = i + 1;
      while (end < w.length && w[end] !== ';' && w[end] !== '+') {
        end++;
      }
      const inner = w.slice(i + 1, end);
      for (const root of roots.length > 0 ? roots : ['.']) {
        if (inner.length > 0) {
          unwrap(
            { ...st, via: [...st.via, `find ${w[i]}`] },
            inner.map((x) => (x === '{}' ? root : x)),
          );
        }
      }
      i = end;
    }
  }
}

function unwrapGit(st: State, w: readonly string[]): void {
  const globals: string[] = [];
  let cwd = st.cwd;
  let i = 1;
  while (i < w.length && w[i].startsWith('-')) {
    const g = w[i];
    if (GIT_VALUED.includes(g) && i + 1 < w.length) {
      globals.push(g, w[i + 1]);
      if (g === '-C') {
        cwd = join(cwd, w[i + 1]);
      }
      const alias = g === '-c' ? /^alias\.[^=]*=\s*!(.*)$/is.exec(w[i + 1]) : null;
      if (alias) {
        script(st, alias[1], 'git alias');
      }
      i += 2;
    } else {
      globals.push(g);
      i++;
    }
  }
  emit({ ...st, ...(cwd !== undefined ? { cwd } : {}) }, [w[0], ...w.slice(i)], { gitGlobals: globals });
}

function unwrapEnv(st: State, w: readonly string[]): void {
  let i = 1;
  const assigns = [...st.assigns];
  let cwd = st.cwd;
  let split: string | undefined;
  for (; i < w.length; i++) {
    const a = w[i];
    if (a === '--') {
      i++;
      break;
    }
    if (ASSIGNMENT.test(a)) {
      assigns.push(a);
    } else if (a.startsWith('--')) {
      const r = resolveLong(a, ENV_LONGS);
      const name = r && 'name' in r ? r.name : undefined;
      const value = r?.value ?? (['unset', 'chdir', 'split-string', 'argv0'].includes(name ?? '') ? w[++i] : undefined);
      if (name === 'chdir' && value !== undefined) {
        cwd = join(cwd, value);
      } else if (name === 'split-string' && value !== undefined) {
        split = value;
        i++;
        break;
      } else if (r === undefined || 'ambiguous' in r) {
        st.unreadable.push(`the env option ${a}`);
      }
    } else if (a.startsWith('-') && a !== '-') {
      const s = a.indexOf('S');
      const letters = s < 0 ? a.slice(1) : a.slice(1, s);
      if (/[uCa]/.test(letters)) {
        const k = Math.min(...['u', 'C', 'a'].map((x) => (letters.includes(x) ? letters.indexOf(x) : 99)));
        const value = a.slice(k + 2) || w[++i];
        if (letters[k] === 'C' && value !== undefined) {
          cwd = join(cwd, value);
        }
        continue;
      }
      if (s >= 0) {
        split = a.slice(s + 1) || w[++i];
        i++;
        break;
      }
    } else {
      break;
    }
  }
  const next = { ...st, assigns, cwd, via: [...st.via, 'env'] };
  if (split !== undefined) {
    script(next, [split, ...w.slice(i)].join(' '), 'env -S');
  } else if (i < w.length) {
    unwrap(next, w.slice(i));
  } else {
    emit(st, w);
  }
}

function unwrapShell(st: State, w: readonly string[], v: string): boolean {
  for (let i = 1; i < w.length; i++) {
    const a = w[i];
    if (a === '-o' || a === '+o' || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') {
      i++;
    } else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(a)) {
      if (w[i + 1] !== undefined) {
        emit(st, w);
        script(st, w[i + 1], `${v} -c`);
        return true;
      }
    } else if (!a.startsWith('-') && !a.startsWith('+')) {
      return false;
    }
  }
  return false;
}

/** The command `w` (literal or raw words) runs, unwrapped. `more`: operands are added at run time. */
function unwrap(st: State, words: readonly string[], more = false): void {
  let i = 0;
  const assigns = [...st.assigns];
  while (i < words.length && ASSIGNMENT.test(words[i])) {
    assigns.push(words[i++]);
  }
  const w = words.slice(i);
  if (w.length === 0) {
    if (assigns.length > st.assigns.length) {
      emit({ ...st, assigns }, ['export', ...assigns.slice(st.assigns.length)]);
    }
    return;
  }
  const s: State = { ...st, assigns };
  const v = basename(w[0]);
  const extra = more ? { more: true } : {};
  const wrapper = WRAPPERS[v];
  if (wrapper !== undefined) {
    let k = skipOptions(w, 1, wrapper[0], wrapper[1], wrapper[2]);
    k += Math.min(wrapper[3] ?? 0, Math.max(0, w.length - k - 1));
    if ((v === 'command' && (w.includes('-v') || w.includes('-V'))) || k >= w.length) {
      emit(s, w, extra);
    } else if (v === 'watch' || (v === 'flock' && (w.includes('-c') || w.some((x) => x.startsWith('--comm'))))) {
      emit(s, w, extra);
      script(
        { ...s, via: [...s.via, v] },
        w.slice(v === 'flock' ? w.findIndex((x) => x === '-c' || x.startsWith('--comm')) + 1 : k).join(' '),
        v,
      );
    } else {
      unwrap({ ...s, via: [...s.via, v] }, w.slice(k), more);
    }
    return;
  }
  if (v === 'env') {
    unwrapEnv(s, w);
  } else if (v === 'xargs') {
    const k = skipOptions(w, 1, 'IiLlnPsdEea', XARGS_LONGS, XARGS_VALUED);
    unwrap({ ...s, via: [...s.via, 'xargs'] }, k < w.length ? w.slice(k) : ['echo'], true);
  } else if (v === 'busybox' && w.length > 1) {
    unwrap({ ...s, via: [...s.via, 'busybox'] }, w.slice(1), more);
  } else if (v === 'find') {
    unwrapFind(s, w);
  } else if (v === 'git') {
    unwrapGit(s, w);
  } else if (v === 'eval') {
    script(s, w.slice(1).join(' '), 'eval');
  } else if (SHELLS.has(v)) {
    if (!unwrapShell(s, w, v)) {
      emit(s, w, extra);
    }
  } else if (Object.hasOwn(RUNNERS, v) && (RUNNERS[v].length === 0 || RUNNERS[v].includes(w[1] ?? ''))) {
    emit(s, w, extra);
    const from = RUNNERS[v].length === 0 ? 1 : 2;
    const k = skipOptions(w, from, 'pc', ['package', 'call', 'yes', 'no', 'quiet'], ['package', 'call']);
    const call = w.findIndex((x, n) => n >= from && (x === '-c' || x.startsWith('--call')));
    if (call >= 0 && w[call + 1] !== undefined) {
      script({ ...s, via: [...s.via, `${v} -c`] }, w[call + 1], `${v} -c`);
    } else if (k < w.length) {
      unwrap({ ...s, via: [...s.via, RUNNERS[v].length === 0 ? v : `${v} ${w[1]}`] }, w.slice(k), more);
    }
  } else if (INTERPRETERS.has(v)) {
    emit(s, w, extra);
    const flag = w.findIndex((x, n) => n > 0 && /^(?:-[A-Za-z]*[ceE]|--eval|--exec|--command|-Command|-r)$/.test(x));
    const first = /^(?:g|m|n)?awk$|^g?sed$/.test(v) ? w.findIndex((x, n) => n > 0 && !x.startsWith('-')) : -1;
    if (flag > 0 && w[flag + 1] !== undefined) {
      inlineCode(s, w[flag + 1], `${v} ${w[flag]}`);
    } else if (first > 0) {
      inlineCode(s, w[first], v);
    }
  } else {
    emit(s, w, extra);
  }
}

function redirectsOf(part: CommandPart, env: ShellEnv): NormRedirect[] {
  return part.redirects.map((r) => {
    const read = readWords(
      { words: [r.target], redirects: [], text: r.target, after: '', segs: r.segs ? [r.segs] : undefined },
      env,
    );
    return { op: r.op, raw: r.target, target: 'words' in read ? read.words[0] : undefined };
  });
}

function normaliseWith(command: string, env: ShellEnv, depth: number): NormLine {
  const parsed = parseCommand(command);
  const out: NormCommand[] = [];
  const unreadable: string[] = [...parsed.problems];
  if (parsed.substitutions.length > 0) {
    unreadable.push('a command or process substitution');
  }
  let cwd: string | undefined;
  for (const part of allParts(parsed)) {
    const read = readWords(part, env);
    const literal = 'words' in read;
    if (!literal) {
      unreadable.push(read.why);
    }
    const words = literal ? read.words : part.words;
    const redirects = redirectsOf(part, env);
    for (const r of redirects) {
      if (r.target === undefined) {
        unreadable.push(`the redirection target "${r.raw.slice(0, 60)}"`);
      }
    }
    const st: State = { via: [], assigns: [], cwd, redirects, after: part.after, depth, env, out, unreadable, literal };
    unwrap(st, words);
    if (
      basename(words[0] ?? '') === 'cd' ||
      basename(words[0] ?? '') === 'pushd' ||
      basename(words[0] ?? '') === 'popd'
    ) {
      const to = words[0] === 'cd' && literal && words.length <= 2 ? (words[1] ?? env.home) : undefined;
      if (to === undefined || to === '-') {
        unreadable.push('a change of directory the gate cannot follow');
      } else {
        cwd = join(cwd, to);
      }
    }
  }
  return { parsed, commands: out, unreadable: [...new Set(unreadable)] };
}

/**
 * The command's whole argv, as exact grants and "always" rules compare it: its program by basename and every word
 * after it, git's global options included (`git -c core.fsmonitor=x status` is not `git status`).
 */
export function wholeArgv(cmd: NormCommand): readonly string[] {
  return cmd.gitGlobals !== undefined && cmd.gitGlobals.length > 0
    ? [cmd.argv[0], ...cmd.gitGlobals, ...cmd.argv.slice(1)]
    : cmd.argv;
}

/** Package managers whose global options come before the subcommand (`npm --prefix x publish`). */
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);

/**
 * The texts a deny pattern is matched against besides the command's argv: for a package manager, the argv with
 * its leading global options left out, every way they can be read (`npm --loglevel silent publish` is `npm
 * publish`, and, should `--loglevel` take no value, `npm silent publish`), as git's are left out of its argv.
 */
export function denyForms(cmd: NormCommand): string[] {
  const w = cmd.argv;
  if (!PACKAGE_MANAGERS.has(w[0]) || !(w[1] ?? '').startsWith('-')) {
    return [];
  }
  // Positions the subcommand may start at: after an option, and after an option with its value.
  const reach = new Set<number>([1]);
  const out: string[] = [];
  for (let i = 1; i <= w.length; i++) {
    if (!reach.has(i)) {
      continue;
    }
    if (i < w.length && w[i].startsWith('-') && w[i] !== '--') {
      reach.add(i + 1);
      if (!w[i].includes('=')) {
        reach.add(i + 2);
      }
    } else {
      out.push([w[0], ...w.slice(i === w.length || w[i] !== '--' ? i : i + 1)].join(' '));
    }
  }
  return out;
}

/** The line's commands, normalised (see the file comment). Total; linear in the line's length. */
export function normaliseLine(command: string, env: ShellEnv = {}): NormLine {
  return normaliseWith(typeof command === 'string' ? command : '', env, 0);
}
