/**
 * Drives the real FountainClient against a ScriptedServer for one scenario file and checks its `expect`.
 * Time: the client gets real timers scaled by `client.time_scale` (default 1000: 45 s of client time = 45 ms), so
 * backoff, Retry-After and the watchdog run fast but for real; the server's delays are real milliseconds.
 */
import { readFileSync } from 'node:fs';
import type { AnswerResult, ConnectionState, FeedEvent } from '../../src/domain/model';
import type { Logger, Timers } from '../../src/protocol/env';
import { FountainClient } from '../../src/protocol/fountainClient';
import { MemoryCursorStore } from '../../src/protocol/sseClient';
import { ScriptedServer, delay, type Exchange, type RecordedRequest } from './scriptedServer';

export interface Scenario {
  name: string;
  why: string;
  client?: {
    key?: string;
    /** A cursor already persisted from an earlier session. */
    cursor?: string;
    time_scale?: number;
    random?: number;
    /** Client-time milliseconds; default: effectively off. */
    watchdog_ms?: number;
    allow_insecure_http?: boolean;
    url_suffix?: string;
    /** The stream parser's buffer cap (characters without a complete frame); default: the client's own. */
    max_frame_chars?: number;
  };
  /** Serve `http` over https with the certificate in FOUNTAIN_TEST_TLS_CERT/KEY (the process must trust it). */
  tls?: boolean;
  http: Exchange[];
  /** A second plain-http loopback server (another origin); `$other` in the first server's responses is its URL. */
  other_http?: Exchange[];
  steps: Step[];
  expect: Expect;
}

type Step =
  | { op: 'start' }
  | { op: 'wait'; for: WaitFor; timeout_ms?: number }
  | { op: 'answer'; conversation_id: string; request_id: string; option_id: string; as: string; await?: boolean }
  | { op: 'sleep'; ms: number }
  | { op: 'restart' }
  | { op: 'refresh' }
  | { op: 'dispose' };

interface WaitFor {
  feed?: Record<string, unknown>;
  feed_count?: number;
  requests?: number;
  state?: string;
  answers?: number;
  consumed?: boolean;
}

interface ExpectedRequest {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  header_prefixes?: Record<string, string>;
  headers_absent?: string[];
  body?: unknown;
}

interface Expect {
  requests?: ExpectedRequest[];
  request_counts?: Record<string, number>;
  feed?: Record<string, unknown>[];
  feed_absent?: Record<string, unknown>[];
  feed_counts?: Record<string, number>;
  answers?: Record<string, Record<string, unknown>>;
  states?: Array<string | Record<string, unknown>>;
  states_absent?: string[];
  cursor?: string | null;
  logs_include?: string[];
  logs_exclude?: string[];
  /** Default true: every request matched an exchange. */
  no_unmatched?: boolean;
  /** Default true: every non-repeat exchange was used. */
  all_consumed?: boolean;
  max_in_flight?: number;
  /** How many requests the `other_http` server may receive (default 0 when it exists). */
  other_requests?: number;
  /** Exchange indexes whose SSE script the client must have cut off (closed before every write was made). */
  sse_cut_off?: number[];
}

export interface RunResult {
  failures: string[];
  feed: unknown[];
  states: ConnectionState[];
  requests: RecordedRequest[];
}

function scaledTimers(scale: number): Timers {
  const t0 = Date.now();
  return {
    now: () => t0 + (Date.now() - t0) * scale,
    setTimeout: (fn, ms) => setTimeout(fn, Math.min(2 ** 31 - 1, Math.max(0, ms / scale))),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  };
}

/** Normalises a feed event to plain JSON with the server URL replaced by "$server" and Sets as sorted arrays. */
function normalise(e: FeedEvent, server: string): unknown {
  const json = JSON.stringify(e, (_k, v: unknown) =>
    v instanceof Set ? [...(v as Set<unknown>)].map(String).sort() : v,
  );
  return JSON.parse(json.split(server).join('$server')) as unknown;
}

/** Deep partial match: every field in `exp` must equal the one in `act`; arrays must match element by element. */
export function partialMatch(exp: unknown, act: unknown): boolean {
  if (exp === null || typeof exp !== 'object') {
    return exp === act;
  }
  if (Array.isArray(exp)) {
    return Array.isArray(act) && act.length === exp.length && exp.every((x, i) => partialMatch(x, act[i]));
  }
  if (act === null || typeof act !== 'object' || Array.isArray(act)) {
    return false;
  }
  return Object.entries(exp).every(([k, v]) => partialMatch(v, (act as Record<string, unknown>)[k]));
}

function subsequence<T>(expected: T[], actual: unknown[], eq: (e: T, a: unknown) => boolean): number {
  let j = 0;
  for (let i = 0; i < expected.length; i++) {
    while (j < actual.length && !eq(expected[i], actual[j])) {
      j++;
    }
    if (j >= actual.length) {
      return i;
    }
    j++;
  }
  return -1;
}

export async function runScenario(s: Scenario): Promise<RunResult> {
  const tlsFiles = { cert: process.env.FOUNTAIN_TEST_TLS_CERT, key: process.env.FOUNTAIN_TEST_TLS_KEY };
  if (s.tls && !(tlsFiles.cert && tlsFiles.key)) {
    return { failures: ['a tls scenario needs FOUNTAIN_TEST_TLS_CERT/KEY'], feed: [], states: [], requests: [] };
  }
  const tls = s.tls ? { cert: readFileSync(tlsFiles.cert!), key: readFileSync(tlsFiles.key!) } : undefined;
  const server = new ScriptedServer(s.http, tls);
  const other = s.other_http ? new ScriptedServer(s.other_http) : undefined;
  if (other) {
    server.vars.$other = await other.listen();
  }
  const url = await server.listen();
  const scale = s.client?.time_scale ?? 1000;
  const random = s.client?.random ?? 0.5;
  const store = new MemoryCursorStore();
  const logs: string[] = [];
  const logger: Logger = {
    trace: (m) => logs.push(`trace ${m}`),
    debug: (m) => logs.push(`debug ${m}`),
    info: (m) => logs.push(`info ${m}`),
    warn: (m) => logs.push(`warn ${m}`),
    error: (m) => logs.push(`error ${m}`),
  };
  const feed: unknown[] = [];
  const states: Array<ConnectionState & { wait_s?: number }> = [];
  const answers = new Map<string, AnswerResult>();
  const pendingAnswers: Promise<void>[] = [];
  const failures: string[] = [];
  let client: FountainClient | undefined;
  const key = s.client?.key ?? 'ftn_live_conformance_key_0123456789';
  const makeClient = () => {
    const timers = scaledTimers(scale);
    const c = new FountainClient({
      url: url + (s.client?.url_suffix ?? ''),
      key,
      cursorStore: store,
      userId: 'u1',
      allowInsecureHttp: s.client?.allow_insecure_http,
      logger,
      env: { timers, random: () => random },
      stream: { watchdogMs: s.client?.watchdog_ms ?? 1e12, maxFrameChars: s.client?.max_frame_chars },
      requestTimeoutMs: 1e7,
    });
    c.onDidReceiveEvent((e) => feed.push(normalise(e, c.server)));
    // A backoff state also records its wait in whole client-seconds, so Retry-After and jitter can be checked.
    c.onDidChangeState((st) =>
      states.push(st.kind === 'backoff' ? { ...st, wait_s: Math.round((st.retryAt - timers.now()) / 1000) } : st),
    );
    return c;
  };
  if (s.client?.cursor !== undefined) {
    // The scope the client derives for userId 'u1'.
    store.set(`${url}|u1`, s.client.cursor);
  }
  const check = (w: WaitFor): boolean => {
    if (w.feed && !feed.some((e) => partialMatch(w.feed, e))) {
      return false;
    }
    if (w.feed_count !== undefined && feed.length < w.feed_count) {
      return false;
    }
    if (w.requests !== undefined && server.requests.length < w.requests) {
      return false;
    }
    if (w.state && !states.some((st) => st.kind === w.state)) {
      return false;
    }
    if (w.answers !== undefined && answers.size < w.answers) {
      return false;
    }
    return !(w.consumed && server.unconsumed.length);
  };
  try {
    for (const step of s.steps) {
      switch (step.op) {
        case 'start':
          client ??= makeClient();
          client.start();
          break;
        case 'wait': {
          const deadline = Date.now() + (step.timeout_ms ?? 5000);
          while (!check(step.for) && Date.now() < deadline) {
            await delay(5);
          }
          if (!check(step.for)) {
            failures.push(`timed out waiting for ${JSON.stringify(step.for)}`);
          }
          break;
        }
        case 'answer': {
          const p = client!
            .answer(
              { server: client!.server, conversationId: step.conversation_id, requestId: step.request_id },
              step.option_id,
            )
            .then((r) => void answers.set(step.as, r));
          if (step.await === false) {
            pendingAnswers.push(p);
          } else {
            await p;
          }
          break;
        }
        case 'sleep':
          await delay(step.ms);
          break;
        case 'restart':
          client?.dispose();
          client = makeClient();
          client.start();
          break;
        case 'refresh':
          await client!.refresh();
          break;
        case 'dispose':
          client?.dispose();
          break;
      }
    }
    await Promise.all(pendingAnswers);
  } finally {
    client?.dispose();
    await server.close();
    await other?.close();
  }

  const e = s.expect;
  if (e.requests) {
    const miss = subsequence(e.requests, server.requests, (x, a) => requestMatches(x, a as RecordedRequest));
    if (miss >= 0) {
      failures.push(`expected request #${miss} ${JSON.stringify(e.requests[miss])} not found in order`);
    }
  }
  for (const [k, n] of Object.entries(e.request_counts ?? {})) {
    const got = server.requests.filter((r) => `${r.method} ${r.path}` === k).length;
    if (got !== n) {
      failures.push(`expected ${n} × ${k}, got ${got}`);
    }
  }
  if (e.feed) {
    const miss = subsequence(e.feed, feed, partialMatch);
    if (miss >= 0) {
      failures.push(`expected feed event #${miss} ${JSON.stringify(e.feed[miss])} not found in order`);
    }
  }
  for (const x of e.feed_absent ?? []) {
    if (feed.some((a) => partialMatch(x, a))) {
      failures.push(`feed event ${JSON.stringify(x)} should not have been emitted`);
    }
  }
  for (const [type, n] of Object.entries(e.feed_counts ?? {})) {
    const got = feed.filter((a) => (a as { type: string }).type === type).length;
    if (got !== n) {
      failures.push(`expected ${n} ${type} feed event(s), got ${got}`);
    }
  }
  for (const [as, exp] of Object.entries(e.answers ?? {})) {
    if (!partialMatch(exp, answers.get(as))) {
      failures.push(`answer ${as}: expected ${JSON.stringify(exp)}, got ${JSON.stringify(answers.get(as))}`);
    }
  }
  if (e.states) {
    const miss = subsequence(e.states, states, (x, a) =>
      typeof x === 'string' ? (a as ConnectionState).kind === x : partialMatch(x, a),
    );
    if (miss >= 0) {
      failures.push(`expected state #${miss} ${JSON.stringify(e.states[miss])} not found in order`);
    }
  }
  for (const k of e.states_absent ?? []) {
    if (states.some((st) => st.kind === k)) {
      failures.push(`state ${k} should not have occurred`);
    }
  }
  if (e.cursor !== undefined) {
    const got = store.get(`${url}|u1`) ?? null;
    if (got !== e.cursor) {
      failures.push(`persisted cursor: expected ${e.cursor}, got ${got}`);
    }
  }
  for (const l of e.logs_include ?? []) {
    if (!logs.some((x) => x.includes(l))) {
      failures.push(`no log line contains ${JSON.stringify(l)}`);
    }
  }
  for (const l of [...(e.logs_exclude ?? []), key]) {
    if (logs.some((x) => x.includes(l))) {
      failures.push(`a log line contains ${l === key ? 'the API key' : JSON.stringify(l)}`);
    }
  }
  if ((e.no_unmatched ?? true) && server.unmatched.length) {
    failures.push(`unmatched requests: ${server.unmatched.map((r) => `${r.method} ${r.path}`).join(', ')}`);
  }
  if ((e.all_consumed ?? true) && server.unconsumed.length) {
    failures.push(`unused exchanges: ${server.unconsumed.join(', ')}`);
  }
  if (e.max_in_flight !== undefined && server.maxInFlight > e.max_in_flight) {
    failures.push(`max in flight ${server.maxInFlight} > ${e.max_in_flight}`);
  }
  if (other && other.requests.length !== (e.other_requests ?? 0)) {
    failures.push(
      `the other origin got ${other.requests.length} request(s) (${other.requests.map((r) => `${r.method} ${r.path}`).join(', ')}), expected ${e.other_requests ?? 0}`,
    );
  }
  for (const i of e.sse_cut_off ?? []) {
    const rec = server.requests.find((r) => r.exchange === i);
    if (!rec?.cutOffByClient) {
      failures.push(`exchange ${i}: the client did not cut the stream off (${rec?.sseWrites ?? 'no'} writes made)`);
    }
  }
  // The key may travel only in the Authorization header: never in a state, an answer result or a feed event.
  const leaks = [
    ['a connection state', states],
    ['an answer result', [...answers.values()]],
    ['a feed event', feed],
  ] as const;
  for (const [what, values] of leaks) {
    if (JSON.stringify(values).includes(key)) {
      failures.push(`${what} contains the API key`);
    }
  }
  if (failures.length) {
    failures.push(`states: ${states.map((x) => x.kind).join(' → ')}`);
    failures.push(`requests: ${server.requests.map((r) => `${r.method} ${r.path}`).join(', ')}`);
    failures.push(`feed types: ${feed.map((x) => (x as { type: string }).type).join(', ')}`);
    failures.push(`warnings: ${logs.filter((l) => l.startsWith('warn') || l.startsWith('error')).join(' | ')}`);
  }
  return { failures, feed, states, requests: server.requests };
}

function requestMatches(x: ExpectedRequest, a: RecordedRequest): boolean {
  if (x.method !== a.method || x.path !== a.path) {
    return false;
  }
  if (x.query && !Object.entries(x.query).every(([k, v]) => a.query[k] === v)) {
    return false;
  }
  if (x.headers && !Object.entries(x.headers).every(([k, v]) => a.headers[k.toLowerCase()] === v)) {
    return false;
  }
  if (
    x.header_prefixes &&
    !Object.entries(x.header_prefixes).every(([k, v]) => a.headers[k.toLowerCase()]?.startsWith(v))
  ) {
    return false;
  }
  if (x.headers_absent?.some((h) => a.headers[h.toLowerCase()] !== undefined)) {
    return false;
  }
  return x.body === undefined || partialMatch(x.body, a.body);
}
