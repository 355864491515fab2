import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { clickNotificationButton, openView, runCommand, textOf, toast, until, type Workbench } from './workbench';

function titleAction(page: Page, label: string) {
  return page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]`);
}

/**
 * The editor's text in visual order: Monaco reuses its line elements, so their DOM order (innerText) is not the
 * order on screen once it redraws; each line's `top` is.
 */
async function editorText(editor: Locator): Promise<string> {
  const lines = await editor.evaluate((el) =>
    Array.from(el.querySelectorAll<HTMLElement>('.view-line')).map(
      (l) => [parseFloat(l.style.top) || 0, l.innerText] as const,
    ),
  );
  return lines
    .sort((a, b) => a[0] - b[0])
    .map((l) => l[1])
    .join('\n')
    .replace(/\u00a0/g, ' ');
}

const sandboxReads = async (server: TestServer) =>
  (await server.requestLog()).filter((r) => r.path.startsWith('/api/sandboxes/'));

describe("UI: evidence before the click (the sandbox's current file and the agent's changes)", function () {
  this.timeout(240_000);
  let wb: Workbench;
  let server: TestServer;

  workbenchSuite(
    'evidence',
    (w, s) => {
      wb = w;
      server = s;
    },
    async () => {
      await wb?.page.keyboard.press('Escape');
      await runCommand(wb.page, 'Notifications: Clear All Notifications').catch(() => undefined);
      await runCommand(wb.page, 'View: Close All Editors').catch(() => undefined);
      const state = await server.control<{ requests: { conversation_id: string }[] }>('GET', '/state');
      for (const c of new Set(state.requests.map((r) => r.conversation_id))) {
        await server.control('POST', `/conversations/${c}/interrupt`);
      }
    },
  );

  before(async function () {
    // The extension activates well after the workbench shows on this machine: wait for its status bar item, so a
    // test's timing (how soon its toast appears) measures the product, not the start.
    await wb.page
      .locator('.statusbar-item:has([aria-label^="Fountain Approvals:"])')
      .first()
      .waitFor({ timeout: 120_000 });
  });

  /** A claude conversation whose agent saw `seen` in `file`, then asks to edit it to `proposed`. */
  async function editRequest(title: string, file: string, seen: string, proposed: string): Promise<string> {
    const id = await server.startConversation('claude', 'say: ready', { title });
    const { cwd } = await server.conversationState(id);
    fs.writeFileSync(path.join(cwd, file), seen);
    await until('the first turn to end', async () => (await server.conversationState(id)).status === 'idle');
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, {
      prompt: `edit: ${file} => ${proposed}`,
    });
    assert.ok(sent.status < 300, `prompt: ${sent.status}`);
    await toast(wb.page, file).waitFor({ timeout: 30_000 });
    return id;
  }

  it("Open Diff shows the sandbox's current file, and the details list its git status", async () => {
    const { page } = wb;
    const before = (await sandboxReads(server)).length;
    const id = await editRequest('Evidence', 'ev-notes.txt', 'what the agent read\n', 'the proposed text');
    assert.equal((await sandboxReads(server)).length, before, 'nothing is read from the sandbox before Details');
    // Since the agent read it, the file changed in the sandbox; and the agent has already changed another file.
    await server.control('POST', `/sandboxes/${id}`, {
      files: { 'ev-notes.txt': 'what the sandbox holds now\n' },
      branch: 'agent-work',
      changes: [{ path: 'src/already-changed.ts', status: 'M', diff: '-a\n+b\n' }],
    });
    await clickNotificationButton(page, 'ev-notes.txt', 'Details');
    const editor = page.locator('.editor-group-container.active .editor-instance .view-lines').first();
    await until('the git status in the details', async () => {
      const text = await textOf(editor);
      return text.includes('1 file changed on branch agent-work') && text.includes('src/already-changed.ts');
    });
    await titleAction(page, 'Open Diff').click({ timeout: 20_000 });
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
    await until("the sandbox's file and the proposed text in the diff editor", async () => {
      const text = await textOf(diff);
      return text.includes('what the sandbox holds now') && text.includes('the proposed text');
    });
    assert.ok(!(await textOf(diff)).includes('what the agent read'), "not the agent's own old text");
    const reads = (await sandboxReads(server)).map((r) => `${r.status} ${r.path}`);
    assert.ok(
      reads.some((r) => r.startsWith('200 ') && r.endsWith('/git-status')),
      reads.join(', '),
    );
    assert.ok(
      reads.some((r) => r.startsWith('200 ') && r.endsWith('/file')),
      reads.join(', '),
    );
    assert.deepEqual(await server.answersFor(id), [], 'reading the evidence answered nothing');
  });

  it('a sandbox that answers 503 with Retry-After is one sentence in the details, never a toast; Open Diff falls back', async () => {
    const { page } = wb;
    const file = 'ev-down.txt';
    const id = await server.startConversation('claude', 'say: ready', { title: 'Unavailable' });
    const { cwd } = await server.conversationState(id);
    fs.writeFileSync(path.join(cwd, file), 'the old words\n');
    await until('the first turn to end', async () => (await server.conversationState(id)).status === 'idle');
    // The sandbox is down before the request arrives: the toast must not wait for it (nothing reads it before
    // Details) and no failure of it becomes a toast.
    await server.control('POST', `/sandboxes/${id}`, { state: 'unavailable', retry_after: 42 });
    const before = (await sandboxReads(server)).length;
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, {
      prompt: `edit: ${file} => the new words`,
    });
    assert.ok(sent.status < 300, `prompt: ${sent.status}`);
    const asked = Date.now();
    await toast(page, file).waitFor({ timeout: 30_000 });
    const toastMs = Date.now() - asked;
    assert.ok(toastMs < 20_000, `the toast took ${toastMs} ms`);
    assert.equal((await sandboxReads(server)).length, before, 'nothing is read from the sandbox before Details');

    await clickNotificationButton(page, file, 'Details');
    const editor = page.locator('.editor-group-container.active .editor-instance .view-lines').first();
    const sentence = 'The sandbox is unavailable right now; the server says to try again in 42 seconds.';
    // Wrapped lines are separate elements: compare without any whitespace.
    const squeeze = (t: string) => t.replace(/\s+/g, '');
    await until('the sentence in the details', async () =>
      squeeze(await editorText(editor)).includes(squeeze(sentence)),
    );
    assert.ok(!(await editorText(editor)).includes('Reading the sandbox'), 'the details left "Reading…"');
    await until('git-status asked and answered 503', async () =>
      (await sandboxReads(server)).some((r) => r.status === 503 && r.path.endsWith('/git-status')),
    );

    await titleAction(page, 'Open Diff').click({ timeout: 20_000 });
    const diff = page.locator('.editor-group-container.active .monaco-diff-editor');
    await until("the agent's old text beside the proposed one", async () => {
      const text = await textOf(diff);
      return text.includes('the old words') && text.includes('the new words');
    });
    const reads = (await sandboxReads(server)).filter((r) => r.status === 503).map((r) => r.path);
    assert.ok(
      reads.some((r) => r.endsWith('/file')),
      `the file was asked and answered 503: ${reads.join(', ')}`,
    );
    // Back in the details (a click on the request's row; the diff took the details' preview tab): the file's
    // failure is its sentence too.
    await openView(page);
    await page
      .locator('.pane-body .monaco-list-row', { hasText: `Edit ${file}` })
      .first()
      .click();
    await until("the file's sentence in the details", async () =>
      squeeze(await editorText(editor)).includes(
        squeeze(`${file}: ${sentence} The left side shows the agent's own old text instead.`),
      ),
    );
    const sandboxToasts = page.locator('.notifications-toasts .notification-toast', { hasText: /sandbox/i });
    assert.equal(await sandboxToasts.count(), 0, 'no toast about the sandbox');
    assert.deepEqual(await server.answersFor(id), [], 'reading the evidence answered nothing');
  });
});
