/** Events: the per-conversation log page, its SSE stream, and the account-wide SSE stream. */
import type { IncomingMessage } from 'node:http';
import { visibleConv, type ServerContext } from '../context';
import { notFound, type HttpResult } from '../http';
import type { Route, RouteCtx } from '../router';
import type { StreamFilter } from '../sse';
import { logEventJson } from '../views';
import { apiRoute, parseStreams, truthy } from './api';

function lastEventIdOf(req: IncomingMessage): number | undefined {
  const h = req.headers['last-event-id'];
  if (h === undefined) {
    return undefined;
  }
  const n = Number(Array.isArray(h) ? h[0] : h);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}

function eventsPage(s: ServerContext, { params, auth, url }: RouteCtx): HttpResult {
  const c = visibleConv(s.store, auth!, params[0]);
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
  const rows = s.store.eventsAfter(
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
}

function conversationStream(s: ServerContext, { params, auth, url, req, res }: RouteCtx): HttpResult | undefined {
  const c = visibleConv(s.store, auth!, params[0]);
  if (!c) {
    return notFound;
  }
  const filter: StreamFilter = {
    conversationId: c.id,
    streams: parseStreams(url),
    blocks: truthy(url.searchParams.get('blocks')),
  };
  const conn = s.hub.open(res, filter, url.pathname + url.search, req.headers['user-agent'] ?? null);
  const after = lastEventIdOf(req) ?? 0;
  for (const e of s.store.eventsAfter(after, (e) => conn.matches(e))) {
    conn.sendEvent(e);
  }
  const wait = url.searchParams.get('wait');
  if (wait === 'false' || wait === '0') {
    conn.end();
  }
  return undefined;
}

function accountStream(s: ServerContext, { auth, url, req, res }: RouteCtx): undefined {
  const filter: StreamFilter = {
    userId: auth!.user.id,
    streams: parseStreams(url),
    blocks: truthy(url.searchParams.get('blocks')),
  };
  const conn = s.hub.open(res, filter, url.pathname + url.search, req.headers['user-agent'] ?? null);
  const after = lastEventIdOf(req);
  if (after === undefined) {
    conn.lastSentId = s.store.lastEventId; // no cursor: only what is recorded from now on
  } else {
    for (const e of s.store.eventsAfter(after, (e) => conn.matches(e))) {
      conn.sendEvent(e);
    }
  }
  return undefined;
}

export function eventRoutes(s: ServerContext): Route[] {
  return [
    apiRoute('GET', /^\/api\/conversations\/([^/]+)\/events$/, 'events', 'any', (ctx) => eventsPage(s, ctx)),
    apiRoute(
      'GET',
      /^\/api\/conversations\/([^/]+)\/stream$/,
      'stream',
      'any',
      (ctx) => conversationStream(s, ctx),
      false,
    ),
    apiRoute('GET', /^\/api\/events\/stream$/, 'eventsStream', 'full', (ctx) => accountStream(s, ctx), false),
  ];
}
