/**
 * `npm run bench`: the protocol pipeline measured in one run on one generated input, printed as a table with
 * targets. Not part of `npm test` (speed is only measured here).
 */
import { execFileSync, spawn } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import type { FeedEvent } from '../../src/domain/model';
import { nullLogger } from '../../src/protocol/env';
import { FountainClient } from '../../src/protocol/fountainClient';
import { RequestTracker } from '../../src/protocol/mapping';
import { MemoryCursorStore } from '../../src/protocol/sseClient';
import { ScriptedServer, type Exchange } from '../conformance/scriptedServer';
import { generate } from './gen';

const EVENTS = 200_000;
const input = generate(EVENTS);

function best(runs: number, fn: () => number): number {
  let b = Infinity;
  for (let i = 0; i < runs; i++) {
    b = Math.min(b, fn());
  }
  return b;
}

function baselineSeconds(): number {
  let n = 0;
  const t0 = performance.now();
  const p = createParser({ onEvent: () => void n++ });
  for (const c of input.chunks) {
    p.feed(c);
  }
  const s = (performance.now() - t0) / 1000;
  if (n !== EVENTS) {
    throw new Error(`baseline parsed ${n} events`);
  }
  return s;
}

function pipelineSeconds(): number {
  let opened = 0;
  const tracker = new RequestTracker('https://f.example', nullLogger);
  const t0 = performance.now();
  const p = createParser({
    onEvent: (m) => {
      for (const e of tracker.handleSse(m).events) {
        if (e.type === 'requestOpened') {
          opened++;
        }
      }
    },
  });
  for (const c of input.chunks) {
    p.feed(c);
  }
  const s = (performance.now() - t0) / 1000;
  if (opened !== input.permissions) {
    throw new Error(`pipeline opened ${opened} of ${input.permissions} requests`);
  }
  return s;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Real FountainClient over loopback; background 5,000 events/s; latency from a permission frame's bytes arriving to its FeedEvent. */
async function latency(): Promise<{ p50: number; p99: number; samples: number }> {
  const samples: number[] = [];
  // The writer runs in its own process so its work does not share the client's event loop.
  const durationMs = 6000;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(__dirname, 'writer.ts'), String(durationMs)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve) =>
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim())),
  );
  const url = `http://127.0.0.1:${port}`;
  // The stream body passes through a tap that stamps when a chunk carrying a permission frame arrives from the
  // socket (the stamp is taken before the tap scans the chunk, so the scan counts against us).
  const arrived = new Map<string, number>();
  // The first frames pay for JIT compilation of the permission path; they are counted out (and the table says so).
  const WARMUP = 20;
  let seen = 0;
  const decoder = new TextDecoder();
  const tappedFetch = async (u: string, init?: RequestInit): Promise<Response> => {
    const r = await fetch(u, init);
    if (!u.includes('/api/events/stream') || !r.body) {
      return r;
    }
    const tap = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        const t = performance.now();
        const text = decoder.decode(chunk, { stream: true });
        for (const m of text.matchAll(/"request_id":"([^"]+)"/g)) {
          if (!arrived.has(m[1])) {
            arrived.set(m[1], t);
          }
        }
        ctl.enqueue(chunk);
      },
    });
    return new Response(r.body.pipeThrough(tap), { status: r.status, headers: r.headers });
  };
  const client = new FountainClient({
    url,
    key: 'ftn_live_bench',
    cursorStore: new MemoryCursorStore(),
    logger: nullLogger,
    env: { fetch: tappedFetch },
  });
  client.onDidReceiveEvent((e: FeedEvent) => {
    if (e.type === 'requestOpened') {
      const t0 = arrived.get(e.request.key.requestId);
      if (t0 !== undefined && ++seen > WARMUP) {
        samples.push(performance.now() - t0);
      }
    }
  });
  client.start();
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  client.dispose();
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p99: percentile(samples, 99), samples: samples.length };
}

function heapGrowthMb(): { mb: number; open: number } {
  const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', path.join(__dirname, 'heap.ts')], {
    encoding: 'utf8',
  });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as { open: number; growthBytes: number };
  return { mb: r.growthBytes / (1024 * 1024), open: r.open };
}

/** 500 conversations (50 with a detached request, 50 running), every REST call answered after 5 ms. */
async function backfill(): Promise<{ ms: number; maxInFlight: number; opened: number }> {
  const list = Array.from({ length: 500 }, (_, i) => ({
    id: `k${i}`,
    status: i % 10 === 5 ? 'running' : 'idle',
    title: `t${i}`,
  }));
  const ex: Exchange[] = [
    {
      match: { method: 'GET', path: '/api/events/stream' },
      respond: { sse: [': connected\n\n'], close: 'hold' },
      repeat: true,
    },
    {
      match: { method: 'GET', path: '/api/conversations' },
      respond: { delay_ms: 5, json: { data: list } },
      repeat: true,
    },
  ];
  for (const c of list) {
    const i = Number(c.id.slice(1));
    const pending =
      i % 10 === 0
        ? [
            {
              request_id: `${i}.aaaaaaaaaaaaaaaa`,
              tool: 'Bash',
              options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }],
            },
          ]
        : [];
    ex.push({
      match: { method: 'GET', path: `/api/conversations/${c.id}` },
      respond: { delay_ms: 5, json: { data: { ...c, pending_requests: pending } } },
      repeat: true,
    });
    ex.push({
      match: { method: 'GET', path: `/api/conversations/${c.id}/events` },
      respond: { delay_ms: 5, json: { data: [], meta: { has_more: false, next_cursor: null } } },
      repeat: true,
    });
  }
  const server = new ScriptedServer(ex);
  const url = await server.listen();
  const client = new FountainClient({
    url,
    key: 'ftn_live_bench',
    cursorStore: new MemoryCursorStore(),
    logger: nullLogger,
  });
  let opened = 0;
  const t0 = performance.now();
  const done = new Promise<number>((resolve) =>
    client.onDidReceiveEvent((e) => {
      if (e.type === 'requestOpened') {
        opened++;
      } else if (e.type === 'backfillComplete') {
        resolve(performance.now() - t0);
      }
    }),
  );
  client.start();
  const ms = await done;
  client.dispose();
  await server.close();
  // The stream connection is excluded: it is held open and is not a backfill call.
  return { ms, maxInFlight: server.maxInFlight - 1, opened };
}

async function main(): Promise<void> {
  baselineSeconds();
  pipelineSeconds(); // warm-up
  const base = best(5, baselineSeconds);
  const pipe = best(5, pipelineSeconds);
  const baseRate = EVENTS / base;
  const pipeRate = EVENTS / pipe;
  const ratio = pipeRate / baseRate;
  const lat = await latency();
  const heap = heapGrowthMb();
  const bf = await backfill();
  const rows: Array<[string, string, string, boolean | undefined]> = [
    ['eventsource-parser alone (baseline)', `${Math.round(baseRate).toLocaleString('en')} events/s`, '—', undefined],
    ['pipeline: parse + validate + map', `${Math.round(pipeRate).toLocaleString('en')} events/s`, '—', undefined],
    ['pipeline / baseline', ratio.toFixed(2), '≥ 0.5', ratio >= 0.5],
    [`permission latency p50 (${lat.samples} after 20 warm-up, 5k ev/s)`, `${lat.p50.toFixed(3)} ms`, '—', undefined],
    ['permission latency p99', `${lat.p99.toFixed(3)} ms`, '≤ 2 ms', lat.p99 <= 2],
    [
      `heap growth, ${heap.open.toLocaleString('en')} open requests`,
      `${heap.mb.toFixed(1)} MB`,
      '≤ 30 MB',
      heap.mb <= 30 && heap.open === 10_000,
    ],
    [
      `backfill 500 conv / ${bf.opened} detached @5 ms`,
      `${bf.ms.toFixed(0)} ms`,
      '≤ 1500 ms',
      bf.ms <= 1500 && bf.opened === 50,
    ],
    ['backfill max requests in flight', String(bf.maxInFlight), '≤ 4', bf.maxInFlight <= 4],
  ];
  const w = [Math.max(...rows.map((r) => r[0].length)), Math.max(...rows.map((r) => r[1].length)), 9];
  const line = (a: string, b: string, c: string, d: string) =>
    `| ${a.padEnd(w[0])} | ${b.padStart(w[1])} | ${c.padEnd(w[2])} | ${d} |`;
  console.log(
    `Input: ${EVENTS.toLocaleString('en')} events, ${(input.text.length / 1e6).toFixed(1)} MB (${Math.round(input.text.length / EVENTS)} B/event), ${input.permissions} permission requests (node ${process.version})`,
  );
  console.log(line('measure', 'value', 'target', 'ok  '));
  console.log(line('-'.repeat(w[0]), '-'.repeat(w[1]), '-'.repeat(w[2]), '----'));
  for (const [a, b, c, ok] of rows) {
    console.log(line(a, b, c, ok === undefined ? '    ' : ok ? 'PASS' : 'FAIL'));
  }
  if (rows.some((r) => r[3] === false)) {
    process.exitCode = 1;
  }
}

void main();
