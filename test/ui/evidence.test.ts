import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { workbenchSuite } from './suite';
import { TestServer } from '../support/serverClient';
import { clickNotificationButton, runCommand, textOf, toast, until, type Workbench } from './workbench';

function titleAction(page: Page, label: string) {
  return page.locator(`.editor-group-container.active .editor-actions .action-label[aria-label^="${label}"]`);
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
});
