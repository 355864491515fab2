/**
 * Startup backfill on the local Fountain-compatible server (test/server), in this process: 500 conversations (450
 * idle without requests, 50 whose turn ended `waiting` with a detached request), every API response delayed 5 ms by
 * the server, timed from the real FountainClient's start to its backfillComplete; the server counts the API requests
 * in flight. Baseline: the same calls replayed by a minimal client (see `replayMs`).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { nullLogger } from '../../src/protocol/env';
import { FountainClient } from '../../src/protocol/fountainClient';
import { MemoryCursorStore } from '../memoryCursorStore';
import { startServer, type RunningServer } from '../server';
import { requestLog } from '../support/serverClient';
import { waitFor } from '../support/wait';

export const CONVERSATIONS = 500;
export const DETACHED = 50;
export const LATENCY_MS = 5;

export interface BackfillResult {
  ms: number;
  /** Requests the client opened from the backfill (all must be detached). */
  opened: number;
  /** Keys the backfillComplete event reports open. */
  openKeys: number;
  /** Most API requests the server saw in flight during the backfill (the held event stream is not counted). */
  maxInFlight: number;
  /** API calls the server answered during the backfill (from its request log). */
  calls: number;
  /**
   * Baseline: the same calls (the request log's method and path, in order) replayed with plain `fetch` by 4 workers
   * against the same server in the same run: the least time those calls take with 4 in flight.
   */
  replayMs: number;
}

async function replay(server: RunningServer, calls: Array<{ method: string; path: string }>): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const c = calls[next++];
      const r = await fetch(server.url + c.path, {
        method: c.method,
        headers: { authorization: `Bearer ${server.apiKey}`, accept: 'application/json' },
      });
      await r.arrayBuffer();
    }
  };
  const t0 = performance.now();
  await Promise.all([worker(), worker(), worker(), worker()]);
  return performance.now() - t0;
}

async function populate(server: RunningServer): Promise<void> {
  const ids: string[] = [];
  // In batches, so at most 50 scripted agents start at once.
  for (let i = 0; i < CONVERSATIONS; i += 50) {
    const batch: string[] = [];
    for (let j = i; j < Math.min(CONVERSATIONS, i + 50); j++) {
      const waiter = j % (CONVERSATIONS / DETACHED) === 0;
      const r = server.createConversation(
        waiter
          ? { agent_id: 'waiter', prompt: 'wait: touch x', title: `waiting ${j}` }
          : { agent_id: 'claude', prompt: 'say: done', title: `idle ${j}` },
      );
      if (r.status !== 201) {
        throw new Error(`bench setup: create failed ${r.status} ${JSON.stringify(r.body)}`);
      }
      batch.push((r.body as { data: { id: string } }).data.id);
    }
    // Polls the server's own state (no HTTP), so the setup neither pays nor skews the latency.
    await waitFor(
      `conversations ${i}..${i + batch.length - 1} to end their turn`,
      () =>
        batch.every((id) => {
          const c = server.store.conversations.get(id);
          return c?.status === 'idle' && c.turn_count === 1;
        }),
      60_000,
      20,
    );
    ids.push(...batch);
  }
  const detached = [...server.store.requests.values()].filter((r) => r.state === 'detached');
  const idle = ids.filter((id) => server.store.conversations.get(id)?.status === 'idle');
  if (detached.length !== DETACHED || idle.length !== CONVERSATIONS) {
    throw new Error(`bench setup: ${idle.length} idle conversations, ${detached.length} detached requests`);
  }
}

export async function backfillOnLocalServer(): Promise<BackfillResult> {
  const server = await startServer({
    clock: 'real',
    real: false,
    scenario: 'empty',
    latencyMs: LATENCY_MS,
    log: () => undefined,
  });
  let client: FountainClient | undefined;
  try {
    // Conversations are made in-process (not over HTTP), so the 5 ms latency does not slow the setup down.
    await populate(server);
    client = new FountainClient({
      url: server.url,
      key: server.apiKey,
      cursorStore: new MemoryCursorStore(),
      logger: nullLogger,
    });
    let opened = 0;
    let openKeys = -1;
    let t0 = 0;
    const done = new Promise<number>((resolve) =>
      client!.onDidReceiveEvent((e) => {
        if (e.type === 'requestOpened' && e.source === 'backfill' && e.request.detached) {
          opened++;
        } else if (e.type === 'backfillComplete') {
          openKeys = e.openKeys.size;
          resolve(performance.now() - t0);
        }
      }),
    );
    server.resetInFlight();
    t0 = performance.now();
    client.start();
    const ms = await Promise.race([
      done,
      sleep(60_000, undefined, { ref: false }).then(() => {
        throw new Error('bench: no backfillComplete within 60 s');
      }),
    ]);
    const maxInFlight = server.inFlight().max;
    client.dispose();
    const log = (await requestLog(server)).filter((r) => !r.path.startsWith('/api/events/stream'));
    const replayMs = await replay(server, log);
    return { ms, opened, openKeys, maxInFlight, calls: log.length, replayMs };
  } finally {
    client?.dispose();
    await server.close();
  }
}
