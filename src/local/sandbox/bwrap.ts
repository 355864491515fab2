/**
 * The bubblewrap command line of a {@link SandboxPlan}: pure, an argv (no shell, so paths with spaces or quotes are
 * single arguments). Its own session (`--new-session`: no TIOCSTI into the editor's terminal), every namespace but
 * the network's (`--unshare-all --share-net`: the agent needs its model), and `--die-with-parent`, so ending the
 * bwrap process (what the agent's process group holds) ends everything inside: its PID namespace goes with it.
 * Every emptied home is a read-only empty tmpfs; `/tmp` (and TMPDIR) a writable private one.
 */
import type { SandboxPlan } from './plan';

/** Flags every sandbox gets (the detection probe runs with them too). */
export const BWRAP_FLAGS: readonly string[] = Object.freeze([
  '--die-with-parent',
  '--new-session',
  '--unshare-all',
  '--share-net',
]);

/** The arguments before the agent's command: `bwrap <these> <command> <args…>` (they end with `--`). */
export function bwrapArgs(plan: SandboxPlan): string[] {
  const args = [...BWRAP_FLAGS];
  for (const l of plan.layers) {
    switch (l.type) {
      case 'mount':
        args.push(l.access === 'rw' ? '--bind' : '--ro-bind', l.src, l.at);
        break;
      case 'dev':
        args.push('--dev', l.at);
        break;
      case 'proc':
        args.push('--proc', l.at);
        break;
      case 'empty':
      case 'tmp':
        args.push('--tmpfs', l.at);
        break;
    }
  }
  // An emptied home is read-only too (`touch ~/x` fails): remounted once everything inside it is mounted (not
  // recursively, so the state folders mounted into it stay writable), unless a later layer sits on the same path.
  plan.layers.forEach((l, i) => {
    if (l.type === 'empty' && !plan.layers.slice(i + 1).some((m) => m.at === l.at)) {
      args.push('--remount-ro', l.at);
    }
  });
  for (const h of plan.hidden) {
    if (h.kind === 'dir') {
      args.push('--tmpfs', h.path, '--remount-ro', h.path);
    } else {
      args.push('--ro-bind', '/dev/null', h.path);
    }
  }
  args.push('--chdir', plan.cwd, '--');
  return args;
}
