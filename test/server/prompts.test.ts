import { strict as assert } from 'node:assert';
import type { RunningServer } from './server';
import { answerPath, api, control, createAndAsk, events, isStage } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';

type Turn = { turn_number: number; prompt: string; client_request_id: string | null; status: string };

const turnsOf = async (server: RunningServer, id: string) =>
  (await api<{ data: Turn[] }>(server, 'GET', `/api/conversations/${id}/turns`)).body.data.map(
    (t) => [t.turn_number, t.prompt, t.client_request_id] as const,
  );

const post = (server: RunningServer, id: string, body: Record<string, unknown>) =>
  api(server, 'POST', `/api/conversations/${id}/prompts`, { body });

/** Lets the server run whatever a duplicate could have started (a turn opens synchronously on a POST). */
const settle = () => new Promise((res) => setTimeout(res, 100));

describe('test server: POST .../prompts dedupes by client_request_id; a dropped response', function () {
  let server: RunningServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(async () => {
    await server.close();
  });

  it('a retry with the same client_request_id (queued behind a turn, or its turn already run) answers the same and queues nothing', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    const first = await post(server, id, { prompt: 'say: second', client_request_id: 'cr-1' });
    const again = await post(server, id, { prompt: 'say: second', client_request_id: 'cr-1' });
    assert.deepEqual([again.status, again.body], [first.status, first.body]);
    assert.deepEqual(first.body, { status: 'queued' });
    await post(server, id, { prompt: 'say: third', client_request_id: 'cr-2' });
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
    await waitFor(
      'three turns done',
      async () => (await events(server, id)).filter(isStage('turn', 'done')).length === 3,
    );
    // Its turn has run: the same id again (even with other text) is still the same prompt.
    const late = await post(server, id, { prompt: 'say: something else', client_request_id: 'cr-1' });
    assert.deepEqual([late.status, late.body], [first.status, first.body]);
    await settle();
    assert.deepEqual(await turnsOf(server, id), [
      [1, 'run: ls', null],
      [2, 'say: second', 'cr-1'],
      [3, 'say: third', 'cr-2'],
    ]);
  });

  it('prompts without a client_request_id are never merged; the same id in another conversation is its own', async () => {
    const a = await createAndAsk(server, 'claude', 'run: ls');
    const b = await createAndAsk(server, 'claude', 'run: ls');
    await post(server, a.id, { prompt: 'say: one' });
    await post(server, a.id, { prompt: 'say: one' });
    await post(server, a.id, { prompt: 'say: mine', client_request_id: 'cr-same' });
    await post(server, b.id, { prompt: 'say: mine', client_request_id: 'cr-same' });
    for (const c of [a, b]) {
      await api(server, 'POST', answerPath(c.id, c.requestId), { body: { option_id: 'allow' } });
    }
    await waitFor('a: four turns', async () => (await turnsOf(server, a.id)).length === 4);
    await waitFor('b: two turns', async () => (await turnsOf(server, b.id)).length === 2);
    assert.deepEqual(
      (await turnsOf(server, a.id)).map((t) => t[1]),
      ['run: ls', 'say: one', 'say: one', 'say: mine'],
    );
    assert.deepEqual(
      (await turnsOf(server, b.id)).map((t) => t[2]),
      [null, 'cr-same'],
    );
  });

  it('POST /_control/drop-response: the route runs, the connection closes without an answer, the log says status 0', async () => {
    const { id } = await createAndAsk(server, 'claude', 'run: ls');
    const bad = await control(server, 'POST', '/drop-response', { route: 'prompts', count: 0 });
    assert.equal(bad.status, 422);
    assert.equal((await control(server, 'POST', '/drop-response', { route: 'prompts' })).status, 200);
    await assert.rejects(post(server, id, { prompt: 'say: lost', client_request_id: 'cr-lost' }));
    // Used up: the retry is answered, and it is the same prompt.
    const retry = await post(server, id, { prompt: 'say: lost', client_request_id: 'cr-lost' });
    assert.deepEqual([retry.status, retry.body], [202, { status: 'queued' }]);
    const log = (await control<{ data: { path: string; status: number }[] }>(server, 'GET', '/log')).body.data;
    assert.deepEqual(
      log.filter((e) => e.path.endsWith('/prompts')).map((e) => e.status),
      [0, 202],
    );
    const state = await control<{ held: string[] }>(server, 'GET', `/conversations/${id}`);
    await api(server, 'POST', answerPath(id, state.body.held[0]), { body: { option_id: 'allow' } });
    await waitFor('two turns', async () => (await turnsOf(server, id)).length === 2);
    await settle();
    assert.deepEqual(
      (await turnsOf(server, id)).map((t) => t[2]),
      [null, 'cr-lost'],
    );
  });

  it('dropQueuedPrompts (the soak load is over): the prompts waiting behind a turn never run, the running turn goes on', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    await post(server, id, { prompt: 'say: queued one' });
    await post(server, id, { prompt: 'say: queued two' });
    assert.equal(server.dropQueuedPrompts(), 2);
    assert.equal(server.dropQueuedPrompts(), 0);
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status, 200);
    await waitFor('the running turn done', async () => (await events(server, id)).some(isStage('turn', 'done')));
    await settle();
    assert.deepEqual(await turnsOf(server, id), [[1, 'run: ls', null]]);
  });
});
