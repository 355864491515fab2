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
  runCommand,
  screenshotOnFailure,
  toast,
  until,
  type Workbench,
  openWorkbenchWithClaude,
} from './workbench';
import { skipOrFail } from '../support/skipOrFail';

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
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-ui-local-'));
    const claudeDir = path.join(root, 'claude');
    fs.mkdirSync(claudeDir);
    writeQuietClaudeSettings(claudeDir);
    model = await startFakeModel();
    wb = await openWorkbenchWithClaude({
      name: AGENT,
      bin: BIN,
      modelUrl: model.baseUrl,
      claudeDir,
      withKeyInEnv: true,
    });
    if (!wb.server) {
      skipOrFail(this, 'the local test server did not start for the workbench');
    }
    server = new TestServer(wb.server.info);
  });
  screenshotOnFailure(() => wb);
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

  it("the session group's context menu changes its gate mode: five modes with what each does, yolo after a modal, then a warning in the status bar until it is left", async () => {
    const { page } = wb!;
    await until('the local group idle', async () =>
      /idle · nothing waiting · mode ask/.test(await treeRow(page, LOCAL_GROUP).first().innerText()),
    );
    await treeRow(page, LOCAL_GROUP).first().click({ button: 'right' });
    // A context menu ignores a click that comes right after it opened: hover its item, then Enter.
    const item = page.locator('.monaco-menu .action-label', { hasText: 'Change Local Agent Mode…' }).first();
    await item.waitFor({ timeout: 10_000 });
    await item.hover();
    await page.keyboard.press('Enter');
    const picker = page.locator('.quick-input-widget', { hasText: 'acceptEdits' });
    await picker.waitFor({ state: 'visible', timeout: 30_000 });
    assert.equal(
      await picker.locator('input').getAttribute('placeholder'),
      `Mode of the local gate for ${AGENT} (now: ask)`,
    );
    const rows = picker.locator('.quick-input-list .monaco-list-row');
    await until('the five modes', async () => (await rows.count()) === 5);
    const texts = (await rows.allInnerTexts()).map((t) => t.replace(/\s+/g, ' '));
    assert.deepEqual(
      texts.map((t) => /^\s*(ask|acceptEdits|plan|allow|yolo)/.exec(t)?.[1]),
      ['ask', 'acceptEdits', 'plan', 'allow', 'yolo'],
    );
    assert.match(texts[0], /current/);
    assert.match(texts[1], /File edits, deletes and moves run without asking/);
    assert.match(texts[4], /Asks for confirmation; needs a trusted workspace/);

    await rows
      .filter({ hasText: /^\s*yolo/ })
      .first()
      .click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: `Turn on yolo for ${AGENT}?` });
    await dialog.waitFor({ timeout: 10_000 });
    assert.equal(await page.locator('.statusbar-item', { hasText: 'Yolo:' }).count(), 0, 'yolo before the modal');
    await dialog.getByRole('button', { name: 'Turn On Yolo', exact: true }).click();

    const warning = page.locator('.statusbar-item', { hasText: `Yolo: ${AGENT}` });
    await warning.waitFor({ timeout: 10_000 });
    assert.match((await warning.getAttribute('class')) ?? '', /warning-kind/, 'not on the warning background');
    await until('the group showing yolo', async () =>
      /YOLO: everything not denied runs unasked/.test(await treeRow(page, LOCAL_GROUP).first().innerText()),
    );

    await warning.click();
    await picker.waitFor({ state: 'visible', timeout: 10_000 });
    await picker
      .locator('.quick-input-list .monaco-list-row', { hasText: /^\s*ask/ })
      .first()
      .click();
    await warning.waitFor({ state: 'detached', timeout: 10_000 });
    await until('the group back in ask', async () =>
      /mode ask$/.test((await treeRow(page, LOCAL_GROUP).first().innerText()).trim()),
    );
  });
});
