/**
 * Hostile agent text in the running extension, against the local server: any length renders (issue 9 item 1),
 * answer commands without a request send nothing (item 3), `$(icon)` text stays literal (item 8) and agent lines
 * cannot pass for the extension's own (item 11).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TestApi } from '../../src/extension';
import { getApi, harnessTestServer, openIn, waitFor } from './support';
import type { TestServer } from './serverClient';

const MB = 1_000_000;
const MARK = '│ ';

/** The tree row (conversation + its request rows) of one conversation, found by a request of it. */
function conversationRow(api: TestApi, requestLabelStart: string) {
  return api.tree().find((c) => c.children.some((r) => r.label.startsWith(requestLabelStart)));
}

describe('hostile agent text in the extension host', function () {
  let server: TestServer;
  let api: TestApi;

  before(async function () {
    const s = harnessTestServer();
    if (!s) {
      this.skip();
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
    const conv = await waitFor('its row', () => conversationRow(api, 'git status'));
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

  // Last: before the fix its 1 MB conversation title broke every later read of the tree.
  it('a 1 MB command, a 1 MB Write and a 1 MB conversation title render in the tree and details, and the other requests of the conversation stay visible', async () => {
    const bigTitle = 'Long conversation ' + 'T'.repeat(MB);
    const id = await server.startConversation('claude', 'wait: touch keep-visible.txt', { title: bigTitle });
    const small = await waitFor('the detached request', () => openIn(api.items(), id)[0], 30_000);
    await waitFor('the first turn to end', async () => (await server.conversationState(id)).status !== 'running');
    const bigCommand = 'echo ' + 'x'.repeat(MB);
    const sent = await server.api('POST', `/api/conversations/${id}/prompts`, { prompt: `run: ${bigCommand}` });
    assert.ok(sent.status < 300, `prompt: ${sent.status} ${JSON.stringify(sent.body)}`);
    const big = await waitFor(
      'the 1 MB request',
      () => openIn(api.items(), id).find((i) => i.label.length > MB),
      60_000,
    );
    const writeId = await server.startConversation('claude', `edit: big-file.txt => ${'w'.repeat(MB)}`, {
      title: 'Big write',
    });
    const write = await waitFor('the 1 MB Write', () => openIn(api.items(), writeId)[0], 60_000);

    const tree = api.tree(); // threw RangeError before the fix (the conversation title alone emptied the tree)
    const conv = conversationRow(api, 'touch keep-visible.txt');
    assert.ok(conv, 'the conversation with the 1 MB title is in the tree');
    assert.ok(conv.label.startsWith('Long conversation TTT') && conv.label.endsWith('…'), conv.label.slice(0, 80));
    assert.ok(Array.from(conv.label).length <= 60);
    const labels = conv.children.map((r) => r.label);
    assert.ok(labels.includes('touch keep-visible.txt'), 'the small request of the same conversation is visible');
    const bigRow = conv.children.find((r) => r.label.startsWith('echo xxx'));
    assert.ok(bigRow, `the 1 MB request has a row: ${labels.map((l) => l.slice(0, 40)).join(' | ')}`);
    assert.ok(bigRow.label.endsWith('…') && Array.from(bigRow.label).length <= 80);
    assert.ok(
      bigRow.tooltip.includes('(shortened: Show Details has the full text)'),
      'the tooltip says where all of it is',
    );
    assert.ok(bigRow.tooltip.length < 10_000, `tooltip of ${bigRow.tooltip.length} characters`);
    assert.ok(
      tree.some((c) => c.children.some((r) => r.label === 'Write big-file.txt')),
      'the 1 MB Write has its row',
    );

    const details = api.detailsText(big.id);
    assert.ok(details.includes(`${MARK}${bigCommand}\n`), 'details show the whole 1 MB command, on agent lines');
    assert.ok(details.includes(`Long conversation ${'T'.repeat(MB)}`), 'details show the whole conversation title');
    const writeDetails = api.detailsText(write.id);
    assert.ok(writeDetails.includes('w'.repeat(MB)), 'details show the whole 1 MB new text');
    assert.ok(api.detailsText(small.id).includes('touch keep-visible.txt'));
    for (const c of [id, writeId]) {
      await server.control('POST', `/conversations/${c}/interrupt`);
    }
  });
});
