/**
 * Fault injection: the next N matching API requests get a chosen status, or run and lose their response; stream faults (abort, stall, drop, heartbeat
 * period); a restart; account flags (suspended, no credits, unavailable); resume turns that fail to open.
 */
import type { ServerContext } from '../context';
import { invalid, notFound, readRecord, type HttpResult } from '../http';
import { controlRoute as control, type Route } from '../router';

export interface FailRule {
  route?: string;
  path?: string;
  method?: string;
  status: number;
  count: number;
  retryAfter?: number;
  body?: unknown;
}

/** Which requests a drop applies to (`POST /_control/drop-response`). */
export type DropRule = Pick<FailRule, 'route' | 'path' | 'method' | 'count'>;

/** Uses up one count of the first rule matching this request; the rule, if one matched. */
function takeRule<R extends DropRule>(
  rules: R[],
  routeName: string,
  pathname: string,
  method: string | undefined,
): R | undefined {
  const i = rules.findIndex(
    (f) =>
      f.count > 0 &&
      (!f.route || f.route === routeName) &&
      (!f.path || pathname.startsWith(f.path)) &&
      (!f.method || f.method.toUpperCase() === method),
  );
  if (i < 0) {
    return undefined;
  }
  const f = rules[i];
  f.count--;
  if (f.count <= 0) {
    rules.splice(i, 1);
  }
  return f;
}

/**
 * The queue of injected failures (`POST /_control/fail`, `failNext`): answered instead of the route. And of dropped
 * responses (`POST /_control/drop-response`, `dropNext`): the route runs (a prompt is queued, an answer recorded),
 * then the connection is destroyed before any answer is written, as when a response is lost on the way back.
 */
export class FaultKnobs {
  private readonly failures: FailRule[] = [];
  private readonly drops: DropRule[] = [];

  failNext(rule: Partial<FailRule> & { status: number }): void {
    this.failures.push({ count: 1, ...rule });
  }

  dropNext(rule: Partial<DropRule>): void {
    this.drops.push({ ...rule, count: rule.count ?? 1 });
  }

  clear(): void {
    this.failures.length = 0;
    this.drops.length = 0;
  }

  /** Whether this API request's response is to be dropped after its route ran (the rule is used up). */
  takeDrop(routeName: string, pathname: string, method: string | undefined): boolean {
    return takeRule(this.drops, routeName, pathname, method) !== undefined;
  }

  /** The injected answer for this API request, if a rule matches (it is used up). */
  take(routeName: string, pathname: string, method: string | undefined): HttpResult | undefined {
    const f = takeRule(this.failures, routeName, pathname, method);
    if (!f) {
      return undefined;
    }
    const headers: Record<string, string> = {};
    if (f.retryAfter !== undefined) {
      headers['retry-after'] = String(f.retryAfter);
    }
    const body = f.body ?? (f.status === 429 ? { error: 'rate_limited' } : { error: 'injected_failure' });
    return { status: f.status, body, headers };
  }
}

const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);

function failRule(b: Record<string, unknown>, status: number): Partial<FailRule> & { status: number } {
  return {
    route: typeof b.route === 'string' ? b.route : undefined,
    path: typeof b.path === 'string' ? b.path : undefined,
    method: typeof b.method === 'string' ? b.method : undefined,
    status,
    count: typeof b.count === 'number' ? b.count : 1,
    retryAfter: typeof b.retry_after === 'number' ? b.retry_after : undefined,
    body: b.body,
  };
}

/** `/_control/fail`, `/_control/resume-failures`, `/_control/accounts/{user}`. */
export function failureRoutes(s: ServerContext): Route[] {
  return [
    control('POST', /^\/_control\/fail$/, async ({ req }) => {
      const b = await readRecord(req);
      const status = Number(b.status);
      if (!Number.isInteger(status) || status < 100 || status > 599) {
        return invalid('status', 'must be an HTTP status');
      }
      s.server.failNext(failRule(b, status));
      return { status: 200, body: { ok: true } };
    }),
    control('POST', /^\/_control\/drop-response$/, async ({ req }) => {
      const b = await readRecord(req);
      const count = b.count === undefined ? 1 : Number(b.count);
      if (!Number.isInteger(count) || count < 1) {
        return invalid('count', 'must be a positive integer');
      }
      const { route, path, method } = failRule(b, 0);
      s.faults.dropNext({ route, path, method, count });
      return { status: 200, body: { ok: true } };
    }),
    control('DELETE', /^\/_control\/fail$/, () => {
      s.server.clearFailures();
      return { status: 200, body: { ok: true } };
    }),
    control('POST', /^\/_control\/resume-failures$/, async ({ req }) => {
      const b = await readRecord(req);
      s.server.failResumes(Number(b.count ?? 1));
      return { status: 200, body: { count: s.engine.resumeFailures } };
    }),
    control('POST', /^\/_control\/accounts\/([^/]+)$/, async ({ params, req }) => {
      const b = await readRecord(req);
      const id = s.server.userId(params[0]);
      const u = id === undefined ? undefined : s.store.users.get(id);
      if (!u) {
        return notFound;
      }
      s.server.setAccount(u.id, {
        suspended: flag(b.suspended),
        no_credits: flag(b.no_credits),
        unavailable: flag(b.unavailable),
      });
      return {
        status: 200,
        body: { id: u.id, suspended: !!u.suspended, no_credits: !!u.no_credits, unavailable: !!u.unavailable },
      };
    }),
  ];
}

/** `/_control/streams*`, `/_control/heartbeat`, `/_control/restart`. */
export function connectionRoutes(s: ServerContext): Route[] {
  return [
    control('GET', /^\/_control\/streams$/, () => ({ status: 200, body: { data: s.hub.list() } })),
    control('POST', /^\/_control\/streams\/abort$/, () => ({
      status: 200,
      body: { aborted: s.server.abortStreams() },
    })),
    control('POST', /^\/_control\/streams\/stall$/, async ({ req }) => {
      const b = await readRecord(req);
      s.server.stallStreams(b.stalled !== false);
      return { status: 200, body: { stalled: s.hub.stalled } };
    }),
    control('POST', /^\/_control\/streams\/drop$/, async ({ req }) => {
      const b = await readRecord(req);
      const id = typeof b.id === 'number' ? b.id : undefined;
      return { status: 200, body: { dropped: s.server.dropStream(id, b.how === 'end' ? 'end' : 'abort') } };
    }),
    control('POST', /^\/_control\/heartbeat$/, async ({ req }) => {
      const b = await readRecord(req);
      const ms = Number(b.ms);
      if (!(ms >= 10)) {
        return invalid('ms', 'must be >= 10');
      }
      s.hub.heartbeatMs = ms;
      return { status: 200, body: { heartbeat_ms: ms } };
    }),
    control('POST', /^\/_control\/restart$/, async ({ req, res }) => {
      const b = await readRecord(req);
      const mode = b.mode === 'hard' ? 'hard' : 'soft';
      const downMs = typeof b.down_ms === 'number' ? b.down_ms : 0;
      res.on('finish', () => {
        setTimeout(() => {
          s.server.restart({ mode, downMs }).catch((err: unknown) => s.log(`restart failed: ${String(err)}`));
        }, 10);
      });
      return { status: 200, body: { ok: true, mode, down_ms: downMs } };
    }),
  ];
}
