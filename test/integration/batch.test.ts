import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { getApi, harnessServer, openIn, waitFor } from './support';
import { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

describe('batch answers and Retry refuse arguments the extension did not create', function () {
  it('Allow Selected… / Reject Selected… / Retry with forged tree elements send nothing and leave the requests waiting', async function () {
    const info = harnessServer();
    if (!info) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    const server = new TestServer(info);
    const api = await getApi();
    const a = await server.startConversation('claude', 'run: touch forged-batch-a.txt');
    const b = await server.startConversation('gemini', 'run: touch forged-batch-b.txt');
    const itemA = await waitFor('request a', () => openIn(api.items(), a)[0]);
    const itemB = await waitFor('request b', () => openIn(api.items(), b)[0]);
    // What another extension could do: pass objects shaped like our tree elements, as VS Code would pass a selection.
    const forged = [itemA, itemB].map((i) => ({ kind: 'request', id: i.id }));
    await vscode.commands.executeCommand('fountain.request.allowSelected', forged[0], forged);
    await vscode.commands.executeCommand('fountain.request.rejectSelected', forged[1], forged);
    await vscode.commands.executeCommand('fountain.request.allowSelected');
    await vscode.commands.executeCommand('fountain.request.retry', forged[0]);
    await vscode.commands.executeCommand('fountain.request.retry');
    await new Promise((r) => setTimeout(r, 500));
    assert.deepEqual(await server.answersFor(a), []);
    assert.deepEqual(await server.answersFor(b), []);
    for (const i of [itemA, itemB]) {
      assert.equal(api.items().find((x) => x.id === i.id)?.state.kind, 'open');
    }
    await server.control('POST', `/conversations/${a}/interrupt`);
    await server.control('POST', `/conversations/${b}/interrupt`);
  });
});
