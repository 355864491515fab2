/** The control API (`/_control/*`, control token): faults, request log and state, clock, latency, other clients. */
import type { ServerContext } from '../context';
import type { Route } from '../router';
import { clockRoutes } from './clock';
import { conversationControlRoutes } from './conversations';
import { connectionRoutes, failureRoutes } from './faults';
import { latencyRoutes } from './latency';
import { requestLogRoutes } from './requestLog';
import { sandboxControlRoutes } from './sandboxes';

export function controlRoutes(s: ServerContext): Route[] {
  return [
    ...requestLogRoutes(s),
    ...clockRoutes(s),
    ...connectionRoutes(s),
    ...failureRoutes(s),
    ...conversationControlRoutes(s),
    ...latencyRoutes(s),
    ...sandboxControlRoutes(s),
  ];
}
