/**
 * Test helpers for the local server: start it (manual clock, no real agents), call it over real loopback HTTP, read
 * SSE with eventsource-parser, and wait for things with bounded polling.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request as httpRequest, type IncomingMessage, type ClientRequest } from 'node:http';
import { startServer, type RunningServer, type ServerOptions } from './server';

export async function start(opts: ServerOptions = {}): Promise<RunningServer> {
  return startServer({ clock: 'manual', real: false, debounceMs: 10, log: () => undefined, ...opts });
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

export async function api<T = Record<string, unknown>>(
  server: RunningServer,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; headers?: Record<string, string> } = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { accept: 'application/json', ...(opts.headers ?? {}) };
  const key = opts.key === undefined ? server.apiKey : opts.key;
  if (key) {
    headers.authorization = `Bearer ${key}`;
  }
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const res = await fetch(server.url + path, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

export const answerPath = (conversationId: string, requestId: string) =>
  `/api/conversations/${conversationId}/requests/${encodeURIComponent(requestId)}`;

/** Poll until `fn` returns a truthy value; fails after `timeoutMs`. */
export async function waitFor<T>(fn: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) {
      return v;
    }
    if (Date.now() > until) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 15));
  }
}

export interface LogEvent {
  id: number;
  kind: string;
  stream: string;
  data: string;
  stage: string | null;
  state: string | null;
  turn_id: string | null;
  ts: string;
  blocks?: Record<string, unknown>[];
}

export async function events(
  server: RunningServer,
  conversationId: string,
  query = 'blocks=true&limit=1000',
): Promise<LogEvent[]> {
  const r = await api<{ data: LogEvent[] }>(server, 'GET', `/api/conversations/${conversationId}/events?${query}`);
  if (r.status !== 200) {
    throw new Error(`events: ${r.status}`);
  }
  return r.body.data;
}

export const stageData = (e: LogEvent) => JSON.parse(e.data) as Record<string, unknown>;

/** Wait for an event of the conversation matching `pred`. */
export async function waitEvent(
  server: RunningServer,
  conversationId: string,
  pred: (e: LogEvent) => boolean,
  what: string,
  timeoutMs?: number,
): Promise<LogEvent> {
  return waitFor(async () => (await events(server, conversationId)).find(pred), what, timeoutMs);
}

export const isStage = (stage: string, state?: string) => (e: LogEvent) =>
  e.kind === 'stage' && e.stage === stage && (state === undefined || e.state === state);

/** Create a conversation and wait for its first permission_request block. */
export async function createAndAsk(
  server: RunningServer,
  agentId: string,
  prompt: string,
  extra: Record<string, unknown> = {},
  timeoutMs?: number,
): Promise<{ id: string; requestId: string; block: Record<string, unknown>; line: Record<string, unknown> }> {
  const r = await api<{ data: { id: string } }>(server, 'POST', '/api/conversations', {
    body: { agent_id: agentId, prompt, ...extra },
  });
  if (r.status !== 201) {
    throw new Error(`create: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const id = r.body.data.id;
  const ev = await waitEvent(
    server,
    id,
    (e) => !!e.blocks?.some((b) => b.kind === 'permission_request'),
    'a permission request',
    timeoutMs,
  );
  const block = ev.blocks!.find((b) => b.kind === 'permission_request')!;
  return { id, requestId: block.request_id as string, block, line: JSON.parse(ev.data) as Record<string, unknown> };
}

export interface SseClient {
  status: number;
  headers: IncomingMessage['headers'];
  messages: EventSourceMessage[];
  comments: string[];
  raw: string;
  ended: Promise<'end' | 'error'>;
  next(pred: (m: EventSourceMessage) => boolean, what: string, timeoutMs?: number): Promise<EventSourceMessage>;
  close(): void;
}

/** Open an SSE stream over node:http and parse it with eventsource-parser. */
export function openSse(
  server: RunningServer,
  path: string,
  opts: { key?: string; lastEventId?: number | string } = {},
): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      authorization: `Bearer ${opts.key ?? server.apiKey}`,
    };
    if (opts.lastEventId !== undefined) {
      headers['last-event-id'] = String(opts.lastEventId);
    }
    const req: ClientRequest = httpRequest(server.url + path, { headers });
    req.on('error', reject);
    req.on('response', (res) => {
      const c: SseClient = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages: [],
        comments: [],
        raw: '',
        ended: new Promise((r) => {
          res.on('end', () => r('end'));
          res.on('error', () => r('error'));
          res.on('aborted', () => r('error'));
          req.on('error', () => r('error'));
        }),
        async next(pred, what, timeoutMs = 5000) {
          return waitFor(() => c.messages.find(pred), what, timeoutMs);
        },
        close() {
          req.destroy();
        },
      };
      const parser = createParser({
        onEvent: (m) => c.messages.push(m),
        onComment: (t) => c.comments.push(t.trim()),
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        c.raw += chunk;
        parser.feed(chunk);
      });
      resolve(c);
    });
    req.end();
  });
}

export const payload = (m: EventSourceMessage) => JSON.parse(m.data) as Record<string, unknown>;
