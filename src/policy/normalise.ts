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
  /**
   * An earlier `cd` of the line may or may not have worked when this runs (`cd x; rm y`, `cd x || …`, `cd x | …`):
   * its relative operands cannot be placed.
   */
  readonly cwdLost?: boolean;
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
  readonly cwdLost: boolean;
  readonly redirects: readonly NormRedirect[];
  readonly after: string;
  readonly depth: number;
  readonly env: ShellEnv;
  readonly out: NormCommand[];
  readonly unreadable: string[];
  readonly literal: boolean;
  /** The text on the command's standard input when the line names it (a here-string, `echo … |`). */
  readonly stdin?: string;
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
    ...(st.cwdLost ? { cwdLost: true } : {}),
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
      ...(st.cwdLost || c.cwdLost === true ? { cwdLost: true } : {}),
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

/** The value of the first of `names` in `w` (from `from`): `-c v`, `-qc v`, `--command=v`, `--command v`. */
function optionValue(w: readonly string[], from: number, short: string, longs: RegExp): string | undefined {
  for (let i = from; i < w.length; i++) {
    const a = w[i];
    if (a === '--') {
      return undefined;
    }
    const long = /^--([A-Za-z-]+)(?:=(.*))?$/s.exec(a);
    if (long && longs.test(long[1])) {
      return long[2] ?? w[i + 1];
    }
    if (short !== '' && new RegExp(`^-[A-Za-z]*[${short}]$`).test(a)) {
      return w[i + 1];
    }
  }
  return undefined;
}

/** The runners that take a command as text: `script -c`, `su -c`, `runuser -c`, `sg group cmd`. */
const TEXT_RUNNERS = new Set(['script', 'su', 'runuser', 'sg', 'newgrp']);

function unwrapTextRunner(st: State, w: readonly string[], v: string): void {
  emit(st, w);
  const via = { ...st, via: [...st.via, v] };
  const text = optionValue(w, 1, 'c', /^(?:c|co|com|comm|comma|comman|command|session-command)$/);
  if (text !== undefined) {
    script(st, text, `${v} -c`);
    return;
  }
  if (v === 'sg') {
    // sg [-] group [command]: the command is one word of text.
    const ops = w.slice(1).filter((x) => x !== '-');
    if (ops.length > 1) {
      script(st, ops.slice(1).join(' '), 'sg');
    }
    return;
  }
  if (v === 'runuser') {
    // runuser -u user [--] command [args]
    const u = w.findIndex((x) => x === '-u' || x === '--user');
    const dash = w.indexOf('--');
    const k = dash > 0 ? dash + 1 : u > 0 ? u + 2 : -1;
    if (k > 0 && k < w.length) {
      unwrap(via, w.slice(k));
      return;
    }
  }
  if ((v === 'su' || v === 'runuser' || v === 'newgrp') && st.stdin !== undefined) {
    script(st, st.stdin, `${v} reading its input`);
  }
}

/** tmux subcommands that run a shell command given as their last words; `send-keys` types into a shell. */
const TMUX_RUNS =
  /^(?:new|new-session|neww|new-window|splitw|split-window|respawnp|respawn-pane|respawnw|respawn-window|run|run-shell|popup|display-popup|if|if-shell|pipep|pipe-pane)$/;

function unwrapTmux(st: State, w: readonly string[]): void {
  emit(st, w);
  const globalCmd = optionValue(w, 1, 'c', /^$/);
  if (globalCmd !== undefined && w.indexOf('-c') < w.findIndex((x, n) => n > 0 && TMUX_RUNS.test(x))) {
    script(st, globalCmd, 'tmux -c');
  }
  // Every subcommand (they chain with `;`), and from each, the words that may be its command: each suffix that
  // starts with a word that is not an option is read as a shell command (at most 4 per subcommand).
  for (let i = 1; i < w.length; i++) {
    if (w[i] === 'send-keys' || w[i] === 'send') {
      st.unreadable.push('tmux send-keys types into a shell the gate cannot see');
    }
    if (!TMUX_RUNS.test(w[i])) {
      continue;
    }
    let tries = 0;
    for (let k = i + 1; k < w.length && tries < 4 && w[k] !== ';' && w[k] !== '\\;'; k++) {
      if (!w[k].startsWith('-')) {
        const end = w.findIndex((x, n) => n > k && (x === ';' || x === '\\;'));
        script(st, w.slice(k, end < 0 ? w.length : end).join(' '), `tmux ${w[i]}`);
        tries++;
      }
    }
  }
}

/** screen [options] [command [args]]: the command is the first word that is not an option (or an option's value). */
function unwrapScreen(st: State, w: readonly string[]): void {
  emit(st, w);
  const k = skipOptions(w, 1, 'SpcehTtXs', [], []);
  if (k < w.length && !w.slice(1, k).includes('-X') && !w.slice(1, k).some((x) => /^-[A-Za-z]*[rRx]/.test(x))) {
    unwrap({ ...st, via: [...st.via, 'screen'] }, w.slice(k));
  }
}

/** at/batch schedule the commands on their standard input (or in `-f file`) for later. */
function unwrapAt(st: State, w: readonly string[], v: string): void {
  emit(st, w);
  if (w.slice(1).some((x) => /^-[A-Za-z]*[lrdc]/.test(x))) {
    return;
  }
  if (st.stdin !== undefined && !w.slice(1).some((x) => /^-[A-Za-z]*f/.test(x))) {
    script(st, st.stdin, v);
  } else {
    st.unreadable.push(`${v} schedules commands from its input, which the gate cannot read`);
  }
}

/** vi/vim/ex run their `-c`, `--cmd` and `+` commands: a `:!cmd` is a shell command; any such command is asked. */
const VIMS = new Set(['vi', 'vim', 'nvim', 'ex', 'view', 'gvim', 'vimdiff', 'rvim', 'evim', 'nex', 'nvi', 'gex']);

function unwrapVim(st: State, w: readonly string[], v: string): void {
  emit(st, w);
  const cmds: string[] = [];
  for (let i = 1; i < w.length; i++) {
    if ((w[i] === '-c' || w[i] === '--cmd' || w[i] === '-S') && w[i + 1] !== undefined) {
      cmds.push(w[++i]);
    } else if (w[i].startsWith('+') && !/^\+\d*$/.test(w[i])) {
      cmds.push(w[i].slice(1));
    } else if (w[i] === '-s' || w[i] === '-u' || w[i] === '-U') {
      st.unreadable.push(`${v} ${w[i]} runs commands from a file`);
      i++;
    }
  }
  for (const c of cmds) {
    st.unreadable.push(`${v} runs the editor commands ${JSON.stringify(c.slice(0, 60))}`);
    const bang =
      /^[\s:]*(?:sil(?:ent)?!?\s*)?(?:[\d.,$%]*\s*)?(?:r(?:ead)?\s*|w(?:rite)?\s*|exe?c?\w*\s*['"])?!(.*)$/s.exec(c);
    if (bang) {
      script({ ...st, literal: false }, bang[1].replace(/['"]\s*$/, ''), `${v} -c`);
    }
    inlineCode(st, c, `${v} -c`);
  }
}

/** tar's options that run a program: `--to-command`, `--checkpoint-action=exec=`, `-I`/`--use-compress-program`, … */
const TAR_RUNS =
  /^--(to-c[a-z-]*|checkpoint-a[a-z-]*|use-c[a-z-]*|rsh-c[a-z-]*|info-s[a-z-]*|new-v[a-z-]*)(?:=(.*))?$/s;

function unwrapTar(st: State, w: readonly string[]): void {
  emit(st, w);
  for (let i = 1; i < w.length; i++) {
    const m = TAR_RUNS.exec(w[i]);
    let value = m ? (m[2] ?? w[i + 1]) : w[i] === '-I' || w[i] === '-F' ? w[i + 1] : undefined;
    if (value === undefined) {
      continue;
    }
    if (m !== null && m[1].startsWith('checkpoint-a')) {
      if (!/^exec=/.test(value)) {
        continue;
      }
      value = value.slice(5);
    }
    script(st, value, `tar ${m ? `--${m[1]}` : w[i]}`);
  }
}

/**
 * sed's `e command` runs a command, and the `e` flag of `s///e` runs the pattern space: the first is read as a
 * command line, the second (what runs depends on the input) is also asked.
 */
function sedCommands(st: State, w: readonly string[], v: string): void {
  const scripts: string[] = [];
  let first = true;
  for (let i = 1; i < w.length; i++) {
    const a = w[i];
    if ((a === '-e' || a === '--expression') && w[i + 1] !== undefined) {
      scripts.push(w[++i]);
      first = false;
    } else if (a.startsWith('--expression=')) {
      scripts.push(a.slice(13));
      first = false;
    } else if (/^-[A-Za-z]*f$/.test(a) || a.startsWith('--file')) {
      st.unreadable.push(`${v} runs a script file`);
      first = false;
    } else if (!a.startsWith('-') && first) {
      scripts.push(a);
      first = false;
    }
  }
  for (const text of scripts) {
    for (const cmd of text.split(/[\n;]/)) {
      const e = /^\s*(?:\d+|\$|\/[^/]*\/)?,?(?:\d+|\$|\/[^/]*\/)?\s*!?\s*e(?:\s+(.*))?$/s.exec(cmd);
      if (e) {
        if (e[1] !== undefined && e[1].trim() !== '') {
          script(st, e[1], `${v} e`);
        } else {
          st.unreadable.push(`${v} e runs the pattern space as a command`);
        }
        continue;
      }
      const sub = /^\s*(?:[^s]*?)s(.)/s.exec(cmd);
      if (sub && sub[1] !== '\\' && sub[1] !== '\n') {
        const d = sub[1];
        const parts = cmd.slice(sub[0].length).split(d);
        if (
          parts.length >= 3 &&
          /e/.test(
            parts
              .slice(2)
              .join(d)
              .replace(/w\s.*$/s, ''),
          )
        ) {
          st.unreadable.push(`${v} s///e runs the pattern space as a command`);
          script(st, parts[1], `${v} s///e`);
        }
      }
    }
  }
}

/** A shell with no `-c` and no script operand reads its commands from its standard input. */
function shellStdin(st: State, w: readonly string[], v: string): void {
  const operand = w
    .slice(1)
    .some((x, n) => !x.startsWith('-') && !x.startsWith('+') && !['-o', '+o', '-O', '+O'].includes(w[n]));
  if (!operand && st.stdin !== undefined) {
    script(st, st.stdin, `${v} reading its input`);
  }
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
    } else if (st.redirects.length > 0) {
      // Redirections alone (`>~/.bashrc`, `</dev/tcp/h/p`): bash performs them and runs nothing, as `:` would.
      emit(st, [':']);
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
      shellStdin(s, w, v);
    }
  } else if (TEXT_RUNNERS.has(v)) {
    unwrapTextRunner(s, w, v);
  } else if (v === 'tmux') {
    unwrapTmux(s, w);
  } else if (v === 'screen') {
    unwrapScreen(s, w);
  } else if (v === 'at' || v === 'batch') {
    unwrapAt(s, w, v);
  } else if (VIMS.has(v)) {
    unwrapVim(s, w, v);
  } else if (v === 'tar' || v === 'gtar' || v === 'bsdtar') {
    unwrapTar(s, w);
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
    if (v === 'sed' || v === 'gsed') {
      sedCommands(s, w, v);
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

/** What `echo …`/`printf …` (literal words) writes, `\n` read as a newline; undefined for any other command. */
function echoText(words: readonly string[]): string | undefined {
  const v = basename(words[0] ?? '');
  if (v !== 'echo' && v !== 'printf') {
    return undefined;
  }
  let i = 1;
  while (v === 'echo' && /^-[neE]+$/.test(words[i] ?? '')) {
    i++;
  }
  return words.slice(i).join(' ').replace(/\\n/g, '\n');
}

/** A command's standard input when the line names it: a here-string, else what the command before the pipe echoed. */
function stdinOf(redirects: readonly NormRedirect[], piped: string | undefined): string | undefined {
  const here = redirects.find((r) => r.op === '<<<');
  return here !== undefined ? (here.target ?? here.raw) : piped;
}

function normaliseWith(command: string, env: ShellEnv, depth: number): NormLine {
  const parsed = parseCommand(command);
  const out: NormCommand[] = [];
  const unreadable: string[] = [...parsed.problems];
  if (parsed.substitutions.length > 0) {
    unreadable.push('a command or process substitution');
  }
  let cwd: string | undefined;
  // A cd is known to have worked only for what follows it through `&&`; after any other operator it may not have.
  let cdSeen = false;
  let cwdLost = false;
  let echoed: string | undefined;
  for (const part of allParts(parsed)) {
    if (cdSeen && part.after !== '&&') {
      cwdLost = true;
    }
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
    const stdin = stdinOf(redirects, part.after === '|' || part.after === '|&' ? echoed : undefined);
    const st: State = {
      via: [],
      assigns: [],
      cwd,
      cwdLost,
      redirects,
      after: part.after,
      depth,
      env,
      out,
      unreadable,
      literal,
      ...(stdin !== undefined ? { stdin } : {}),
    };
    unwrap(st, words);
    echoed = literal ? echoText(words) : undefined;
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
        cdSeen = true;
        if (to.startsWith('/')) {
          cwdLost = false;
        }
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
