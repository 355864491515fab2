/**
 * Agent text of any length in the running extension, against the local server (issue 9 item 1). Named to run after
 * the other extension-host files (they run in file-name order): its 1 MB conversations stay on the server, so every
 * later conversation read the extension makes carries them and takes longer, which tests that count or race the
 * extension's reads would feel.
 */
import * as assert from 'node:assert/strict';
import type { TestApi } from '../../src/extension';
import { getApi, harnessTestServer, openIn, waitFor, conversationRow } from './support';
import type { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

const MB = 1_000_000;
const MARK = '│ ';

describe('agent text of any length in the extension host', function () {
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
    // The conversation's title arrives with its conversation record, which may come after the requests.
    const conv = await waitFor('the conversation row with the 1 MB title', () => {
      const c = conversationRow(api, 'touch keep-visible.txt');
      return c?.label.startsWith('Long conversation') ? c : undefined;
    });
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
    // The conversation record (with its title) may reach this request after the request itself.
    const title = `Long conversation ${'T'.repeat(MB)}`;
    await waitFor('the details to show the whole conversation title', () =>
      api
        .detailsText(big.id)
        .split('\n')
        .some((l) => l.startsWith('Conversation:') && l.includes(title))
        ? true
        : undefined,
    );
    const writeDetails = api.detailsText(write.id);
    assert.ok(writeDetails.includes('w'.repeat(MB)), 'details show the whole 1 MB new text');
    assert.ok(api.detailsText(small.id).includes('touch keep-visible.txt'));
    for (const c of [id, writeId]) {
      await server.control('POST', `/conversations/${c}/interrupt`);
    }
    await waitFor('the interrupted turns to reach the extension', () =>
      [big.id, write.id].every((i) => api.items().find((x) => x.id === i)?.pending === false) ? true : undefined,
    );
  });
});
