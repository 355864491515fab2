/**
 * The one client of the local Fountain-compatible server (test/server), used by every tier, the demo and the bench:
 * its ready line (`ServerInfo`), the API as another client would call it, the control API, the request log, SSE read
 * with eventsource-parser, and bounded waits on its event log.
 *
 * Only `fetch`, `node:http` and eventsource-parser: the integration tier bundles this file into the extension host.
 * Starting and stopping the server (child process or in-process) is in ./serverFixture, which the extension host
 * never loads.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { waitFor } from './wait';

/** The server's ready line (`node test/server/main.mjs` prints it; `RunningServer.info()` returns it). */
export interface ServerInfo {
  url: string;
  apiKey: string;
  apiKey2?: string;
  revokedKey?: string;
  expiredKey?: string;
  controlUrl: string;
  controlToken: string;
  agents?: string[];
  conversations?: string[];
  spriteKey?: string;
  spriteConversationId?: string;
  clock?: 'real' | 'manual';
  workDir?: string;
  [extra: string]: unknown;
}

/** Where the API is and whose key to send (a ServerInfo or a RunningServer). */
export interface ApiAddress {
  readonly url: string;
  readonly apiKey: string;
}

/** Where the control API is (a ServerInfo or a RunningServer). */
export interface ControlAddress {
  readonly controlUrl: string;
  readonly controlToken: string;
}

/** One entry of the server's request log (`GET /_control/log`). */
export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  body?: unknown;
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** One call of the API; `key: null` sends no Authorization header. The body is parsed JSON, else the text. */
export async function api<T = Record<string, unknown>>(
  server: ApiAddress,
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

/** One call of the control API (`path` after `/_control`), whatever its status. */
export async function control<T = Record<string, unknown>>(
  server: ControlAddress,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${server.controlUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${server.controlToken}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: r.status, body: (await r.json()) as T };
}

/** Every API request the server answered, oldest first (control calls excluded). */
export async function requestLog(server: ControlAddress): Promise<LoggedRequest[]> {
  const r = await control<{ data: LoggedRequest[] }>(server, 'GET', '/log');
  if (r.status !== 200) {
    throw new Error(`control GET /log: ${r.status}`);
  }
  return r.body.data;
}

export const answerPath = (conversationId: string, requestId: string) =>
  `/api/conversations/${conversationId}/requests/${encodeURIComponent(requestId)}`;

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

/** The conversation's event log (`GET …/events`), with blocks. */
export async function events(
  server: ApiAddress,
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

export const isStage = (stage: string, state?: string) => (e: LogEvent) =>
  e.kind === 'stage' && e.stage === stage && (state === undefined || e.state === state);

/** Waits (5 s by default) for an event of the conversation matching `pred`. */
export async function waitEvent(
  server: ApiAddress,
  conversationId: string,
  pred: (e: LogEvent) => boolean,
  what: string,
  timeoutMs = 5000,
): Promise<LogEvent> {
  return waitFor(what, async () => (await events(server, conversationId)).find(pred), timeoutMs, 15);
}

/** Creates a conversation and waits for its first permission_request block. */
export async function createAndAsk(
  server: ApiAddress,
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

/** Opens an SSE stream over node:http and parses it with eventsource-parser. */
export function openSse(
  server: ApiAddress,
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
          return waitFor(what, () => c.messages.find(pred), timeoutMs, 15);
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

/** The client bound to one server: what the integration and UI tiers, the demo and the bench call. */
export class TestServer {
  constructor(readonly info: ServerInfo) {}

  /** One API call with the server's first key; the body is parsed JSON. */
  async api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const r = await api<T>(this.info, method, path, { body });
    return { status: r.status, body: r.body };
  }

  /** One control call; throws unless it answered 2xx. */
  async control<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await control<T>(this.info, method, path, body);
    if (r.status < 200 || r.status > 299) {
      throw new Error(`control ${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
    }
    return r.body;
  }

  /** Every API request the server answered, oldest first (control calls excluded). */
  requestLog(): Promise<LoggedRequest[]> {
    return requestLog(this.info);
  }

  /** The answer POSTs the server received for one conversation, oldest first. */
  async answersFor(conversationId: string): Promise<LoggedRequest[]> {
    const prefix = `/api/conversations/${conversationId}/requests/`;
    return (await this.requestLog()).filter((e) => e.method === 'POST' && e.path.startsWith(prefix));
  }

  /** Starts a conversation with a scripted agent whose prompt asks for something (see test/server/README.md). */
  async startConversation(agentId: string, prompt: string, extra: Record<string, unknown> = {}): Promise<string> {
    const r = await this.api<{ data: { id: string } }>('POST', '/api/conversations', {
      agent_id: agentId,
      prompt,
      ...extra,
    });
    if (r.status !== 200 && r.status !== 201) {
      throw new Error(`POST /api/conversations: ${r.status} ${JSON.stringify(r.body)}`);
    }
    return r.body.data.id;
  }

  /** What the scripted agent of a conversation received as prompts, its cwd, held requests and status. */
  conversationState(id: string): Promise<{ cwd: string; agent_prompts: unknown[]; held: string[]; status: string }> {
    return this.control('GET', `/conversations/${id}`);
  }
}
