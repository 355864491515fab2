import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { RunningServer } from './server';
import { answerPath, api, createAndAsk, events, isStage, stageData, waitEvent } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';

describe('test server: the answer route (in-turn requests)', function () {
  let server: RunningServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers a held request: 200 {ok:true}, request/done answered, the agent runs the tool and ends the turn', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: touch made-by-allow.txt');
    assert.match(requestId, /^0\.[0-9a-f]{16}$/);
    const started = await waitEvent(server, id, isStage('request', 'started'), 'request/started');
    const sd = stageData(started);
    assert.equal(sd.request_id, requestId);
    assert.equal(sd.timeout_ms, 300_000);
    assert.equal(started.turn_id, null);
    const r = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { ok: true });
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done');
    assert.deepEqual(stageData(done), { request_id: requestId, outcome: 'answered', option_id: 'allow' });
    const turnDone = await waitEvent(server, id, isStage('turn', 'done'), 'turn/done');
    assert.equal(stageData(turnDone).stop_reason, 'end_turn');
    assert.ok(existsSync(path.join(server.cwdOf(id)!, 'made-by-allow.txt')), 'the allowed command had its effect');
  });

  it('a reject answer is delivered: the tool does not run', async () => {
    const { id, requestId } = await createAndAsk(server, 'gemini', 'run: touch must-not-exist.txt');
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'cancel' } })).status, 200);
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done');
    assert.ok(!existsSync(path.join(server.cwdOf(id)!, 'must-not-exist.txt')));
  });

  it('first answer wins under two concurrent answers: exactly one 200, the other 409 permission_request_resolved', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: touch once.txt');
    const [a, b] = await Promise.all([
      api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } }),
      api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'reject' } }),
    ]);
    const statuses = [a.status, b.status].sort();
    assert.deepEqual(statuses, [200, 409]);
    const loser = a.status === 409 ? a : b;
    assert.equal(loser.body.error, 'permission_request_resolved');
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done');
    const dones = (await events(server, id)).filter(isStage('request', 'done'));
    assert.equal(dones.length, 1, 'one resolution only');
    const winner = a.status === 200 ? 'allow' : 'reject';
    assert.equal(stageData(dones[0]).option_id, winner);
  });

  it('the control log records every answer with its status and body (the UI tests count answers with it)', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: touch logged.txt');
    await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'reject' } });
    const res = await fetch(`${server.controlUrl}/log`, { headers: { 'x-control-token': server.controlToken } });
    const log = ((await res.json()) as { data: { method: string; path: string; status: number; body?: unknown }[] })
      .data;
    const answers = log.filter((e) => e.method === 'POST' && e.path === answerPath(id, requestId));
    assert.deepEqual(
      answers.map((e) => [e.status, e.body]),
      [
        [200, { option_id: 'allow' }],
        [409, { option_id: 'reject' }],
      ],
    );
    assert.ok(!log.some((e) => e.path.startsWith('/_control')), 'control calls are not logged');
  });

  it('sprite key gets 403 sprite_may_not_answer, before the lookup (even for a conversation that does not exist)', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const sprite = server.spriteKey(id)!;
    assert.ok(sprite);
    const r = await api(server, 'POST', answerPath(id, requestId), { key: sprite, body: { option_id: 'allow' } });
    assert.equal(r.status, 403);
    assert.deepEqual(r.body, { error: 'sprite_may_not_answer' });
    const missing = await api(server, 'POST', answerPath('00000000-0000-4000-8000-000000000000', '0.x'), {
      key: sprite,
      body: { option_id: 'allow' },
    });
    assert.equal(missing.status, 403);
    assert.ok(server.engine.isHeld(id, requestId), 'still held');
  });

  it('404 for a foreign, missing or malformed conversation', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const foreign = await api(server, 'POST', answerPath(id, requestId), {
      key: server.apiKey2,
      body: { option_id: 'allow' },
    });
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, { error: 'not_found' });
    assert.equal(
      (await api(server, 'POST', answerPath('nope', requestId), { body: { option_id: 'allow' } })).status,
      404,
    );
    assert.equal(
      (
        await api(server, 'POST', answerPath('00000000-0000-4000-8000-000000000000', requestId), {
          body: { option_id: 'allow' },
        })
      ).status,
      404,
    );
    assert.ok(server.engine.isHeld(id, requestId));
  });

  it('406 for a non-JSON Accept', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const r = await api(server, 'POST', answerPath(id, requestId), {
      body: { option_id: 'allow' },
      headers: { accept: 'text/html' },
    });
    assert.equal(r.status, 406);
    assert.deepEqual(r.body, { errors: { detail: 'Not Acceptable' } });
  });

  it('422 unknown_option, option_id_required and validation_failed leave the request held', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const unknown = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'proceed_once' } });
    assert.equal(unknown.status, 422);
    assert.deepEqual(unknown.body, { error: 'unknown_option', message: 'option_id was not offered for this request' });
    const empty = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: '' } });
    assert.equal(empty.status, 422);
    assert.equal(empty.body.error, 'option_id_required');
    const missing = await api(server, 'POST', answerPath(id, requestId), { body: {} });
    assert.equal(missing.status, 422);
    assert.equal(missing.body.error, 'validation_failed');
    assert.ok(server.engine.isHeld(id, requestId));
  });

  it('409 for an unknown request id and after the answer', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const unknown = await api(server, 'POST', answerPath(id, '0.0000000000000000'), { body: { option_id: 'allow' } });
    assert.equal(unknown.status, 409);
    assert.equal(unknown.body.error, 'permission_request_resolved');
    // the bare JSON-RPC id (what the agent numbered it) is not the request id
    assert.equal((await api(server, 'POST', answerPath(id, '0'), { body: { option_id: 'allow' } })).status, 409);
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });

  it('429 with Retry-After from the fault knob, then the route works again', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    server.failNext({ route: 'answer', status: 429, retryAfter: 7, count: 1 });
    const r = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(r.status, 429);
    assert.equal(r.headers.get('retry-after'), '7');
    assert.ok(server.engine.isHeld(id, requestId), 'a refused answer changes nothing');
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
  });

  it('in-turn timeout after the ceiling (clock-driven): outcome timeout, option_id null, the agent is denied', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: touch late.txt');
    server.advance(299_000);
    assert.ok(server.engine.isHeld(id, requestId), 'not before the ceiling');
    server.advance(1_000);
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done');
    assert.deepEqual(stageData(done), { request_id: requestId, outcome: 'timeout', option_id: null });
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done');
    assert.ok(!existsSync(path.join(server.cwdOf(id)!, 'late.txt')));
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });

  it('a turn that ends while a request is held resolves it turn_ended (interrupt)', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const r = await api(server, 'POST', `/api/conversations/${id}/interrupt`, { body: {} });
    assert.equal(r.status, 200);
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done');
    assert.equal(stageData(done).outcome, 'turn_ended');
    const turn = await waitEvent(
      server,
      id,
      (e) => e.stage === 'turn' && e.state === 'interrupted',
      'turn/interrupted',
    );
    assert.equal(stageData(turn).stop_reason, 'cancelled');
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });

  it('auto verdicts are answered at once without a request event (agent policy auto_allow, launch auto_deny on a title)', async () => {
    assert.equal(
      (await api(server, 'PATCH', '/api/agents/gemini', { body: { permission_policy: { default: 'auto_allow' } } }))
        .status,
      200,
    );
    const c = await api<{ data: { id: string } }>(server, 'POST', '/api/conversations', {
      body: {
        agent_id: 'gemini',
        prompt: 'run: touch auto.txt\nrun: touch denied.txt',
        permission_policy: { 'touch denied.txt': 'auto_deny' },
      },
    });
    assert.equal(c.status, 201);
    const id = c.body.data.id;
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done');
    const evs = await events(server, id);
    assert.ok(!evs.some(isStage('request', 'started')));
    assert.ok(existsSync(path.join(server.cwdOf(id)!, 'auto.txt')));
    assert.ok(!existsSync(path.join(server.cwdOf(id)!, 'denied.txt')));
  });

  it('a policy change applies to a running conversation at once', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: touch first.txt\nrun: touch second.txt');
    assert.equal(
      (await api(server, 'PATCH', '/api/agents/claude', { body: { permission_policy: { default: 'auto_allow' } } }))
        .status,
      200,
    );
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done');
    assert.ok(existsSync(path.join(server.cwdOf(id)!, 'second.txt')), 'the second tool ran without asking');
    assert.equal((await events(server, id)).filter(isStage('request', 'started')).length, 1);
  });

  it('a request while a turn is held keeps being held until answered (waitFor is bounded)', async () => {
    const { id, requestId } = await createAndAsk(server, 'codex', 'run: git status');
    assert.ok(/^[0-9a-f-]{36}\.[0-9a-f]{16}$/.test(requestId), 'codex numbers its requests with UUIDs');
    await waitFor('held', () => server.engine.isHeld(id, requestId));
    assert.equal(
      (await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow_once' } })).status,
      200,
    );
  });
});
