/** The Fountain API (`/api/*`) by family. Order matters only where two patterns could match one path (none do). */
import type { ServerContext } from '../context';
import type { Route } from '../router';
import { agentRoutes } from './agents';
import { answerRoutes } from './answers';
import { authRoutes } from './auth';
import { conversationRoutes } from './conversations';
import { eventRoutes } from './events';
import { sandboxRoutes } from './sandboxes';

export function apiRoutes(s: ServerContext): Route[] {
  return [
    ...authRoutes(),
    ...conversationRoutes(s),
    ...eventRoutes(s),
    ...answerRoutes(s),
    ...agentRoutes(s),
    ...sandboxRoutes(s),
  ];
}
