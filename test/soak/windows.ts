/**
 * The soak's workbench: one code-server, windows as Chromium pages on it (each its own extension host running the
 * scripted user, test/soak/host.ts, as extensionTestsPath), which window the user works in, and which extension host
 * holds the stream (the proxy's open stream socket, found in /proc).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { ROOT, launchBrowser, startCodeServer, type CodeServer } from '../support/codeServer';

export interface HostState {
  readonly pid: string;
  /** 1, 2, …: the order the windows were opened in. */
  readonly window: number;
  readonly page: Page;
  readonly startedAt: number;
  heap?: number;
  heapAtMinute?: number;
  closed?: boolean;
}

export class SoakWindows {
  readonly hosts = new Map<string, HostState>();
  private browser!: Browser;
  private cs!: CodeServer;
  private url = '';
  private opened = 0;
  private waiting: ((pid: string) => void) | undefined;
  private pendingPage: Page | undefined;
  activePid: string | undefined;

  constructor(
    private readonly runDir: string,
    private readonly t0: () => number,
  ) {}

  /** `settings`: more machine settings (fountain.localAgents and fountain.local.*: code-server reads them there). */
  async start(env: Record<string, string>, serverUrl: string, settings: Record<string, unknown> = {}): Promise<void> {
    this.cs = await startCodeServer({
      runDir: this.runDir,
      smokeTestDriver: true,
      env,
      machineSettings: {
        'fountain.serverUrl': serverUrl,
        ...settings,
      },
    });
    this.browser = await launchBrowser(this.runDir);
    const remote = (p: string) => `vscode-remote://127.0.0.1:${this.cs.port}${encodeURI(p)}`;
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(path.join(ROOT, 'out/test/soak/host.js'))],
      ['skipWelcome', 'true'],
    ];
    const ws = path.join(ROOT, 'test/fixtures/ws');
    this.url = `${this.cs.url}/?folder=${encodeURIComponent(ws)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  }

  /** Opens one more window and waits for its scripted user's first report. */
  async open(): Promise<HostState> {
    const page = await this.browser.newPage({ viewport: { width: 1200, height: 800 } });
    const n = ++this.opened;
    const log = path.join(this.runDir, `window${n}.log`);
    await page.exposeFunction('codeAutomationLog', (_t: string, args: unknown[]) =>
      fs.appendFileSync(log, format(...(args as [unknown, ...unknown[]])) + '\n'),
    );
    await page.exposeFunction('codeAutomationExit', (c: number) => fs.appendFileSync(log, `exit ${c}\n`));
    const pid = new Promise<string>((resolve) => (this.waiting = resolve));
    this.pendingPage = page;
    await page.goto(this.url, { timeout: 180_000 });
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`window ${n}: no report from its extension host in 180 s`)), 180_000),
    );
    const id = await Promise.race([pid, timeout]);
    return this.hosts.get(id)!;
  }

  /** A report from an extension host: registers a new one (the window being opened), records its heap. */
  report(pid: string, heap: number): { active: boolean; known: boolean; window?: number } {
    let h = this.hosts.get(pid);
    if (!h) {
      if (!this.pendingPage || !this.waiting) {
        return { active: false, known: false };
      }
      h = { pid, window: this.opened, page: this.pendingPage, startedAt: Date.now() };
      this.hosts.set(pid, h);
      this.pendingPage = undefined;
      this.activePid ??= pid;
      const w = this.waiting;
      this.waiting = undefined;
      w(pid);
    }
    h.heap = heap;
    if (h.heapAtMinute === undefined && Date.now() - Math.max(h.startedAt, this.t0()) >= 60_000) {
      h.heapAtMinute = heap;
    }
    return { active: this.activePid === pid && !h.closed, known: true, window: h.window };
  }

  alive(): HostState[] {
    return [...this.hosts.values()].filter((h) => !h.closed);
  }

  /** The user moves to the other open window. */
  switchActive(): void {
    const other = this.alive().find((h) => h.pid !== this.activePid);
    if (other) {
      this.activePid = other.pid;
    }
  }

  async close(h: HostState): Promise<void> {
    h.closed = true;
    if (this.activePid === h.pid) {
      this.activePid = this.alive()[0]?.pid;
    }
    await h.page.close();
  }

  /** The extension host whose process owns the client side of the proxy connection from `remotePort`. */
  ownerOf(remotePort: number): HostState | undefined {
    const inodes = new Set<string>();
    for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
      const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').slice(1) : [];
      for (const line of lines) {
        const f = line.trim().split(/\s+/);
        if (f.length > 9 && parseInt(f[1].split(':')[1] ?? '', 16) === remotePort) {
          inodes.add(`socket:[${f[9]}]`);
        }
      }
    }
    for (const h of this.alive()) {
      try {
        const dir = `/proc/${h.pid}/fd`;
        if (fs.readdirSync(dir).some((fd) => inodes.has(safeReadlink(path.join(dir, fd))))) {
          return h;
        }
      } catch {
        // gone
      }
    }
    return undefined;
  }

  async stop(): Promise<void> {
    await this.browser?.close().catch(() => undefined);
    await this.cs?.stop();
  }
}

function safeReadlink(p: string): string {
  try {
    return fs.readlinkSync(p);
  } catch {
    return '';
  }
}
