/** How the first words of a simple command read: wrappers such as `sudo` or `env` stripped, the verb found. */
import type { CommandPart } from './shell';

/** Commands that only run the command after them (their own options skipped by {@link stripWrappers}). */
const WRAPPERS = new Set([
  'sudo',
  'doas',
  'env',
  'nice',
  'ionice',
  'nohup',
  'time',
  'command',
  'builtin',
  'exec',
  'timeout',
  'stdbuf',
  'setsid',
  'chrt',
  'taskset',
  'busybox',
  'xargs',
]);
/** Wrapper options that take a value as the next word. */
const WRAPPER_VALUE_OPTS: Readonly<Record<string, readonly string[]>> = {
  sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'],
  doas: ['-u', '-C'],
  env: ['-u', '-C', '-S'],
  nice: ['-n'],
  ionice: ['-c', '-n', '-p'],
  timeout: ['-s', '-k', '--signal', '--kill-after'],
  xargs: ['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a'],
};
export const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash']);
export function basename(word: string): string {
  const i = word.lastIndexOf('/');
  return i >= 0 ? word.slice(i + 1) : word;
}

/** The words of a part with leading `VAR=value` assignments and wrapper commands (and their options) removed. */
export function stripWrappers(words: readonly string[]): string[] {
  let w = [...words];
  for (let guard = 0; guard < 32 && w.length > 0; guard++) {
    while (w.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0])) {
      w = w.slice(1);
    }
    const verb = basename(w[0] ?? '');
    if (!WRAPPERS.has(verb)) {
      break;
    }
    w = w.slice(1);
    const valued = WRAPPER_VALUE_OPTS[verb] ?? [];
    while (w.length > 0 && (w[0].startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]))) {
      const opt = w[0];
      w = w.slice(1);
      if (opt === '--') {
        break;
      }
      if (valued.includes(opt)) {
        w = w.slice(1);
      }
    }
    // `nice 10 cmd`, `timeout 5 cmd`: a bare number or duration before the command.
    if ((verb === 'timeout' || verb === 'nice') && w.length > 1 && /^[0-9.]+[smhd]?$/.test(w[0])) {
      w = w.slice(1);
    }
  }
  return w;
}

/** The verb of a part (basename of its first word after wrappers), or ''. */
export function verbOf(part: CommandPart): string {
  return basename(stripWrappers(part.words)[0] ?? '');
}
