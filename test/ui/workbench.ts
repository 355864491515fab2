/**
 * The UI tier's fixture: one local Fountain server, one code-server with the extension installed from the built
 * .vsix (no smoke-test driver, so real toasts show), and one headless Chromium page on the workbench.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import {
  QUIET_SETTINGS,
  ROOT,
  installVsix,
  launchBrowser,
  makeRunDir,
  startCodeServer,
  type CodeServer,
} from '../harness/codeServer';
import { localServerAvailable, startLocalServer, type LocalServer } from '../harness/localServer';

export interface Workbench {
  readonly page: Page;
  readonly runDir: string;
  readonly server: LocalServer | undefined;
  readonly serverUrl: string;
  close(): Promise<void>;
}

/** Builds the production bundle and packages the .vsix the user would install. */
export function packageVsix(outFile: string): void {
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.mjs'), '--production'], { cwd: ROOT, stdio: 'inherit' });
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@vscode/vsce/vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
      '--out',
      outFile,
    ],
    { cwd: ROOT, stdio: 'pipe' },
  );
}

export async function openWorkbench(
  opts: { scenario?: string; withKeyInEnv?: boolean; userSettings?: Record<string, unknown> } = {},
): Promise<Workbench> {
  const runDir = makeRunDir('fountain-ui-');
  const vsix = path.join(runDir, 'fountain-approvals.vsix');
  packageVsix(vsix);
  installVsix(runDir, vsix);
  let server: LocalServer | undefined;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    let serverUrl = 'http://127.0.0.1:9';
    const env: Record<string, string> = {};
    if (localServerAvailable()) {
      server = await startLocalServer({
        scenario: opts.scenario ?? 'empty',
        logFile: path.join(runDir, 'local-server.log'),
      });
      serverUrl = server.info.url;
      if (opts.withKeyInEnv) {
        env.FOUNTAIN_API_KEY = server.info.apiKey;
      }
    }
    cs = await startCodeServer({
      runDir,
      env,
      userSettings: { ...QUIET_SETTINGS, ...opts.userSettings },
      machineSettings: { 'fountain.serverUrl': serverUrl },
    });
    browser = await launchBrowser(runDir);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const ws = path.join(ROOT, 'test/fixtures/ws');
    await page.goto(`${cs.url}/?folder=${encodeURIComponent(ws)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const b = browser;
    const c = cs;
    return {
      page,
      runDir,
      server,
      serverUrl,
      close: async () => {
        await b.close().catch(() => undefined);
        await c.stop();
        await server?.stop();
      },
    };
  } catch (err) {
    await browser?.close().catch(() => undefined);
    await cs?.stop();
    await server?.stop();
    throw err;
  }
}

/** Runs a command from the palette by its title, retrying while contributions are still registering. */
export async function runCommand(page: Page, title: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.fill('>' + title);
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
    try {
      await row.waitFor({ timeout: 3000 });
      await page.keyboard.press('Enter');
      return;
    } catch (e) {
      if (Date.now() > deadline) {
        throw e;
      }
      await page.waitForTimeout(1000);
    }
  }
}

/** A visible toast (or, with `center`, a notification-centre entry) containing `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

export async function screenshot(page: Page, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
}
