// A grant chosen beside the runtime's options, in the real workbench: the published claude-agent-acp on the
// scripted loopback model (started by Start Local Agent…) asks to run `git init -q <dir>`; the toast shows Claude
// Code's own options plus More…, and More… lists the local gate's grants after them. Picking "every command starting
// with "git"" answers the agent with its own allow_once option (the extension's log records the answer the inbox
// sent), and the next git command runs without a toast, allowed by that grant (the gate's logged decision).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import {
  clickNotificationButton,
  extensionLog,
  killAgentsOf,
  notification,
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
const AGENT = 'Claude for grants';
const LOCAL_GROUP = `Local · ${AGENT} · ws`;
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64url');

describe('UI: a local gate grant chosen from the toast', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;
  let model: FakeModel | undefined;
  let root: string;
  const tag = randomUUID().slice(0, 8);
  const dirs = [`ui-grant-${tag}-1`, `ui-grant-${tag}-2`, `ui-grant-${tag}-3`];
  const base = `ui-always-${tag}`;
  const always = ['r', 'a', 'b'].map((x) => `${base}-${x}`);

  before(async function () {
    if (!fs.existsSync(path.join(BIN, 'claude-agent-acp'))) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-ui-grants-'));
    const claudeDir = path.join(root, 'claude');
    writeQuietClaudeSettings(claudeDir);
    model = await startFakeModel({
      deriveCommand: (text) => {
        const m = /RUN64:([A-Za-z0-9_-]+)/.exec(text);
        return m ? { command: Buffer.from(m[1], 'base64url').toString('utf8'), description: 'Run it' } : undefined;
      },
    });
    wb = await openWorkbenchWithClaude({ name: AGENT, bin: BIN, modelUrl: model.baseUrl, claudeDir });
    // One local session for the first two tests, started as a user does, and idle before either test prompts it.
    await startSession(1);
  });

  /** Start Local Agent… as a user does; resolves when `n` sessions of the agent are idle in the tree. */
  async function startSession(n: number): Promise<void> {
    const { page } = wb!;
    const input = page.locator('.quick-input-widget input');
    await runCommand(page, 'Fountain: Start Local Agent…');
    await input.fill(AGENT);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().click();
    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    await until('the sessions idle in the tree', () => idleGroups().then((k) => k === n), 60_000);
  }

  async function idleGroups(): Promise<number> {
    const groups = await wb!.page.locator('.pane-body .monaco-list-row', { hasText: LOCAL_GROUP }).allInnerTexts();
    return groups.filter((t) => /idle/.test(t)).length;
  }
  screenshotOnFailure(() => wb);
  after(async () => {
    if (wb) {
      await runCommand(wb.page, 'Fountain: Stop Agent').catch(() => undefined);
      await wb.close();
    }
    if (root) {
      killAgentsOf(path.join(root, 'claude'));
      fs.rmSync(root, { recursive: true, force: true });
    }
    await model?.close();
    for (const d of [...dirs, ...always]) {
      fs.rmSync(path.join(WS, d), { recursive: true, force: true });
    }
  });

  /** Send Prompt…; with several sessions, to the first idle one in the session pick. */
  async function send(text: string, pick = false): Promise<void> {
    const { page } = wb!;
    const input = page.locator('.quick-input-widget input');
    await runCommand(page, 'Fountain: Send Prompt…');
    if (pick) {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: 'idle' }).first().click();
      await page.locator('.quick-input-widget', { hasText: `Prompt for ${AGENT}` }).waitFor({ timeout: 20_000 });
    }
    await input.fill(text);
    await input.press('Enter');
  }

  function userSettings(runDir: string): string {
    return ['User', 'Machine']
      .map((d) => path.join(runDir, 'user-data', d, 'settings.json'))
      .filter((f) => fs.existsSync(f))
      .map((f) => fs.readFileSync(f, 'utf8'))
      .join('\n');
  }

  it('More… offers "every command starting with "git""; picking it sends allow_once and the next git command runs unasked', async () => {
    const { page, runDir } = wb!;
    const prompt = (n: number) => send(`Run it (${n}): RUN64:${b64(`git init -q ${dirs[n - 1]}`)}`);

    await prompt(1);
    const t = toast(page, LOCAL_GROUP);
    await t.waitFor({ timeout: 90_000 });
    const buttons = (await t.locator('.monaco-button').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
    assert.deepEqual(buttons.slice(0, 4), ['Allow', 'Always Allow', 'Reject', 'More…']);
    // The local claude's "always" says what it keeps, in the toast text itself.
    assert.match(
      await t.innerText(),
      /"Always Allow": a Claude Code rule \(session, or the folder's \.claude\/settings\.local\.json\)/,
    );
    assert.equal(fs.existsSync(path.join(WS, dirs[0])), false, 'the command ran before it was allowed');

    await clickNotificationButton(page, LOCAL_GROUP, 'More…');
    const rows = page.locator('.quick-input-list .monaco-list-row');
    const verb = rows.filter({ hasText: 'every command starting with "git"' });
    await verb.first().waitFor({ timeout: 20_000 });
    // The runtime's options come first, then our grants; the reach shows on the persistent option's row.
    const texts = await rows.allInnerTexts();
    assert.match(texts[0], /Always Allow/);
    assert.match(texts[0], /Reach: a Claude Code rule/);
    assert.match(texts.join('\n'), /Allow this exact request for the rest of the session/);
    await verb.first().click();

    await until('the allowed git init to run', () => fs.existsSync(path.join(WS, dirs[0], '.git')), 90_000);
    // The answer went through the answer flow (the inbox's guard) with claude's allow_once option id, "allow".
    assert.match(extensionLog(runDir), /answering local-\d+\/\S+ with option "allow" \(from toast\)/);

    await prompt(2);
    await until('the second git init to run', () => fs.existsSync(path.join(WS, dirs[1], '.git')), 90_000);
    assert.match(
      extensionLog(runDir),
      /gate \(ask\): allow by grant(?: \[[^\]\n]*\])?: [^\n]*, sent allow/,
      'the second git command was allowed by the session grant, with allow_once',
    );
    assert.equal(
      (extensionLog(runDir).match(/answering local-/g) ?? []).length,
      1,
      'only the first request was answered by a person',
    );
  });
  it('"Always allow" shows the rule editable and a dry run first, then appends it to fountain.local.allow; the same command then runs unasked', async () => {
    const { page, runDir } = wb!;
    const command = `mkdir -p ${dirs[2]}`;
    const pattern = `execute:${command}`;
    const asksBefore = (extensionLog(runDir).match(/gate \(ask\): ask by/g) ?? []).length;
    await send(`Run it (3): RUN64:${b64(command)}`);
    await notification(page, command).waitFor({ timeout: 90_000 });
    await clickNotificationButton(page, command, 'More…');
    const always = page.locator('.quick-input-list .monaco-list-row', { hasText: `Always allow "${pattern}"` });
    await always.first().waitFor({ timeout: 20_000 });
    await always.first().click();
    // The rule first, editable, in the form it will be stored.
    const input = page.locator('.quick-input-widget input');
    await until('the rule in the input box', async () => (await input.inputValue()) === pattern);
    await page.keyboard.press('Enter');
    const dialog = page.locator('.monaco-dialog-box', { hasText: `Always allow "${pattern}"?` });
    await dialog.waitFor({ timeout: 20_000 });
    const text = await dialog.innerText();
    assert.match(text, /Stored in your user setting fountain\.local\.allow as:/);
    assert.match(text, /Dry run: it would have allowed/);
    assert.equal(fs.existsSync(path.join(WS, dirs[2])), false, 'nothing was sent before the confirmation');
    await dialog.getByRole('button', { name: 'Keep Rule and Allow' }).click();

    await until('the allowed mkdir to run', () => fs.existsSync(path.join(WS, dirs[2])), 90_000);
    await notification(page, `Added "${pattern}" to fountain.local.allow`).waitFor({ timeout: 30_000 });
    const settings = userSettings(runDir);
    assert.ok(settings.includes(JSON.stringify(pattern)), settings);

    fs.rmSync(path.join(WS, dirs[2]), { recursive: true, force: true });
    await send(`Run it (4): RUN64:${b64(command)}`);
    await until('the same mkdir to run again', () => fs.existsSync(path.join(WS, dirs[2])), 90_000);
    const log = extensionLog(runDir);
    assert.match(log, /gate \(ask\): allow by allow-pattern[^\n]*, sent allow/);
    assert.equal((log.match(/gate \(ask\): ask by/g) ?? []).length, asksBefore + 1, 'only the first mkdir asked');
  });
  it('"always" edited wider: the dry run names the request you rejected; Cancel keeps and sends nothing; the confirmation answers the other waiting request too, once each', async () => {
    const { page, runDir } = wb!;
    const [rejected, first, second] = always;
    const run = (d: string) => `git init -q ${d}`;
    const answers = () => (extensionLog(runDir).match(/answering local-\d+\/\S+ with option/g) ?? []).length;
    // Fresh sessions: the first test's session grant for git would allow these without asking.
    await runCommand(page, 'Fountain: Stop Agent');
    await until('the old session gone', () => idleGroups().then((k) => k === 0), 60_000);
    await startSession(1);

    // History: a request like the ones the rule will cover, rejected.
    await send(`Run it (5): RUN64:${b64(run(rejected))}`);
    await notification(page, run(rejected)).waitFor({ timeout: 90_000 });
    await clickNotificationButton(page, run(rejected), 'Reject');
    await until('the rejected turn to end', () => idleGroups().then((k) => k === 1), 90_000);

    // Two requests waiting, one in each of two sessions.
    await startSession(2);
    await send(`Run it (6): RUN64:${b64(run(first))}`, true);
    await notification(page, run(first)).waitFor({ timeout: 90_000 });
    await send(`Run it (7): RUN64:${b64(run(second))}`, true);
    await notification(page, run(second)).waitFor({ timeout: 90_000 });
    const before = answers();
    const settingsBefore = userSettings(runDir);
    const exact = `execute:${run(first)}`;
    const wide = `execute:git init -q ${base}-*`;

    const openAlways = async () => {
      const row = page.locator('.quick-input-list .monaco-list-row', { hasText: `Always allow "${exact}"` });
      await row.first().waitFor({ timeout: 20_000 });
      await row.first().click();
      const input = page.locator('.quick-input-widget input');
      // The rule first, editable, in the form it will be stored; edited wider here.
      await until('the rule in the input box', async () => (await input.inputValue()) === exact);
      await input.fill(wide);
      await input.press('Enter');
      const dialog = page.locator('.monaco-dialog-box', { hasText: `Always allow "${wide}"?` });
      await dialog.waitFor({ timeout: 20_000 });
      return dialog;
    };
    await clickNotificationButton(page, run(first), 'More…');
    let dialog = await openAlways();
    const text = await dialog.innerText();
    assert.match(text, /Stored in your user setting fountain\.local\.allow as:/);
    assert.ok(text.includes(wide), text);
    assert.match(text, /Dry run: it would have allowed 1 past request in 1 conversation, and you rejected it\./);
    assert.ok(
      text.split('\n').some((l) => l.includes(run(rejected)) && l.includes('(you rejected it)')),
      text,
    );
    assert.match(text, /It covers 1 other waiting request now, answered when you confirm:/);
    assert.ok(text.includes(`${run(second)}`) && text.includes('"Allow" (allow once)'), text);

    // Cancel: nothing kept, nothing sent.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForTimeout(2000);
    assert.equal(userSettings(runDir), settingsBefore, 'the setting is unchanged');
    assert.equal(answers(), before, 'no answer was sent');
    assert.ok(!fs.existsSync(path.join(WS, first)) && !fs.existsSync(path.join(WS, second)), 'nothing ran');

    // Again from the tree's Answer…, and this time confirmed: both waiting requests are answered, one answer each.
    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    await page
      .locator('.pane-body .monaco-list-row', { hasText: run(first) })
      .first()
      .click({ button: 'right' });
    const answerItem = page.locator('.monaco-menu .action-label', { hasText: 'Answer…' }).first();
    await answerItem.waitFor({ timeout: 10_000 });
    await answerItem.hover();
    await page.keyboard.press('Enter');
    dialog = await openAlways();
    await dialog.getByRole('button', { name: 'Keep Rule, Allow This and 1 Waiting' }).click();

    await until(
      'both allowed git inits to run',
      () => [first, second].every((d) => fs.existsSync(path.join(WS, d, '.git'))),
      90_000,
    );
    await notification(page, `Added "${wide}" to fountain.local.allow`).waitFor({ timeout: 30_000 });
    assert.ok(userSettings(runDir).includes(JSON.stringify(wide)));
    const log = extensionLog(runDir);
    assert.equal(answers(), before + 2, 'two answers');
    const answered = [...log.matchAll(/answering (local-\d+\/\S+) with option "allow"/g)].slice(-2).map((m) => m[1]);
    assert.equal(new Set(answered).size, 2, `one answer to each request, none twice: ${answered.join(', ')}`);
    assert.equal(fs.existsSync(path.join(WS, rejected)), false, 'the rejected one never ran');
  });
});
