/** The request log (`GET /_control/log`) and the state dump (`GET /_control/state`). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerClock } from '../clock';
import type { ServerContext } from '../context';
import { bodyRead } from '../http';
import { controlRoute, type Route } from '../router';

export interface LoggedRequest {
  at: string;
  method: string;
  path: string;
  status: number;
  body?: unknown;
}

const MAX_ENTRIES = 5000;

/** Every API request this server answered or dropped on purpose (not the control API), oldest first; the last 5000. */
export class RequestLog {
  readonly entries: LoggedRequest[] = [];

  constructor(private readonly clock: ServerClock) {}

  /** Records the request once its response is sent, with the body the route read. */
  watch(req: IncomingMessage, res: ServerResponse, pathname: string): void {
    res.once('finish', () => this.add(req, pathname, res.statusCode));
  }

  /** Records a request whose route ran but whose response was dropped on purpose: status 0. */
  dropped(req: IncomingMessage, pathname: string): void {
    this.add(req, pathname, 0);
  }

  private add(req: IncomingMessage, pathname: string, status: number): void {
    this.entries.push({
      at: new Date(this.clock.now()).toISOString(),
      method: req.method ?? '',
      path: pathname,
      status,
      ...bodyRead(req),
    });
    if (this.entries.length > MAX_ENTRIES) {
      this.entries.splice(0, this.entries.length - MAX_ENTRIES);
    }
  }
}

function stateDump(s: ServerContext): Record<string, unknown> {
  const { clock, store, engine } = s;
  return {
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
    streams: s.hub.list(),
    requests: [...store.requests.values()]
      .filter((r) => r.state !== 'resolved')
      .map((r) => ({
        conversation_id: r.conversation_id,
        request_id: r.request_id,
        state: r.state,
        deadline: r.deadline,
      })),
  };
}

/** `/_control/state`, `/_control/log`. */
export function requestLogRoutes(s: ServerContext): Route[] {
  return [
    controlRoute('GET', /^\/_control\/state$/, () => ({ status: 200, body: stateDump(s) })),
    controlRoute('GET', /^\/_control\/log$/, () => ({ status: 200, body: { data: s.requestLog.entries } })),
  ];
}
