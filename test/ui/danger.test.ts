// A remote request on the built-in denylist in the real workbench: the toast says it is dangerous, its Allow opens a
// modal, Cancel sends nothing and leaves it waiting in the tree, and Allow Anyway sends exactly one answer.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { runCommand, screenshot, textOf, toast, until, type Workbench } from './workbench';

function treeRow(page: Page, text: string) {
  return page.locator('.pane-body .monaco-list-row', { hasText: text });
}

function dialog(page: Page) {
  return page.locator('.monaco-dialog-box', { hasText: 'This request is dangerous' });
}

describe('UI: a dangerous remote request needs a confirmation before it is allowed', function () {
  this.timeout(240_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite('danger', (w, s) => {
    wb = w;
    server = s;
  });

  it('rm -rf ~: a warning toast naming the danger; Allow opens the modal; Cancel sends nothing; Allow Anyway sends one answer', async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'run: rm -rf ~', { title: 'Clean up' });
    const t = toast(page, 'rm -rf ~');
    await t.waitFor({ timeout: 30_000 });
    const message = await textOf(t.locator('.notification-list-item-message'));
    assert.ok(message.startsWith('Dangerous: recursively removes your home directory. '), message);
    assert.equal(await t.locator('.codicon-warning').count(), 1, 'a warning toast');
    await screenshot(page, path.join(wb.runDir, 'screenshots', 'danger-toast.png'));

    await t.getByRole('button', { name: 'Allow', exact: true }).click();
    const modal = dialog(page);
    await modal.waitFor({ timeout: 20_000 });
    const text = await textOf(modal);
    assert.ok(text.includes('it recursively removes your home directory. Answer "Allow" anyway?'), text);
    assert.ok(text.includes('│ rm -rf ~'), `the modal shows the command: ${text}`);
    await screenshot(page, path.join(wb.runDir, 'screenshots', 'danger-modal.png'));
    await modal.getByRole('button', { name: 'Cancel', exact: true }).click();
    await modal.waitFor({ state: 'detached', timeout: 10_000 });

    await runCommand(page, 'Fountain: Focus on Pending Approvals View');
    const row = treeRow(page, 'rm -rf ~').first();
    await row.waitFor({ timeout: 20_000 });
    assert.match(await textOf(row), /dangerous · execute · \d+:\d\d left/, 'still waiting, marked dangerous');
    assert.equal(await row.locator('.codicon-warning').count(), 1, 'the row has the warning icon');
    assert.deepEqual(await server.answersFor(id), [], 'Cancel sent nothing');

    await row.hover();
    await row.locator('.actions .action-label[aria-label^="Allow Once"]').click();
    await modal.waitFor({ timeout: 20_000 });
    await modal.getByRole('button', { name: 'Allow Anyway', exact: true }).click();
    const answers = await until('the confirmed answer', async () => {
      const a = await server.answersFor(id);
      return a.length ? a : undefined;
    });
    assert.deepEqual(
      answers.map((a) => [a.status, a.body]),
      [[200, { option_id: 'allow' }]],
    );
    await treeRow(page, 'rm -rf ~').filter({ hasText: 'answered by you' }).first().waitFor({ timeout: 20_000 });
    assert.equal((await server.answersFor(id)).length, 1, 'exactly one answer');
  });

  it('rm -rf build is not marked and its Allow answers without a modal', async () => {
    const { page } = wb;
    const id = await server.startConversation('claude', 'run: rm -rf build', { title: 'Clean the build' });
    const t = toast(page, 'rm -rf build');
    await t.waitFor({ timeout: 30_000 });
    const message = await textOf(t.locator('.notification-list-item-message'));
    assert.ok(!message.includes('Dangerous'), message);
    await t.getByRole('button', { name: 'Allow', exact: true }).click();
    const answers = await until('the answer', async () => {
      const a = await server.answersFor(id);
      return a.length ? a : undefined;
    });
    assert.deepEqual(
      answers.map((a) => a.body),
      [{ option_id: 'allow' }],
    );
    assert.equal(await page.locator('.monaco-dialog-box').count(), 0, 'no modal was shown');
  });
});
