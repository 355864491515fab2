/**
 * The local Fountain-compatible server: `node:http` on 127.0.0.1, the documented routes and statuses, SSE, and a
 * control API (`/_control/*`, guarded by a control token) for fault knobs. See ./README.md for the reference.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { IN_TURN_CEILING_SEC, validatePolicy } from '../../src/policy';
import { agentRegistry } from './agents/registry';
import type { AgentDefinition } from './agents/types';
import { ServerClock } from './clock';
import { Engine, type HttpResult } from './engine';
import { runScenario } from './scenarios';
import { SseHub, type StreamFilter } from './sse';
import { newKey, Store, type AgentRec, type ConversationRec, type EventRec, type KeyRec, type UserRec } from './store';

export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** `real` (default) or `manual`, or a clock you made. */
  clock?: 'real' | 'manual' | ServerClock;
  /** Start time (epoch ms) for the clock. */
  now?: number;
  scenario?: string;
  /** Append-only JSONL state file; an existing file is loaded (a restart keeps event ids and open requests). */
  stateFile?: string;
  /** Root of the conversations' working directories (default: a fresh temp dir, removed on close). */
  workDir?: string;
  /** Heartbeat comment period in ms (default 15 000). */
  heartbeatMs?: number;
  /** In-turn ceiling in seconds (default 300). */
  ceilingSec?: number;
  /** Detached sweep period in clock ms (default 60 000). */
  sweepMs?: number;
  /** Debounce of `event: conversations` in ms (default 50). */
  debounceMs?: number;
  /** Load real agents from ./agents/real when present (default true). */
  real?: boolean;
  /** Extra agents (tests). */
  agents?: AgentDefinition[];
  /** Fixed keys instead of random ones. */
  keys?: { alice?: string; bob?: string };
  log?: (msg: string) => void;
  /** Wall-clock delay in ms before every API response (not SSE streams, not the control API). Default 0. */
  latencyMs?: number;
}

export interface FailRule {
  route?: string;
  path?: string;
  method?: string;
  status: number;
  count: number;
  retryAfter?: number;
  body?: unknown;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly apiKey2: string;
  readonly revokedKey: string;
  readonly expiredKey: string;
  readonly controlUrl: string;
  readonly controlToken: string;
  readonly clock: ServerClock;
  readonly engine: Engine;
  readonly store: Store;
  readonly hub: SseHub;
  /** The ready line's object. */
  info(): Record<string, unknown>;
  spriteKey(conversationId: string): string | undefined;
  cwdOf(conversationId: string): string | undefined;
  /** Prompts the conversation's scripted agent received, in order. */
  agentPrompts(conversationId: string): string[];
  // fault knobs, also on the control API
  advance(ms: number): number;
  abortStreams(): number;
  stallStreams(stalled: boolean): void;
  dropStream(id?: number, how?: 'abort' | 'end'): number | null;
  failNext(rule: Partial<FailRule> & { status: number }): void;
  clearFailures(): void;
  restart(opts?: { mode?: 'soft' | 'hard'; downMs?: number }): Promise<void>;
  setAccount(user: string, flags: { suspended?: boolean; no_credits?: boolean; unavailable?: boolean }): void;
  failResumes(count: number): void;
  /** Delay (wall-clock ms) before every API response; SSE streams and the control API are not delayed. */
  readonly latencyMs: number;
  setLatency(ms: number): void;
  /** API requests in flight now and the most at once since start or the last reset (SSE streams and control excluded). */
  inFlight(): { max: number; current: number };
  /** Restarts the maximum from the requests in flight now. */
  resetInFlight(): void;
  /** Create a conversation (and send its prompt) as another client would. */
  createConversation(body: Record<string, unknown>, user?: string): HttpResult;
  sendPrompt(conversationId: string, prompt: string): HttpResult;
  userId(name: string): string | undefined;
  close(): Promise<void>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATUSES = new Set(['pending', 'running', 'idle', 'failed', 'terminated']);
/** Routes that answer with an SSE stream: never delayed, never counted in flight (they are held open). */
const SSE_ROUTES = new Set(['stream', 'eventsStream']);
const MAX_LATENCY_MS = 60_000;

interface Auth {
  user: UserRec;
  key: KeyRec;
}

interface Ctx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: string[];
  auth?: Auth;
}

type Route = {
  method: string;
  re: RegExp;
  name: string;
  json: boolean;
  auth: 'none' | 'any' | 'full' | 'control';
  handle: (ctx: Ctx) => Promise<HttpResult | undefined> | HttpResult | undefined;
};

function sendJson(res: ServerResponse, r: HttpResult): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const body = JSON.stringify(r.body);
  res.writeHead(r.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(r.headers ?? {}),
  });
  res.end(body);
}

/** Bodies read per request, so the request log can show what a client sent. */
const bodiesRead = new WeakMap<IncomingMessage, unknown>();

async function readBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBodyRaw(req);
  bodiesRead.set(req, body);
  return body;
}

async function readBodyRaw(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 2_000_000) {
      throw new Error('too_large');
    }
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) {
    return {};
  }
  return JSON.parse(text) as unknown;
}

function acceptsJson(req: IncomingMessage): boolean {
  const a = req.headers.accept;
  if (!a) {
    return true;
  }
  return a.split(',').some((part) => {
    const t = part.split(';')[0].trim().toLowerCase();
    return t === '*/*' || t === 'application/*' || t === 'application/json' || t.endsWith('+json');
  });
}

const unauthorized = (reason: string, error: string): HttpResult => ({ status: 401, body: { error, reason } });

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? ((m: string) => console.error(`[test-server] ${m}`));
  const clock =
    opts.clock instanceof ServerClock
      ? opts.clock
      : new ServerClock(opts.clock === 'manual' ? 'manual' : 'real', opts.now);
  const ownWorkDir = !opts.workDir;
  const workDir = opts.workDir ?? mkdtempSync(path.join(os.tmpdir(), 'fountain-test-server-'));
  mkdirSync(workDir, { recursive: true });
  const agents = await agentRegistry({ real: opts.real, log });
  for (const a of opts.agents ?? []) {
    agents.set(a.id, a);
  }
  const hub = new SseHub(opts.heartbeatMs ?? 15_000, opts.debounceMs ?? 50);
  let store = new Store(opts.stateFile);
  const engineOpts = {
    clock,
    hub,
    agents,
    workDir,
    ceilingSec: opts.ceilingSec ?? IN_TURN_CEILING_SEC,
    sweepMs: opts.sweepMs ?? 60_000,
    log,
  };

  const fresh = store.isEmpty;
  if (fresh) {
    seed(store, clock.now(), opts.keys);
  }
  // Agents from the registry that the state does not know yet (a new scripted agent, or real ones now present).
  for (const a of agents.values()) {
    if (!store.agents.has(a.id)) {
      const t = new Date(clock.now()).toISOString();
      store.saveAgent({
        id: a.id,
        name: a.name,
        runtime: a.runtime,
        description: a.description,
        permission_policy: { ...a.policy },
        inserted_at: t,
        updated_at: t,
      });
    }
  }
  let engine = new Engine(store, engineOpts);
  if (!fresh) {
    engine.recover();
  }

  const controlToken = 'ctl_' + randomBytes(16).toString('hex');
  const failures: FailRule[] = [];
  const sockets = new Set<Socket>();
  let latencyMs = 0;
  const inflight = { max: 0, current: 0 };
  const keyOf = (userId: string, kind: 'full' | 'revoked' | 'expired') =>
    [...store.keys.values()].find(
      (k) =>
        k.user_id === userId &&
        k.scope === 'full' &&
        (kind === 'revoked'
          ? k.revoked
          : kind === 'expired'
            ? k.expires_at != null
            : !k.revoked && k.expires_at == null),
    )?.key ?? '';

  const userByName = (name: string | undefined): UserRec | undefined => {
    if (!name) {
      return store.users.get('user-alice');
    }
    return (
      store.users.get(name) ??
      [...store.users.values()].find((u) => u.email.split('@')[0] === name || u.id === `user-${name}`)
    );
  };

  const authenticate = (req: IncomingMessage): Auth | HttpResult => {
    const h = req.headers.authorization;
    const m = h ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
    if (!m) {
      return unauthorized('api_key_invalid', 'Missing or malformed API key');
    }
    const key = store.keys.get(m[1]);
    if (!key) {
      return unauthorized('api_key_invalid', 'Invalid API key');
    }
    if (key.revoked) {
      return unauthorized('api_key_revoked', 'This API key was revoked');
    }
    if (key.expires_at != null && key.expires_at <= clock.now()) {
      return unauthorized('api_key_expired', 'This API key has expired');
    }
    const user = store.users.get(key.user_id);
    if (!user) {
      return unauthorized('api_key_invalid', 'Invalid API key');
    }
    if (user.unavailable) {
      return unauthorized('account_unavailable', 'This account is unavailable');
    }
    return { user, key };
  };

  /** The conversation if this key may see it; a sprite key sees only its own conversation. */
  const visibleConv = (auth: Auth, id: string): ConversationRec | undefined => {
    if (!UUID_RE.test(id)) {
      return undefined;
    }
    const c = store.conversations.get(id.toLowerCase());
    if (!c || c.user_id !== auth.user.id) {
      return undefined;
    }
    if (auth.key.scope !== 'full' && auth.key.scope !== `sprite:${c.id}`) {
      return undefined;
    }
    return c;
  };
  const notFound: HttpResult = { status: 404, body: { error: 'not_found' } };

  const parseStreams = (url: URL): Set<string> | undefined => {
    const s = url.searchParams.get('streams');
    if (s === null || s === '') {
      return undefined;
    }
    return new Set(s.split(',').map((x) => x.trim()));
  };
  const truthy = (v: string | null) => v === 'true' || v === '1';

  const logEventJson = (e: EventRec, blocks: boolean): Record<string, unknown> => ({
    id: e.id,
    kind: e.kind,
    stream: e.stream,
    data: e.data,
    stage: e.stage,
    state: e.state,
    duration_ms: e.duration_ms,
    turn_id: e.turn_id,
    ts: e.ts,
    ...(blocks ? { blocks: e.blocks ?? [] } : {}),
  });

  const lastEventIdOf = (req: IncomingMessage): number | undefined => {
    const h = req.headers['last-event-id'];
    if (h === undefined) {
      return undefined;
    }
    const n = Number(Array.isArray(h) ? h[0] : h);
    return Number.isInteger(n) && n >= 0 ? n : 0;
  };

  const routes: Route[] = [
    {
      method: 'GET',
      re: /^\/api\/auth\/me$/,
      name: 'me',
      json: true,
      auth: 'any',
      handle: ({ auth }) => ({
        status: 200,
        body: { id: auth!.user.id, email: auth!.user.email, role: auth!.user.role, email_verified: true },
      }),
    },
    {
      method: 'GET',
      re: /^\/api\/conversations$/,
      name: 'listConversations',
      json: true,
      auth: 'full',
      handle: ({ url, auth }) => {
        const sp = url.searchParams;
        let statuses: Set<string> | undefined;
        const st = sp.get('status');
        if (st !== null) {
          const parts = st.split(',').map((s) => s.trim());
          if (parts.some((p) => !STATUSES.has(p))) {
            return { status: 400, body: { error: 'invalid_status' } };
          }
          statuses = new Set(parts);
        }
        let limit: number | undefined;
        const l = sp.get('limit');
        if (l !== null) {
          limit = Number(l);
          if (!/^\d+$/.test(l) || limit < 1 || limit > 500) {
            return { status: 400, body: { error: 'invalid_limit' } };
          }
        }
        const labels: [string, string][] = [];
        for (const raw of [...sp.getAll('label'), ...sp.getAll('label[]')]) {
          const m = /^([^:]+):(.+)$/.exec(raw);
          if (!m) {
            return { status: 400, body: { error: 'invalid_label_filter' } };
          }
          labels.push([m[1], m[2]]);
        }
        const agentId = sp.get('agent_id');
        const channelId = sp.get('channel_id');
        let list = [...store.conversations.values()].filter(
          (c) =>
            c.user_id === auth!.user.id &&
            (!statuses || statuses.has(c.status)) &&
            (!agentId || c.agent_id === agentId) &&
            (!channelId || c.channel_id === channelId) &&
            labels.every(([k, v]) => c.labels[k] === v),
        );
        list.sort(
          (a, b) =>
            b.updated_ms - a.updated_ms || b.update_seq - a.update_seq || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
        );
        if (limit !== undefined) {
          list = list.slice(0, limit);
        }
        return { status: 200, body: { data: list.map((c) => engine.conversationJson(c, false)) } };
      },
    },
    {
      method: 'POST',
      re: /^\/api\/conversations$/,
      name: 'createConversation',
      json: true,
      auth: 'full',
      handle: async ({ req, auth }) => {
        const body = await readBody(req);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return { status: 422, body: { error: 'validation_failed', errors: { body: ['must be an object'] } } };
        }
        return engine.createConversation(auth!.user, body as Record<string, unknown>);
      },
    },
    {
      method: 'GET',
      re: /^\/api\/conversations\/([^/]+)$/,
      name: 'getConversation',
      json: true,
      auth: 'any',
      handle: ({ params, auth }) => {
        const c = visibleConv(auth!, params[0]);
        return c ? { status: 200, body: { data: engine.conversationJson(c, true) } } : notFound;
      },
    },
    {
      method: 'GET',
      re: /^\/api\/conversations\/([^/]+)\/turns$/,
      name: 'turns',
      json: true,
      auth: 'any',
      handle: ({ params, auth }) => {
        const c = visibleConv(auth!, params[0]);
        return c ? { status: 200, body: { data: store.turnsOf(c.id).map((t) => engine.turnJson(t)) } } : notFound;
      },
    },
    {
      method: 'GET',
      re: /^\/api\/conversations\/([^/]+)\/events$/,
      name: 'events',
      json: true,
      auth: 'any',
      handle: ({ params, auth, url }) => {
        const c = visibleConv(auth!, params[0]);
        if (!c) {
          return notFound;
        }
        const sp = url.searchParams;
        const afterRaw = sp.get('after');
        const after = afterRaw === null || afterRaw === '' ? 0 : Number(afterRaw);
        if (!Number.isInteger(after) || after < 0) {
          return { status: 400, body: { error: 'invalid_cursor' } };
        }
        const limRaw = sp.get('limit');
        const limit = limRaw === null ? 100 : Number(limRaw);
        if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
          return { status: 400, body: { error: 'invalid_limit' } };
        }
        const streams = parseStreams(url);
        const rows = store.eventsAfter(
          after,
          (e) => e.conversation_id === c.id && (!streams || streams.has(e.stream)),
          limit + 1,
        );
        const hasMore = rows.length > limit;
        const page = rows.slice(0, limit);
        const blocks = truthy(sp.get('blocks'));
        return {
          status: 200,
          body: {
            data: page.map((e) => logEventJson(e, blocks)),
            meta: { limit, has_more: hasMore, next_cursor: page.length ? page[page.length - 1].id : null },
          },
        };
      },
    },
    {
      method: 'GET',
      re: /^\/api\/conversations\/([^/]+)\/stream$/,
      name: 'stream',
      json: false,
      auth: 'any',
      handle: ({ params, auth, url, req, res }) => {
        const c = visibleConv(auth!, params[0]);
        if (!c) {
          return notFound;
        }
        const filter: StreamFilter = {
          conversationId: c.id,
          streams: parseStreams(url),
          blocks: truthy(url.searchParams.get('blocks')),
        };
        const conn = hub.open(res, filter, url.pathname + url.search, req.headers['user-agent'] ?? null);
        const after = lastEventIdOf(req) ?? 0;
        for (const e of store.eventsAfter(after, (e) => conn.matches(e))) {
          conn.sendEvent(e);
        }
        const wait = url.searchParams.get('wait');
        if (wait === 'false' || wait === '0') {
          conn.end();
        }
        return undefined;
      },
    },
    {
      method: 'GET',
      re: /^\/api\/events\/stream$/,
      name: 'eventsStream',
      json: false,
      auth: 'full',
      handle: ({ auth, url, req, res }) => {
        const filter: StreamFilter = {
          userId: auth!.user.id,
          streams: parseStreams(url),
          blocks: truthy(url.searchParams.get('blocks')),
        };
        const conn = hub.open(res, filter, url.pathname + url.search, req.headers['user-agent'] ?? null);
        const after = lastEventIdOf(req);
        if (after === undefined) {
          conn.lastSentId = store.lastEventId; // no cursor: only what is recorded from now on
        } else {
          for (const e of store.eventsAfter(after, (e) => conn.matches(e))) {
            conn.sendEvent(e);
          }
        }
        return undefined;
      },
    },
    {
      method: 'POST',
      re: /^\/api\/conversations\/([^/]+)\/prompts$/,
      name: 'prompts',
      json: true,
      auth: 'any',
      handle: async ({ params, auth, req }) => {
        const c = visibleConv(auth!, params[0]);
        if (!c) {
          return notFound;
        }
        const body = (await readBody(req)) as Record<string, unknown>;
        if (typeof body?.prompt !== 'string' || body.prompt === '') {
          return { status: 422, body: { error: 'validation_failed', errors: { prompt: ["can't be blank"] } } };
        }
        if (c.status === 'failed' || c.status === 'terminated') {
          return { status: 409, body: { error: 'conversation_terminated' } };
        }
        engine.enqueue(
          c,
          body.prompt,
          'user',
          typeof body.client_request_id === 'string' ? body.client_request_id : null,
        );
        return { status: 202, body: { status: 'queued' } };
      },
    },
    {
      method: 'POST',
      re: /^\/api\/conversations\/([^/]+)\/interrupt$/,
      name: 'interrupt',
      json: true,
      auth: 'any',
      handle: async ({ params, auth }) => {
        const c = visibleConv(auth!, params[0]);
        if (!c) {
          return notFound;
        }
        const ok = await engine.interrupt(c);
        return { status: 200, body: { ok, interrupted: ok } };
      },
    },
    {
      method: 'POST',
      re: /^\/api\/conversations\/([^/]+)\/requests\/([^/]+)$/,
      name: 'answer',
      json: true,
      auth: 'any',
      handle: async ({ params, auth, req }) => {
        let requestId: string;
        try {
          requestId = decodeURIComponent(params[1]);
        } catch {
          return notFound;
        }
        const body = await readBody(req);
        if (typeof body !== 'object' || body === null || Array.isArray(body) || !('option_id' in body)) {
          return { status: 422, body: { error: 'validation_failed', errors: { option_id: ['is required'] } } };
        }
        const optionId = (body as Record<string, unknown>).option_id;
        const id = params[0];
        const convId = UUID_RE.test(id) ? id.toLowerCase() : '';
        if (auth!.key.scope !== 'full' && !auth!.key.scope.startsWith('sprite:')) {
          return notFound;
        }
        return engine.answer(auth!.key.scope, auth!.user, convId, requestId, optionId);
      },
    },
    {
      method: 'GET',
      re: /^\/api\/agents$/,
      name: 'listAgents',
      json: true,
      auth: 'full',
      handle: () => ({ status: 200, body: { data: [...store.agents.values()].map(agentJson) } }),
    },
    {
      method: 'GET',
      re: /^\/api\/agents\/([^/]+)$/,
      name: 'getAgent',
      json: true,
      auth: 'full',
      handle: ({ params }) => {
        const a = store.agents.get(decodeURIComponent(params[0]));
        return a ? { status: 200, body: { data: agentJson(a) } } : notFound;
      },
    },
    {
      method: 'PATCH',
      re: /^\/api\/agents\/([^/]+)$/,
      name: 'patchAgent',
      json: true,
      auth: 'full',
      handle: async ({ params, req }) => {
        const a = store.agents.get(decodeURIComponent(params[0]));
        if (!a) {
          return notFound;
        }
        const body = await readBody(req);
        if (typeof body !== 'object' || body === null || Array.isArray(body)) {
          return { status: 422, body: { error: 'validation_failed', errors: { body: ['must be an object'] } } };
        }
        const b = body as Record<string, unknown>;
        const next = { ...a };
        if ('permission_policy' in b) {
          const p = b.permission_policy === null ? {} : b.permission_policy;
          const v = validatePolicy(p, { runtime: a.runtime });
          if (!v.ok) {
            return { status: 422, body: { error: 'validation_failed', errors: { permission_policy: v.errors } } };
          }
          next.permission_policy = p as Record<string, unknown>;
        }
        if ('name' in b) {
          if (typeof b.name !== 'string' || b.name === '') {
            return { status: 422, body: { error: 'validation_failed', errors: { name: ["can't be blank"] } } };
          }
          next.name = b.name;
        }
        next.updated_at = new Date(clock.now()).toISOString();
        Object.assign(a, next);
        store.saveAgent(a);
        return { status: 200, body: { data: agentJson(a) } };
      },
    },
    // ------------------------------------------------------------------------------------------- control API
    {
      method: 'GET',
      re: /^\/_control\/state$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => ({
        status: 200,
        body: {
          now: new Date(clock.now()).toISOString(),
          now_ms: clock.now(),
          last_event_id: store.lastEventId,
          conversations: [...store.conversations.values()].map((c) => ({
            id: c.id,
            user_id: c.user_id,
            agent_id: c.agent_id,
            status: c.status,
            cwd: c.cwd,
            sprite_key: engine.spriteKeyOf(c.id) ?? null,
          })),
          streams: hub.list(),
          requests: [...store.requests.values()]
            .filter((r) => r.state !== 'resolved')
            .map((r) => ({
              conversation_id: r.conversation_id,
              request_id: r.request_id,
              state: r.state,
              deadline: r.deadline,
            })),
        },
      }),
    },
    {
      method: 'GET',
      re: /^\/_control\/log$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => ({ status: 200, body: { data: requestLog } }),
    },
    {
      method: 'POST',
      re: /^\/_control\/clock\/advance$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const ms = Number(b.ms ?? 0) + Number(b.seconds ?? 0) * 1000;
        if (!(ms >= 0)) {
          return { status: 422, body: { error: 'validation_failed', errors: { ms: ['must be >= 0'] } } };
        }
        const now = clock.advance(ms);
        return { status: 200, body: { now: new Date(now).toISOString(), now_ms: now } };
      },
    },
    {
      method: 'GET',
      re: /^\/_control\/streams$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => ({ status: 200, body: { data: hub.list() } }),
    },
    {
      method: 'POST',
      re: /^\/_control\/streams\/abort$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => ({ status: 200, body: { aborted: api.abortStreams() } }),
    },
    {
      method: 'POST',
      re: /^\/_control\/streams\/stall$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        api.stallStreams(b.stalled !== false);
        return { status: 200, body: { stalled: hub.stalled } };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/streams\/drop$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const id = typeof b.id === 'number' ? b.id : undefined;
        return { status: 200, body: { dropped: api.dropStream(id, b.how === 'end' ? 'end' : 'abort') } };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/heartbeat$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const ms = Number(b.ms);
        if (!(ms >= 10)) {
          return { status: 422, body: { error: 'validation_failed', errors: { ms: ['must be >= 10'] } } };
        }
        hub.heartbeatMs = ms;
        return { status: 200, body: { heartbeat_ms: ms } };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/fail$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const status = Number(b.status);
        if (!Number.isInteger(status) || status < 100 || status > 599) {
          return { status: 422, body: { error: 'validation_failed', errors: { status: ['must be an HTTP status'] } } };
        }
        api.failNext({
          route: typeof b.route === 'string' ? b.route : undefined,
          path: typeof b.path === 'string' ? b.path : undefined,
          method: typeof b.method === 'string' ? b.method : undefined,
          status,
          count: typeof b.count === 'number' ? b.count : 1,
          retryAfter: typeof b.retry_after === 'number' ? b.retry_after : undefined,
          body: b.body,
        });
        return { status: 200, body: { ok: true } };
      },
    },
    {
      method: 'DELETE',
      re: /^\/_control\/fail$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => {
        api.clearFailures();
        return { status: 200, body: { ok: true } };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/restart$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req, res }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const mode = b.mode === 'hard' ? 'hard' : 'soft';
        const downMs = typeof b.down_ms === 'number' ? b.down_ms : 0;
        res.on('finish', () => {
          setTimeout(() => {
            api.restart({ mode, downMs }).catch((err: unknown) => log(`restart failed: ${String(err)}`));
          }, 10);
        });
        return { status: 200, body: { ok: true, mode, down_ms: downMs } };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/conversations$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        return api.createConversation(b, typeof b.user === 'string' ? b.user : undefined);
      },
    },
    {
      method: 'GET',
      re: /^\/_control\/conversations\/([^/]+)$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: ({ params }) => {
        const c = store.conversations.get(params[0]);
        if (!c) {
          return notFound;
        }
        return {
          status: 200,
          body: {
            id: c.id,
            user_id: c.user_id,
            status: c.status,
            cwd: c.cwd,
            sprite_key: engine.spriteKeyOf(c.id) ?? null,
            agent_prompts: api.agentPrompts(c.id),
            held: [...store.requests.values()]
              .filter((r) => r.conversation_id === c.id && engine.isHeld(c.id, r.request_id))
              .map((r) => r.request_id),
          },
        };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/conversations\/([^/]+)\/prompts$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ params, req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        return api.sendPrompt(params[0], typeof b.prompt === 'string' ? b.prompt : '');
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/conversations\/([^/]+)\/interrupt$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ params }) => {
        const c = store.conversations.get(params[0]);
        return c ? { status: 200, body: { interrupted: await engine.interrupt(c) } } : notFound;
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/accounts\/([^/]+)$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ params, req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const u = userByName(params[0]);
        if (!u) {
          return notFound;
        }
        api.setAccount(u.id, {
          suspended: typeof b.suspended === 'boolean' ? b.suspended : undefined,
          no_credits: typeof b.no_credits === 'boolean' ? b.no_credits : undefined,
          unavailable: typeof b.unavailable === 'boolean' ? b.unavailable : undefined,
        });
        return {
          status: 200,
          body: { id: u.id, suspended: !!u.suspended, no_credits: !!u.no_credits, unavailable: !!u.unavailable },
        };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/resume-failures$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        api.failResumes(Number(b.count ?? 1));
        return { status: 200, body: { count: engine.resumeFailures } };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/latency$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: async ({ req }) => {
        const b = (await readBody(req)) as Record<string, unknown>;
        const ms = b.ms;
        if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_LATENCY_MS)) {
          return {
            status: 422,
            body: { error: 'validation_failed', errors: { ms: [`must be a number from 0 to ${MAX_LATENCY_MS}`] } },
          };
        }
        api.setLatency(ms);
        return { status: 200, body: { latency_ms: latencyMs } };
      },
    },
    {
      method: 'GET',
      re: /^\/_control\/inflight$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => ({ status: 200, body: api.inFlight() }),
    },
    {
      method: 'POST',
      re: /^\/_control\/inflight\/reset$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => {
        api.resetInFlight();
        return { status: 200, body: api.inFlight() };
      },
    },
    {
      method: 'POST',
      re: /^\/_control\/sweep$/,
      name: 'control',
      json: true,
      auth: 'control',
      handle: () => {
        engine.sweep();
        return { status: 200, body: { ok: true } };
      },
    },
  ];

  const takeFailure = (route: Route, ctx: Ctx): FailRule | undefined => {
    if (route.auth === 'control') {
      return undefined;
    }
    const i = failures.findIndex(
      (f) =>
        f.count > 0 &&
        (!f.route || f.route === route.name) &&
        (!f.path || ctx.url.pathname.startsWith(f.path)) &&
        (!f.method || f.method.toUpperCase() === ctx.req.method),
    );
    if (i < 0) {
      return undefined;
    }
    const f = failures[i];
    f.count--;
    if (f.count <= 0) {
      failures.splice(i, 1);
    }
    return f;
  };

  /** Every API request this server answered (not the control API), newest last; bounded. */
  const requestLog: { at: string; method: string; path: string; status: number; body?: unknown }[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!url.pathname.startsWith('/_control')) {
      res.once('finish', () => {
        requestLog.push({
          at: new Date(clock.now()).toISOString(),
          method: req.method ?? '',
          path: url.pathname,
          status: res.statusCode,
          ...(bodiesRead.has(req) ? { body: bodiesRead.get(req) } : {}),
        });
        if (requestLog.length > 5000) {
          requestLog.splice(0, requestLog.length - 5000);
        }
      });
    }
    let route: Route | undefined;
    let params: string[] = [];
    let methodMismatch = false;
    for (const r of routes) {
      const m = r.re.exec(url.pathname);
      if (!m) {
        continue;
      }
      if (r.method !== req.method) {
        methodMismatch = true;
        continue;
      }
      route = r;
      params = m.slice(1);
      break;
    }
    const stream = route !== undefined && SSE_ROUTES.has(route.name);
    if (!url.pathname.startsWith('/_control') && !stream) {
      inflight.current++;
      inflight.max = Math.max(inflight.max, inflight.current);
      // 'close' follows 'finish', and also comes when the client goes away first.
      res.once('close', () => inflight.current--);
    }
    if (!route) {
      sendJson(res, methodMismatch ? { status: 405, body: { error: 'method_not_allowed' } } : notFound);
      return;
    }
    if (latencyMs > 0 && route.auth !== 'control' && !stream) {
      await delay(latencyMs);
      if (res.destroyed) {
        req.resume();
        return;
      }
    }
    const ctx: Ctx = { req, res, url, params };
    const fail = takeFailure(route, ctx);
    if (fail) {
      const headers: Record<string, string> = {};
      if (fail.retryAfter !== undefined) {
        headers['retry-after'] = String(fail.retryAfter);
      }
      const body = fail.body ?? (fail.status === 429 ? { error: 'rate_limited' } : { error: 'injected_failure' });
      sendJson(res, { status: fail.status, body, headers });
      req.resume();
      return;
    }
    if (route.auth === 'control') {
      const h = req.headers.authorization ?? '';
      if (h !== `Bearer ${controlToken}` && req.headers['x-control-token'] !== controlToken) {
        sendJson(res, { status: 401, body: { error: 'control token required' } });
        req.resume();
        return;
      }
    } else {
      if (route.json && !acceptsJson(req)) {
        sendJson(res, { status: 406, body: { errors: { detail: 'Not Acceptable' } } });
        req.resume();
        return;
      }
      const a = authenticate(req);
      if ('status' in a) {
        sendJson(res, a);
        req.resume();
        return;
      }
      if (route.auth === 'full' && a.key.scope !== 'full') {
        sendJson(res, {
          status: 403,
          body: {
            error: 'This route needs a full-scope API key',
            reason: 'insufficient_scope',
            required_scope: 'full',
          },
        });
        req.resume();
        return;
      }
      ctx.auth = a;
    }
    try {
      const r = await route.handle(ctx);
      if (r) {
        sendJson(res, r);
      }
    } catch (err) {
      if (err instanceof SyntaxError) {
        sendJson(res, { status: 400, body: { error: 'invalid_json', message: 'the request body is not valid JSON' } });
      } else if ((err as Error)?.message === 'too_large') {
        sendJson(res, { status: 413, body: { error: 'too_large' } });
      } else {
        log(`route ${route.name} failed: ${(err as Error)?.stack ?? String(err)}`);
        sendJson(res, { status: 500, body: { error: 'internal_error' } });
      }
    }
  };

  let http: Server;
  let port = opts.port ?? 0;
  const listen = async (): Promise<void> => {
    http = createServer((req, res) => {
      handle(req, res).catch((err: unknown) => {
        log(`request failed: ${String(err)}`);
        sendJson(res, { status: 500, body: { error: 'internal_error' } });
      });
    });
    http.keepAliveTimeout = 5_000;
    http.on('connection', (s: Socket) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(port, '127.0.0.1', () => {
        http.off('error', reject);
        resolve();
      });
    });
    const addr = http.address();
    if (addr && typeof addr === 'object') {
      port = addr.port;
    }
  };
  const closeHttp = async (): Promise<void> => {
    hub.closeAll();
    const closed = new Promise<void>((r) => http.close(() => r()));
    for (const s of sockets) {
      s.destroy();
    }
    sockets.clear();
    await closed;
  };

  await listen();
  const url = `http://127.0.0.1:${port}`;

  const api: RunningServer = {
    url,
    port,
    get apiKey() {
      return keyOf('user-alice', 'full');
    },
    get apiKey2() {
      return keyOf('user-bob', 'full');
    },
    get revokedKey() {
      return keyOf('user-alice', 'revoked');
    },
    get expiredKey() {
      return keyOf('user-alice', 'expired');
    },
    controlUrl: `${url}/_control`,
    controlToken,
    clock,
    get engine() {
      return engine;
    },
    get store() {
      return store;
    },
    hub,
    info() {
      const convs = [...store.conversations.values()].filter((c) => c.user_id === 'user-alice');
      const first = convs[0];
      return {
        url,
        apiKey: api.apiKey,
        apiKey2: api.apiKey2,
        revokedKey: api.revokedKey,
        expiredKey: api.expiredKey,
        controlUrl: api.controlUrl,
        controlToken,
        agents: [...store.agents.keys()],
        conversations: convs.map((c) => c.id),
        ...(first ? { spriteKey: engine.spriteKeyOf(first.id), spriteConversationId: first.id } : {}),
        clock: clock.mode,
        workDir,
      };
    },
    spriteKey: (id) => engine.spriteKeyOf(id),
    cwdOf: (id) => store.conversations.get(id)?.cwd,
    agentPrompts(id) {
      const c = store.conversations.get(id);
      if (!c) {
        return [];
      }
      try {
        return readFileSync(path.join(c.cwd, '.fountain-agent-prompts.jsonl'), 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => (JSON.parse(l) as { text: string }).text);
      } catch {
        return [];
      }
    },
    advance: (ms) => clock.advance(ms),
    abortStreams: () => hub.abortAll(),
    stallStreams: (s) => hub.setStalled(s),
    dropStream(id, how = 'abort') {
      const conns = hub.list();
      const target = id !== undefined ? hub.find(id) : hub.find(conns[conns.length - 1]?.id ?? -1);
      if (!target) {
        return null;
      }
      if (how === 'end') {
        target.end();
      } else {
        target.abort();
      }
      return target.id;
    },
    failNext(rule) {
      failures.push({ count: 1, ...rule });
    },
    clearFailures() {
      failures.length = 0;
    },
    async restart(o = {}) {
      await closeHttp();
      hub.setStalled(false);
      if (o.mode === 'hard') {
        await engine.dispose();
        store = store.reload();
        engine = new Engine(store, engineOpts);
        engine.recover();
      }
      if (o.downMs) {
        await new Promise((r) => setTimeout(r, o.downMs));
      }
      await listen();
    },
    setAccount(user, flags) {
      const u = userByName(user);
      if (!u) {
        throw new Error(`no user ${user}`);
      }
      for (const [k, v] of Object.entries(flags)) {
        if (typeof v === 'boolean') {
          (u as unknown as Record<string, unknown>)[k] = v;
        }
      }
      store.saveUser(u);
    },
    failResumes(count) {
      engine.resumeFailures = Math.max(0, Math.floor(count));
    },
    get latencyMs() {
      return latencyMs;
    },
    setLatency(ms) {
      if (!(ms >= 0 && ms <= MAX_LATENCY_MS)) {
        throw new Error(`latency must be from 0 to ${MAX_LATENCY_MS} ms`);
      }
      latencyMs = ms;
    },
    inFlight: () => ({ ...inflight }),
    resetInFlight() {
      inflight.max = inflight.current;
    },
    createConversation(body, user) {
      const u = userByName(user);
      if (!u) {
        return { status: 404, body: { error: 'not_found' } };
      }
      return engine.createConversation(u, body, 'ui');
    },
    sendPrompt(id, prompt) {
      const c = store.conversations.get(id);
      if (!c) {
        return notFound;
      }
      if (!prompt) {
        return { status: 422, body: { error: 'validation_failed', errors: { prompt: ["can't be blank"] } } };
      }
      engine.enqueue(c, prompt, 'user', null);
      return { status: 202, body: { status: 'queued' } };
    },
    userId: (name) => userByName(name)?.id,
    async close() {
      await closeHttp();
      await engine.dispose();
      clock.dispose();
      if (ownWorkDir) {
        rmSync(workDir, { recursive: true, force: true });
      }
    },
  };

  if (opts.latencyMs !== undefined) {
    api.setLatency(opts.latencyMs);
  }
  if (fresh && opts.scenario) {
    await runScenario(opts.scenario, api);
  }
  return api;
}

function agentJson(a: AgentRec) {
  return {
    id: a.id,
    name: a.name,
    runtime: a.runtime,
    description: a.description ?? null,
    permission_policy: a.permission_policy,
    inserted_at: a.inserted_at,
    updated_at: a.updated_at,
  };
}

function seed(store: Store, now: number, keys: { alice?: string; bob?: string } | undefined): void {
  store.saveUser({ id: 'user-alice', email: 'alice@example.test', role: 'owner' });
  store.saveUser({ id: 'user-bob', email: 'bob@example.test', role: 'owner' });
  store.saveKey({ key: keys?.alice ?? newKey(), user_id: 'user-alice', scope: 'full' });
  store.saveKey({ key: keys?.bob ?? newKey(), user_id: 'user-bob', scope: 'full' });
  store.saveKey({ key: newKey(), user_id: 'user-alice', scope: 'full', revoked: true });
  store.saveKey({ key: newKey(), user_id: 'user-alice', scope: 'full', expires_at: now - 1000 });
}
