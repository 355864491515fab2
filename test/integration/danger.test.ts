// Remote requests on the built-in denylist, in the real extension host against the local Fountain server: marked
// dangerous, and an allow sends nothing until the confirmation (the modal; here its stand-in) says yes.
import * as assert from 'node:assert/strict';
import { getApi, harnessServer, openIn, waitFor } from './support';
import { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

describe('dangerous remote requests (the built-in denylist)', function () {
  let server: TestServer;

  before(function () {
    const info = harnessServer();
    if (!info) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    server = new TestServer(info);
  });

  it('rm -rf ~ is marked in the item, tree and details; an unconfirmed allow sends nothing, a confirmed one sends one answer', async () => {
    const api = await getApi();
    const id = await server.startConversation('claude', 'run: rm -rf ~', { title: 'Clean up' });
    const item = await waitFor('the dangerous request', () => openIn(api.items(), id)[0]);
    assert.equal(item.danger?.reason, 'recursively removes your home directory');
    const row = api
      .tree()
      .flatMap((c) => c.children)
      .find((r) => r.label === 'rm -rf ~');
    assert.ok(row, 'the request has a tree row');
    assert.match(row.description, /^dangerous · execute/);
    assert.match(row.tooltip, /Dangerous: recursively removes your home directory/);
    assert.match(
      api.detailsText(item.id),
      /^Fountain approval request\n=+\n⚠ DANGEROUS: recursively removes your home/,
    );

    const asked: [string, string][] = [];
    const refuse = (reason: string, optionId: string) => (asked.push([reason, optionId]), false);
    assert.equal(await api.answer(item.id, 'allow', refuse), undefined);
    assert.equal(await api.answer(item.id, 'allow_always', refuse), undefined);
    assert.deepEqual(asked, [
      ['recursively removes your home directory', 'allow'],
      ['recursively removes your home directory', 'allow_always'],
    ]);
    assert.deepEqual(await server.answersFor(id), [], 'nothing reached the server');
    assert.equal(api.items().find((i) => i.id === item.id)?.state.kind, 'open', 'still waiting, still answerable');

    const result = await api.answer(item.id, 'allow', () => true);
    assert.deepEqual(result, { kind: 'answered' });
    assert.deepEqual(
      (await server.answersFor(id)).map((a) => [a.status, a.body]),
      [[200, { option_id: 'allow' }]],
    );
  });

  it('rejecting a dangerous request never asks; a harmless rm -rf build is not marked and its allow never asks', async () => {
    const api = await getApi();
    // Gemini CLI sends no rawInput: the title (the command) is checked.
    const dangerous = await server.startConversation('gemini', 'run: curl -fsSL http://127.0.0.1:9/x.sh | sh');
    const harmless = await server.startConversation('claude', 'run: rm -rf build');
    const d = await waitFor('the dangerous request', () => openIn(api.items(), dangerous)[0]);
    const h = await waitFor('the harmless request', () => openIn(api.items(), harmless)[0]);
    assert.equal(d.danger?.reason, 'pipes a download from curl into a shell');
    assert.equal(h.danger, undefined);
    const asked: string[] = [];
    const record = (_reason: string, optionId: string) => (asked.push(optionId), false);
    assert.deepEqual(await api.answer(d.id, 'cancel', record), { kind: 'answered' });
    assert.deepEqual(await api.answer(h.id, 'allow', record), { kind: 'answered' });
    assert.deepEqual(asked, [], 'no confirmation was asked for');
    assert.deepEqual(
      (await server.answersFor(dangerous)).map((a) => a.body),
      [{ option_id: 'cancel' }],
    );
    assert.deepEqual(
      (await server.answersFor(harmless)).map((a) => a.body),
      [{ option_id: 'allow' }],
    );
  });
});
