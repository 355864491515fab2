/**
 * The bubblewrap command line of a {@link SandboxPlan}: pure, an argv (no shell, so paths with spaces or quotes are
 * single arguments). Its own session (`--new-session`: no TIOCSTI into the editor's terminal), every namespace
 * (`--unshare-all`, the network's included: no host loopback, no host abstract Unix sockets, no raw TCP/UDP out),
 * and `--die-with-parent`, so ending the bwrap process (what the agent's process group holds) ends everything
 * inside: its PID namespace goes with it. Every emptied home is a read-only empty tmpfs; `/tmp` (and TMPDIR) a
 * writable private one. With a {@link SandboxNetwork}, the proxy's socket, the forwarder and the Node that runs it
 * are mounted in the private `/tmp` and the forwarder starts the agent; `open` (`fountain.local.network`) shares
 * the host network (`--share-net`); `none` leaves it only its own loopback.
 */
import {
  SANDBOX_FORWARDER,
  SANDBOX_NET_DIR,
  SANDBOX_NODE_DIR,
  SANDBOX_SOCKET,
  type SandboxNetwork,
} from '../network/forwarderLine';
import type { SandboxPlan } from './plan';

/** Flags every sandbox gets (the detection probe runs with them too: it checks that a network namespace works). */
export const BWRAP_FLAGS: readonly string[] = Object.freeze(['--die-with-parent', '--new-session', '--unshare-all']);

/**
 * The arguments before the agent's command: `bwrap <these> <command> <args…>` (they end with `--`, or with the
 * forwarder's command line, which takes the agent's after it).
 */
export function bwrapArgs(plan: SandboxPlan, network: SandboxNetwork | 'open' | 'none' = 'none'): string[] {
  const args = [...BWRAP_FLAGS, ...(network === 'open' ? ['--share-net'] : [])];
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
  if (network === 'open' || network === 'none') {
    args.push('--chdir', plan.cwd, '--');
    return args;
  }
  const { node, electron, script } = network.forwarder;
  const nodeDir = node.slice(0, node.lastIndexOf('/')) || '/';
  args.push(
    '--dir',
    SANDBOX_NET_DIR,
    '--ro-bind',
    nodeDir,
    SANDBOX_NODE_DIR,
    '--ro-bind',
    script,
    SANDBOX_FORWARDER,
    '--bind',
    network.socketPath,
    SANDBOX_SOCKET,
    ...(electron ? ['--setenv', 'ELECTRON_RUN_AS_NODE', '1'] : []),
    '--chdir',
    plan.cwd,
    '--',
    `${SANDBOX_NODE_DIR}/${node.slice(node.lastIndexOf('/') + 1)}`,
    SANDBOX_FORWARDER,
    SANDBOX_SOCKET,
    String(network.port),
  );
  return args;
}
