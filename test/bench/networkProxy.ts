/**
 * What the sandboxed agent's network proxy (src/local/network/proxy.ts, issue 28) costs, on its real Unix socket with
 * a decider that allows at once (an ask is the user's time, not the proxy's): the latency it adds to a model-style
 * request (a 1 KB JSON POST answered with 2 KB) against the same request sent directly, interleaved in one run, p50
 * and p99; and the throughput of a 50 MB download through a CONNECT tunnel (how HTTPS goes) against direct and
 * against a bare relay (a pipe with no proxy in it), interleaved rounds, the downloading client and its server in a
 * child process of their own. Raw sockets on every side, so that each side of a round does the same client work.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { startHostProxy, type HostProxy } from '../../src/local/network/proxy';
import { RawClient } from '../support/proxyPeers';
import type { Row } from './table';

const REQUESTS = 400;
const DOWNLOAD_ROUNDS = 9;

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const median = (xs: number[]) => pct(xs, 0.5);

/** A loopback model: answers each POST with a 2 KB JSON body once the request body has arrived. */
function startModel(): Promise<{ port: number; close: () => Promise<void> }> {
  const answer = JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'x'.repeat(2000) }] });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(answer) });
      res.end(answer);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as net.AddressInfo).port,
        close: () => {
          server.closeAllConnections();
          return new Promise<void>((r) => server.close(() => r()));
        },
      }),
    );
  });
}

function post(target: string, host: string): string {
  const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'y'.repeat(1000) }] });
  return (
    `POST ${target} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

async function timed(c: RawClient, request: string): Promise<number> {
  const t0 = performance.now();
  c.write(request);
  const r = await c.response();
  if (r.status !== 200) {
    throw new Error(`the model answered ${r.statusLine}`);
  }
  return performance.now() - t0;
}

async function tunnel(sock: string, host: string, port: number): Promise<RawClient> {
  const c = await RawClient.connect(sock);
  c.write(`CONNECT ${host}:${port} HTTP/1.1\r\nHost: ${host}:${port}\r\n\r\n`);
  const r = await c.response();
  if (r.status !== 200) {
    throw new Error(`CONNECT answered ${r.statusLine}`);
  }
  return c;
}

interface Latency {
  direct: number[];
  plain: number[];
  tunnelled: number[];
}

/** Each round: one request direct, one as plain HTTP through the proxy, one through a tunnel; the order rotates. */
async function latencies(sock: string): Promise<Latency> {
  const model = await startModel();
  const host = `model.test:${model.port}`;
  const direct = await RawClient.connect(model.port);
  const plain = await RawClient.connect(sock);
  const tunnelled = await tunnel(sock, 'model.test', model.port);
  const out: Latency = { direct: [], plain: [], tunnelled: [] };
  const runs: [keyof Latency, () => Promise<number>][] = [
    ['direct', () => timed(direct, post('/v1/messages', host))],
    ['plain', () => timed(plain, post(`http://${host}/v1/messages`, host))],
    ['tunnelled', () => timed(tunnelled, post('/v1/messages', host))],
  ];
  try {
    for (let i = 0; i < 30; i++) {
      for (const [, run] of runs) {
        await run(); // warm-up
      }
    }
    for (let i = 0; i < REQUESTS; i++) {
      for (let k = 0; k < runs.length; k++) {
        const [name, run] = runs[(i + k) % runs.length];
        out[name].push(await run());
      }
    }
    return out;
  } finally {
    for (const c of [direct, plain, tunnelled]) {
      c.close();
    }
    await model.close();
  }
}

/** The download child (networkProxyChild.ts): one command per line, one MB/s figure per answer. */
function downloader(): { rate: (sock?: string) => Promise<number>; stop: () => void } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'networkProxyChild.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: AsyncIterator<string> = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    rate: async (sock) => {
      child.stdin.write(sock ? `tunnel ${sock}\n` : 'direct\n');
      const next = await lines.next();
      const answer = next.done ? 'error: the download child ended' : next.value;
      if (answer.startsWith('error')) {
        throw new Error(answer);
      }
      return Number(answer);
    },
    stop: () => child.kill(),
  };
}

/**
 * A bare relay for reference: answers any CONNECT at once and pipes both ways, no parsing, no decision. What the
 * proxy costs beyond relaying at all is the ratio of the two on the same machine in the same run.
 */
function startBareRelay(socketPath: string): Promise<net.Server> {
  const server = net.createServer((c) => {
    c.on('error', () => undefined);
    c.once('data', (d: Buffer) => {
      const port = Number(/:(\d+) /.exec(d.toString('latin1'))?.[1]);
      const up = net.connect({ port, host: '127.0.0.1' }, () => {
        c.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        c.pipe(up);
        up.pipe(c);
      });
      up.on('error', () => c.destroy());
    });
  });
  return new Promise((resolve) => server.listen(socketPath, () => resolve(server)));
}

interface Throughput {
  direct: number;
  bare: number;
  tunnelled: number;
  /** Medians of each round's tunnel / direct and tunnel / bare relay. */
  ratio: number;
  ratioToBare: number;
}

/** Rounds of three downloads (direct, the bare relay, the proxy's tunnel), the order rotating each round. */
async function throughput(sock: string, bareSock: string): Promise<Throughput> {
  const { rate, stop } = downloader();
  try {
    await rate();
    await rate(sock); // warm-up
    const got = { direct: [] as number[], bare: [] as number[], tunnelled: [] as number[] };
    const ratio: number[] = [];
    const ratioToBare: number[] = [];
    const runs: [keyof typeof got, string | undefined][] = [
      ['direct', undefined],
      ['bare', bareSock],
      ['tunnelled', sock],
    ];
    for (let i = 0; i < DOWNLOAD_ROUNDS; i++) {
      for (let k = 0; k < runs.length; k++) {
        const [name, via] = runs[(i + k) % runs.length];
        got[name].push(await rate(via));
      }
      ratio.push(got.tunnelled[i] / got.direct[i]);
      ratioToBare.push(got.tunnelled[i] / got.bare[i]);
    }
    return {
      direct: median(got.direct),
      bare: median(got.bare),
      tunnelled: median(got.tunnelled),
      ratio: median(ratio),
      ratioToBare: median(ratioToBare),
    };
  } finally {
    stop();
  }
}

export async function networkProxyRows(): Promise<Row[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-proxy-bench-'));
  let proxy: HostProxy | undefined;
  let bare: net.Server | undefined;
  try {
    proxy = await startHostProxy({
      socketPath: path.join(dir, 'proxy.sock'),
      decide: async () => Promise.resolve({ allow: true, rule: 'bench', address: '127.0.0.1' }),
      resolve: async () => Promise.resolve(['127.0.0.1']),
    });
    const lat = await latencies(proxy.socketPath);
    bare = await startBareRelay(path.join(dir, 'bare.sock'));
    const tp = await throughput(proxy.socketPath, path.join(dir, 'bare.sock'));
    const ms = (xs: number[]) => `${pct(xs, 0.5).toFixed(2)} / ${pct(xs, 0.99).toFixed(2)} ms`;
    const added = (xs: number[]) => pct(xs, 0.5) - pct(lat.direct, 0.5);
    return [
      { section: 'Network proxy of a sandboxed agent (Unix socket, a decider that allows at once)' },
      [`model-style POST (1 KB → 2 KB JSON) direct, keep-alive, p50 / p99 of ${REQUESTS} (baseline)`, ms(lat.direct)],
      [
        'same as plain HTTP through the proxy (each request decided, a new upstream connection), p50 / p99',
        ms(lat.plain),
      ],
      ['added at p50, plain HTTP', `${added(lat.plain).toFixed(2)} ms`, '≤ 5 ms', added(lat.plain) <= 5],
      ['same through one CONNECT tunnel (how HTTPS goes), p50 / p99', ms(lat.tunnelled)],
      ['added at p50, CONNECT tunnel', `${added(lat.tunnelled).toFixed(2)} ms`, '≤ 5 ms', added(lat.tunnelled) <= 5],
      [`50 MB download direct, median of ${DOWNLOAD_ROUNDS} (baseline)`, `${tp.direct.toFixed(0)} MB/s`],
      ['same through a bare relay (CONNECT answered at once, piped; no proxy), median', `${tp.bare.toFixed(0)} MB/s`],
      ['same through a CONNECT tunnel of the proxy, median', `${tp.tunnelled.toFixed(0)} MB/s`],
      [
        `tunnel / direct, median of ${DOWNLOAD_ROUNDS} interleaved rounds' ratios`,
        tp.ratio.toFixed(2),
        '≥ 0.8',
        tp.ratio >= 0.8,
      ],
      [`tunnel / bare relay, median of ${DOWNLOAD_ROUNDS} rounds' ratios`, tp.ratioToBare.toFixed(2), 'reported'],
    ];
  } finally {
    await proxy?.close();
    bare?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
