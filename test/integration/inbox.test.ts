import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getApi, harnessServer, harnessTestServer, openIn, waitFor } from './support';
import { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

describe('the extension against the local Fountain server', function () {
  let server: TestServer;

  before(function () {
    const s = harnessTestServer();
    if (!s) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    server = s;
  });

  it('finds requests opened while it was not running (detached and in-turn) by backfill', async () => {
    const api = await getApi();
    const pre = JSON.parse(process.env.FOUNTAIN_TEST_PRESEEDED!) as { detached: string; inTurn: string };
    const detached = await waitFor(
      'the preseeded detached request',
      () => openIn(api.items(), pre.detached)[0],
      30_000,
    );
    const inTurn = await waitFor('the preseeded in-turn request', () => openIn(api.items(), pre.inTurn)[0], 30_000);
    assert.equal(detached.source, 'backfill');
    assert.equal(detached.detached, true);
    assert.ok(
      detached.deadline! > Date.now() + 86_400_000,
      'the detached deadline is the agent timeout (2 days), not 5 minutes',
    );
    assert.equal(inTurn.source, 'backfill');
    assert.equal(inTurn.detached, false);
    assert.equal(inTurn.label, 'touch preseeded-in-turn.txt');
    assert.deepEqual(
      inTurn.request.options.map((o) => [o.optionId, o.name, o.kind]),
      [
        ['allow_always', 'Always Allow', 'allow_always'],
        ['allow', 'Allow', 'allow_once'],
        ['reject', 'Reject', 'reject_once'],
      ],
    );
    assert.equal(api.connectionState().kind, 'connected');
  });

  it('sees a request that arrives live, and answering it lets the agent run the tool', async () => {
    const api = await getApi();
    const id = await server.startConversation('claude', 'run: touch live-answered.txt', { title: 'live one' });
    const item = await waitFor('the live request', () => openIn(api.items(), id)[0]);
    assert.equal(item.source, 'live');
    const result = await api.answer(item.id, 'allow');
    assert.deepEqual(result, { kind: 'answered' });
    const state = await server.conversationState(id);
    await waitFor('the file the approved command creates', () =>
      fs.existsSync(path.join(state.cwd, 'live-answered.txt')),
    );
    await waitFor('the request to show as answered by you', () =>
      api.items().find((i) => i.id === item.id && i.state.kind === 'answeredByYou'),
    );
  });

  it('loses no request across a forced server-side stream abort (resumes with Last-Event-ID)', async () => {
    const api = await getApi();
    // Keep the client out for a moment: its next two stream connections get a 503, so the request below is
    // recorded while no stream is open and can only arrive by replay (or backfill).
    await server.control('POST', '/fail', { path: '/api/events/stream', status: 503, count: 2, retry_after: 1 });
    await server.control('POST', '/streams/abort');
    await waitFor('the client to notice the abort', () => api.connectionState().kind !== 'connected', 10_000);
    const id = await server.startConversation('gemini', 'run: touch during-outage.txt', { title: 'during the outage' });
    const item = await waitFor('the request made during the outage', () => openIn(api.items(), id)[0], 45_000);
    assert.equal(item.request.options.map((o) => o.optionId).join(','), 'proceed_always,proceed_once,cancel');
    await waitFor('the stream to be back', () => api.connectionState().kind === 'connected', 30_000);
    // Nothing else was lost either: the earlier requests are still there and still waiting.
    const pre = JSON.parse(process.env.FOUNTAIN_TEST_PRESEEDED!) as { detached: string; inTurn: string };
    assert.equal(openIn(api.items(), pre.detached).length, 1);
    assert.equal(openIn(api.items(), pre.inTurn).length, 1);
  });

  it('persists the stream cursor in globalState, so a restarted VS Code resumes with Last-Event-ID', async () => {
    const api = await getApi();
    const id = await server.startConversation('claude', 'say: hello');
    await waitFor('the turn to end', async () => (await server.conversationState(id)).status === 'idle');
    const head = (await server.control<{ last_event_id: number }>('GET', '/state')).last_event_id;
    const stored = await waitFor(
      'the cursor to be persisted',
      () => {
        const entries = Object.entries(api.storedCursors());
        return entries.length === 1 && Number(entries[0][1]) >= head ? entries[0] : undefined;
      },
      10_000,
    );
    assert.ok(stored[0].includes(server.info.url), `the scope names the server: ${stored[0]}`);
    assert.ok(!stored[0].includes(server.info.apiKey), 'the scope never holds the key');
  });

  it('a request answered by another client first is marked answered elsewhere and a click sends nothing', async () => {
    const api = await getApi();
    const id = await server.startConversation('claude', 'run: touch answered-elsewhere.txt');
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    const direct = await server.api(
      'POST',
      `/api/conversations/${id}/requests/${encodeURIComponent(item.key.requestId)}`,
      {
        option_id: 'reject',
      },
    );
    assert.equal(direct.status, 200);
    const stale = await waitFor('the resolution to arrive', () =>
      api.items().find((i) => i.id === item.id && i.state.kind === 'resolvedElsewhere'),
    );
    assert.equal(stale.state.kind === 'resolvedElsewhere' && stale.state.optionId, 'reject');
    assert.equal(await api.answer(item.id, 'allow'), undefined, 'a stale click sends nothing');
    const answers = await server.answersFor(id);
    assert.deepEqual(
      answers.map((e) => e.body),
      [{ option_id: 'reject' }],
      "the server saw only the other client's answer",
    );
  });
});

describe('answer commands refuse arguments the extension did not create', function () {
  it('a forged tree element passed by another extension sends nothing and leaves the request waiting', async function () {
    const info = harnessServer();
    if (!info) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    const server = new TestServer(info);
    const api = await getApi();
    const id = await server.startConversation('claude', 'run: touch forged.txt');
    const item = await waitFor('the request', () => openIn(api.items(), id)[0]);
    // What another extension could do: call our command with an object shaped like our tree element.
    await vscode.commands.executeCommand('fountain.request.allowOnce', { kind: 'request', id: item.id });
    await vscode.commands.executeCommand('fountain.request.reject', { kind: 'request', id: item.id });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal((await server.answersFor(id)).length, 0);
    assert.equal(api.items().find((i) => i.id === item.id)?.state.kind, 'open');
    const { cwd } = await server.conversationState(id);
    assert.equal(fs.existsSync(path.join(cwd, 'forged.txt')), false);
  });
});
