// A local agent's request in the real workbench, beside a remote one: code-server with the extension from the .vsix,
// the local Fountain server's scripted agents for the remote conversation, and the published claude-agent-acp
// started by Start Local Agent… on the scripted loopback model (its URL comes through code-server's environment,
// which the extension host and so the agent inherit). The agent is a fountain.localAgents machine setting naming the
// installed command by its absolute path: code-server's extension host takes PATH from a login shell, not from
// code-server's own environment, so a preset would not find it. Chromium clicks the toasts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { TestServer } from '../support/serverClient';
import {
  clickNotificationButton,
  killAgentsOf,
  openWorkbench,
  runCommand,
  screenshot,
  toast,
  until,
  type Workbench,
} from './workbench';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const WS = path.join(ROOT, 'test/fixtures/ws');
const AGENT = 'Claude on the scripted model';
const LOCAL_GROUP = `Local · ${AGENT} · ws`;

async function buttonTexts(t: ReturnType<typeof toast>): Promise<string[]> {
  return (await t.locator('.monaco-button').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

function treeRow(page: Page, text: string | RegExp) {
  return page.locator('.pane-body .monaco-list-row', { hasText: text });
}

describe('UI: a local agent in the same inbox', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;
  let server: TestServer;
  let model: FakeModel | undefined;
  let root: string;
  const file = `ui-local-${randomUUID().slice(0, 8)}.txt`;

  before(async function () {
    if (!fs.existsSync(path.join(BIN, 'claude-agent-acp'))) {
      console.warn('[ui local] real ACP agents are not installed: run `bash test/harness/setup-acp-agents.sh`');
      this.skip();
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-ui-local-'));
    const claudeDir = path.join(root, 'claude');
    fs.mkdirSync(claudeDir);
    writeQuietClaudeSettings(claudeDir);
    model = await startFakeModel();
    wb = await openWorkbench({
      withKeyInEnv: true,
      machineSettings: {
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
    if (!wb.server) {
      this.skip();
    }
    server = new TestServer(wb.server.info);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) {
      await screenshot(wb.page, path.join(wb.runDir, `failure-${Date.now()}.png`)).catch(() => undefined);
      console.log(`screenshot and logs in ${wb.runDir}`);
    }
  });
  after(async () => {
    if (wb) {
      await runCommand(wb.page, 'Fountain: Stop Agent').catch(() => undefined);
      await wb.close();
    }
    // Closing code-server ends its process group, not the agent's own: end any agent of this run still alive.
    if (root) {
      killAgentsOf(path.join(root, 'claude'));
    }
    await model?.close();
    fs.rmSync(path.join(WS, file), { force: true });
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('a local request raises the same toast as a remote one, the tree shows both groups, and a toast click answers the local agent', async () => {
    const { page } = wb!;
    await server.startConversation('claude', 'run: touch remote-beside-local.txt', { title: 'Remote beside local' });
    const remote = toast(page, 'touch remote-beside-local.txt');
    await remote.waitFor({ timeout: 30_000 });
    const remoteButtons = await buttonTexts(remote);

    await runCommand(page, 'Fountain: Start Local Agent…');
    const input = page.locator('.quick-input-widget input');
    await input.fill(AGENT);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().click();
    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    await treeRow(page, LOCAL_GROUP).first().waitFor({ timeout: 60_000 });
    assert.match(await treeRow(page, LOCAL_GROUP).first().innerText(), /idle/);

    await runCommand(page, 'Fountain: Send Prompt…');
    await input.fill(`Please create file ${file} containing ok.`);
    await input.press('Enter');

    const local = toast(page, LOCAL_GROUP);
    await local.waitFor({ timeout: 90_000 });
    const text = await local.innerText();
    assert.match(text, new RegExp(`asked by "default" in the local policy of ${AGENT}`));
    assert.match(text, new RegExp(file.replace(/\./g, '\\.')));
    // The same toast as a remote request: the agent's own option names as buttons, in its order.
    assert.deepEqual((await buttonTexts(local)).slice(0, 3), remoteButtons.slice(0, 3));

    await treeRow(page, 'Remote beside local').first().waitFor({ timeout: 20_000 });
    await until('the local group waiting', async () =>
      /waiting · 1 waiting/.test(await treeRow(page, LOCAL_GROUP).first().innerText()),
    );
    assert.equal(fs.existsSync(path.join(WS, file)), false, 'the command ran before it was allowed');

    await clickNotificationButton(page, LOCAL_GROUP, 'Allow');
    await until('the file the allowed command writes', () => fs.existsSync(path.join(WS, file)), 90_000);
    assert.equal(fs.readFileSync(path.join(WS, file), 'utf8'), 'ok\n');
  });
});
