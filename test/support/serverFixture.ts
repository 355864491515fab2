/**
 * Starting and stopping the local Fountain-compatible server (test/server) for every tier: as a child process in its
 * own process group (the integration harness, the UI tier, the demo) or in this process (the server tier, the bench).
 * Talk to it with ./serverClient.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { startServer, type RunningServer, type ServerOptions } from '../server';
import { ROOT, killGroup } from './codeServer';
import { TestServer, type ServerInfo } from './serverClient';

export interface LocalServer {
  readonly info: ServerInfo;
  /** The client bound to it. */
  readonly client: TestServer;
  stop(): Promise<void>;
}

export const SERVER_MAIN = path.join(ROOT, 'test', 'server', 'main.mjs');

export function localServerAvailable(): boolean {
  return fs.existsSync(SERVER_MAIN);
}

/** Runs `node test/server/main.mjs --port 0 …` in its own process group and reads its ready line. */
export async function startLocalServer(opts: {
  scenario?: string;
  logFile: string;
  args?: string[];
  nodePath?: string;
}): Promise<LocalServer> {
  const args = [
    SERVER_MAIN,
    '--port',
    '0',
    ...(opts.scenario ? ['--scenario', opts.scenario] : []),
    ...(opts.args ?? []),
  ];
  const log = fs.openSync(opts.logFile, 'a');
  const env = { ...process.env };
  delete env.FOUNTAIN_TOKEN;
  const proc = spawn(opts.nodePath ?? process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', log],
    env,
    cwd: ROOT,
  });
  const lines = readline.createInterface({ input: proc.stdout! });
  const info = await new Promise<ServerInfo>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`local server did not announce itself in 60 s; see ${opts.logFile}`)),
      60_000,
    );
    proc.once('exit', (code) => reject(new Error(`local server exited with ${code}; see ${opts.logFile}`)));
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as ServerInfo);
      } catch {
        reject(new Error(`local server printed a non-JSON ready line: ${line.slice(0, 200)}`));
      }
    });
  });
  // Keep draining stdout into the log so the child never blocks on a full pipe.
  lines.on('line', (l) => fs.appendFileSync(opts.logFile, l + '\n'));
  return { info, client: new TestServer(info), stop: () => killGroup(proc, 3000) };
}

/** The server in this process with the server tier's defaults: manual clock, no real agents, 10 ms debounce, quiet. */
export function startInProcess(opts: ServerOptions = {}): Promise<RunningServer> {
  return startServer({ clock: 'manual', real: false, debounceMs: 10, log: () => undefined, ...opts });
}
