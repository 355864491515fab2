/**
 * The sandboxed agent's network proxy (src/local/network/proxy.ts, issue 28) over its real Unix socket, with scripted
 * bytes from a raw client and real loopback upstreams that count what reached them: CONNECT tunnels and plain HTTP
 * forwarding, refusals that reach nothing, one resolution per attempt and a connect only to the verdict's address,
 * the decider's signal when the agent gives up, hostile input that gets a 400 and leaves the proxy serving, and
 * close() ending everything.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConnectAttempt, ConnectionRecord, HostDecider, HostVerdict } from '../../src/local/network/contract';
import { BLOCKED_HEADER } from '../../src/local/network/contract';
import { startHostProxy, type HostProxy } from '../../src/local/network/proxy';
import { echo, httpAnswer, RawClient, startUpstream, type Upstream } from '../support/proxyPeers';
import { waitFor } from '../support/wait';

const allowTo =
  (address = '127.0.0.1', rule = 'test: allowed'): HostDecider =>
  async () =>
    Promise.resolve<HostVerdict>({ allow: true, rule, address });

const settle = () => new Promise((r) => setTimeout(r, 150));

describe('conformance: the network proxy over its Unix socket (scripted bytes, loopback upstreams)', function () {
  this.timeout(20_000);
  let dir: string;
  let proxy: HostProxy | undefined;
  let upstreams: Upstream[];
  let attempts: ConnectAttempt[];
  let records: ConnectionRecord[];
  let resolved: string[];

  /** A proxy whose decider is `decide` (each attempt kept in `attempts`); names resolve through `resolve`. */
  async function start(decide: HostDecider, resolve?: (host: string) => Promise<string[]>): Promise<string> {
    proxy = await startHostProxy({
      socketPath: path.join(dir, 'proxy.sock'),
      decide: (a, signal) => {
        attempts.push(a);
        return decide(a, signal);
      },
      onRecord: (r) => records.push(r),
      resolve: async (host) => {
        resolved.push(host);
        return resolve ? resolve(host) : ['127.0.0.1'];
      },
    });
    return proxy.socketPath;
  }

  async function upstream(on: Parameters<typeof startUpstream>[0]): Promise<Upstream> {
    const up = await startUpstream(on);
    upstreams.push(up);
    return up;
  }

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-proxy-'));
    upstreams = [];
    attempts = [];
    records = [];
    resolved = [];
  });
  afterEach(async () => {
    await proxy?.close();
    proxy = undefined;
    await Promise.all(upstreams.map((u) => u.close()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('listens on a socket only this user can open, in a private folder, and refuses a folder others can open', async () => {
    const sock = await start(allowTo());
    assert.equal(fs.statSync(sock).mode & 0o777, 0o600);
    const open = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-proxy-open-'));
    fs.chmodSync(open, 0o755);
    try {
      await assert.rejects(
        startHostProxy({ socketPath: path.join(open, 'p.sock'), decide: allowTo() }),
        /must be a folder only this user can open/,
      );
    } finally {
      fs.rmSync(open, { recursive: true, force: true });
    }
  });

  it('CONNECT allowed: 200 only once upstream is connected, bytes both ways, half-close passed on, one record', async () => {
    const up = await upstream(echo);
    const c = await RawClient.connect(await start(allowTo('127.0.0.1', 'allowHosts: echo.test')));
    // The first tunnel bytes travel with the request, as a client that does not wait for the 200 sends them.
    c.write(`CONNECT Echo.Test.:${up.port} HTTP/1.1\r\nHost: echo.test:${up.port}\r\n\r\nearly `);
    const r = await c.response();
    assert.equal(r.statusLine, 'HTTP/1.1 200 Connection Established');
    assert.equal(up.connections.length, 1);
    c.write('ping');
    await c.until('the echo', (b) => b.toString() === 'early ping');
    c.socket.end(); // half-close: the echo server ends its side when it sees ours end
    await c.ended;
    assert.deepEqual(attempts, [{ host: 'echo.test', port: up.port, via: 'connect', addresses: ['127.0.0.1'] }]);
    await waitFor('the record', () => records.length === 1);
    assert.equal(records[0].verdict.rule, 'allowHosts: echo.test');
    assert.deepEqual([records[0].bytesOut, records[0].bytesIn], [10, 10]);
  });

  it('CONNECT refused: 403 with the header and the JSON body, and the upstream never saw a connection', async () => {
    const up = await upstream(echo);
    const reason = 'not an allowed host; the user was asked and rejected <b>';
    const c = await RawClient.connect(
      await start(async () => Promise.resolve({ allow: false, rule: 'user: Reject\r\nSet-Cookie: a=b', reason })),
    );
    c.write(`CONNECT pypi.org:${up.port} HTTP/1.1\r\n\r\n`);
    const r = await c.response();
    assert.equal(r.status, 403);
    assert.equal(r.headers['content-type'], 'application/json');
    assert.equal(r.headers.connection, 'close');
    // The rule is one header line whatever it holds.
    assert.equal(r.headers[BLOCKED_HEADER.toLowerCase()], 'user: Reject\\u{d}\\u{a}Set-Cookie: a=b');
    assert.equal(r.headers['set-cookie'], undefined);
    assert.deepEqual(JSON.parse(r.body), {
      blockedBy: 'Fountain Approvals',
      host: 'pypi.org',
      port: up.port,
      rule: 'user: Reject\r\nSet-Cookie: a=b',
      reason,
    });
    await c.ended;
    await settle();
    assert.equal(up.connections.length, 0);
    assert.equal(records.length, 1);
    assert.deepEqual([records[0].verdict.allow, records[0].bytesOut, records[0].bytesIn], [false, 0, 0]);
  });

  it('plain HTTP: forwarded in origin-form, Host from the URL, Proxy-* and hop-by-hop headers dropped', async () => {
    const up = await upstream(httpAnswer);
    const c = await RawClient.connect(await start(allowTo()));
    c.write(
      [
        `GET http://svc.test:${up.port}/a/b?c=1 HTTP/1.1`,
        'Host: other.example',
        'Proxy-Authorization: Basic c2VjcmV0',
        'Proxy-Connection: keep-alive',
        'Connection: keep-alive, X-Hop',
        'X-Hop: gone',
        'X-Kept: yes',
        '',
        '',
      ].join('\r\n'),
    );
    const r = await c.response();
    assert.equal(r.status, 200);
    assert.equal(r.body, 'saw GET /a/b?c=1 HTTP/1.1');
    const sent = up.received[0].toString('latin1');
    assert.match(sent, /^GET \/a\/b\?c=1 HTTP\/1\.1\r\n/);
    assert.match(sent, new RegExp(`\r\nHost: svc\\.test:${up.port}\r\n`, 'i'));
    assert.doesNotMatch(sent, /other\.example|proxy-|x-hop|c2VjcmV0/i);
    assert.match(sent, /\r\nX-Kept: yes\r\n/);
    assert.deepEqual(attempts, [{ host: 'svc.test', port: up.port, via: 'http', addresses: ['127.0.0.1'] }]);
    c.close();
    await waitFor('the record', () => records.length === 1);
    assert.ok(records[0].bytesOut > 0 && records[0].bytesIn > 0);
  });

  it('keep-alive: a second request on the same connection, to another host, is decided again', async () => {
    const one = await upstream(httpAnswer);
    const two = await upstream(httpAnswer);
    const c = await RawClient.connect(
      await start(async (a) =>
        Promise.resolve<HostVerdict>(
          a.host === 'one.test'
            ? { allow: true, rule: 'grant: one.test', address: '127.0.0.1' }
            : { allow: false, rule: 'user: Reject', reason: 'rejected' },
        ),
      ),
    );
    c.write(`GET http://one.test:${one.port}/first HTTP/1.1\r\nHost: one.test\r\n\r\n`);
    assert.equal((await c.response()).body, 'saw GET /first HTTP/1.1');
    c.write(`GET http://two.test:${two.port}/second HTTP/1.1\r\nHost: two.test\r\n\r\n`);
    const second = await c.response();
    assert.equal(second.status, 403);
    assert.deepEqual(
      attempts.map((a) => a.host),
      ['one.test', 'two.test'],
    );
    await settle();
    assert.equal(two.connections.length, 0);
  });

  it('resolves once, gives the decider the addresses, and connects to the one the verdict names (no fresh lookup)', async () => {
    const up = await upstream(echo); // on 127.0.0.1 only: 127.0.0.2 and 127.0.0.3 refuse the connection
    let lookups = 0;
    const sock = await start(
      async (a) => Promise.resolve({ allow: true, rule: 'test', address: a.addresses[1] }),
      async () => Promise.resolve(lookups++ === 0 ? ['127.0.0.2', '127.0.0.1'] : ['127.0.0.3']),
    );
    const c = await RawClient.connect(sock);
    c.write(`CONNECT rebind.test:${up.port} HTTP/1.1\r\n\r\n`);
    assert.equal((await c.response()).status, 200);
    assert.deepEqual(attempts[0].addresses, ['127.0.0.2', '127.0.0.1']);
    assert.deepEqual(resolved, ['rebind.test']);
    assert.equal(up.connections.length, 1);
  });

  it('an allow naming an address the host did not resolve to is refused, and nothing is connected', async () => {
    const up = await upstream(echo);
    const c = await RawClient.connect(await start(allowTo('127.0.0.1'), async () => Promise.resolve(['127.0.0.5'])));
    c.write(`CONNECT elsewhere.test:${up.port} HTTP/1.1\r\n\r\n`);
    const r = await c.response();
    assert.equal(r.status, 403);
    assert.equal(r.headers[BLOCKED_HEADER.toLowerCase()], 'proxy');
    await settle();
    assert.equal(up.connections.length, 0);
  });

  it('a name that does not resolve: the decider sees no addresses; its refusal is the 403, an allow a 502', async () => {
    const notFound = async () =>
      Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const sock = await start(
      async (a) =>
        Promise.resolve<HostVerdict>(
          a.host === 'allowed.test'
            ? { allow: true, rule: 'allowHosts: allowed.test', address: '' }
            : { allow: false, rule: 'unresolved', reason: 'the name did not resolve' },
        ),
      notFound,
    );
    const refused = await RawClient.connect(sock);
    refused.write('CONNECT nowhere.test:443 HTTP/1.1\r\n\r\n');
    assert.equal((await refused.response()).status, 403);
    const allowed = await RawClient.connect(sock);
    allowed.write('CONNECT allowed.test:443 HTTP/1.1\r\n\r\n');
    const r = await allowed.response();
    assert.equal(r.status, 502);
    assert.equal(r.body, 'allowed.test did not resolve (ENOTFOUND)\n');
    assert.deepEqual(
      attempts.map((a) => a.addresses),
      [[], []],
    );
  });

  it('an upstream that refuses the connection: 502 with a one-line plain-text reason', async () => {
    const up = await upstream(echo);
    const closedPort = up.port;
    await up.close();
    upstreams = [];
    const c = await RawClient.connect(await start(allowTo()));
    c.write(`CONNECT down.test:${closedPort} HTTP/1.1\r\n\r\n`);
    const r = await c.response();
    assert.equal(r.status, 502);
    assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(r.body, `could not connect to 127.0.0.1:${closedPort}: ECONNREFUSED\n`);
  });

  for (const via of ['CONNECT', 'plain HTTP'] as const) {
    it(`${via}: the agent closes while the decider waits → its signal aborts, and nothing is connected`, async () => {
      const up = await upstream(via === 'CONNECT' ? echo : httpAnswer);
      let signalOf: AbortSignal | undefined;
      // A decider that allows even after the abort: the proxy still must not connect for a client that left.
      const sock = await start(
        (_a, signal) =>
          new Promise((resolve) => {
            signalOf = signal;
            signal.addEventListener('abort', () => resolve({ allow: true, rule: 'late', address: '127.0.0.1' }));
          }),
      );
      const c = await RawClient.connect(sock);
      c.write(
        via === 'CONNECT'
          ? `CONNECT slow.test:${up.port} HTTP/1.1\r\n\r\n`
          : `GET http://slow.test:${up.port}/ HTTP/1.1\r\nHost: slow.test\r\n\r\n`,
      );
      await waitFor('the decider to be asked', () => signalOf !== undefined);
      assert.equal(signalOf!.aborted, false);
      c.socket.end();
      await waitFor('the signal to abort', () => signalOf!.aborted);
      await settle();
      assert.equal(up.connections.length, 0);
    });
  }

  const malformed: [string, string, RegExp][] = [
    ['CONNECT without a port', 'CONNECT a.test HTTP/1.1\r\n\r\n', /no port/],
    ['port 0', 'CONNECT a.test:0 HTTP/1.1\r\n\r\n', /port/],
    ['port over 65535', 'CONNECT a.test:65536 HTTP/1.1\r\n\r\n', /port/],
    ['a port with letters', 'CONNECT a.test:44a HTTP/1.1\r\n\r\n', /port/],
    ['userinfo in CONNECT', 'CONNECT user:pw@a.test:443 HTTP/1.1\r\n\r\n', /userinfo/],
    ['userinfo in a URL', 'GET http://user:pw@a.test/ HTTP/1.1\r\nHost: a.test\r\n\r\n', /userinfo/],
    ['no host', 'GET http://:80/ HTTP/1.1\r\nHost: a\r\n\r\n', /no host/],
    ['an unclosed IPv6 bracket', 'CONNECT [::1:443 HTTP/1.1\r\n\r\n', /IPv6/],
    ['a short numeric IPv4 form', 'GET http://127.1/ HTTP/1.1\r\nHost: a\r\n\r\n', /numeric/],
    ['origin-form (not a proxy request)', 'GET /etc HTTP/1.1\r\nHost: a\r\n\r\n', /not a proxy request/],
    ['an https:// URL', 'GET https://a.test/ HTTP/1.1\r\nHost: a\r\n\r\n', /CONNECT/],
    ['binary garbage', '\u0000\u0001\u00ff\r\n\r\n', /malformed request/],
    ['a 20 KB request line', `GET http://a.test/${'x'.repeat(20_000)} HTTP/1.1\r\n\r\n`, /over 16 KB/],
    ['a 20 KB header block', `GET http://a.test/ HTTP/1.1\r\n${'X-Pad: yyyyyyyy\r\n'.repeat(1300)}\r\n`, /over 16 KB/],
  ];
  it('malformed requests get a 400 with a one-line plain-text reason, the decider is never asked, and the proxy still serves', async () => {
    const up = await upstream(httpAnswer);
    const sock = await start(allowTo());
    for (const [what, bytes, reason] of malformed) {
      const c = await RawClient.connect(sock);
      c.write(Buffer.from(bytes, 'latin1'));
      const r = await c.response();
      assert.equal(r.status, 400, what);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8', what);
      assert.match(r.body, reason, what);
      assert.equal(r.body.split('\n').length, 2, `${what}: one line`);
      await c.ended;
    }
    assert.equal(attempts.length, 0);
    const c = await RawClient.connect(sock);
    c.write(`GET http://fine.test:${up.port}/ HTTP/1.1\r\nHost: fine.test\r\n\r\n`);
    assert.equal((await c.response()).status, 200);
  });

  it('close() ends open tunnels and attempts still being decided, and removes the socket', async () => {
    const up = await upstream(echo);
    let pendingSignal: AbortSignal | undefined;
    const sock = await start(async (a, signal) => {
      if (a.host === 'pending.test') {
        pendingSignal = signal;
        return new Promise(() => undefined);
      }
      return Promise.resolve({ allow: true, rule: 'test', address: '127.0.0.1' });
    });
    const tunnel = await RawClient.connect(sock);
    tunnel.write(`CONNECT open.test:${up.port} HTTP/1.1\r\n\r\n`);
    assert.equal((await tunnel.response()).status, 200);
    const waiting = await RawClient.connect(sock);
    waiting.write(`CONNECT pending.test:${up.port} HTTP/1.1\r\n\r\n`);
    await waitFor('the pending ask', () => pendingSignal !== undefined);
    await proxy!.close();
    proxy = undefined;
    await tunnel.ended;
    await waiting.ended;
    assert.equal(pendingSignal!.aborted, true);
    await waitFor('the upstream side to close', () => up.connections.every((s) => s.destroyed || s.readableEnded));
    assert.equal(fs.existsSync(sock), false);
  });
});
