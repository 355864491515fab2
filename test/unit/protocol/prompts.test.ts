import * as assert from 'node:assert/strict';
import { PromptClient, newClientRequestId, type PromptResult } from '../../../src/protocol/prompts';
import { FakeFetch, FakeTimers, memoryLogger } from './fakes';

const SERVER = 'http://127.0.0.1:9';
const KEY = 'ftn_live_secret_key';

function setup(maxAttempts = 4) {
  const fetch = new FakeFetch();
  const timers = new FakeTimers();
  const logger = memoryLogger();
  const client = new PromptClient({
    server: SERVER,
    key: KEY,
    env: { logger, timers, random: () => 0.5, fetch: fetch.fetch },
    maxAttempts,
  });
  return { fetch, timers, logger, client };
}

/** Runs `send` while advancing the fake clock until it settles. */
async function sendAll(s: ReturnType<typeof setup>, id = 'cr-1'): Promise<PromptResult> {
  let done: PromptResult | undefined;
  const p = s.client.send('conv 1', 'Use the staging database instead.', id).then((r) => (done = r));
  for (let i = 0; i < 200 && done === undefined; i++) {
    await s.timers.advance(1000);
  }
  return p;
}

const bodies = (f: FakeFetch) =>
  f.calls.map((c) =>
    `${c.init?.method} ${c.url.slice(SERVER.length)} ${typeof c.init?.body === 'string' ? c.init.body : ''}`.trim(),
  );

describe('prompts route client', () => {
  it('posts {prompt, client_request_id} once and reads {status: "queued"}', async () => {
    const s = setup();
    s.fetch.respond(202, JSON.stringify({ status: 'queued' }));
    assert.deepEqual(await sendAll(s), { kind: 'queued', attempts: 1 });
    assert.deepEqual(bodies(s.fetch), [
      'POST /api/conversations/conv%201/prompts {"prompt":"Use the staging database instead.","client_request_id":"cr-1"}',
    ]);
    assert.equal(s.fetch.header(0, 'Authorization'), `Bearer ${KEY}`);
  });

  it('a 503 with Retry-After is waited for and retried with the same client_request_id', async () => {
    const s = setup();
    s.fetch.respond(503, JSON.stringify({ error: 'sandbox_unavailable' }), { 'Retry-After': '5' });
    s.fetch.respond(429, JSON.stringify({ error: 'rate_limited' }), { 'Retry-After': '2' });
    s.fetch.respond(200, JSON.stringify({ status: 'queued', client_request_id: 'cr-1' }));
    const started = s.timers.now();
    assert.deepEqual(await sendAll(s), { kind: 'queued', attempts: 3 });
    assert.equal(s.fetch.calls.length, 3);
    assert.ok(
      s.fetch.calls.every(
        (c) => typeof c.init?.body === 'string' && c.init.body.includes('"client_request_id":"cr-1"'),
      ),
    );
    assert.ok(s.timers.now() - started >= 7000, 'both Retry-After waits were honoured');
  });

  it('a lost response is not re-sent when the turns show our client_request_id', async () => {
    const s = setup();
    let first = true;
    const fetch = (url: string, init?: RequestInit) => {
      if (first) {
        first = false;
        s.fetch.calls.push({ url, init });
        return Promise.reject(new TypeError('fetch failed'));
      }
      return s.fetch.fetch(url, init);
    };
    s.fetch.respond(200, JSON.stringify({ data: [{ turn_number: 2, client_request_id: 'cr-1' }] }));
    const c = new PromptClient({
      server: SERVER,
      key: KEY,
      env: { logger: s.logger, timers: s.timers, random: () => 0.5, fetch },
    });
    assert.deepEqual(await c.send('c', 'why', 'cr-1'), { kind: 'queued', attempts: 1 });
    assert.deepEqual(
      s.fetch.calls.map((x) => `${x.init?.method} ${x.url.slice(SERVER.length)}`),
      ['POST /api/conversations/c/prompts', 'GET /api/conversations/c/turns'],
    );
  });

  it('a lost response whose turn is not there is sent again, with the same id', async () => {
    const s = setup();
    const real = s.fetch.fetch;
    let first = true; // the first POST gets no response
    const fetch = (url: string, init?: RequestInit) => {
      if (first) {
        first = false;
        s.fetch.calls.push({ url, init });
        return Promise.reject(new TypeError('socket hang up'));
      }
      return real(url, init);
    };
    s.fetch.respond(200, JSON.stringify({ data: [{ turn_number: 1, client_request_id: null }] }));
    s.fetch.respond(202, JSON.stringify({ status: 'queued' }));
    const c = new PromptClient({
      server: SERVER,
      key: KEY,
      env: { logger: s.logger, timers: s.timers, random: () => 0.5, fetch },
    });
    let r: PromptResult | undefined;
    const p = c.send('c', 'why', 'cr-9').then((x) => (r = x));
    for (let i = 0; i < 50 && !r; i++) {
      await s.timers.advance(1000);
    }
    await p;
    assert.deepEqual(r, { kind: 'queued', attempts: 2 });
    const posts = s.fetch.calls.filter((x) => x.init?.method === 'POST');
    assert.equal(posts.length, 2);
    assert.ok(posts.every((x) => (x.init?.body as string).includes('"client_request_id":"cr-9"')));
  });

  it('a 4xx is a refusal, never retried; a 401 is auth; the key never reaches a message', async () => {
    const s = setup();
    s.fetch.respond(410, JSON.stringify({ error: 'gone', message: `ended (${KEY})` }));
    const r = await sendAll(s);
    assert.equal(r.kind, 'refused');
    assert.equal(s.fetch.calls.length, 1);
    assert.ok(!JSON.stringify(r).includes(KEY));
    const a = setup();
    a.fetch.respond(401, JSON.stringify({ error: 'This API key was revoked.', reason: 'api_key_revoked' }));
    assert.equal((await sendAll(a)).kind, 'auth');
  });

  it('gives up after the attempts, saying the last status and Retry-After', async () => {
    const s = setup(2);
    s.fetch.respond(503, '{}', { 'Retry-After': '1' });
    s.fetch.respond(503, JSON.stringify({ error: 'provisioning' }), { 'Retry-After': '30' });
    const r = await sendAll(s);
    assert.deepEqual(r, {
      kind: 'gaveUp',
      attempts: 2,
      status: 503,
      code: 'provisioning',
      retryAfterSec: 30,
      message: 'HTTP 503',
    });
    assert.equal(s.fetch.calls.length, 2);
  });

  it('client request ids are fresh each time', () => {
    assert.notEqual(newClientRequestId(), newClientRequestId());
    assert.match(newClientRequestId(), /^[0-9a-f-]{36}$/);
  });
});
