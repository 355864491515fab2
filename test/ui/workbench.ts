/**
 * The UI tier's page helpers (command palette, notifications, text). The workbench itself is opened by the shared
 * fixture in test/support/workbench.ts, re-exported here with the one polling wait.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';

import { openWorkbench, runCommand, type Workbench } from '../support/workbench';

export { runCommand };

export { openWorkbench, type Workbench };
export { until } from '../support/wait';

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

/** After each failed test of the block: a screenshot into the workbench's run folder, and where it is. */
export function screenshotOnFailure(workbench: () => Workbench | undefined): void {
  afterEach(async function () {
    const wb = workbench();
    if (this.currentTest?.state === 'failed' && wb) {
      await screenshot(wb.page, path.join(wb.runDir, `failure-${Date.now()}.png`)).catch(() => undefined);
      console.log(`screenshot and logs in ${wb.runDir}`);
    }
  });
}

export async function screenshot(page: Page, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file });
}

/** Ends the process group of every process whose environment names `claudeDir` (one run's local agents only). */
export function killAgentsOf(claudeDir: string): void {
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const env = fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
      if (env.includes(`CLAUDE_CONFIG_DIR=${claudeDir}`)) {
        const pgid = Number(fs.readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1].split(' ')[2]);
        process.kill(-pgid, 'SIGKILL');
      }
    } catch {
      // gone already, or not ours to read
    }
  }
}

/** The extension's log (its LogOutputChannel) as code-server wrote it so far under the run's user-data folder. */
export function extensionLog(runDir: string): string {
  const logs = path.join(runDir, 'user-data', 'logs');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p);
      } else if (e.name === 'Fountain Approvals.log') {
        found.push(p);
      }
    }
  };
  walk(logs);
  return found.map((f) => fs.readFileSync(f, 'utf8')).join('\n');
}

/** Shows the Pending Approvals view (its command) and waits for it in the side bar. */
export async function openView(page: Page): Promise<void> {
  await runCommand(page, 'Fountain: Focus on Pending Approvals View');
  await page
    .locator('[id="workbench.parts.sidebar"]', { hasText: 'Pending Approvals' })
    .first()
    .waitFor({ timeout: 20_000 });
}

/**
 * A workbench whose `fountain.localAgents` (a machine setting) names the installed claude-agent-acp in `bin` as `name`,
 * run against the scripted model at `modelUrl` with Claude Code's configuration in `claudeDir` (the caller writes its
 * offline settings there).
 */
export function openWorkbenchWithClaude(o: {
  name: string;
  bin: string;
  modelUrl: string;
  claudeDir: string;
  withKeyInEnv?: boolean;
}): Promise<Workbench> {
  return openWorkbench({
    ...(o.withKeyInEnv ? { withKeyInEnv: true } : {}),
    machineSettings: {
      'fountain.localAgents': [
        {
          name: o.name,
          command: path.join(o.bin, 'claude-agent-acp'),
          runtime: 'claude',
          env: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'],
        },
      ],
    },
    env: {
      ANTHROPIC_BASE_URL: o.modelUrl,
      ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
      CLAUDE_CONFIG_DIR: o.claudeDir,
    },
  });
}
