// "Decided without you" in the real workbench (code-server from the .vsix, Chromium): the published opencode (`opencode
// acp` as a fountain.localAgents entry, on the scripted loopback model; opencode asks about every tool, so its `ls`
// reaches the gate, where claude-agent-acp runs read-only commands without asking) asks to run `ls`; the local gate allows it by itself
// (the built-in read_only bundle). The session's tree row counts it ("1 decided without you"); its click opens the
// History group, where the entry shows the command and the rule with where it is set. Make This Ask shows the
// confirmation with the setting's change, the call replayed and the dry run, and once confirmed the next `ls` asks.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { AGENT_ENTRIES, presetAgentMissing, presetModelEnv } from '../support/presetAgents';
import { startFakeModel, type FakeModel } from '../support/scriptedModel';
import { skipOrFail } from '../support/skipOrFail';
import {
  clickNotificationButton,
  extensionLog,
  notification,
  openWorkbench,
  runCommand,
  screenshotOnFailure,
  until,
  type Workbench,
} from './workbench';

const AGENT = 'opencode for the audit';
const GROUP = `Local · ${AGENT} · ws`;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const row = (page: Page, text: string | RegExp) => page.locator('.pane-body .monaco-list-row', { hasText: text });

describe('UI: decided without you', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;
  let model: FakeModel | undefined;
  let root = '';

  before(async function () {
    const missing = presetAgentMissing('opencode');
    if (missing) {
      skipOrFail(this, missing);
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-ui-decided-'));
    model = await startFakeModel({
      deriveCommand: (text) => {
        const m = /RUN64:([A-Za-z0-9_-]+)/.exec(text);
        return m ? { command: Buffer.from(m[1], 'base64url').toString('utf8'), description: 'Run it' } : undefined;
      },
    });
    const home = path.join(root, 'home');
    wb = await openWorkbench({
      // opencode's own command line (`opencode acp`) as an entry: runtime "opencode" makes it ask about every tool.
      machineSettings: {
        'fountain.localAgents': [
          {
            name: AGENT,
            command: AGENT_ENTRIES.opencode.file,
            args: ['acp'],
            runtime: 'opencode',
            env: ['OPENAI_API_KEY', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME', 'XDG_CACHE_HOME', 'XDG_STATE_HOME'],
          },
        ],
      },
      env: {
        // opencode pointed at the model (OPENCODE_CONFIG_CONTENT), its HOME and state in a temp folder.
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_DATA_HOME: path.join(home, '.local', 'share'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        XDG_STATE_HOME: path.join(home, '.local', 'state'),
        ...presetModelEnv(home, model.baseUrl),
      },
    });
  });
  screenshotOnFailure(() => wb);
  after(async () => {
    if (wb) {
      await runCommand(wb.page, 'Fountain: Stop Agent').catch(() => undefined);
      await wb.close();
    }
    await model?.close();
    if (root) {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  async function send(text: string): Promise<void> {
    const { page } = wb!;
    const input = page.locator('.quick-input-widget input');
    await runCommand(page, 'Fountain: Send Prompt…');
    await input.fill(text);
    await input.press('Enter');
  }

  const idle = async () => /idle/.test((await row(wb!.page, GROUP).allInnerTexts()).join('\n'));

  it('an auto-allowed ls is listed with its rule; Make This Ask, confirmed, makes the next ls ask', async () => {
    const { page, runDir } = wb!;
    await runCommand(page, 'Fountain: Start Local Agent…');
    await page.locator('.quick-input-widget input').fill(AGENT);
    // The only row left; Enter picks it (a click can land on the hover of its command line).
    await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().waitFor({ timeout: 20_000 });
    await page.locator('.quick-input-widget input').press('Enter');
    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    await until('the session idle in the tree', idle, 90_000);

    await send(`Please run RUN64:${b64('ls')} now.`);
    await until(
      'the gate to allow ls by itself',
      () => /gate \(ask\): allow by allow-pattern[^\n]*read_only[^\n]*, sent /.test(extensionLog(runDir)),
      90_000,
    );
    await until('the turn to end', idle, 90_000);
    assert.equal((extensionLog(runDir).match(/answering local-/g) ?? []).length, 0, 'nobody was asked');

    // The session's row counts it; its click opens the History group with the entry and its rule.
    const counted = row(page, '1 decided without you');
    await until('the count in the session group', async () => {
      if (!(await counted.isVisible())) {
        await row(page, GROUP).first().click(); // expand the group (a click toggles it)
        await page.waitForTimeout(500);
      }
      return counted.isVisible();
    });
    await counted.click();
    const group = row(page, /Decided without you \(1\), newest first/);
    await group.waitFor({ timeout: 20_000 });
    const entry = row(page, 'allowed · the built-in read_only bundle (setting fountain.local.builtinAllow) · opencode');
    await entry.first().waitFor({ timeout: 20_000 });
    const text = (await entry.first().innerText()).replace(/\s+/g, ' ').trim();
    assert.match(text, /^ls\s*allowed · /, `the command, then the verdict and the rule: ${text}`);

    // Make This Ask (the row's inline action): the confirmation first; nothing changes before it.
    await entry.first().hover();
    await entry.first().locator('.action-label[aria-label="Make This Ask"]').click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Make "ls" ask from now on?' });
    await dialog.waitFor({ timeout: 20_000 });
    const detail = await dialog.innerText();
    assert.match(detail, /Decided by the built-in read_only bundle \(setting fountain\.local\.builtinAllow\)\./);
    assert.match(detail, /fountain\.local\.builtinAllow becomes false/);
    assert.match(detail, /Afterwards the gate asks you about this call\./);
    assert.match(detail, /Dry run: the one decision made without you would have been asked instead\./);
    await dialog.getByRole('button', { name: 'Make This Ask' }).click();
    await notification(page, 'no longer decides such calls without you').waitFor({ timeout: 20_000 });
    // A machine-scoped setting: code-server keeps the user's value in User/ or Machine/.
    const settings = ['User', 'Machine']
      .map((d) => path.join(runDir, 'user-data', d, 'settings.json'))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
    assert.match(settings, /"fountain\.local\.builtinAllow":\s*false/);

    // The next ls asks: its request is toasted and waits for you.
    await send(`Please run RUN64:${b64('ls')} again.`);
    await notification(page, GROUP).waitFor({ timeout: 90_000 });
    assert.match(extensionLog(runDir), /gate \(ask\): ask by mode[^\n]*/);
    await clickNotificationButton(page, GROUP, 'Reject');
    await until('the rejected turn to end', idle, 90_000);
  });
});
