/**
 * The router: matches a request to a route and runs the steps every request goes through, in Fountain's order:
 * request log, in-flight count, latency, injected failure, control token or API key (406, 401, 403 scope), the
 * route (its response dropped when a drop was injected), then bad-JSON / too-large / internal-error answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { authenticate, type Auth, type ServerContext } from './context';
import { acceptsJson, notFound, sendJson, type HttpResult } from './http';

export interface RouteCtx {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: string[];
  /** Set for API routes (auth `any` or `full`). */
  auth?: Auth;
}

export interface Route {
  method: string;
  re: RegExp;
  /** The name `POST /_control/fail` matches (`route`); every control route is `control`. */
  name: string;
  /** Answers JSON, so a client must accept it (406 otherwise). */
  json: boolean;
  auth: 'none' | 'any' | 'full' | 'control';
  handle: (ctx: RouteCtx) => Promise<HttpResult | undefined> | HttpResult | undefined;
}

/** A control route: JSON, guarded by the control token, never delayed, never failed on purpose. */
export const controlRoute = (method: string, re: RegExp, handle: Route['handle']): Route => ({
  method,
  re,
  name: 'control',
  json: true,
  auth: 'control',
  handle,
});

/** Routes that answer with an SSE stream: never delayed, never counted in flight (they are held open). */
const SSE_ROUTES = new Set(['stream', 'eventsStream']);

const insufficientScope: HttpResult = {
  status: 403,
  body: { error: 'This route needs a full-scope API key', reason: 'insufficient_scope', required_scope: 'full' },
};

interface Match {
  route?: Route;
  params: string[];
  /** A route has this path but another method (405). */
  methodMismatch: boolean;
}

function match(routes: Route[], method: string | undefined, pathname: string): Match {
  let methodMismatch = false;
  for (const r of routes) {
    const m = r.re.exec(pathname);
    if (!m) {
      continue;
    }
    if (r.method !== method) {
      methodMismatch = true;
      continue;
    }
    return { route: r, params: m.slice(1), methodMismatch: false };
  }
  return { params: [], methodMismatch };
}

/** The answer that stops a request before its route runs (bad token or key, 406, scope), or the caller's auth. */
function admit(s: ServerContext, controlToken: string, route: Route, req: IncomingMessage): HttpResult | Auth | null {
  if (route.auth === 'control') {
    const h = req.headers.authorization ?? '';
    if (h !== `Bearer ${controlToken}` && req.headers['x-control-token'] !== controlToken) {
      return { status: 401, body: { error: 'control token required' } };
    }
    return null;
  }
  if (route.json && !acceptsJson(req)) {
    return { status: 406, body: { errors: { detail: 'Not Acceptable' } } };
  }
  const a = authenticate(s.store, s.clock.now(), req);
  if ('status' in a) {
    return a;
  }
  return route.auth === 'full' && a.key.scope !== 'full' ? insufficientScope : a;
}

async function run(s: ServerContext, route: Route, ctx: RouteCtx, drop: boolean): Promise<void> {
  try {
    const r = await route.handle(ctx);
    if (drop) {
      // The route ran; its response is lost on the way back (`POST /_control/drop-response`).
      s.requestLog.dropped(ctx.req, ctx.url.pathname);
      ctx.res.socket?.destroy();
      ctx.res.destroy();
    } else if (r) {
      sendJson(ctx.res, r);
    }
  } catch (err) {
    if (err instanceof SyntaxError) {
      sendJson(ctx.res, {
        status: 400,
        body: { error: 'invalid_json', message: 'the request body is not valid JSON' },
      });
    } else if ((err as Error)?.message === 'too_large') {
      sendJson(ctx.res, { status: 413, body: { error: 'too_large' } });
    } else {
      s.log(`route ${route.name} failed: ${(err as Error)?.stack ?? String(err)}`);
      sendJson(ctx.res, { status: 500, body: { error: 'internal_error' } });
    }
  }
}

/** The request handler for `routes`. */
export function createRouter(
  s: ServerContext,
  routes: Route[],
  controlToken: string,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const control = url.pathname.startsWith('/_control');
    if (!control) {
      s.requestLog.watch(req, res, url.pathname);
    }
    const found = match(routes, req.method, url.pathname);
    const route = found.route;
    const stream = route !== undefined && SSE_ROUTES.has(route.name);
    if (!control && !stream) {
      s.latency.track(res);
    }
    if (!route) {
      sendJson(res, found.methodMismatch ? { status: 405, body: { error: 'method_not_allowed' } } : notFound);
      return;
    }
    if (s.latency.ms > 0 && route.auth !== 'control' && !stream) {
      await delay(s.latency.ms);
      if (res.destroyed) {
        req.resume();
        return;
      }
    }
    const ctx: RouteCtx = { req, res, url, params: found.params };
    const stop = (route.auth !== 'control' && s.faults.take(route.name, url.pathname, req.method)) || undefined;
    const admitted = stop ?? admit(s, controlToken, route, req);
    if (admitted && 'status' in admitted) {
      sendJson(res, admitted);
      req.resume();
      return;
    }
    ctx.auth = admitted ?? undefined;
    const drop = route.auth !== 'control' && s.faults.takeDrop(route.name, url.pathname, req.method);
    await run(s, route, ctx, drop);
  };
}
