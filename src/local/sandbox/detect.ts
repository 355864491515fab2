/**
 * Which sandbox this machine has: bubblewrap on Linux (on the PATH given, the agent's own, and able to create its
 * namespaces: a quick probe with the flags every agent gets), `sandbox-exec` on macOS, none elsewhere. Probed once
 * per process and PATH. `/usr/bin/bwrap` is tried first whenever it exists (on Ubuntu 24.04 and later AppArmor lets
 * only it create unprivileged user namespaces; another bwrap on PATH is refused). A bwrap that exists but cannot
 * create its namespaces is `blocked` when the kernel's user-namespace restriction is why (AppArmor's
 * `apparmor_restrict_unprivileged_userns`, Debian's `unprivileged_userns_clone`), else `not_working`.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import which from 'which';
import { BWRAP_FLAGS } from './bwrap';

export type SandboxTool = 'bwrap' | 'seatbelt';
export type SandboxUnavailable = 'not_installed' | 'blocked' | 'not_working' | 'unsupported_platform';

export type SandboxDetection =
  | { readonly tool: SandboxTool; readonly command: string }
  | { readonly tool: undefined; readonly reason: SandboxUnavailable; readonly detail?: string };

/** The install command shown where bubblewrap is missing. */
export const BWRAP_INSTALL = 'sudo apt-get install bubblewrap';
/**
 * The fix shown where bubblewrap is blocked by the user-namespace restriction: the distribution's `/usr/bin/bwrap`
 * (the one AppArmor allows), or the restriction lifted.
 */
export const BWRAP_UNBLOCK =
  'sudo apt-get install bubblewrap (the /usr/bin/bwrap AppArmor allows), or: sudo sysctl kernel.apparmor_restrict_unprivileged_userns=0';
/** The bubblewrap AppArmor allows on Ubuntu 24.04 and later. */
export const SYSTEM_BWRAP = '/usr/bin/bwrap';
const SEATBELT = '/usr/bin/sandbox-exec';

/** bubblewrap's words when the kernel or AppArmor refuses it an unprivileged user namespace. */
const USERNS_REFUSED =
  /setting up uid map: Permission denied|No permissions to creat\w* new namespace|Creating new namespace failed|unprivileged_userns/i;

/**
 * Why a bwrap that is installed did not start: `blocked` (the user-namespace restriction: bubblewrap's own words,
 * or `restricted` true: /proc/sys/kernel/apparmor_restrict_unprivileged_userns reads 1) or `not_working`.
 */
export function probeFailure(stderr: string, restricted: boolean): 'blocked' | 'not_working' {
  return USERNS_REFUSED.test(stderr) || restricted ? 'blocked' : 'not_working';
}

function userNamespacesRestricted(): boolean {
  try {
    return fs.readFileSync('/proc/sys/kernel/apparmor_restrict_unprivileged_userns', 'utf8').trim() === '1';
  } catch {
    return false;
  }
}
const PROBE_MS = 5000;

const cache = new Map<string, Promise<SandboxDetection>>();

function run(command: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: PROBE_MS, env: { PATH: '/usr/bin:/bin' } }, (err, _out, stderr) => {
      resolve(err ? (String(stderr).trim() || err.message).slice(0, 500) : undefined);
    });
  });
}

async function probe(platform: NodeJS.Platform, pathEnv: string): Promise<SandboxDetection> {
  if (platform === 'linux') {
    const onPath = await which('bwrap', { path: pathEnv, nothrow: true });
    if (!onPath) {
      return { tool: undefined, reason: 'not_installed' };
    }
    const candidates = [...new Set([...(fs.existsSync(SYSTEM_BWRAP) ? [SYSTEM_BWRAP] : []), onPath])];
    const failures: string[] = [];
    for (const bwrap of candidates) {
      const failed = await probeOne(bwrap);
      if (failed === undefined) {
        return { tool: 'bwrap', command: bwrap };
      }
      failures.push(`${bwrap}: ${failed}`);
    }
    const detail = failures.join('\n');
    return { tool: undefined, reason: probeFailure(detail, userNamespacesRestricted()), detail };
  }
  if (platform === 'darwin') {
    const failed = await run(SEATBELT, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return failed === undefined
      ? { tool: 'seatbelt', command: SEATBELT }
      : { tool: undefined, reason: 'not_working', detail: failed };
  }
  return { tool: undefined, reason: 'unsupported_platform' };
}

/** Runs bubblewrap once with the flags every agent gets; undefined when it works, else what it said. */
function probeOne(bwrap: string): Promise<string | undefined> {
  return run(bwrap, [
    ...BWRAP_FLAGS,
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    '/tmp',
    '--',
    '/bin/sh',
    '-c',
    'exit 0',
  ]);
}

/** The sandbox of this machine, bubblewrap looked up on `pathEnv` (cached: the probe runs once per platform and PATH). */
export function detectSandbox(
  platform: NodeJS.Platform = process.platform,
  pathEnv: string | undefined = process.env.PATH,
): Promise<SandboxDetection> {
  pathEnv ??= '';
  const key = `${platform}\0${pathEnv}`;
  let p = cache.get(key);
  if (!p) {
    p = probe(platform, pathEnv);
    cache.set(key, p);
  }
  return p;
}
