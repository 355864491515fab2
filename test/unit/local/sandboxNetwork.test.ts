// The sandbox's own network (issue 28), with real bwrap, real sockets and the real forwarder (bundled as the build
// does): under `fountain.local.network` `ask` a sandboxed program reaches neither a host listener on 127.0.0.1 nor a
// host abstract Unix socket (X11's and D-Bus's kind), only the forwarder on 127.0.0.1:3128, which relays to the Unix
// socket bound in for the proxy; under `open` the host's network is there as before.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { confine, removeBlockers, type NetworkSetting } from '../../../src/local/sandbox';
import type { ConnectAttempt, HostDecider } from '../../../src/local/network/contract';
import { BLOCKED_HEADER } from '../../../src/local/network/contract';
import { FORWARDER_PORT, proxiedEnv, type SandboxNetwork } from '../../../src/local/network/forwarderLine';
import { startHostProxy } from '../../../src/local/network/proxy';
import { bundleForwarder } from '../../support/forwarderBundle';
import { skipOrFail } from '../../support/skipOrFail';

const BWRAP = '/usr/bin/bwrap';

/** A node script: connects to each target, writes `ping`, prints `name: <reply>` or `name: <error code>`. */
const PROBE = `
const net = require('node:net');
const targets = JSON.parse(process.argv[1]);
(async () => {
  for (const [name, opts] of targets) {
    const said = await new Promise((resolve) => {
      const s = net.connect(opts, () => s.write('ping'));
      s.setTimeout(3000, () => { s.destroy(); resolve('timeout'); });
      s.on('data', (d) => { s.destroy(); resolve('reply ' + d); });
      s.on('error', (e) => resolve(e.code || e.message));
    });
    console.log(name + ': ' + said);
  }
})();
`;

/** A listener that answers `pong <tag>` to anything. */
function pongServer(tag: string, listen: number | string): Promise<net.Server> {
  const server = net.createServer((s) => s.on('data', () => s.end(`pong ${tag}`)).on('error', () => undefined));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    if (typeof listen === 'number') {
      server.listen(listen, '127.0.0.1', () => resolve(server));
    } else {
      server.listen(listen, () => resolve(server));
    }
  });
}

describe('local agents: the sandbox network (real bwrap, real sockets, the real forwarder)', function () {
  this.timeout(60_000);
  let root = '';
  let ws = '';
  let network: SandboxNetwork;
  const servers: net.Server[] = [];
  let hostPort = 0;
  const abstract = `\0fountain-test-abstract-${process.pid}`;

  before(async function () {
    if (process.platform !== 'linux' || !fs.existsSync(BWRAP)) {
      skipOrFail(this, 'bubblewrap is not installed at /usr/bin/bwrap (apt-get install bubblewrap)');
    }
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-unit-netns-')));
    ws = path.join(root, 'ws');
    fs.mkdirSync(ws);
    const private0700 = path.join(root, 'proxy');
    fs.mkdirSync(private0700, { mode: 0o700 });
    const socketPath = path.join(private0700, 'proxy.sock');
    const host = await pongServer('host-loopback', 0);
    hostPort = (host.address() as net.AddressInfo).port;
    servers.push(host, await pongServer('host-abstract', abstract), await pongServer('proxy-socket', socketPath));
    network = { socketPath, port: FORWARDER_PORT, forwarder: bundleForwarder(root) };
  });
  after(() => {
    servers.forEach((s) => s.close());
    fs.rmSync(root, { recursive: true, force: true });
  });

  /** Runs the probe inside the sandbox of `setting`; returns its output lines by target name, and its exit. */
  async function probeInside(setting: NetworkSetting, withProxy = true) {
    const c = await confine(
      { setting: 'required', roots: [ws], network: setting },
      {
        runtime: 'custom',
        command: process.execPath,
        cwd: ws,
        env: { PATH: '/usr/bin:/bin', HOME: path.join(root, 'home') },
        ...(withProxy ? { proxy: network } : {}),
      },
    );
    assert.ok(c.sandboxed);
    const targets = [
      ['loopback', { host: '127.0.0.1', port: hostPort }],
      ['abstract', { path: abstract }],
      ['forwarder', { host: '127.0.0.1', port: FORWARDER_PORT }],
    ];
    // Not spawnSync: the host's listeners answer from this process's event loop.
    const r = await new Promise<{ stdout: string; stderr: string; status: number | null }>((resolve) => {
      execFile(
        c.wrap.command,
        [...c.wrap.prefix, process.execPath, '-e', PROBE, JSON.stringify(targets)],
        { env: { PATH: '/usr/bin:/bin', HOME: path.join(root, 'home') }, encoding: 'utf8', timeout: 20_000 },
        (err, stdout, stderr) =>
          resolve({ stdout, stderr, status: err ? (typeof err.code === 'number' ? err.code : -1) : 0 }),
      );
    });
    removeBlockers(c.plan);
    const said = Object.fromEntries(
      r.stdout
        .split('\n')
        .filter((l) => l.includes(': '))
        .map((l) => [l.slice(0, l.indexOf(': ')), l.slice(l.indexOf(': ') + 2)]),
    );
    return { c, said, out: `${r.stdout}${r.stderr}`, status: r.status };
  }

  it('ask: no host loopback listener, no host abstract socket; the forwarder relays to the proxy socket', async () => {
    const { c, said, out, status } = await probeInside('ask');
    assert.equal(c.sandboxed && c.network, 'proxy');
    assert.equal(said.loopback, 'ECONNREFUSED', out);
    assert.equal(said.abstract, 'ECONNREFUSED', out);
    assert.equal(said.forwarder, 'reply pong proxy-socket', out);
    assert.equal(status, 0, 'the agent’s exit code is the sandbox’s');
  });

  it('ask without a proxy: no network at all (not even the forwarder)', async () => {
    const { c, said, out } = await probeInside('ask', false);
    assert.equal(c.sandboxed && c.network, 'none');
    assert.equal(said.loopback, 'ECONNREFUSED', out);
    assert.equal(said.abstract, 'ECONNREFUSED', out);
    assert.equal(said.forwarder, 'ECONNREFUSED', out);
  });

  it('open: the host network as before (its loopback listener and abstract socket answer)', async () => {
    const { c, said, out } = await probeInside('open');
    assert.equal(c.sandboxed && c.network, 'open');
    assert.equal(said.loopback, 'reply pong host-loopback', out);
    assert.equal(said.abstract, 'reply pong host-abstract', out);
  });

  describe('a sandboxed curl through the forwarder and the real proxy', () => {
    let proxyDir = '';
    let site: http.Server;
    let sitePort = 0;
    let proxy: { close(): Promise<void> };
    const asked: ConnectAttempt[] = [];
    let allow = false;
    const decide: HostDecider = (a) => {
      asked.push(a);
      return Promise.resolve(
        allow
          ? { allow: true, rule: 'test: allowed', address: a.addresses[0] }
          : { allow: false, rule: 'test: refused', reason: 'not an allowed host; the user was asked and rejected' },
      );
    };

    before(async () => {
      // The "second host": a site on 127.0.0.3, outside the sandbox's own loopback and its NO_PROXY.
      site = http.createServer((_q, res) => res.end('hello from the second host'));
      await new Promise<void>((r) => site.listen(0, '127.0.0.3', r));
      sitePort = (site.address() as net.AddressInfo).port;
      proxyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-unit-netproxy-'));
      const p = await startHostProxy({ socketPath: path.join(proxyDir, 'proxy.sock'), decide });
      proxy = p;
      network = { ...network, socketPath: p.socketPath };
    });
    after(async () => {
      await proxy?.close();
      site?.close();
      fs.rmSync(proxyDir, { recursive: true, force: true });
    });

    async function curlInside(...curlArgs: string[]): Promise<string> {
      const env = proxiedEnv({ PATH: '/usr/bin:/bin', HOME: path.join(root, 'home') }, FORWARDER_PORT);
      const c = await confine(
        { setting: 'required', roots: [ws], network: 'ask' },
        { runtime: 'custom', command: '/usr/bin/curl', cwd: ws, env, proxy: network },
      );
      assert.ok(c.sandboxed);
      const out = await new Promise<string>((resolve) => {
        execFile(
          c.wrap.command,
          [...c.wrap.prefix, '/usr/bin/curl', '-sS', '-i', '--max-time', '10', ...curlArgs],
          { env, encoding: 'utf8', timeout: 20_000 },
          (_err, stdout, stderr) => resolve(`${stdout}${stderr}`),
        );
      });
      removeBlockers(c.plan);
      return out;
    }

    for (const how of ['plain HTTP', 'CONNECT'] as const) {
      const flags = how === 'CONNECT' ? ['--proxytunnel'] : [];
      it(`${how}: allowed, it reaches the second host; refused, it gets the 403 with the reason`, async () => {
        const url = `http://127.0.0.3:${sitePort}/`;
        allow = true;
        asked.length = 0;
        const ok = await curlInside(...flags, url);
        assert.match(ok, /hello from the second host/, ok);
        assert.deepEqual(
          asked.map((a) => [a.host, a.port, a.via]),
          [['127.0.0.3', sitePort, how === 'CONNECT' ? 'connect' : 'http']],
        );
        allow = false;
        const refused = await curlInside(...flags, url);
        assert.match(refused, /HTTP\/1\.1 403/, refused);
        assert.match(refused, new RegExp(`${BLOCKED_HEADER}:`, 'i'), refused);
        assert.doesNotMatch(refused, /hello from the second host/);
        if (how === 'plain HTTP') {
          // The body the agent reads (CONNECT's refusal is seen by curl itself, which prints only its status).
          assert.match(refused, /not an allowed host; the user was asked and rejected/, refused);
        }
      });
    }
  });
});
