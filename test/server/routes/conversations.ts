/** Conversations: list, create, show, turns, prompts, interrupt. */
import { visibleConv, type ServerContext } from '../context';
import { invalid, isRecord, notFound, readBody, type HttpResult } from '../http';
import type { Route, RouteCtx } from '../router';
import { conversationJson, turnJson } from '../views';
import { apiRoute } from './api';
import { createdHttp } from './results';

const STATUSES = new Set(['pending', 'running', 'idle', 'failed', 'terminated']);

interface ListQuery {
  statuses?: Set<string>;
  limit?: number;
  labels: [string, string][];
  agentId: string | null;
  channelId: string | null;
}

function listQuery(sp: URLSearchParams): ListQuery | HttpResult {
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
  return { statuses, limit, labels, agentId: sp.get('agent_id'), channelId: sp.get('channel_id') };
}

function list(s: ServerContext, { url, auth }: RouteCtx): HttpResult {
  const q = listQuery(url.searchParams);
  if ('status' in q) {
    return q;
  }
  let found = [...s.store.conversations.values()].filter(
    (c) =>
      c.user_id === auth!.user.id &&
      (!q.statuses || q.statuses.has(c.status)) &&
      (!q.agentId || c.agent_id === q.agentId) &&
      (!q.channelId || c.channel_id === q.channelId) &&
      q.labels.every(([k, v]) => c.labels[k] === v),
  );
  found.sort(
    (a, b) => b.updated_ms - a.updated_ms || b.update_seq - a.update_seq || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0),
  );
  if (q.limit !== undefined) {
    found = found.slice(0, q.limit);
  }
  return { status: 200, body: { data: found.map((c) => conversationJson(s.store, c, false)) } };
}

async function prompt(s: ServerContext, { params, auth, req }: RouteCtx): Promise<HttpResult> {
  const c = visibleConv(s.store, auth!, params[0]);
  if (!c) {
    return notFound;
  }
  const body = (await readBody(req)) as Record<string, unknown>;
  if (typeof body?.prompt !== 'string' || body.prompt === '') {
    return invalid('prompt', "can't be blank");
  }
  if (c.status === 'failed' || c.status === 'terminated') {
    return { status: 409, body: { error: 'conversation_terminated' } };
  }
  const clientRequestId = typeof body.client_request_id === 'string' ? body.client_request_id : null;
  s.engine.enqueue(c, body.prompt, 'user', clientRequestId);
  return { status: 202, body: { status: 'queued' } };
}

export function conversationRoutes(s: ServerContext): Route[] {
  return [
    apiRoute('GET', /^\/api\/conversations$/, 'listConversations', 'full', (ctx) => list(s, ctx)),
    apiRoute('POST', /^\/api\/conversations$/, 'createConversation', 'full', async ({ req, auth }) => {
      const body = await readBody(req);
      if (!isRecord(body)) {
        return invalid('body', 'must be an object');
      }
      return createdHttp(s.store, s.engine.createConversation(auth!.user, body));
    }),
    apiRoute('GET', /^\/api\/conversations\/([^/]+)$/, 'getConversation', 'any', ({ params, auth }) => {
      const c = visibleConv(s.store, auth!, params[0]);
      return c ? { status: 200, body: { data: conversationJson(s.store, c, true) } } : notFound;
    }),
    apiRoute('GET', /^\/api\/conversations\/([^/]+)\/turns$/, 'turns', 'any', ({ params, auth }) => {
      const c = visibleConv(s.store, auth!, params[0]);
      return c ? { status: 200, body: { data: s.store.turnsOf(c.id).map(turnJson) } } : notFound;
    }),
    apiRoute('POST', /^\/api\/conversations\/([^/]+)\/prompts$/, 'prompts', 'any', (ctx) => prompt(s, ctx)),
    apiRoute('POST', /^\/api\/conversations\/([^/]+)\/interrupt$/, 'interrupt', 'any', async ({ params, auth }) => {
      const c = visibleConv(s.store, auth!, params[0]);
      if (!c) {
        return notFound;
      }
      const ok = await s.engine.interrupt(c);
      return { status: 200, body: { ok, interrupted: ok } };
    }),
  ];
}
