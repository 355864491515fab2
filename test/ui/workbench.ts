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
import { waitFor } from '../harness/wait';
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
      '--no-rewrite-relative-links',
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
        env.FOUNTAIN_BASE_URL = server.info.url; // the server the environment's key belongs to
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
    try {
      await page.keyboard.press('Escape');
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.fill('>' + title, { timeout: 3000 });
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
      await row.waitFor({ timeout: 3000 });
      await row.click({ timeout: 3000 }); // the row that matched, not whichever is highlighted
      return;
    } catch (e) {
      if (Date.now() > deadline) {
        throw e;
      }
      await page.waitForTimeout(1000);
    }
  }
}

/** A visible toast containing `text`. */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.locator('.notifications-toasts .notification-toast', { hasText: text });
}

/**
 * A notification containing `text`, wherever VS Code shows it: as a toast, or in the notification centre when that
 * is open (new notifications then go straight to the centre).
 */
export function notification(page: Page, text: string | RegExp): Locator {
  return page
    .locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item', {
      hasText: text,
    })
    .first();
}

/**
 * Clicks a button of the notification containing `text`: on its toast while it shows, else in the notification
 * centre (a toast hides itself after a while in a focused window; its buttons keep working there).
 */
export async function clickNotificationButton(page: Page, text: string | RegExp, button: string): Promise<void> {
  const t = toast(page, text);
  if (await t.isVisible()) {
    try {
      await t.getByRole('button', { name: button, exact: true }).click({ timeout: 3000 });
      return;
    } catch {
      // it hid itself just now: use the notification centre
    }
  }
  await runCommand(page, 'Notifications: Show Notifications');
  const entry = page.locator('.notifications-center .notification-list-item', { hasText: text }).first();
  await entry.waitFor({ timeout: 10_000 });
  await entry.getByRole('button', { name: button, exact: true }).click();
  // The centre stays open; notifications that follow appear in it (see `notification`).
}

/** Visible text of an element with the editor's non-breaking spaces turned back into spaces. */
export async function textOf(locator: Locator): Promise<string> {
  return (await locator.innerText()).replace(/\u00a0/g, ' ');
}

/** Polls until `check` holds; the UI's default wait is longer than the harness's. */
export function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  return waitFor(what, check, ms, 200);
}

export async function screenshot(page: Page, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
}
