import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { notification, runCommand, screenshot, until, type Workbench, openView } from './workbench';

function treeRow(page: Page, text: string | RegExp): Locator {
  return page.locator('.pane-body .monaco-list-row', { hasText: text }).first();
}

/**
 * Waits for a request's row and for its conversation's row to carry the conversation's title (its info arrived, so
 * the next redraw of the group does not race a click on the row).
 */
async function requestRow(page: Page, text: string, conversationTitle: string): Promise<Locator> {
  const row = treeRow(page, text);
  await row.waitFor({ timeout: 30_000 });
  await page
    .locator('.pane-body .monaco-list-row .label-name')
    .filter({ hasText: new RegExp(`^\\s*${conversationTitle}\\s*$`) })
    .first()
    .waitFor({ timeout: 30_000 });
  return row;
}

const isSelected = async (row: Locator) => !!(await row.getAttribute('class'))?.split(/\s+/).includes('selected');

/** The answer POSTs in the server's request log, for these conversations, as [status, body]. */
async function answers(server: TestServer, ...ids: string[]): Promise<[number, unknown][]> {
  const log = await server.requestLog();
  return log
    .filter((e) => e.method === 'POST' && ids.some((id) => e.path.startsWith(`/api/conversations/${id}/requests/`)))
    .map((e) => [e.status, e.body]);
}

/** Waits until the conversation has `n` answers logged and returns them. */
async function answered(server: TestServer, id: string, n = 1): Promise<[number, unknown][]> {
  return until(`${n} answer(s) for ${id}`, async () => {
    const a = await answers(server, id);
    return a.length >= n ? a : undefined;
  });
}

/** Picks the row of the open QuickPick whose text includes `text`. */
async function pickRow(page: Page, text: string): Promise<void> {
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  await row.waitFor({ timeout: 10_000 });
  await row.click();
}

const MULTI = process.platform === 'darwin' ? 'Meta' : 'Control';

describe('UI: the Pending Approvals tree, most urgent first, batches behind a modal, honest status', function () {
  this.timeout(300_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite(
    'tree',
    (w, s) => {
      wb = w;
      server = s;
    },
    async () => {
      await server?.control('DELETE', '/fail').catch(() => undefined);
      await wb?.page.keyboard.press('Escape');
      await runCommand(wb.page, 'Notifications: Clear All Notifications').catch(() => undefined);
      await wb?.page.keyboard.press('Escape');
    },
  );

  it('the queue lists the 2-minute request before the 3-day one (older), the tree too, and goes on with the next', async () => {
    const { page } = wb;
    // The older request is due in three days, the newer one in two minutes (both detached: the turn ended waiting).
    const days = await server.startConversation('claude', 'wait(259200): touch due-in-days.txt', { title: 'Days' });
    await openView(page);
    const daysRow = await requestRow(page, 'touch due-in-days.txt', 'Days');
    const minutes = await server.startConversation('gemini', 'wait(120): touch due-in-minutes.txt', {
      title: 'Minutes',
    });
    const minutesRow = await requestRow(page, 'touch due-in-minutes.txt', 'Minutes');
    const rows = async (where: string) => (await page.locator(where).allInnerTexts()).join('\n');
    await until('the tree to list the 2-minute request first', async () => {
      const text = await rows('.pane-body .monaco-list-row');
      const [m, d] = [text.indexOf('due-in-minutes'), text.indexOf('due-in-days')];
      return m >= 0 && d >= 0 && m < d;
    });
    await minutesRow.click(); // selected in the tree: after its answer the selection moves on to the next one
    await until('the 2-minute row to be selected', () => isSelected(minutesRow));
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+Alt+Shift+Y');
    const first = page.locator('.quick-input-list .monaco-list-row').first();
    await first.waitFor({ timeout: 10_000 });
    const queue = await rows('.quick-input-list .monaco-list-row');
    assert.ok(queue.includes('due-in-days'), queue);
    assert.ok(queue.indexOf('due-in-minutes') < queue.indexOf('due-in-days'), `queue order:\n${queue}`);
    assert.ok((await first.innerText()).includes('touch due-in-minutes.txt'), 'the 2-minute request is first');
    await page.keyboard.press('Enter');
    await pickRow(page, 'allow_once');
    // The tree's selection and the queue go on with the next most urgent: the 3-day one.
    await until('the tree selection to move to the 3-day request', () => isSelected(daysRow));
    await until('the queue to offer the 3-day request next', async () =>
      (await first.innerText().catch(() => '')).includes('touch due-in-days.txt'),
    );
    await page.keyboard.press('Enter');
    await pickRow(page, 'allow_once');
    assert.deepEqual(await answered(server, minutes), [[200, { option_id: 'proceed_once' }]]);
    assert.deepEqual(await answered(server, days), [[200, { option_id: 'allow' }]]);
  });

  it('a two-request batch: Allow Selected… lists both in a modal; Cancel sends nothing, Allow sends each its own allow_once', async () => {
    const { page } = wb;
    const a = await server.startConversation('claude', 'run: touch batch-a.txt', { title: 'Batch A' });
    const b = await server.startConversation('gemini', 'run: touch batch-b.txt', { title: 'Batch B' });
    await openView(page);
    const rowA = await requestRow(page, 'touch batch-a.txt', 'Batch A');
    const rowB = await requestRow(page, 'touch batch-b.txt', 'Batch B');
    const logBefore = (await server.requestLog()).filter((e) => e.path.includes('/requests/')).length;
    await rowA.click();
    await rowB.click({ modifiers: [MULTI] });
    await until('both rows to be selected', async () => (await isSelected(rowA)) && (await isSelected(rowB)));
    const dialog = page.locator('.monaco-dialog-box');
    const openBatch = async () => {
      await rowB.click({ button: 'right' });
      const item = page.locator('.monaco-menu .action-item', { hasText: 'Allow Selected…' }).first();
      await item.waitFor({ timeout: 10_000 });
      await item.hover();
      await item.click();
      // A context-menu click can be lost while the tree redraws under it (the menu stays open): then press Enter on
      // the highlighted item. Either way the modal must come before anything is sent.
      const shown = await dialog.waitFor({ timeout: 3_000 }).then(
        () => true,
        () => false,
      );
      if (!shown) {
        if (await item.isVisible()) {
          await page.keyboard.press('Enter');
        }
        await dialog.waitFor({ timeout: 10_000 });
      }
      return dialog.innerText();
    };
    // The view title offers both batch commands while several rows are selected; Reject lists each own reject option.
    const header = page.locator('.pane-header', { hasText: 'Pending Approvals' }).first();
    await header.hover();
    await header.locator('.action-label[aria-label^="Reject Selected"]').click();
    await dialog.waitFor({ timeout: 10_000 });
    const rejectText = await dialog.innerText();
    assert.ok(rejectText.includes('Reject 2 selected requests?'), rejectText);
    for (const expected of ['touch batch-a.txt', 'touch batch-b.txt', 'reject_once']) {
      assert.ok(rejectText.includes(expected), `the modal shows ${expected}:\n${rejectText}`);
    }
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });

    const text = await openBatch();
    for (const expected of ['touch batch-a.txt', 'touch batch-b.txt', 'Batch A', 'Batch B', 'execute', 'allow_once']) {
      assert.ok(text.includes(expected), `the modal shows ${expected}:\n${text}`);
    }
    assert.ok(!text.includes('allow_always'), `no "always" option is listed:\n${text}`);
    await screenshot(page, path.join(wb.runDir, 'screenshots', 'batch-modal.png'));
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    await dialog.waitFor({ state: 'detached', timeout: 10_000 });
    // The rows still wait (nothing changed them), and the server got no answer.
    await until('the rows to still count down', async () =>
      /left/.test((await rowA.innerText()) + (await rowB.innerText())),
    );
    assert.deepEqual(await answers(server, a, b), [], 'Cancel sent nothing');

    await openBatch();
    await dialog.getByRole('button', { name: 'Allow 2', exact: true }).click();
    assert.deepEqual(await answered(server, a), [[200, { option_id: 'allow' }]], "claude's own allow_once");
    assert.deepEqual(await answered(server, b), [[200, { option_id: 'proceed_once' }]], "gemini's own allow_once");
    const all = (await server.requestLog()).filter((e) => e.path.includes('/requests/'));
    assert.equal(all.length - logBefore, 2, 'exactly two answers in all');
  });

  it('a request the server left open (503, Retry-After) keeps its countdown, says why, and Retry sends the same option after it', async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'run: touch retry-me.txt', { title: 'Retry' });
    await openView(page);
    const row = await requestRow(page, 'touch retry-me.txt', 'Retry');
    await server.control('POST', '/fail', { route: 'answer', status: 503, retry_after: 20, count: 1 });
    await row.hover();
    await row.locator('.actions .action-label[aria-label^="Allow Once"]').click();
    await until('the row to say why it is still waiting', async () =>
      /left · Allow not taken: the server is not ready · Retry after/.test(await row.innerText()),
    );
    assert.deepEqual(
      (await answered(server, id)).map(([status]) => status),
      [503],
    );
    // Too early: refused with a message, nothing sent.
    await row.hover();
    await row.locator('.actions .action-label[aria-label^="Retry"]').click();
    await notification(page, 'The server asked to wait before trying again').waitFor({ timeout: 10_000 });
    assert.equal((await answers(server, id)).length, 1, 'nothing sent before Retry-After');
    await until(
      'the row to offer Retry once Retry-After has passed',
      async () => (await row.innerText()).includes('Retry sends it again'),
      60_000,
    );
    await row.hover();
    await row.locator('.actions .action-label[aria-label^="Retry"]').click();
    const both = await answered(server, id, 2);
    assert.deepEqual(
      both.map(([status]) => status),
      [503, 200],
    );
    assert.deepEqual(both[1][1], { option_id: 'allow' }, 'Retry sent the option the user chose (Allow Once)');
  });
});
