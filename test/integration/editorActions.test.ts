import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InboxItem } from '../../src/domain/inbox';
import type { TestApi } from '../../src/extension';
import { EXTENSION_ID, getApi, harnessServer, openIn, waitFor } from './support';
import { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

/** The option ids of the answers the server received for a conversation, oldest first. */
async function answered(server: TestServer, conversationId: string): Promise<unknown[]> {
  return (await server.answersFor(conversationId)).map((e) => e.body);
}

/** Opens the request's details document the way the tree's Show Details does, and returns its URI. */
async function openDetails(api: TestApi, item: InboxItem): Promise<vscode.Uri> {
  // Show Details acts on the tree's selection; a tree refresh for a request arriving meanwhile can drop the
  // selection before the command reads it, so the pair is repeated (every 2 s) until the editor shows.
  let shownAt = 0;
  const editor = await waitFor('the details editor', async () => {
    const e = vscode.window.activeTextEditor;
    if (e?.document.uri.scheme === 'fountain-request' && e.document.getText().includes(item.key.requestId)) {
      return e;
    }
    if (Date.now() - shownAt > 2000) {
      shownAt = Date.now();
      await api.selectRequest(item.id);
      await vscode.commands.executeCommand('fountain.request.showDetails');
    }
    return undefined;
  });
  return editor.document.uri;
}

describe("editor title answers act on that editor's request only", function () {
  let server: TestServer;
  let api: TestApi;

  before(async function () {
    const info = harnessServer();
    if (!info) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    server = new TestServer(info);
    api = await getApi();
  });
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Allow Once in a details editor sends its allow_once option once; no argument, a foreign or closed editor, a forged object send nothing', async () => {
    const id = await server.startConversation('claude', 'run: touch editor-allow.txt');
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    const otherId = await server.startConversation('claude', 'run: touch editor-other.txt');
    const other = await waitFor('the other request', () => openIn(api.items(), otherId)[0]);
    const uri = await openDetails(api, item);
    // The tree now selects the other request: a command that fell back to the selection would answer it.
    await api.selectRequest(other.id);

    await vscode.commands.executeCommand('fountain.editor.allowOnce');
    await vscode.commands.executeCommand('fountain.editor.reject');
    await vscode.commands.executeCommand('fountain.editor.answer');
    await vscode.commands.executeCommand('fountain.editor.allowOnce', vscode.Uri.file('/tmp/editor-allow.txt'));
    await vscode.commands.executeCommand('fountain.editor.allowOnce', { kind: 'request', id: other.id });
    // Our scheme and a request in the inbox, but no editor shows it.
    const closed = uri.with({ query: encodeURIComponent(other.id) });
    await vscode.commands.executeCommand('fountain.editor.allowOnce', closed);
    await vscode.commands.executeCommand('fountain.editor.reject', closed);
    assert.deepEqual(await answered(server, id), [], 'the refused calls sent nothing for the shown request');
    assert.deepEqual(await answered(server, otherId), [], 'nor for the selected one');

    await vscode.commands.executeCommand('fountain.editor.allowOnce', uri);
    assert.deepEqual(await answered(server, id), [{ option_id: 'allow' }], "claude's allow_once, not allow_always");
    const { cwd } = await server.conversationState(id);
    await waitFor('the allowed command to run', () => fs.existsSync(path.join(cwd, 'editor-allow.txt')));
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    assert.ok(doc, 'the details document is open');
    await waitFor('the details document to show the answer', () => doc.getText().includes('answered by you: allow at'));
    // A second click on the same editor's button sends nothing more.
    await vscode.commands.executeCommand('fountain.editor.allowOnce', uri);
    await vscode.commands.executeCommand('fountain.editor.reject', uri);
    assert.deepEqual(await answered(server, id), [{ option_id: 'allow' }]);
    assert.deepEqual(await answered(server, otherId), []);
    assert.equal(api.items().find((i) => i.id === other.id)?.state.kind, 'open');
  });

  it("a constructed URI of an open details tab that is not the active editor sends nothing; the active editor's does", async () => {
    const id = await server.startConversation('claude', 'run: touch editor-background.txt');
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    const activeId = await server.startConversation('claude', 'run: touch editor-active.txt');
    const active = await waitFor('the other request', () => openIn(api.items(), activeId)[0]);
    const background = await openDetails(api, item);
    await vscode.commands.executeCommand('workbench.action.keepEditor'); // the next details opens in a tab of its own
    const shown = await openDetails(api, active);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.input));
    assert.ok(
      tabs.some((i) => i instanceof vscode.TabInputText && i.uri.toString() === background.toString()),
      "the first request's details is still open in a tab",
    );
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), shown.toString());

    // What a `command:` link or another extension can pass: a URI built to name the open background tab.
    const forged = vscode.Uri.parse(background.toString());
    await vscode.commands.executeCommand('fountain.editor.allowOnce', forged);
    await vscode.commands.executeCommand('fountain.editor.reject', forged);
    await vscode.commands.executeCommand('fountain.editor.answer', forged);
    assert.deepEqual(await answered(server, id), [], 'nothing was sent for the background tab');
    assert.equal(api.items().find((i) => i.id === item.id)?.state.kind, 'open');

    await vscode.commands.executeCommand('fountain.editor.reject', shown);
    assert.deepEqual(await answered(server, activeId), [{ option_id: 'reject' }], "the active editor's request");
    assert.deepEqual(await answered(server, id), []);
  });

  it("Reject in an edit request's diff editor sends that request's reject option", async () => {
    const id = await server.startConversation('claude', 'say: ready', { title: 'Edit from the diff' });
    const { cwd } = await server.conversationState(id);
    fs.writeFileSync(path.join(cwd, 'diff-notes.txt'), 'the old text\n');
    await waitFor('the first turn to end', async () => (await server.conversationState(id)).status === 'idle');
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, {
      prompt: 'edit: diff-notes.txt => the new text',
    });
    assert.ok(sent.status < 300, `prompt: ${sent.status}`);
    const item = await waitFor('the edit request', () => openIn(api.items(), id)[0]);
    assert.equal(item.request.diffs.length, 1);
    await openDetails(api, item);
    await vscode.commands.executeCommand('fountain.request.openDiff');
    const input = await waitFor('the diff editor', () => {
      const i = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return i instanceof vscode.TabInputTextDiff ? i : undefined;
    });
    assert.equal(input.modified.scheme, 'fountain-diff');
    await vscode.commands.executeCommand('fountain.editor.reject', input.modified);
    assert.deepEqual(await answered(server, id), [{ option_id: 'reject' }]);
    await vscode.commands.executeCommand('fountain.editor.allowOnce', input.original);
    assert.deepEqual(await answered(server, id), [{ option_id: 'reject' }], 'answered once');
    assert.equal(fs.readFileSync(path.join(cwd, 'diff-notes.txt'), 'utf8'), 'the old text\n');
  });

  it('no command answers a waiting request or hands out the history: the "always" confirmations get them as parameters', async () => {
    const id = await server.startConversation('claude', 'run: touch internal-answer.txt');
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    const allow = item.request.options.find((o) => o.kind === 'allow_once');
    assert.ok(allow, 'claude offers an allow_once');
    // The commands another extension could once run to answer a request and read the history (stop 24's defect).
    for (const [command, args] of [
      ['fountain.internal.answerWaiting', [item.id, allow.optionId]],
      ['fountain.internal.alwaysContext', []],
    ] as const) {
      await assert.rejects(
        Promise.resolve(vscode.commands.executeCommand(command, ...args)),
        /not found/,
        `${command} is not a command`,
      );
    }
    // Every fountain command registered is one package.json contributes, so none is hidden from the user's view.
    const pkg = JSON.parse(
      fs.readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.json'), 'utf8'),
    ) as { contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]> } };
    const contributed = new Set(pkg.contributes.commands.map((c) => c.command));
    // VS Code's own commands for each view (`<view>.focus`, …) are the workbench's, not ours.
    const views = Object.values(pkg.contributes.views).flatMap((v) => v.map((x) => `${x.id}.`));
    const hidden = (await vscode.commands.getCommands(true)).filter(
      (c) =>
        c.startsWith('fountain.') &&
        !contributed.has(c) &&
        !views.some((v) => c.startsWith(v) && !c.slice(v.length).includes('.')),
    );
    assert.deepEqual(hidden, [], 'every registered fountain.* command is a contributed one');
    assert.deepEqual(await answered(server, id), [], 'nothing was sent for the waiting request');
    assert.ok(api.items().find((i) => i.id === item.id)?.answerable, 'the request still waits, answerable');
  });
});
