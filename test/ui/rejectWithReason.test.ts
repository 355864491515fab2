// Reject with Reason… in the real workbench, on both sources: code-server with the extension from the .vsix, the
// local Fountain server's scripted agents for the remote conversations (what the server received is read from its
// request log and from what its agent was prompted), and the published claude-agent-acp on the scripted loopback
// model for the local one (what it was prompted is read from its transcript). Chromium clicks the toasts.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { startFakeModel, writeQuietClaudeSettings, type FakeModel } from '../support/scriptedModel';
import { answerPath, TestServer } from '../support/serverClient';
import {
  clickNotificationButton,
  killAgentsOf,
  notification,
  openWorkbenchWithClaude,
  runCommand,
  screenshot,
  textOf,
  toast,
  until,
  type Workbench,
} from './workbench';
import { skipOrFail } from '../support/skipOrFail';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'test/runtime/acp-agents/node_modules/.bin');
const WS = path.join(ROOT, 'test/fixtures/ws');
const AGENT = 'Claude on the scripted model';
const LOCAL_GROUP = `Local · ${AGENT} · ws`;

async function buttonTexts(page: Page, text: string): Promise<string[]> {
  const t = toast(page, text);
  return (await t.locator('.monaco-button').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
}

/** More… on the toast, then "Reject with Reason…" in the list it opens; resolves with the reason box. */
async function openReasonBox(page: Page, toastText: string) {
  await clickNotificationButton(page, toastText, 'More…');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Reject with Reason…' });
  await row.first().waitFor({ timeout: 20_000 });
  await row.first().click();
  const box = page.locator('.quick-input-widget', { hasText: 'Reject with Reason:' });
  await box.waitFor({ state: 'visible', timeout: 20_000 });
  return box;
}

describe('UI: Reject with Reason…', function () {
  this.timeout(300_000);
  let wb: Workbench | undefined;
  let server: TestServer;
  let model: FakeModel | undefined;
  let root: string;
  const file = `ui-steer-${randomUUID().slice(0, 8)}.txt`;

  before(async function () {
    if (!fs.existsSync(path.join(BIN, 'claude-agent-acp'))) {
      skipOrFail(this, 'claude-agent-acp is not installed: run `bash test/harness/setup-acp-agents.sh`');
    }
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-ui-steer-'));
    const claudeDir = path.join(root, 'claude');
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
      skipOrFail(this, 'the local test server is not running (run through the test harness)');
    }
    server = new TestServer(wb.server.info);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed' && wb) {
      await screenshot(wb.page, path.join(wb.runDir, `failure-${Date.now()}.png`)).catch(() => undefined);
      console.log(`screenshot and logs in ${wb.runDir}`);
    }
    if (wb) {
      await wb.page.keyboard.press('Escape');
      await runCommand(wb.page, 'Notifications: Clear All Notifications').catch(() => undefined);
      await wb.page.keyboard.press('Escape');
      // Each test alone: end every turn still holding a request, close the editors a test opened.
      const state = await server.control<{ requests: { conversation_id: string }[] }>('GET', '/state');
      for (const c of new Set(state.requests.map((r) => r.conversation_id))) {
        await server.control('POST', `/conversations/${c}/interrupt`);
      }
      await runCommand(wb.page, 'View: Close All Editors').catch(() => undefined);
      await wb.page.waitForTimeout(2_100); // past the burst rule: the next request gets its own toast
    }
  });
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
    fs.rmSync(path.join(WS, file), { force: true });
  });

  const promptsFor = async (id: string) =>
    (await server.requestLog()).filter((e) => e.method === 'POST' && e.path === `/api/conversations/${id}/prompts`);

  it('remote: the reject option once, then one prompt carrying the reason (with a client_request_id); the agent gets it', async () => {
    const { page } = wb!;
    // The agent asks a moment into its turn, once the conversation (and so its title) is known, as usual.
    const id = await server.startConversation('claude', 'sleep: 2500\nrun: touch steered-remote.txt', {
      title: 'Steer me',
    });
    await toast(page, 'touch steered-remote.txt').waitFor({ timeout: 30_000 });
    // "1 of N" is absent with nothing else waiting; claude's three options fill the toast, so it is in More….
    assert.doesNotMatch(await textOf(toast(page, 'touch steered-remote.txt')), /1 of \d+ waiting/);
    assert.deepEqual((await buttonTexts(page, 'touch steered-remote.txt')).slice(0, 4), [
      'Allow',
      'Always Allow',
      'Reject',
      'More…',
    ]);
    const box = await openReasonBox(page, 'touch steered-remote.txt');
    assert.match(await textOf(box), /Reject with Reason: touch steered-remote\.txt/);
    assert.match(await textOf(box), /Answers "Reject", then sends your reason to Steer me as its next prompt/);
    const input = box.locator('input');
    await input.press('Enter'); // empty: refused in the box, nothing sent
    await box.getByText('Type a reason, or press Escape to send nothing.').waitFor({ timeout: 10_000 });
    assert.equal((await server.answersFor(id)).length, 0, 'an empty reason sent something');
    const reason = 'Use a temporary directory instead of the repository root';
    await input.fill(reason);
    await input.press('Enter');

    await notification(page, 'and sent your reason to Steer me as its next prompt').waitFor({ timeout: 30_000 });
    const answers = await server.answersFor(id);
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      [[200, { option_id: 'reject' }]],
    );
    const prompts = await promptsFor(id);
    assert.equal(prompts.length, 1, JSON.stringify(prompts));
    const body = prompts[0].body as { prompt: string; client_request_id: string };
    assert.equal(body.prompt, reason);
    assert.match(body.client_request_id, /^[0-9a-f-]{36}$/);
    assert.ok(prompts[0].status >= 200 && prompts[0].status < 300);
    // The reject went before the prompt, and the agent got the prompt as its next turn.
    const log = await server.requestLog();
    assert.ok(
      log.findIndex((e) => e.path.startsWith(`/api/conversations/${id}/requests/`)) <
        log.findIndex((e) => e.path === `/api/conversations/${id}/prompts`),
    );
    await until('the agent prompted with the reason', async () =>
      (await server.conversationState(id)).agent_prompts.some((p) => JSON.stringify(p).includes(reason)),
    );
  });

  it('remote: answered elsewhere while the reason is typed: no prompt is sent, and the message says why', async () => {
    const { page } = wb!;
    const id = await server.startConversation('claude', 'run: touch steered-too-late.txt', { title: 'Too late' });
    await toast(page, 'touch steered-too-late.txt').waitFor({ timeout: 30_000 });
    const box = await openReasonBox(page, 'touch steered-too-late.txt');
    const state = await server.control<{ requests: { conversation_id: string; request_id: string }[] }>(
      'GET',
      '/state',
    );
    const requestId = state.requests.find((r) => r.conversation_id === id)!.request_id;
    const other = await server.api('POST', answerPath(id, requestId), { option_id: 'allow' });
    assert.equal(other.status, 200);
    await page.waitForTimeout(1500); // the stream tells the extension
    await box.locator('input').fill('Do it somewhere else');
    await box.locator('input').press('Enter');
    const message = notification(page, 'Your reason was not sent.');
    await message.waitFor({ timeout: 30_000 });
    assert.match(await textOf(message), /Already answered elsewhere: Allow .*Your reason was not sent\./);
    await page.waitForTimeout(1500);
    assert.deepEqual(await promptsFor(id), [], 'a prompt was sent for a reject that did not take');
    assert.deepEqual(
      (await server.answersFor(id)).map((a) => a.body),
      [{ option_id: 'allow' }],
      'only the other client answered',
    );
  });

  it('a plan approval opens the whole plan read-only beside its toast, which says it is a plan and "1 of 2 waiting"', async () => {
    const { page } = wb!;
    await server.startConversation('claude', 'run: touch waiting-first.txt', { title: 'First' });
    await toast(page, 'touch waiting-first.txt').waitFor({ timeout: 30_000 });
    await page.waitForTimeout(2_100); // past the burst rule
    const plan = 'Step one: read the failing test. Step two: fix the parser [docs](command:workbench.action.quit)';
    const id = await server.startConversation('claude', `sleep: 1500\nplan: ${plan}`, { title: 'Plan it' });
    const t = toast(page, 'Approve the plan');
    await t.waitFor({ timeout: 30_000 });
    const text = await textOf(t);
    assert.match(text, /Approve the plan "Ready to code\?" — Plan it \(the whole plan is open beside\)/);
    assert.match(text, /1 of 2 waiting/);
    assert.doesNotMatch(text, new RegExp(id), 'the conversation id is not its name');
    const doc = page.locator('.monaco-editor .view-lines', { hasText: 'Step two: fix the parser' });
    await doc.first().waitFor({ timeout: 20_000 });
    const lines = (await textOf(doc.first())).replace(/\s+/g, ' '); // the editor wraps long lines
    assert.match(lines, /The plan the agent proposes in Plan it\. Read-only/);
    assert.match(lines, /│ Step one: read the failing test/);
    // Inert: the link is text (the document's language turns editor links off), nothing ran.
    assert.equal(await doc.first().locator('a').count(), 0);
  });

  it("local claude: the agent's reject option, then (its turn over) the reason as its next prompt, in the transcript", async () => {
    const { page } = wb!;
    await runCommand(page, 'Fountain: Start Local Agent…');
    const input = page.locator('.quick-input-widget input');
    await input.fill(AGENT);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: AGENT }).first().click();
    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    await page.locator('.pane-body .monaco-list-row', { hasText: LOCAL_GROUP }).first().waitFor({ timeout: 60_000 });
    await runCommand(page, 'Fountain: Send Prompt…');
    await input.fill(`Please create file ${file} containing ok.`);
    await input.press('Enter');
    await toast(page, LOCAL_GROUP).waitFor({ timeout: 90_000 });

    const box = await openReasonBox(page, LOCAL_GROUP);
    const reason = 'Do not write anything; just reply with the word done';
    await box.locator('input').fill(reason);
    await box.locator('input').press('Enter');
    await notification(page, `and sent your reason to ${LOCAL_GROUP} as its next prompt`).waitFor({
      timeout: 120_000,
    });
    assert.equal(fs.existsSync(path.join(WS, file)), false, 'the rejected command ran');

    await runCommand(page, 'Fountain: Show Transcript');
    const editor = page.locator('.monaco-editor .view-lines', { hasText: '> You' }).first();
    let transcript = '';
    await until(
      'the reason in the transcript',
      async () => {
        transcript = (await textOf(editor)).replace(/\s+/g, ' '); // the editor wraps long lines
        return transcript.includes(reason);
      },
      60_000,
    );
    // The reject (claude's own option "reject", never "cancelled") went first, then the turn ended, then the prompt.
    const rejected = transcript.search(/sent reject/);
    const reasonAt = transcript.indexOf(reason);
    assert.ok(rejected >= 0, transcript);
    assert.ok(rejected < reasonAt, transcript);
    assert.doesNotMatch(transcript, /sent cancelled/);
    assert.ok(transcript.lastIndexOf('turn ended', reasonAt) > rejected, 'the reason went before the turn ended');
  });
});
