import { strict as assert } from 'node:assert';
import { performance } from 'node:perf_hooks';
import type { RunningServer } from './server';
import { api, control, openSse } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';

type InFlight = { max: number; current: number };

describe('test server: response latency and requests in flight (benchmark knobs)', function () {
  let server: RunningServer;
  afterEach(async () => {
    await server?.close();
  });

  it('delays API responses by the set latency; the control API and SSE streams answer while an API call waits', async () => {
    server = await start({ latencyMs: 150 });
    assert.equal(server.latencyMs, 150);
    let t0 = performance.now();
    assert.equal((await api(server, 'GET', '/api/auth/me')).status, 200);
    assert.ok(performance.now() - t0 >= 149, `answered after ${performance.now() - t0} ms`);

    const set = await control(server, 'POST', '/latency', { ms: 1500 });
    assert.deepEqual(set.body, { latency_ms: 1500 });
    assert.equal((await control(server, 'POST', '/latency', { ms: -1 })).status, 422);
    assert.equal((await control(server, 'POST', '/latency', { ms: '5' })).status, 422);
    assert.equal(server.latencyMs, 1500);

    // Order, not speed: a delayed API call is overtaken by a control call and an SSE stream sent after it.
    const order: string[] = [];
    t0 = performance.now();
    const slow = api(server, 'GET', '/api/conversations').then((r) => {
      order.push('api');
      return r;
    });
    const inflight = await control<InFlight>(server, 'GET', '/inflight');
    order.push('control');
    const sse = await openSse(server, '/api/events/stream');
    order.push('sse');
    assert.equal(sse.status, 200);
    sse.close();
    assert.equal((await slow).status, 200);
    assert.ok(performance.now() - t0 >= 1499, `answered after ${performance.now() - t0} ms`);
    assert.deepEqual(order, ['control', 'sse', 'api']);
    assert.equal(inflight.body.current, 1, 'the delayed call was in flight when control answered');
  });

  it('counts API requests in flight (max and current, with a reset); SSE streams and control calls are not counted', async () => {
    server = await start({ latencyMs: 300 });
    const sse = await openSse(server, '/api/events/stream');
    assert.deepEqual(server.inFlight(), { max: 0, current: 0 }, 'an open stream is not in flight');

    const calls = Array.from({ length: 6 }, () => api(server, 'GET', '/api/conversations'));
    await waitFor(
      'six calls in flight',
      async () => (await control<InFlight>(server, 'GET', '/inflight')).body.current === 6,
    );
    assert.ok((await Promise.all(calls)).every((r) => r.status === 200));
    await waitFor('nothing in flight', () => server.inFlight().current === 0);
    assert.deepEqual((await control<InFlight>(server, 'GET', '/inflight')).body, { max: 6, current: 0 });

    assert.deepEqual((await control<InFlight>(server, 'POST', '/inflight/reset')).body, { max: 0, current: 0 });
    server.setLatency(20);
    for (let i = 0; i < 3; i++) {
      assert.equal((await api(server, 'GET', '/api/agents')).status, 200);
    }
    await waitFor('nothing in flight', () => server.inFlight().current === 0);
    assert.deepEqual(server.inFlight(), { max: 1, current: 0 }, 'one at a time');

    sse.close();
  });
});
