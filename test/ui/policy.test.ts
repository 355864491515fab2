import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { clickNotificationButton, notification, runCommand, toast, until, type Workbench } from './workbench';

type Agent = { id: string; permission_policy: Record<string, unknown>; updated_at: string };

/** A scripted `ask:` line of the given ACP kind, with the runtime's own options (gemini: proceed_once, …). */
function ask(kind: string, title: string): string {
  return `ask: ${JSON.stringify({ toolCall: { kind, title, rawInput: { pattern: title } } })}`;
}

/** Waits for the quick input to show `text` (title, prompt or a row), then types `value` into it and presses Enter. */
async function quickInput(page: Page, text: string, value: string): Promise<void> {
  const widget = page.locator('.quick-input-widget', { hasText: text });
  await widget.waitFor({ state: 'visible', timeout: 30_000 });
  const input = widget.locator('input').first();
  await input.fill(value);
  // The list filters as you type; wait for the wanted row to be the active one before accepting.
  if (value) {
    await widget
      .locator('.quick-input-list .monaco-list-row.focused', { hasText: value })
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
  }
  await page.keyboard.press('Enter');
}

/** Clicks the agent picker's row whose label is exactly `name`, after checking its detail names the id. */
async function pickAgentByName(page: Page, name: string, id: string): Promise<void> {
  const widget = page.locator('.quick-input-widget', { hasText: 'pick an agent' });
  await widget.waitFor({ state: 'visible', timeout: 30_000 });
  await widget.locator('input').first().fill(name); // the list filters by name; the rows below it are virtual
  const row = widget
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) })
    .first();
  await row.waitFor({ timeout: 30_000 });
  const text = await row.innerText();
  assert.ok(text.includes(`Agent id: ${id}`) && text.includes('gemini'), text);
  await row.click();
}

describe('UI: editing an agent permission policy', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite('policy', (w, s) => {
    wb = w;
    server = s;
  });

  async function agent(id: string): Promise<Agent> {
    const r = await server.api<{ data: Agent }>('GET', `/api/agents/${id}`);
    assert.equal(r.status, 200);
    return r.body.data;
  }

  it('walks pick agent → change a kind → preview diff → modal confirmation, and PATCHes exactly that policy', async () => {
    const { page } = wb;
    const before = await agent('gemini');
    assert.deepEqual(before.permission_policy, { default: 'ask' });

    await runCommand(page, 'Fountain: Edit Agent Permission Policy');
    // Picked by its name from the server's list (its id is only the detail), not by typing the id.
    await pickAgentByName(page, 'Gemini CLI', 'gemini');
    // The key list: every ACP kind with its current verdict, plus default and ask_timeout.
    const keys = page.locator('.quick-input-widget', { hasText: 'Permission policy of' });
    await keys.waitFor({ state: 'visible', timeout: 30_000 });
    const rows = await keys.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    assert.ok(
      rows.some((r) => /read/.test(r) && /ask \(from default\)/.test(r)),
      rows.join(' | '),
    );
    await quickInput(page, 'Permission policy of', 'read');
    await quickInput(page, 'Verdict for read', 'auto_allow');
    await quickInput(page, 'Review and Apply', 'Review and Apply');

    // The preview: a read-only diff of the current and proposed policies.
    await page.locator('.tab', { hasText: 'current ↔ proposed' }).first().waitFor({ timeout: 30_000 });
    // The modal confirmation lists the change; nothing is sent before it is accepted.
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Apply this permission policy to' });
    await dialog.waitFor({ timeout: 30_000 });
    assert.match(await dialog.innerText(), /read: unset → auto_allow/);
    assert.deepEqual(await agent('gemini'), before, 'nothing was PATCHed before the confirmation');
    await dialog.getByRole('button', { name: 'Apply to Agent' }).click();
    await toast(page, 'Saved the permission policy of').waitFor({ timeout: 30_000 });

    const after = await agent('gemini');
    assert.deepEqual(after.permission_policy, { default: 'ask', read: 'auto_allow' });
    assert.notEqual(after.updated_at, before.updated_at);
  });
  it('the confirmation names the past request you rejected and the waiting one it would allow, answered only after the PATCH', async () => {
    const { page } = wb;
    const answers = async (c: string) => (await server.answersFor(c)).map((e) => ({ status: e.status, body: e.body }));
    // History: a search request of gemini, rejected.
    const r = await server.startConversation('gemini', ask('search', 'grep policy-r1'), { title: 'Policy R' });
    await notification(page, 'grep policy-r1').waitFor({ timeout: 30_000 });
    await clickNotificationButton(page, 'grep policy-r1', 'Reject');
    await until('the reject taken', async () => ((await answers(r)).length === 1 ? true : undefined));
    // Another search request of gemini, waiting.
    const w = await server.startConversation('gemini', ask('search', 'grep policy-w1'), { title: 'Policy W' });
    await notification(page, 'grep policy-w1').waitFor({ timeout: 30_000 });
    const before = await agent('gemini');

    await runCommand(page, 'Fountain: Edit Agent Permission Policy');
    await pickAgentByName(page, 'Gemini CLI', 'gemini');
    await quickInput(page, 'Permission policy of', 'search');
    await quickInput(page, 'Verdict for search', 'auto_allow');
    await quickInput(page, 'Review and Apply', 'Review and Apply');
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'Apply this permission policy to' });
    await dialog.waitFor({ timeout: 30_000 });
    const text = await dialog.innerText();
    assert.match(text, /search: unset → auto_allow/);
    assert.match(text, /Dry run: it would have allowed 1 past request in 1 conversation, and you rejected it\./);
    assert.ok(
      text.split('\n').some((l) => l.includes('grep policy-r1') && l.includes('(you rejected it)')),
      text,
    );
    assert.match(text, /It would allow 1 waiting request now, answered when you confirm:/);
    assert.ok(text.includes('grep policy-w1'), text);
    assert.deepEqual(await agent('gemini'), before, 'nothing was PATCHed before the confirmation');
    assert.deepEqual(await answers(w), [], 'nothing was answered before the confirmation');
    await dialog.getByRole('button', { name: 'Apply and Allow 1 Waiting' }).click();

    await until('the waiting request answered', async () => ((await answers(w)).length > 0 ? true : undefined));
    await page.waitForTimeout(1000);
    assert.deepEqual(
      await answers(w),
      [{ status: 200, body: { option_id: 'proceed_once' } }],
      "gemini's allow-once, once",
    );
    assert.equal((await answers(r)).length, 1, 'the rejected one was not answered again');
    assert.deepEqual((await agent('gemini')).permission_policy, { ...before.permission_policy, search: 'auto_allow' });
  });
});
