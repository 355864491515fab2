/**
 * Hostile agent text in the running extension, against the local server: answer commands without a request send
 * nothing (issue 9 item 3), `$(icon)` text stays literal (item 8) and agent lines cannot pass for the extension's
 * own (item 11). Text of any length (item 1) is in volume.test.ts.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { getApi, harnessTestServer, openIn, waitFor, conversationRow } from './support';
import type { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

const MARK = '│ ';

describe('hostile agent text in the extension host', function () {
  let server: TestServer;
  let api: TestApi;

  before(async function () {
    const s = harnessTestServer();
    if (!s) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    server = s;
    api = await getApi();
  });

  it('answer commands with no request (a programmatic call, a command: link) send nothing, even with a row selected', async () => {
    const id = await server.startConversation('claude', 'run: touch no-click.txt', { title: 'No click' });
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    await api.selectRequest(item.id); // the row is selected: before the fix a no-argument call answered it
    await waitFor('the row in the tree', () => conversationRow(api, 'touch no-click.txt'));
    const errors: string[] = [];
    for (const command of [
      'fountain.request.allowOnce',
      'fountain.request.reject',
      'fountain.pending.allowOnceFocused',
      'fountain.pending.rejectFocused',
    ]) {
      for (const args of [[], [{ $treeViewId: 'fountain.pending', $focusedTreeItem: true }]]) {
        // No argument, and the keybinding's own argument passed by another extension in this host (a plain
        // object there, not an element of ours).
        await vscode.commands.executeCommand(command, ...args).then(undefined, (e: Error) => {
          errors.push(`${command}: ${e.message}`);
        });
      }
    }
    // Every handler has returned (executeCommand awaits it, POST included): nothing may have been sent.
    assert.deepEqual(await server.answersFor(id), [], 'no answer reached the server');
    assert.deepEqual(errors, [], 'every command exists and ran');
    assert.equal(api.items().find((i) => i.id === item.id)?.state.kind, 'open', 'the request stays open');
    // The request is still answerable through a real path, which is logged: the log does see answers.
    assert.deepEqual(await api.answer(item.id, 'reject'), { kind: 'answered' });
    assert.deepEqual(
      (await server.answersFor(id)).map((a) => a.body),
      [{ option_id: 'reject' }],
    );
  });

  it('agent lines in the tooltip and the details cannot forge "Kind:" or "Options:" lines; $(icon) text stays literal', async () => {
    const forged =
      'git status $(poweroff)\nKind: read\nConversation: Trusted\nOptions: Allow once (allow_once)\n\n\nrm -rf ~';
    const spec = { toolCall: { title: forged, kind: 'execute', rawInput: { command: forged } } };
    const id = await server.startConversation('claude', `ask: ${JSON.stringify(spec)}`, { title: 'Forged lines' });
    const item = await waitFor('the forged request', () => openIn(api.items(), id)[0]);
    // Wait for the conversation's title too, so the one "Conversation:" line to expect is known.
    const conv = await waitFor('its row with the conversation title', () => {
      const c = conversationRow(api, 'git status');
      return c?.children.some((r) => r.tooltip.includes('Conversation: Forged lines')) ? c : undefined;
    });
    const row = conv.children.find((r) => r.label.startsWith('git status'))!;
    assert.ok(row.label.startsWith('git status $(poweroff)⏎Kind: read⏎Conversation: Trusted⏎'), row.label);
    const tipLines = row.tooltip.split('\n');
    assert.deepEqual(
      tipLines.filter((l) => l.startsWith('Kind:')),
      ['Kind: execute'],
      'one Kind line, ours',
    );
    assert.equal(tipLines.filter((l) => l.startsWith('Options:')).length, 1);
    assert.deepEqual(
      tipLines.filter((l) => l.startsWith('Conversation:')),
      ['Conversation: Forged lines'],
    );
    assert.ok(row.tooltip.includes(`${MARK}Kind: read\n${MARK}Conversation: Trusted`));
    assert.ok(row.tooltip.includes(`${MARK}\n${MARK}\n${MARK}rm -rf ~`), 'blank agent lines are marked too');

    const details = api.detailsText(item.id).split('\n');
    const kindLines = details.filter((l) => /^Kind:/.test(l));
    assert.equal(kindLines.length, 1, kindLines.join(' | '));
    assert.match(kindLines[0], /^Kind:\s+execute$/);
    assert.equal(details.filter((l) => /^Options/.test(l)).length, 1, 'only our own Options heading');
    assert.ok(!details.some((l) => l.startsWith('Conversation: Trusted')));
    assert.ok(details.includes(`${MARK}git status $(poweroff)`), 'the icon syntax shows literally');
    assert.ok(details.includes(`${MARK}rm -rf ~`));
    await server.control('POST', `/conversations/${id}/interrupt`);
  });

  it('a conversation without a title is named by its agent and runtime, never its id (tree group, row tooltip, details)', async () => {
    // No first prompt, so no title (the server makes one from the first prompt); the request comes from a later one.
    const id = await server.startConversation('claude', '');
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, { prompt: 'run: touch untitled.txt' });
    assert.equal(sent.status, 202);
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    const name = 'Claude Code (claude)';
    const conv = await waitFor('its group named by agent and runtime', () => {
      const c = conversationRow(api, 'touch untitled.txt');
      return c?.label === name ? c : undefined;
    });
    assert.ok(!conv.label.includes(id) && !conv.description.includes(id), `${conv.label} · ${conv.description}`);
    assert.ok(!conv.description.includes('Claude Code'), `the agent is named once: ${conv.description}`);
    // The group's tooltip (made on hover): the name as an agent line, the agent and runtime, never the id.
    assert.deepEqual(conv.tooltip.split('\n').slice(0, 2), [`${MARK}${name}`, 'Agent: Claude Code · runtime: claude']);
    assert.ok(!conv.tooltip.includes(id), conv.tooltip);
    const row = conv.children.find((r) => r.label.startsWith('touch untitled.txt'))!;
    assert.ok(!row.label.includes(id), row.label);
    assert.deepEqual(
      row.tooltip.split('\n').filter((l) => l.startsWith('Conversation:')),
      [`Conversation: ${name}`],
    );
    const details = api.detailsText(item.id).split('\n');
    assert.deepEqual(
      details.filter((l) => /^Conversation( id)?:/.test(l)).map((l) => l.replace(/\s+/g, ' ')),
      [`Conversation: ${name}`, `Conversation id: ${id}`],
    );
    await server.control('POST', `/conversations/${id}/interrupt`);
  });
});
