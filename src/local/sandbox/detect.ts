/**
 * Which sandbox this machine has: bubblewrap on Linux (on the PATH given, the agent's own, and able to create its
 * namespaces: a quick probe with the flags every agent gets), `sandbox-exec` on macOS, none elsewhere. Probed once
 * per process and PATH.
 */
import { execFile } from 'node:child_process';
import which from 'which';
import { BWRAP_FLAGS } from './bwrap';

export type SandboxTool = 'bwrap' | 'seatbelt';
export type SandboxUnavailable = 'not_installed' | 'not_working' | 'unsupported_platform';

export type SandboxDetection =
  | { readonly tool: SandboxTool; readonly command: string }
  | { readonly tool: undefined; readonly reason: SandboxUnavailable; readonly detail?: string };

/** The install command shown where bubblewrap is missing. */
export const BWRAP_INSTALL = 'sudo apt-get install bubblewrap';
const SEATBELT = '/usr/bin/sandbox-exec';
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
    const bwrap = await which('bwrap', { path: pathEnv, nothrow: true });
    if (!bwrap) {
      return { tool: undefined, reason: 'not_installed' };
    }
    const failed = await run(bwrap, [
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
    return failed === undefined
      ? { tool: 'bwrap', command: bwrap }
      : { tool: undefined, reason: 'not_working', detail: failed };
  }
  if (platform === 'darwin') {
    const failed = await run(SEATBELT, ['-p', '(version 1)(allow default)', '/usr/bin/true']);
    return failed === undefined
      ? { tool: 'seatbelt', command: SEATBELT }
      : { tool: undefined, reason: 'not_working', detail: failed };
  }
  return { tool: undefined, reason: 'unsupported_platform' };
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
