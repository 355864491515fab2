import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { TestServer, type LoggedRequest } from '../support/serverClient';
import {
  clickNotificationButton,
  notification,
  openWorkbench,
  runCommand,
  screenshot,
  textOf,
  toast,
  until,
  type Workbench,
} from './workbench';
import { skipOrFail } from '../support/skipOrFail';

type Agent = { id: string; permission_policy: Record<string, unknown>; updated_at: string } & Record<string, unknown>;

/** A scripted `ask:` line: a claude-shaped request (allow_always / allow / reject) of the given ACP kind. */
function ask(kind: string, title: string): string {
  return `ask: ${JSON.stringify({ toolCall: { kind, title, rawInput: { command: title } } })}`;
}

/** The History view's pane (a second view in the Fountain container). */
function historyPane(page: Page) {
  return page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'History' }) }).first();
}

function historyRows(page: Page) {
  return historyPane(page).locator('.monaco-list-row');
}

async function openHistory(page: Page): Promise<void> {
  await runCommand(page, 'Fountain: Focus on History View');
  await historyPane(page).locator('.pane-body').waitFor({ timeout: 20_000 });
}

/** Every row of the History view, in screen order, as visible text on one line. */
async function rowTexts(page: Page): Promise<string[]> {
  // One read of the whole list: reading row by row could mix rows from before and after a refresh of the view.
  const texts = await historyRows(page).allInnerTexts();
  return texts.map((t) =>
    t
      .replace(/\u00a0/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  );
}

describe('UI: approval History view and policy recommendations', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let server: TestServer;

  before(async function () {
    wb = await openWorkbench({
      withKeyInEnv: true,
      userSettings: {
        'fountain.recommendations.minAnswers': 2,
        'fountain.recommendations.minConversations': 2,
      },
    });
    if (!wb.server) {
      skipOrFail(this, 'the local test server did not start for the workbench');
    }
    server = new TestServer(wb.server.info);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') {
      await screenshot(wb.page, path.join(wb.runDir, `failure-history-${Date.now()}.png`)).catch(() => undefined);
      console.log(`screenshot and logs in ${wb.runDir}`);
    }
    await wb?.page.keyboard.press('Escape');
  });
  after(async () => {
    await wb?.close();
  });

  async function agent(id: string): Promise<Agent> {
    const r = await server.api<{ data: Agent }>('GET', `/api/agents/${id}`);
    assert.equal(r.status, 200);
    return r.body.data;
  }

  async function patches(): Promise<LoggedRequest[]> {
    return (await server.requestLog()).filter((e) => e.method === 'PATCH' && e.path.startsWith('/api/agents/'));
  }

  /** Waits for the request's notification, clicks "Allow", and waits for the server to take exactly that answer. */
  async function allow(conversationId: string, title: string): Promise<void> {
    const { page } = wb;
    await notification(page, title).waitFor({ timeout: 30_000 });
    const before = await answers(conversationId);
    await clickNotificationButton(page, title, 'Allow');
    const after = await until(`the answer to "${title}"`, async () => {
      const a = await answers(conversationId);
      return a.length > before.length ? a : undefined;
    });
    assert.deepEqual(after.slice(before.length), [{ status: 200, body: { option_id: 'allow' } }]);
  }

  async function answers(conversationId: string): Promise<{ status: number; body: unknown }[]> {
    return (await server.answersFor(conversationId)).map((e) => ({ status: e.status, body: e.body }));
  }

  it('an empty History view shows its welcome text instead of an empty "Answers (0)" group', async () => {
    const { page } = wb;
    await openHistory(page);
    await historyPane(page)
      .locator('.welcome-view-content', { hasText: 'No answers yet.' })
      .waitFor({ timeout: 20_000 });
    assert.deepEqual(await rowTexts(page), []);
  });

  it('lists the answers given from the toasts, newest first, with kind and option; recommends only past the thresholds', async () => {
    const { page } = wb;
    // Two read requests in one conversation: 2 answers but 1 conversation, below minConversations.
    const a = await server.startConversation(
      'claude',
      [ask('read', 'cat history-a1.md'), ask('read', 'cat history-a2.md')].join('\n'),
      { title: 'History A' },
    );
    await allow(a, 'cat history-a1.md');
    await allow(a, 'cat history-a2.md');
    await openHistory(page);
    await until('two answers in the History view', async () =>
      (await rowTexts(page)).some((r) => r.startsWith('Answers (2)')),
    );
    await page.waitForTimeout(1000); // past the view's refresh debounce
    assert.ok(
      !(await rowTexts(page)).some((r) => /Recommendations|auto_allow/.test(r)),
      'no recommendation from one conversation',
    );

    const b = await server.startConversation('claude', ask('read', 'cat history-b1.md'), { title: 'History B' });
    await allow(b, 'cat history-b1.md');
    await openHistory(page);
    const rows = await until('three answers in the History view', async () => {
      const r = await rowTexts(page);
      return r.some((t) => t.startsWith('Answers (3)')) ? r : undefined;
    });
    const entries = rows.filter((r) => r.includes('cat history-'));
    assert.deepEqual(
      entries.map((r) => /cat history-\w+\.md/.exec(r)?.[0]),
      ['cat history-b1.md', 'cat history-a2.md', 'cat history-a1.md'],
      rows.join(' | '),
    );
    for (const r of entries) {
      assert.match(r, /read · allow · answered/, r);
    }
    // The tooltip (also the row's accessible name) carries the option's kind and the agent.
    const tip =
      (await historyRows(page).filter({ hasText: 'cat history-b1.md' }).first().getAttribute('aria-label')) ?? '';
    assert.match(tip, /Kind: read/, tip);
    assert.match(tip, /Option: allow \(allow_once\)/, tip);
    assert.match(tip, /Outcome: answered/, tip);
    // The agent by its name and the conversation by its title, never by an id.
    assert.match(tip, /Agent: Claude Code(?! \()/, tip);
    assert.match(tip, /Conversation: History B on /, tip);

    // Now 3 allows in 2 conversations: the recommendation shows.
    await until('the read recommendation', async () =>
      (await rowTexts(page)).find((r) =>
        /Make "read" auto_allow for Claude Code\?.*you allowed it 3 times in 2 conversations/.test(r),
      ),
    );
    // A recommendation that loosens nothing risky offers "Review This Recommendation…" on its context menu.
    await historyRows(page).filter({ hasText: 'Make "read" auto_allow' }).first().click({ button: 'right' });
    await page.getByText('Review This Recommendation…').first().waitFor({ timeout: 10_000 });
    await page.keyboard.press('Escape');
  });

  it('applies the read recommendation only after the before/after preview and the modal confirmation', async () => {
    const { page } = wb;
    const before = await agent('claude');
    assert.equal(before.permission_policy.read, undefined, 'read is not set yet');
    // A read request of the same agent waiting now: the confirmation lists it, and answers it only once accepted.
    const w = await server.startConversation('claude', ask('read', 'cat history-w1.md'), { title: 'History W' });
    await notification(page, 'cat history-w1.md').waitFor({ timeout: 30_000 });
    const patchesBefore = (await patches()).length;

    await runCommand(page, 'Fountain: Show Policy Recommendations');
    const picker = page.locator('.quick-input-widget', { hasText: 'Policy recommendations' });
    await picker.waitFor({ state: 'visible', timeout: 30_000 });
    const row = picker.locator('.quick-input-list .monaco-list-row', { hasText: 'Make "read" auto_allow' }).first();
    await row.waitFor({ timeout: 10_000 });
    assert.match(await row.innerText(), /you allowed it 3 times in 2 conversations/);
    await row.click();

    await page.locator('.tab', { hasText: 'current ↔ proposed' }).first().waitFor({ timeout: 30_000 });
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Apply this permission policy to' });
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /read: unset → auto_allow/);
    assert.doesNotMatch(text, /execute|default:/, 'only the read key changes');
    // The dry run over this agent's past requests, and the waiting request it would allow now.
    assert.match(
      text,
      /Dry run: it would have allowed 3 past requests in 2 conversations, none of which you rejected\./,
    );
    for (const f of ['a1', 'a2', 'b1']) {
      assert.ok(text.includes(`cat history-${f}.md`), text);
    }
    assert.match(text, /It would allow 1 waiting request now, answered when you confirm:/);
    assert.ok(text.includes('cat history-w1.md') && text.includes('"Allow" (allow once)'), text);
    assert.deepEqual(await agent('claude'), before, 'nothing was PATCHed before the confirmation');
    assert.equal((await patches()).length, patchesBefore);
    assert.deepEqual(await answers(w), [], 'nothing answered before the confirmation');
    await dialog.getByRole('button', { name: 'Apply and Allow 1 Waiting' }).click();
    await toast(page, 'Saved the permission policy of').waitFor({ timeout: 30_000 });
    // The waiting request got its own allow-once, once, after the PATCH.
    const taken = await until('the waiting request answered', async () => {
      const a = await answers(w);
      return a.length > 0 ? a : undefined;
    });
    await page.waitForTimeout(1000);
    assert.deepEqual(await answers(w), [{ status: 200, body: { option_id: 'allow' } }], JSON.stringify(taken));
    const log = await server.requestLog();
    const patchAt = log.findIndex((e) => e.method === 'PATCH' && e.path === '/api/agents/claude');
    const answerAt = log.findIndex(
      (e) => e.method === 'POST' && e.path.startsWith(`/api/conversations/${w}/requests/`),
    );
    assert.ok(patchAt >= 0 && answerAt > patchAt, `the answer came after the PATCH (${patchAt}, ${answerAt})`);

    const after = await agent('claude');
    assert.deepEqual(after.permission_policy, { ...before.permission_policy, read: 'auto_allow' });
    const { updated_at: _a, permission_policy: _p, ...restAfter } = after;
    const { updated_at: _b, permission_policy: _q, ...restBefore } = before;
    assert.deepEqual(restAfter, restBefore, 'nothing but the policy changed');
    const sent = (await patches()).slice(patchesBefore);
    assert.deepEqual(
      sent.map((p) => [p.path, p.status, p.body]),
      [['/api/agents/claude', 200, { permission_policy: { ...before.permission_policy, read: 'auto_allow' } }]],
    );

    // What the policy now says is no longer recommended.
    await openHistory(page);
    await until('the read recommendation to go', async () => {
      const rows = await rowTexts(page);
      return rows.some((r) => r.startsWith('Answers (4)')) && !rows.some((r) => r.includes('Make "read"'));
    });
  });

  it('an execute recommendation needs the expanded warning and the risk accepted before any preview', async () => {
    const { page } = wb;
    const c = await server.startConversation('claude', 'run: touch exec-c.txt', { title: 'Exec C' });
    await allow(c, 'touch exec-c.txt');
    const d = await server.startConversation('claude', 'run: touch exec-d.txt', { title: 'Exec D' });
    await allow(d, 'touch exec-d.txt');
    const before = await agent('claude');
    const patchesBefore = (await patches()).length;

    await openHistory(page);
    const recRow = historyRows(page).filter({ hasText: 'Make "execute" auto_allow' }).first();
    await recRow.waitFor({ timeout: 30_000 });
    assert.match(await textOf(recRow), /risky: expand to read the warning/);
    assert.equal(await recRow.getAttribute('aria-expanded'), 'false', 'the warning starts collapsed');
    // The risky row has no "Review This Recommendation…" action of its own.
    await recRow.click({ button: 'right' });
    await page.waitForTimeout(1500);
    assert.equal(await page.getByText('Review This Recommendation…').count(), 0, 'no direct action on a risky one');
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'nothing to confirm yet');

    // Expand: the warning states the risk; only then is there a way on.
    await recRow.locator('.monaco-tl-twistie').click();
    const warning = historyRows(page).filter({ hasText: 'Allow every "execute" request without asking?' }).first();
    await warning.waitFor({ timeout: 10_000 });
    assert.match(await textOf(warning), /could run any command without asking anyone/);
    const proceed = historyRows(page).filter({ hasText: 'I understand: review the change…' }).first();
    await proceed.click();

    // The risk is asked again in a modal; declining it ends the flow with nothing shown or sent.
    const risk = page.locator('.monaco-dialog-box', { hasText: 'Allow every "execute" request without asking?' });
    await risk.waitFor({ timeout: 30_000 });
    await risk.getByRole('button', { name: 'Cancel' }).click();
    await risk.waitFor({ state: 'detached', timeout: 10_000 });
    await page.waitForTimeout(1000);
    assert.equal(
      await page.locator('.monaco-dialog-box', { hasText: 'Apply this permission policy to' }).count(),
      0,
      'no confirmation without accepting the risk',
    );

    // Accepting the risk leads to the same preview and confirmation; declining that sends nothing either.
    await proceed.click();
    await risk.waitFor({ timeout: 30_000 });
    await risk.getByRole('button', { name: 'I Understand the Risk' }).click();
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Apply this permission policy to' });
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /execute: unset → auto_allow/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });

    assert.deepEqual(await agent('claude'), before, 'the policy is unchanged');
    assert.equal((await patches()).length, patchesBefore, 'no PATCH was sent');
    // Still offered: declining changed nothing.
    await historyRows(page).filter({ hasText: 'Make "execute" auto_allow' }).first().waitFor({ timeout: 10_000 });
  });
});
