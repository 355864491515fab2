import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { clickNotificationButton, runCommand, textOf, toast, until, type Workbench } from './workbench';

/** A button in the title bar (editor actions toolbar) of the active editor group, by its aria-label. */
function titleAction(page: Page, label: string) {
  // Reject with Reason… shares Reject's prefix; it is its own action.
  return page.locator(
    `.editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]:not([aria-label^="${label} with"])`,
  );
}

describe('UI: answering from the editor title of a request', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite(
    'editor',
    (w, s) => {
      wb = w;
      server = s;
    },
    async () => {
      await wb?.page.keyboard.press('Escape');
      await runCommand(wb.page, 'Notifications: Clear All Notifications').catch(() => undefined);
      await runCommand(wb.page, 'View: Close All Editors').catch(() => undefined);
      await wb.page.keyboard.press('Escape');
      const state = await server.control<{ requests: { conversation_id: string }[] }>('GET', '/state');
      for (const c of new Set(state.requests.map((r) => r.conversation_id))) {
        await server.control('POST', `/conversations/${c}/interrupt`);
      }
    },
  );

  it('Allow Once in the details editor title sends exactly one answer, the allow_once option; then the buttons go', async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'run: touch allowed-from-details.txt', { title: 'Read first' });
    await toast(page, 'touch allowed-from-details.txt').waitFor({ timeout: 30_000 });
    await clickNotificationButton(page, 'touch allowed-from-details.txt', 'Details');
    const editor = page.locator('.editor-group-container.active .editor-instance .view-lines').first();
    await until('the details document', async () => (await textOf(editor)).includes('touch allowed-from-details.txt'));
    const allow = titleAction(page, 'Allow Once');
    await allow.waitFor({ timeout: 20_000 });
    assert.equal(await titleAction(page, 'Reject').count(), 1);
    assert.equal(await titleAction(page, 'Answer…').count(), 1);
    assert.deepEqual(await server.answersFor(id), [], 'opening the details sent nothing');
    // The title bar's "…" menu offers them too.
    await titleAction(page, 'More Actions').click();
    const menu = page.locator('.context-view .monaco-menu');
    await menu.waitFor({ timeout: 10_000 });
    for (const label of ['Allow Once', 'Reject', 'Answer…']) {
      // Exact names: Reject with Reason… is its own entry beside Reject.
      const exact = new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
      assert.equal(await menu.locator('.action-label', { hasText: exact }).count(), 1, label);
    }
    await page.keyboard.press('Escape');
    // Not in the Command Palette, even with the request's editor active (a palette run would carry no editor).
    await page.keyboard.press('F1');
    await page.locator('.quick-input-widget input').fill('>Fountain: Allow Once');
    const paletteRows = page.locator('.quick-input-list .monaco-list-row');
    await paletteRows.first().waitFor({ timeout: 10_000 }); // fuzzy matching always lists something
    const listed = (await paletteRows.allInnerTexts()).filter((t) => /^Fountain: (Allow Once|Answer…)(\s|$)/.test(t));
    assert.deepEqual(listed, [], 'the palette lists no answer command');
    await page.keyboard.press('Escape');
    await allow.click();
    const { cwd } = await server.conversationState(id);
    await until('the approved command to run', () => fs.existsSync(path.join(cwd, 'allowed-from-details.txt')));
    await until('the details document to show the answer', async () =>
      (await textOf(editor)).includes('answered by you: allow at'),
    );
    // An answered request stays listed for 30 s (then every button goes with it): the buttons must leave while it is
    // still shown as answered, so the wait is bounded well inside that, and the document must still say so after.
    await until('the answer buttons to leave the title bar', async () => (await allow.count()) === 0, 15_000);
    assert.ok((await textOf(editor)).includes('answered by you: allow at'), 'still listed as answered');
    assert.equal(await titleAction(page, 'Reject').count(), 0);
    const answers = await server.answersFor(id);
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      [[200, { option_id: 'allow' }]],
    );
  });

  it('Answer… in the details editor title lists every option and sends the one picked', async () => {
    const { page } = wb;
    const id = await server.startConversation('gemini', 'run: touch answered-from-title.txt', { title: 'Pick one' });
    await toast(page, 'touch answered-from-title.txt').waitFor({ timeout: 30_000 });
    await clickNotificationButton(page, 'touch answered-from-title.txt', 'Details');
    await titleAction(page, 'Answer…').click({ timeout: 20_000 });
    const rows = page.locator('.quick-input-list .monaco-list-row');
    // The three options (then Reject with Reason…, ours).
    await until('the three options', async () => (await rows.filter({ hasText: 'option id:' }).count()) === 3);
    for (const optionId of ['proceed_always', 'proceed_once', 'cancel']) {
      assert.equal(await rows.filter({ hasText: `option id: ${optionId}` }).count(), 1, optionId);
    }
    await rows.filter({ hasText: 'option id: cancel' }).click();
    const answers = await until('the answer', async () => {
      const a = await server.answersFor(id);
      return a.length ? a : undefined;
    });
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      [[200, { option_id: 'cancel' }]],
    );
  });

  it("Reject in an edit request's diff editor title sends its reject option, once", async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'say: ready', { title: 'Edit, then read the diff' });
    const { cwd } = await server.conversationState(id);
    fs.writeFileSync(path.join(cwd, 'title-notes.txt'), 'the old text\n');
    await until('the first turn to end', async () => (await server.conversationState(id)).status === 'idle');
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, {
      prompt: 'edit: title-notes.txt => the new text',
    });
    assert.ok(sent.status < 300, `prompt: ${sent.status}`);
    await toast(page, 'title-notes.txt').waitFor({ timeout: 30_000 });
    await clickNotificationButton(page, 'title-notes.txt', 'Details');
    await titleAction(page, 'Open Diff').click({ timeout: 20_000 });
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
    await until('the old and the new text in the diff editor', async () => {
      const text = await textOf(diff);
      return text.includes('the old text') && text.includes('the new text');
    });
    await titleAction(page, 'Reject').click({ timeout: 20_000 });
    await until(
      'the reject button to leave the title bar while the answered request is still listed (30 s)',
      async () => (await titleAction(page, 'Reject').count()) === 0,
      15_000,
    );
    const answers = await until('the answer', async () => {
      const a = await server.answersFor(id);
      return a.length ? a : undefined;
    });
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      [[200, { option_id: 'reject' }]],
    );
    assert.equal(fs.readFileSync(path.join(cwd, 'title-notes.txt'), 'utf8'), 'the old text\n');
  });
});
