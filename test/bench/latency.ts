/**
 * Permission latency over a real loopback stream: the real FountainClient, 5,000 background events/s from a writer
 * in its own process (./writer.ts), from a permission frame's bytes arriving to its FeedEvent; beside it, a minimal
 * client (fetch + eventsource-parser + JSON.parse) on its own connection to the same writer in the same process.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';
import type { FeedEvent } from '../../src/domain/model';
import { nullLogger } from '../../src/protocol/env';
import { FountainClient } from '../../src/protocol/fountainClient';
import { MemoryCursorStore } from '../memoryCursorStore';

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface LatencyStats {
  p50: number;
  p99: number;
  samples: number;
}

/** Seconds of the stream counted as start-up: V8 is still optimizing the hot code (background compile threads). */
export const STARTUP_MS = 8000;
/** The first frames pay for JIT compilation of the permission path; they are counted out (and the table says so). */
const WARMUP = 20;

/**
 * Real FountainClient over loopback; background 5,000 events/s; latency from a permission frame's bytes arriving to
 * its FeedEvent. Reported twice: for the first STARTUP_MS of the connection, while V8 optimizes the hot code on
 * background threads that compete with the main thread for the two cores, and for the steady state after it.
 */
export async function latency(): Promise<{ startup: LatencyStats; steady: LatencyStats; baseline: LatencyStats }> {
  const startup: number[] = [];
  const steady: number[] = [];
  // The writer runs in its own process so its work does not share the client's event loop.
  const durationMs = STARTUP_MS + 6000;
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
  let connectedAt: number | undefined;
  const connectedAtOf = () => connectedAt;
  client.onDidReceiveEvent((e: FeedEvent) => {
    if (e.type === 'requestOpened') {
      const t0 = arrived.get(e.request.key.requestId);
      if (t0 !== undefined && ++seen > WARMUP) {
        connectedAt ??= t0;
        (t0 - connectedAt < STARTUP_MS ? startup : steady).push(performance.now() - t0);
      }
    }
  });
  client.start();
  const base = baselineClient(url, connectedAtOf);
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
  client.dispose();
  base.stop();
  const stats = (xs: number[]): LatencyStats => {
    xs.sort((a, b) => a - b);
    return { p50: percentile(xs, 50), p99: percentile(xs, 99), samples: xs.length };
  };
  return { startup: stats(startup), steady: stats(steady), baseline: stats(base.steady) };
}

/**
 * The baseline: the least a client does with the same stream, on its own connection in the same process: `fetch`,
 * eventsource-parser and JSON.parse of each frame, timed from a chunk's arrival to the parsed permission message.
 * Its first WARMUP frames and the first STARTUP_MS (after the client's own first frame) are left out as for the client.
 */
function baselineClient(url: string, connectedAt: () => number | undefined): { steady: number[]; stop(): void } {
  const steady: number[] = [];
  const ctl = new AbortController();
  let seen = 0;
  let arrived = 0;
  const parser = createParser({
    onEvent: (m) => {
      if (!m.data.includes('session/request_permission')) {
        return;
      }
      const rpc = JSON.parse((JSON.parse(m.data) as { data: string }).data) as { method?: string };
      const c0 = connectedAt();
      if (rpc.method === 'session/request_permission' && ++seen > WARMUP && c0 !== undefined) {
        if (arrived - c0 >= STARTUP_MS) {
          steady.push(performance.now() - arrived);
        }
      }
    },
  });
  void (async () => {
    const r = await fetch(`${url}/api/events/stream?bench=minimal`, { signal: ctl.signal });
    const decoder = new TextDecoder();
    for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
      arrived = performance.now();
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
  })().catch(() => undefined);
  return { steady, stop: () => ctl.abort() };
}
