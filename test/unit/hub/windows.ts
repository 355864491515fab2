/** Spawns real window processes (driver.ts) for the hub tests and waits, bounded, for what they report. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

const DRIVER = path.join(__dirname, 'driver.ts');
let bundled: string | undefined;

/**
 * driver.ts bundled into one file in a folder every user can read, for a process of another user: the checkout may
 * sit where only its owner can enter (CI clones it into a 0700 mktemp folder), where that user could load neither
 * tsx nor the sources and exited before reporting anything. Built once per run.
 */
function driverForAnyUser(): string {
  if (bundled === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-driver-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    fs.chmodSync(dir, 0o755);
    const out = path.join(dir, 'driver.js');
    esbuild.buildSync({ entryPoints: [DRIVER], outfile: out, bundle: true, platform: 'node', target: 'node20' });
    fs.chmodSync(out, 0o644);
    bundled = out;
  }
  return bundled;
}
/** Generous bound on any single wait: a failure shows as a timeout message, never a timing assertion. */
export const WAIT_MS = 15_000;

export type Report = { ev: string; [key: string]: unknown };

export class Window {
  readonly reports: Report[] = [];
  private readonly _waiters = new Set<() => void>();
  private _exited = false;
  private _nextId = 1;

  constructor(
    readonly windowId: string,
    readonly child: ChildProcess,
  ) {
    child.on('message', (m: Report) => {
      this.reports.push(m);
      this._waiters.forEach((w) => w());
    });
    child.on('exit', () => {
      this._exited = true;
      this._waiters.forEach((w) => w());
    });
  }

  static open(dir: string, windowId: string, extra: string[] = [], opts: SpawnOptions = {}): Window {
    const otherUser = opts.uid !== undefined && opts.uid !== process.getuid?.();
    const driver = otherUser ? [driverForAnyUser()] : ['--import', 'tsx', DRIVER];
    const child = spawn(process.execPath, [...driver, dir, windowId, ...extra], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
      ...(otherUser ? { cwd: path.dirname(driver[0]) } : {}),
      ...opts,
    });
    return new Window(windowId, child);
  }

  /** The first report from index `from` on that matches, waiting up to WAIT_MS. */
  waitFor(match: (r: Report) => boolean, what: string, from = 0): Promise<Report> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.reports.slice(from).find(match);
        if (found) {
          done();
          resolve(found);
          return true;
        }
        if (this._exited) {
          done();
          reject(new Error(`${this.windowId} exited before ${what}; it reported ${JSON.stringify(this.reports)}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(`${this.windowId}: no ${what} within ${WAIT_MS} ms; reports: ${JSON.stringify(this.reports)}`),
        );
      }, WAIT_MS);
      const done = (): void => {
        clearTimeout(timer);
        this._waiters.delete(waiter);
      };
      const waiter = (): void => void check();
      if (!check()) {
        this._waiters.add(waiter);
      }
    });
  }

  /** The first role report (leader or follower) at or after `from`. */
  role(from = 0): Promise<Report> {
    return this.waitFor((r) => r.ev === 'leader' || r.ev === 'follower', 'role', from);
  }

  send(command: object): void {
    this.child.send(command);
  }

  async request(body: unknown): Promise<Report> {
    const id = this._nextId++;
    this.send({ cmd: 'request', id, body });
    return this.waitFor((r) => r.ev === 'reply' && r.id === id, `reply ${id}`);
  }

  async toastTarget(): Promise<unknown> {
    const id = this._nextId++;
    this.send({ cmd: 'toastTarget', id });
    return (await this.waitFor((r) => r.ev === 'toastTarget' && r.id === id, `toast target ${id}`)).target;
  }

  /** Kills the whole process group with SIGKILL and waits for the exit. */
  async kill(): Promise<void> {
    if (this._exited) {
      return;
    }
    const exited = new Promise<void>((r) => this.child.once('exit', () => r()));
    try {
      process.kill(-this.child.pid!, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
  }

  get exited(): boolean {
    return this._exited;
  }
}
