import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { RunningServer } from './server';
import {
  answerPath,
  api,
  createAndAsk,
  events,
  isStage,
  stageData,
  waitEvent,
  type LogEvent,
} from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';

interface Pending {
  request_id: string;
  tool: string;
  options: Record<string, unknown>[];
  asked_at: string;
  deadline: string;
  turn_id: string;
}

async function pending(server: RunningServer, id: string): Promise<Pending[]> {
  const r = await api<{ data: { pending_requests: Pending[]; status: string } }>(
    server,
    'GET',
    `/api/conversations/${id}`,
  );
  assert.equal(r.status, 200);
  return r.body.data.pending_requests;
}

/** A conversation whose first turn ended `waiting` holding one detached request. */
async function waiting(server: RunningServer, prompt = 'wait(3600): touch detached.txt', agent = 'waiter') {
  const asked = await createAndAsk(server, agent, prompt);
  const turnDone = await waitEvent(server, asked.id, isStage('turn', 'done'), 'turn/done waiting');
  await waitFor(
    'idle',
    async () =>
      (await api<{ data: { status: string } }>(server, 'GET', `/api/conversations/${asked.id}`)).body.data.status ===
      'idle',
  );
  return { ...asked, turnDone };
}

const resumePrompts = (server: RunningServer, id: string) =>
  server.agentPrompts(id).filter((p) => p.startsWith('{"fountain/permission_answer"'));

describe('test server: detached requests', function () {
  let server: RunningServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('end to end: waiting turn → pending_requests → answer → resume prompt reaches the agent → request/done', async () => {
    const t0 = server.clock.now();
    const { id, requestId, turnDone } = await waiting(server);
    const d = stageData(turnDone);
    assert.equal(d.stop_reason, 'waiting');
    assert.equal(d.waiting, true);
    assert.equal(d.waiting_request_id, requestId);
    assert.equal(d.request_id, undefined, 'no bare request_id on the turn event');
    // _meta.fountain.timeout 3600 vs the waiter's ask_timeout 259200: the shorter wins, truncated to seconds
    assert.equal(d.waiting_deadline, new Date(Math.floor((t0 + 3600_000) / 1000) * 1000).toISOString());

    const p = await pending(server, id);
    assert.equal(p.length, 1);
    assert.equal(p[0].request_id, requestId);
    assert.equal(p[0].tool, 'touch detached.txt');
    assert.deepEqual(
      p[0].options.map((o) => o.optionId),
      ['allow', 'reject'],
    );
    assert.equal(p[0].deadline, d.waiting_deadline);
    assert.equal(p[0].turn_id, turnDone.turn_id);
    assert.equal('summary' in p[0], false);

    const list = await api<{ data: { id: string; pending_requests: unknown[] }[] }>(
      server,
      'GET',
      '/api/conversations',
    );
    assert.deepEqual(
      list.body.data.find((c) => c.id === id)!.pending_requests,
      [],
      'the list never carries pending requests',
    );
    const turns = await api<{ data: { waiting: boolean }[] }>(server, 'GET', `/api/conversations/${id}/turns`);
    assert.equal(turns.body.data[0].waiting, true);

    const r = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { ok: true });
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done');
    assert.deepEqual(stageData(done), {
      request_id: requestId,
      outcome: 'answered',
      option_id: 'allow',
      detached: true,
    });
    await waitFor(
      'resume turn done',
      async () => (await events(server, id)).filter(isStage('turn', 'done')).length === 2,
    );
    const prompts = resumePrompts(server, id);
    assert.equal(prompts.length, 1);
    const line = JSON.parse(prompts[0]) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(line), ['fountain/permission_answer']);
    assert.deepEqual(Object.keys(line['fountain/permission_answer']), [
      'request_id',
      'tool',
      'outcome',
      'option_id',
      'answered_at',
    ]);
    assert.equal(line['fountain/permission_answer'].request_id, requestId);
    assert.equal(line['fountain/permission_answer'].outcome, 'answered');
    assert.equal(line['fountain/permission_answer'].option_id, 'allow');
    assert.ok(!prompts[0].includes('\n'));
    const turns2 = await api<{ data: { prompt: string; origin: string }[] }>(
      server,
      'GET',
      `/api/conversations/${id}/turns`,
    );
    assert.equal(turns2.body.data[1].prompt, prompts[0]);
    assert.equal(turns2.body.data[1].origin, 'user');
    assert.ok(existsSync(path.join(server.cwdOf(id)!, 'detached.txt')), 'the agent acted on the answer');
    assert.deepEqual(await pending(server, id), []);
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });

  it('422 unknown_option comes before the resume gate; 400 conversation_busy while a turn runs leaves it open', async () => {
    const { id, requestId } = await waiting(server);
    const bad = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow_always' } });
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error, 'unknown_option');
    server.sendPrompt(id, 'sleep: 400');
    await waitFor(
      'running',
      async () =>
        (await api<{ data: { status: string } }>(server, 'GET', `/api/conversations/${id}`)).body.data.status ===
        'running',
    );
    const busy = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(busy.status, 400);
    assert.deepEqual(busy.body, { error: 'conversation_busy' });
    assert.equal((await pending(server, id)).length, 1, 'left open');
    await waitFor(
      'idle again',
      async () =>
        (await api<{ data: { status: string } }>(server, 'GET', `/api/conversations/${id}`)).body.data.status ===
        'idle',
    );
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'reject' } })).status, 200);
  });

  it('403 account_suspended and 402 insufficient_credits leave the request open', async () => {
    const { id, requestId } = await waiting(server);
    server.setAccount('alice', { suspended: true });
    const s = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(s.status, 403);
    assert.equal(s.body.error, 'account_suspended');
    server.setAccount('alice', { suspended: false, no_credits: true });
    const c = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(c.status, 402);
    assert.equal(c.body.error, 'insufficient_credits');
    assert.equal(c.body.upgrade_url, '/account/billing');
    assert.equal((await pending(server, id)).length, 1);
    server.setAccount('alice', { no_credits: false });
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
  });

  it('409 permission_answer_not_delivered when the resume turn cannot open: the answer is still recorded', async () => {
    const { id, requestId } = await waiting(server);
    server.failResumes(1);
    const r = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    assert.equal(r.status, 409);
    assert.equal(r.body.error, 'permission_answer_not_delivered');
    assert.equal(typeof r.body.message, 'string');
    assert.deepEqual(await pending(server, id), []);
    const done = (await events(server, id)).find(isStage('request', 'done'))!;
    assert.equal(stageData(done).outcome, 'answered');
    assert.equal(resumePrompts(server, id).length, 0);
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });

  it('the sweep expires a due request with the agent’s own reject option and resumes the agent with outcome timeout', async () => {
    const { id, requestId } = await waiting(server, 'wait(90): touch never.txt');
    server.advance(60_000);
    assert.equal((await pending(server, id)).length, 1, 'not due at the first sweep');
    server.advance(60_000);
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done');
    assert.deepEqual(stageData(done), {
      request_id: requestId,
      outcome: 'timeout',
      option_id: 'reject',
      detached: true,
    });
    await waitFor('resume prompt', () => resumePrompts(server, id).length === 1);
    const a = (JSON.parse(resumePrompts(server, id)[0]) as Record<string, Record<string, unknown>>)[
      'fountain/permission_answer'
    ];
    assert.equal(a.outcome, 'timeout');
    assert.equal(a.option_id, 'reject');
    await waitFor(
      'resume turn done',
      async () => (await events(server, id)).filter(isStage('turn', 'done')).length === 2,
    );
    assert.ok(!existsSync(path.join(server.cwdOf(id)!, 'never.txt')));
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 409);
  });

  it('the sweep retries a busy conversation at the next minute', async () => {
    const { id, requestId } = await waiting(server, 'wait(30): touch x.txt');
    server.sendPrompt(id, 'sleep: 300');
    await waitFor(
      'running',
      async () =>
        (await api<{ data: { status: string } }>(server, 'GET', `/api/conversations/${id}`)).body.data.status ===
        'running',
    );
    server.advance(60_000);
    assert.equal((await pending(server, id)).length, 1, 'busy: left for the next sweep');
    await waitFor(
      'idle',
      async () =>
        (await api<{ data: { status: string } }>(server, 'GET', `/api/conversations/${id}`)).body.data.status ===
        'idle',
    );
    server.advance(60_000);
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done');
    assert.equal(stageData(done).request_id, requestId);
  });

  it('without _meta.fountain.timeout the deadline is the policy ask_timeout; with neither, the ceiling', async () => {
    const t0 = server.clock.now();
    const a = await waiting(server, 'wait(none): touch a.txt');
    assert.equal(
      stageData(a.turnDone).waiting_deadline,
      new Date(Math.floor((t0 + 259_200_000) / 1000) * 1000).toISOString(),
    );
    // the claude agent has no ask_timeout: a detached request with no meta gets the 300 s ceiling
    const b = await waiting(server, 'wait(none): touch b.txt', 'claude');
    const deadline = Date.parse(stageData(b.turnDone).waiting_deadline as string);
    assert.ok(deadline <= server.clock.now() + 300_000 && deadline > server.clock.now() + 298_000);
  });

  it('a detached request from a codex-style agent (UUID JSON-RPC id, no title) keeps its shape', async () => {
    const { id, requestId, turnDone } = await waiting(server, 'wait(600): git push', 'codex');
    assert.match(requestId, /^[0-9a-f-]{36}\.[0-9a-f]{16}$/);
    const p = await pending(server, id);
    assert.equal(p[0].tool, 'execute', 'no title: the tool is the kind');
    assert.ok(
      p[0].options.every((o) => typeof o._meta === 'object'),
      'extra option fields kept verbatim',
    );
    assert.equal(stageData(turnDone).waiting_request_id, requestId);
    const evs: LogEvent[] = await events(server, id);
    assert.ok(evs.some(isStage('request', 'started')));
  });
});
