import * as assert from 'node:assert/strict';
import type { ConnectionState } from '../../../src/domain/model';
import type { EventSourceMessage } from 'eventsource-parser';
import { MemoryCursorStore, SseClient, backoffDelay, parseRetryAfter } from '../../../src/protocol/sseClient';
import { FakeFetch, FakeTimers, memoryLogger, settle } from './fakes';

function setup(fetch: FakeFetch, store = new MemoryCursorStore(), random = () => 0.5) {
  const timers = new FakeTimers();
  const logger = memoryLogger();
  const messages: EventSourceMessage[] = [];
  const states: ConnectionState[] = [];
  const client = new SseClient({
    url: 'https://f.example/api/events/stream?streams=acp,stage&blocks=true',
    key: 'ftn_live_secret_key',
    cursorStore: store,
    cursorScope: 'scope',
    env: { logger, timers, random, fetch: fetch.fetch },
    onMessage: (m) => {
      messages.push(m);
      return m.event === 'stage' && m.data.includes('"server"') ? 'reconnect' : undefined;
    },
  });
  client.onDidChangeState((s) => states.push(s));
  return { timers, logger, messages, states, client, store };
}

describe('protocol/sseClient', () => {
  describe('backoffDelay (full jitter)', () => {
    it('is random·min(cap, base·2^attempt), so it grows, is capped at 30 s and can be 0', () => {
      assert.equal(
        backoffDelay(0, () => 0.5),
        500,
      );
      assert.equal(
        backoffDelay(3, () => 0.5),
        4000,
      );
      assert.equal(
        backoffDelay(10, () => 0.999),
        29_970,
      );
      assert.equal(
        backoffDelay(50, () => 0.999),
        29_970,
      );
      assert.equal(
        backoffDelay(4, () => 0),
        0,
      );
      for (let a = 0; a < 12; a++) {
        for (const r of [0, 0.25, 0.75, 0.9999]) {
          const d = backoffDelay(a, () => r);
          assert.ok(d >= 0 && d < Math.min(30_000, 1000 * 2 ** a) + 1, `attempt ${a} r ${r}: ${d}`);
        }
      }
    });
    it('parses Retry-After seconds and HTTP dates, capping at an hour', () => {
      assert.equal(parseRetryAfter('7', 0), 7000);
      assert.equal(parseRetryAfter(new Date(60_000).toUTCString(), 0), 60_000);
      assert.equal(parseRetryAfter('999999', 0), 3_600_000);
      assert.equal(parseRetryAfter('soon', 0), undefined);
      assert.equal(parseRetryAfter(null, 0), undefined);
    });
  });

  it('trips the watchdog after 45 s without a complete frame; heartbeats keep it alive', async () => {
    const f = new FakeFetch().stream().stream();
    const { timers, client, states } = setup(f);
    void client.start();
    await settle();
    f.streams[0].push(': connected\n\n');
    for (let i = 0; i < 5; i++) {
      await timers.advance(15_000);
      f.streams[0].push(': heartbeat\n\n');
    }
    assert.equal(f.calls.length, 1, 'heartbeats every 15 s must not trip the watchdog');
    await timers.advance(44_000);
    assert.equal(f.calls.length, 1);
    await timers.advance(2_000);
    const backoff = states.find((s) => s.kind === 'backoff');
    assert.ok(
      backoff && backoff.kind === 'backoff' && backoff.reason === 'no complete frame for 45 s',
      JSON.stringify(states),
    );
    await timers.advance(30_000);
    assert.equal(f.calls.length, 2);
    client.dispose();
  });

  it('sends Last-Event-ID from the id: line only, persists it (debounced, flushed on drop) and resumes from it', async () => {
    const store = new MemoryCursorStore();
    const f = new FakeFetch().stream().stream();
    const { timers, client, messages } = setup(f, store);
    void client.start();
    await settle();
    assert.equal(f.header(0, 'Last-Event-ID'), undefined);
    f.streams[0].push('id: 5\nevent: output\ndata: {"id":99}\n\n');
    await settle();
    assert.equal(client.cursor, '5');
    assert.equal(store.get('scope'), undefined, 'not written before the debounce');
    await timers.advance(1000);
    assert.equal(store.get('scope'), '5');
    f.streams[0].push('event: stage\ndata: {"stage":"x"}\n\nid: 6\nevent: output\ndata: {}\n\n');
    f.streams[0].error(new Error('reset'));
    await settle();
    assert.equal(store.get('scope'), '6', 'flushed when the connection drops');
    await timers.advance(30_000);
    assert.equal(f.header(1, 'Last-Event-ID'), '6');
    assert.equal(messages.length, 3);
    client.dispose();
  });

  it('reads a stored cursor before the first connection', async () => {
    const store = new MemoryCursorStore();
    store.set('scope', '41');
    const f = new FakeFetch().stream();
    const { client } = setup(f, store);
    void client.start();
    await settle();
    assert.equal(f.header(0, 'Last-Event-ID'), '41');
    client.dispose();
  });

  it('stops for good on 401 and 403 and reports authFailed without retrying', async () => {
    for (const status of [401, 403]) {
      const f = new FakeFetch().respond(status, JSON.stringify({ error: 'nope', reason: 'api_key_revoked' }));
      const { timers, client, states, logger } = setup(f);
      await client.start();
      await timers.advance(600_000);
      assert.equal(f.calls.length, 1);
      assert.deepEqual(states.at(-1), { kind: 'authFailed', status, reason: 'api_key_revoked', message: 'nope' });
      assert.ok(!logger.lines.some((l) => l.includes('ftn_live_secret_key')));
      client.dispose();
    }
  });

  it('resets the backoff after a healthy period but keeps growing while failing', async () => {
    const f = new FakeFetch().respond(500, '').respond(500, '').stream().respond(500, '');
    const { timers, client, states } = setup(f, undefined, () => 0.99);
    void client.start();
    await timers.advance(1000); // 990 ms
    await timers.advance(2000); // 1980 ms
    assert.equal(f.calls.length, 3);
    f.streams[0].push(': connected\n\n');
    await timers.advance(31_000);
    f.streams[0].push(': heartbeat\n\n');
    f.streams[0].end();
    await settle();
    const waits = states.filter((s) => s.kind === 'backoff').map((s) => (s.kind === 'backoff' ? s.attempt : 0));
    assert.deepEqual(waits, [1, 2, 1], 'after a healthy connection the attempt count starts over');
    client.dispose();
  });

  it('reconnects when the handler asks (the synthetic server stage event)', async () => {
    const f = new FakeFetch().stream().stream();
    const { timers, client } = setup(f);
    void client.start();
    await settle();
    f.streams[0].push('id: 3\nevent: output\ndata: {}\n\nevent: stage\ndata: {"stage":"server","state":"done"}\n\n');
    await timers.advance(1000);
    assert.equal(f.calls.length, 2);
    assert.equal(f.header(1, 'Last-Event-ID'), '3');
    client.dispose();
  });

  it('stops on dispose and on an aborted signal', async () => {
    const f = new FakeFetch().stream();
    const { client, states } = setup(f);
    const done = client.start();
    await settle();
    client.dispose();
    await done;
    assert.equal(states.at(-1)?.kind, 'stopped');
  });
});
