import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { RunningServer } from './server';
import { answerPath, api, createAndAsk, events, isStage, openSse, payload, waitEvent } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';

describe('test server: SSE streams', function () {
  let server: RunningServer;
  afterEach(async () => {
    await server?.close();
  });

  it('per-conversation stream: full replay without a cursor, frames as documented, wait=false closes', async () => {
    server = await start();
    const { id, requestId } = await createAndAsk(server, 'claude', 'say: hi\nrun: ls');
    const all = await events(server, id);
    const s = await openSse(server, `/api/conversations/${id}/stream?wait=false&blocks=true`);
    assert.equal(s.status, 200);
    assert.match(String(s.headers['content-type']), /^text\/event-stream/);
    assert.equal(s.headers['cache-control'], 'no-cache');
    assert.equal(await s.ended, 'end');
    assert.deepEqual(
      s.messages.map((m) => Number(m.id)),
      all.map((e) => e.id),
    );
    const req = s.messages.find(
      (m) =>
        payload(m).blocks && (payload(m).blocks as { kind: string }[]).some((b) => b.kind === 'permission_request'),
    )!;
    assert.equal(req.event, 'output');
    const p = payload(req);
    assert.equal(p.kind, 'output');
    assert.equal(p.stream, 'acp');
    assert.equal(typeof p.data, 'string');
    assert.equal('id' in p, false, 'the id is only on the id: line');
    assert.equal('conversation_id' in p, false);
    const line = JSON.parse(p.data as string) as Record<string, unknown>;
    assert.equal(line.id, requestId);
    assert.equal(line.method, 'session/request_permission');
    const stage = s.messages.find((m) => m.event === 'stage')!;
    assert.equal(typeof payload(stage).data, 'string', 'stage data is JSON-encoded');
    assert.ok(
      !(
        'blocks' in
        payload((await openSse(server, `/api/conversations/${id}/stream?wait=false`)).messages[0] ?? { data: '{}' })
      ),
    );
  });

  it('per-conversation stream: Last-Event-ID resumes after it; streams= filters; live events follow', async () => {
    server = await start();
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const all = await events(server, id);
    const cursor = all[1].id;
    const s = await openSse(server, `/api/conversations/${id}/stream?streams=stage`, { lastEventId: cursor });
    await s.next((m) => payload(m).stage === 'request', 'replayed request/started');
    assert.ok(s.messages.every((m) => Number(m.id) > cursor && m.event === 'stage'));
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
    await s.next((m) => payload(m).stage === 'turn' && payload(m).state === 'done', 'live turn/done');
    const ids = s.messages.map((m) => Number(m.id));
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    );
    s.close();
  });

  it('account-wide stream: ": connected" first, no replay without a cursor, conversation_id on payloads, conversations changed', async () => {
    server = await start();
    const before = await createAndAsk(server, 'claude', 'run: ls');
    const s = await openSse(server, '/api/events/stream?streams=acp,stage&blocks=true');
    await waitFor('first bytes', () => s.raw.length > 0);
    assert.ok(s.raw.startsWith(': connected'), `first bytes: ${JSON.stringify(s.raw.slice(0, 20))}`);
    const bob = await openSse(server, '/api/events/stream', { key: server.apiKey2 });
    const after = await createAndAsk(server, 'gemini', 'run: ls');
    const m = await s.next(
      (x) => x.event === 'output' && payload(x).conversation_id === after.id,
      'live request of the new conversation',
    );
    assert.ok((payload(m).blocks as unknown[]).length > 0);
    assert.ok(
      !s.messages.some((x) => x.event !== 'conversations' && payload(x).conversation_id === before.id),
      'nothing replayed',
    );
    await s.next((x) => x.event === 'conversations', 'conversations event');
    const ch = s.messages.find((x) => x.event === 'conversations')!;
    assert.deepEqual(JSON.parse(ch.data), { reason: 'changed' });
    assert.equal(ch.id, undefined);
    assert.equal(bob.messages.filter((x) => x.event !== 'conversations').length, 0, 'another user sees none of it');
    s.close();
    bob.close();
  });

  it('account-wide stream: Last-Event-ID replays across all the user’s conversations, then goes live', async () => {
    server = await start();
    const a = await createAndAsk(server, 'claude', 'run: ls');
    const b = await createAndAsk(server, 'qwen', 'run: ls');
    const foreign = await api<{ data: { id: string } }>(server, 'POST', '/api/conversations', {
      key: server.apiKey2,
      body: { agent_id: 'claude', prompt: 'say: bob' },
    });
    assert.equal(foreign.status, 201);
    const s = await openSse(server, '/api/events/stream', { lastEventId: 0 });
    await s.next((m) => payload(m).conversation_id === b.id && m.event === 'output', 'replay of b');
    const convs = new Set(s.messages.filter((m) => m.event !== 'conversations').map((m) => payload(m).conversation_id));
    assert.ok(convs.has(a.id) && convs.has(b.id));
    assert.ok(!convs.has(foreign.body.data.id));
    assert.equal(
      (await api(server, 'POST', answerPath(a.id, a.requestId), { body: { option_id: 'allow' } })).status,
      200,
    );
    await s.next(
      (m) => payload(m).conversation_id === a.id && payload(m).stage === 'request' && payload(m).state === 'done',
      'live',
    );
    s.close();
  });

  it('heartbeats every heartbeatMs; stall stops all writing; abort cuts every stream mid-frame; drop ends one', async () => {
    server = await start({ heartbeatMs: 40 });
    const { id } = await createAndAsk(server, 'claude', 'run: ls');
    const s = await openSse(server, '/api/events/stream');
    await waitFor('two heartbeats', () => s.comments.filter((c) => c === 'heartbeat').length >= 2);
    server.stallStreams(true);
    await new Promise((r) => setTimeout(r, 30));
    const len = s.raw.length;
    assert.equal(server.createConversation({ agent_id: 'gemini', prompt: 'say: during the stall' }).status, 201);
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(s.raw.length, len, 'nothing written while stalled');
    server.stallStreams(false);
    await s.next((m) => m.event === 'output', 'held-back event after the stall');

    const c1 = await openSse(server, `/api/conversations/${id}/stream`);
    const c2 = await openSse(server, '/api/events/stream');
    await waitFor('three streams', () => server.hub.list().length === 3);
    const dropped = server.dropStream(undefined, 'abort');
    assert.equal(typeof dropped, 'number');
    assert.equal(await c2.ended, 'error');
    assert.equal(server.hub.list().length, 2);
    assert.equal(server.abortStreams(), 2);
    assert.equal(await c1.ended, 'error');
    assert.equal(await s.ended, 'error');
    assert.match(s.raw, /data: \{"kind":"outp$/, 'the last frame is cut in the middle');
  });

  it('replay by Last-Event-ID after a restart from the state file keeps event ids and open detached requests', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'fts-state-'));
    const stateFile = path.join(dir, 'state.jsonl');
    try {
      server = await start({ stateFile, workDir: path.join(dir, 'work') });
      const port = server.port;
      const apiKey = server.apiKey;
      const { id, requestId } = await createAndAsk(server, 'waiter', 'wait(7200): touch after-restart.txt');
      await waitEvent(server, id, isStage('turn', 'done'), 'waiting turn');
      const before = await events(server, id);
      const cursor = before[2].id;
      await server.close();

      server = await start({ stateFile, workDir: path.join(dir, 'work'), port });
      assert.equal(server.apiKey, apiKey, 'keys survive');
      const s = await openSse(server, `/api/conversations/${id}/stream?wait=false`, { lastEventId: cursor });
      await s.ended;
      assert.deepEqual(
        s.messages.map((m) => Number(m.id)),
        before.filter((e) => e.id > cursor).map((e) => e.id),
      );
      const acct = await openSse(server, '/api/events/stream', { lastEventId: cursor });
      await acct.next((m) => Number(m.id) === before[before.length - 1].id, 'account replay after restart');
      acct.close();
      const conv = await api<{ data: { pending_requests: { request_id: string }[] } }>(
        server,
        'GET',
        `/api/conversations/${id}`,
      );
      assert.deepEqual(
        conv.body.data.pending_requests.map((p) => p.request_id),
        [requestId],
      );
      // new events continue the sequence
      assert.equal(
        (await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status,
        200,
      );
      const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done after restart');
      assert.ok(done.id > before[before.length - 1].id);
      await waitFor('relaunched agent resumed', () =>
        server.agentPrompts(id).some((p) => p.includes('fountain/permission_answer')),
      );
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('in-process restart: soft keeps held in-turn requests, hard ends them turn_ended; clients reconnect with Last-Event-ID', async () => {
    server = await start();
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const s = await openSse(server, `/api/conversations/${id}/stream`);
    await s.next((m) => payload(m).stage === 'request', 'request/started');
    const last = Number(s.messages[s.messages.length - 1].id);
    await server.restart({ mode: 'soft' });
    assert.equal(await s.ended, 'error');
    assert.ok(server.engine.isHeld(id, requestId), 'soft restart keeps the turn');
    await server.restart({ mode: 'hard' });
    const r = await openSse(server, `/api/conversations/${id}/stream?wait=false`, { lastEventId: last });
    await r.ended;
    const kinds = r.messages.map((m) => `${String(payload(m).stage)}/${String(payload(m).state)}`);
    assert.deepEqual(kinds, ['request/done', 'turn/failed']);
    assert.equal((JSON.parse(payload(r.messages[0]).data as string) as { outcome: string }).outcome, 'turn_ended');
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });
});
