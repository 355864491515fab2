/**
 * The macOS `sandbox-exec` profile (SBPL) of a {@link SandboxPlan}: pure, unit-tested only (this project cannot run
 * macOS; the README says so). It starts from `(deny default)`: nothing is allowed that is not named here. Then come
 * the allowances an agent and its commands need (running and forking programs, signals and process information
 * inside its own sandbox, the system's read-only state, and a short list of system services: name and user lookups,
 * DNS, certificate checks, logging, preferences). The network: only the forwarder's port on localhost and the
 * proxy's Unix socket (under `fountain.local.network` `ask`), everything (`open`), or nothing (no proxy given). Launch Services (what `open` uses), Apple
 * Events, the window server and every other service stay closed. SBPL takes the last rule that matches, so the
 * files are written in the plan's order: the system readable, no writes anywhere, then each layer shallowest first
 * (an emptied home denies reads and writes under it, a mount allows reads and, when writable, writes), then the
 * protected files (no writes), then the hidden paths (no reads, no writes) last. macOS has no private `/tmp` or PID
 * namespace: the temporary folders are writable as they are, and the process tree is ended by its group as without
 * a sandbox.
 */
import type { SandboxNetwork } from '../network/forwarderLine';
import type { SandboxPlan } from './plan';

/** An SBPL string literal; undefined for a path SBPL cannot hold safely (control characters). */
export function sbplString(path: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(path)) {
    return undefined;
  }
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Thrown when a path of the plan cannot be written into a profile. */
export class SeatbeltPathError extends Error {
  constructor(readonly path: string) {
    super(`cannot write ${JSON.stringify(path)} into a sandbox profile`);
    this.name = 'SeatbeltPathError';
  }
}

const sub = (p: string) => {
  const s = sbplString(p);
  if (s === undefined) {
    throw new SeatbeltPathError(p);
  }
  return `(subpath ${s})`;
};
const lit = (p: string) => `(literal ${sbplString(p) ?? ''})`;

function ancestors(p: string): string[] {
  const out: string[] = [];
  let cur = p;
  while (cur !== '/' && cur.includes('/')) {
    cur = cur.slice(0, cur.lastIndexOf('/')) || '/';
    out.push(cur);
  }
  return out;
}

/**
 * The system services (mach-lookup) an agent's programs need: user and group lookups, DNS, certificate trust (TLS
 * through Security.framework), logging, preferences and the per-user temporary folder. Nothing else: not Launch
 * Services (`open`), Apple Events, the pasteboard or the window server.
 */
export const SEATBELT_SERVICES: readonly string[] = Object.freeze([
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.opendirectoryd.membership',
  'com.apple.system.DirectoryService.libinfo_v1',
  'com.apple.dnssd.service',
  'com.apple.SecurityServer',
  'com.apple.trustd',
  'com.apple.trustd.agent',
  'com.apple.ocspd',
  'com.apple.system.logger',
  'com.apple.logd',
  'com.apple.diagnosticd',
  'com.apple.system.notification_center',
  'com.apple.cfprefsd.daemon',
  'com.apple.cfprefsd.agent',
  'com.apple.bsd.dirhelper',
  'com.apple.coreservices.quarantine-resolver',
]);

/** What every profile allows before the network and file rules: programs, their own processes, system state. */
const BASE: readonly string[] = Object.freeze([
  '(allow process-exec)',
  '(allow process-fork)',
  '(allow signal (target same-sandbox))',
  '(allow process-info* (target same-sandbox))',
  '(allow sysctl-read)',
  '(allow user-preference-read)',
  '(allow pseudo-tty)',
  '(allow ipc-posix-sem)',
  '(allow ipc-posix-shm-read-data ipc-posix-shm-write-data ipc-posix-shm-write-create)',
  '(allow system-socket)',
  `(allow mach-lookup ${SEATBELT_SERVICES.map((n) => `(global-name ${sbplString(n)!})`).join(' ')})`,
]);

/** `fountain.local.network` `open`: the host network, as an unsandboxed agent has it. */
const OPEN_NETWORK: readonly string[] = Object.freeze([
  '(allow network-outbound)',
  '(allow network-bind (local ip "localhost:*"))',
  '(allow network-inbound (local ip "localhost:*"))',
]);

/**
 * Under the proxy: the forwarder listens on `localhost:port` and connects to the proxy's socket; everything else in
 * the sandbox connects only to that port (no other local port, no other host, no other Unix socket). The forwarder
 * and the Node that runs it are readable where they are.
 */
function proxyNetwork(network: SandboxNetwork): string[] {
  const port = network.port;
  return [
    `(allow network-bind network-inbound (local ip "localhost:${port}"))`,
    `(allow network-outbound (remote ip "localhost:${port}") (remote unix-socket (path-literal ${sbplString(network.socketPath)!})))`,
  ];
}

/** The forwarder and its Node's folder readable (after the layers: an emptied home above them must not hide them). */
function forwarderReads(network: SandboxNetwork): string {
  const { node, script } = network.forwarder;
  return `(allow file-read* ${sub(script)} ${sub(node.slice(0, node.lastIndexOf('/')) || '/')})`;
}

/**
 * The profile for `sandbox-exec -p <profile> <command> <args…>`. `network`: the proxy's socket and the forwarder's
 * port (the only network allowed), `open` (the host network), or nothing (no network at all).
 */
export function seatbeltProfile(plan: SandboxPlan, network?: SandboxNetwork | 'open'): string {
  if (network !== undefined && network !== 'open' && sbplString(network.socketPath) === undefined) {
    throw new SeatbeltPathError(network.socketPath);
  }
  const lines = [
    '(version 1)',
    '(deny default)',
    ...BASE,
    ...(network === 'open' ? OPEN_NETWORK : network ? proxyNetwork(network) : []),
    '(deny file-write*)',
    `(allow file-write* ${['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper'].map(lit).join(' ')} (regex #"^/dev/fd/") (regex #"^/dev/ttys[0-9]+$"))`,
  ];
  const reachable = new Set<string>();
  for (const l of plan.layers) {
    switch (l.type) {
      case 'mount': {
        if (l.at === '/' && l.access === 'ro') {
          lines.push('(allow file-read*)'); // the system, read-only: the layers after it close what they hide
          break;
        }
        const where = [...new Set([l.at, l.src])].map(sub).join(' ');
        lines.push(
          l.access === 'rw'
            ? `(allow file-read* file-write* ${where})`
            : `(allow file-read* ${where})\n(deny file-write* ${where})`,
        );
        [l.at, l.src].forEach((p) => ancestors(p).forEach((a) => reachable.add(a)));
        break;
      }
      case 'empty':
        lines.push(`(deny file-read* file-write* ${sub(l.at)})`);
        break;
      case 'tmp':
        lines.push(`(allow file-read* file-write* ${sub(l.at)})`);
        break;
      default:
        break; // /dev and /proc are the system's own on macOS
    }
  }
  if (network !== undefined && network !== 'open') {
    lines.push(forwarderReads(network));
  }
  if (reachable.size) {
    // The folders above a mount: stat and getcwd work, their listings stay closed.
    lines.push(`(allow file-read-metadata ${[...reachable].sort().map(lit).join(' ')})`);
  }
  if (plan.hidden.length || plan.hiddenPatterns.length) {
    const all = [...new Set([...plan.hiddenPatterns, ...plan.hidden.map((h) => h.path)])];
    lines.push(`(deny file-read* file-write* ${all.map(sub).join(' ')})`);
  }
  return lines.join('\n') + '\n';
}
