// fountain.local.sandbox "off" in the real workbench (code-server from the .vsix, Chromium): Start Local Agent… asks
// with a modal before the first unsandboxed start (Cancel starts nothing; Start Without Sandbox starts it), a warning
// item stays in the status bar while the unsandboxed agent runs and goes when it stops, and the next start in the
// same window does not ask again. The agent is the published claude-agent-acp on the scripted loopback model.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { skipOrFail } from '../support/skipOrFail';
import {
  killAgentsOf,
  openWorkbench,
  runCommand,
  screenshot,
  screenshotOnFailure,
  textOf,
  toast,
  until,
  type Workbench,
} from './workbench';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const AGENT = 'Claude unsandboxed';
const GROUP = `Local · ${AGENT} · ws`;
const MODAL = 'Start this local agent without a sandbox?';

const treeRow = (page: Page, text: string | RegExp) => page.locator('.pane-body .monaco-list-row', { hasText: text });
const statusItem = (page: Page) => page.locator('.statusbar-item', { hasText: `Unsandboxed: ${AGENT}` });
const dialog = (page: Page) => page.locator('.monaco-dialog-box', { hasText: MODAL });

async function start(page: Page): Promise<void> {
  await runCommand(page, 'Fountain: Start Local Agent…');
  await page.locator('.quick-input-widget input').fill(AGENT);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().click();
}

describe('UI: fountain.local.sandbox "off"', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;
  let model: FakeModel | undefined;
  let root = '';

  before(async function () {
    if (!fs.existsSync(path.join(BIN, 'claude-agent-acp'))) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-ui-sandbox-'));
    const claudeDir = path.join(root, 'claude');
    writeQuietClaudeSettings(claudeDir);
    model = await startFakeModel();
    wb = await openWorkbench({
      machineSettings: {
        'fountain.local.sandbox': 'off',
        'fountain.localAgents': [
          {
            name: AGENT,
            command: path.join(BIN, 'claude-agent-acp'),
            runtime: 'claude',
            env: ['ANTHROPIC_BASE_URL', 'ANTHROPIC_API_KEY', 'CLAUDE_CONFIG_DIR'],
          },
        ],
      },
      env: {
        ANTHROPIC_BASE_URL: model.baseUrl,
        ANTHROPIC_API_KEY: 'sk-ant-fake-offline-key',
        CLAUDE_CONFIG_DIR: claudeDir,
      },
    });
  });
  screenshotOnFailure(() => wb);
  after(async () => {
    if (wb) {
      await runCommand(wb.page, 'Fountain: Stop Agent').catch(() => undefined);
      await wb.close();
    }
    if (root) {
      killAgentsOf(path.join(root, 'claude'));
    }
    await model?.close();
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('asks with a modal first (Cancel starts nothing), then a warning item while the unsandboxed agent runs', async () => {
    const { page } = wb!;
    await start(page);
    const modal = dialog(page);
    await modal.waitFor({ timeout: 60_000 });
    const text = await textOf(modal);
    assert.match(
      text,
      /fountain\.local\.sandbox is "off": the agent and every command it runs will have all of your rights/,
    );
    await screenshot(page, path.join(wb!.runDir, 'screenshots', 'sandbox-off-modal.png'));
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await modal.waitFor({ state: 'detached', timeout: 10_000 });
    await toast(page, 'The local agent did not start: not started: the agent would run without a sandbox').waitFor({
      timeout: 20_000,
    });
    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    assert.equal(await treeRow(page, GROUP).count(), 0, 'Cancel started the agent');
    assert.equal(await statusItem(page).count(), 0);

    await start(page);
    await modal.waitFor({ timeout: 60_000 });
    await modal.getByRole('button', { name: 'Start Without Sandbox', exact: true }).click();
    await treeRow(page, GROUP).first().waitFor({ timeout: 90_000 });
    await statusItem(page).first().waitFor({ timeout: 20_000 });
    await treeRow(page, 'not sandboxed: fountain.local.sandbox is off').first().waitFor({ timeout: 20_000 });
    await screenshot(page, path.join(wb!.runDir, 'screenshots', 'sandbox-off-status.png'));

    await runCommand(page, 'Fountain: Stop Agent');
    await until('the group gone', async () => (await treeRow(page, GROUP).count()) === 0, 60_000);
    await until('the warning item gone', async () => (await statusItem(page).count()) === 0, 20_000);
  });

  it('the next start in the same window does not ask again, and the warning item is back while it runs', async () => {
    const { page } = wb!;
    await start(page);
    await treeRow(page, GROUP).first().waitFor({ timeout: 90_000 });
    assert.equal(await dialog(page).count(), 0, 'the modal was shown again');
    await statusItem(page).first().waitFor({ timeout: 20_000 });
  });
});
