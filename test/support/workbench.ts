/**
 * The workbench fixture: the .vsix the user would install, and one local Fountain server plus one code-server with
 * the extension installed from it (no smoke-test driver, so real toasts show) and one headless Chromium page on the
 * workbench. The UI tier opens it; the demo packages the same .vsix.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import type { Page } from 'playwright-core';
import {
  QUIET_SETTINGS,
  ROOT,
  installVsix,
  launchBrowser,
  makeRunDir,
  startCodeServer,
  type CodeServer,
} from './codeServer';
import { localServerAvailable, startLocalServer, type LocalServer } from './serverFixture';

/**
 * Every notification text any workbench of this process showed (toasts and the notification centre), with the run
 * folder it came from: the UI tier scans them all once its tests are done (test/ui/notificationScan.test.ts).
 */
export const seenNotifications: { runDir: string; text: string }[] = [];

/** Records each notification message of the page into `seenNotifications` (and the run's notifications.txt). */
async function recordNotifications(page: Page, runDir: string): Promise<void> {
  await page.exposeBinding('__fountainNotification', (_source, text: string) => {
    seenNotifications.push({ runDir, text });
    fs.appendFileSync(path.join(runDir, 'notifications.txt'), JSON.stringify(text) + '\n');
  });
  // A string, not a function: tsx compiles functions with helpers (__name) that the page does not have.
  await page.addInitScript(`(() => {
    const reported = new Set();
    const report = () => {
      for (const el of document.querySelectorAll('.notification-list-item-message')) {
        const text = el.innerText.trim();
        if (text && !reported.has(text)) {
          reported.add(text);
          void window.__fountainNotification(text);
        }
      }
    };
    new MutationObserver(report).observe(document, { subtree: true, childList: true, characterData: true });
  })();`);
}

export interface Workbench {
  readonly page: Page;
  readonly runDir: string;
  readonly server: LocalServer | undefined;
  readonly serverUrl: string;
  close(): Promise<void>;
}

/**
 * Installs the test language pack of `locale` into the run's extensions folder, and records it in the server's
 * language-pack cache (<user-data>/languagepacks.json, in the shape VS Code's LanguagePacksCache writes): code-server
 * fills that cache when a pack is installed from the running workbench, not from its `--install-extension` CLI, and
 * without the entry `--locale` falls back to English.
 */
function installLanguagePack(runDir: string, locale: string): void {
  const source = path.join(ROOT, 'test/fixtures', `language-pack-${locale}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(source, 'package.json'), 'utf8')) as {
    name: string;
    publisher: string;
    version: string;
    contributes: { localizations: { localizedLanguageName: string; translations: { id: string; path: string }[] }[] };
  };
  const vsix = path.join(runDir, `language-pack-${locale}.vsix`);
  execFileSync(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/@vscode/vsce/vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--skip-license',
      '--out',
      vsix,
    ],
    { cwd: source, stdio: 'pipe' },
  );
  installVsix(runDir, vsix);
  const id = `${manifest.publisher}.${manifest.name}`;
  const installed = path.join(runDir, 'extensions', `${id}-${manifest.version}`);
  const loc = manifest.contributes.localizations[0];
  if (!fs.existsSync(installed) || !loc) {
    throw new Error(`the test language pack ${id} was not installed into ${installed}`);
  }
  const cache = {
    [locale]: {
      hash: `${id}@${manifest.version}`,
      extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
      translations: Object.fromEntries(loc.translations.map((t) => [t.id, path.join(installed, t.path)])),
      label: loc.localizedLanguageName,
    },
  };
  fs.writeFileSync(path.join(runDir, 'user-data', 'languagepacks.json'), JSON.stringify(cache));
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
  opts: {
    scenario?: string;
    withKeyInEnv?: boolean;
    userSettings?: Record<string, unknown>;
    /** Machine-scoped settings (e.g. fountain.localAgents, which code-server reads only from there). */
    machineSettings?: Record<string, unknown>;
    /** More environment for code-server and so its extension host (e.g. PATH and the scripted model for local agents). */
    env?: Record<string, string>;
    /**
     * The display language, e.g. 'de': the test language pack for it (test/fixtures/language-pack-<locale>/) is
     * installed and code-server started with `--locale`. English otherwise.
     */
    locale?: string;
  } = {},
): Promise<Workbench> {
  const runDir = makeRunDir('fountain-ui-');
  const vsix = path.join(runDir, 'fountain-approvals.vsix');
  packageVsix(vsix);
  installVsix(runDir, vsix);
  if (opts.locale) {
    installLanguagePack(runDir, opts.locale);
  }
  let server: LocalServer | undefined;
  let cs: CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    let serverUrl = 'http://127.0.0.1:9';
    const env: Record<string, string> = { ...opts.env };
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
      machineSettings: { 'fountain.serverUrl': serverUrl, ...opts.machineSettings },
      ...(opts.locale ? { locale: opts.locale } : {}),
    });
    browser = await launchBrowser(runDir);
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await recordNotifications(page, runDir);
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
