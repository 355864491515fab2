/** Agents and their permission policies: list, show, PATCH (policy validated against the runtime, name). */
import { validatePolicy } from '../../../src/policy';
import type { ServerContext } from '../context';
import { invalid, isRecord, notFound, readBody, type HttpResult } from '../http';
import type { Route, RouteCtx } from '../router';
import { agentJson } from '../views';
import { apiRoute } from './api';

async function patchAgent(s: ServerContext, { params, req }: RouteCtx): Promise<HttpResult> {
  const a = s.store.agents.get(decodeURIComponent(params[0]));
  if (!a) {
    return notFound;
  }
  const b = await readBody(req);
  if (!isRecord(b)) {
    return invalid('body', 'must be an object');
  }
  const next = { ...a };
  if ('permission_policy' in b) {
    const p = b.permission_policy === null ? {} : b.permission_policy;
    const v = validatePolicy(p, { runtime: a.runtime });
    if (!v.ok) {
      return invalid('permission_policy', ...v.errors);
    }
    next.permission_policy = p as Record<string, unknown>;
  }
  if ('name' in b) {
    if (typeof b.name !== 'string' || b.name === '') {
      return invalid('name', "can't be blank");
    }
    next.name = b.name;
  }
  next.updated_at = new Date(s.clock.now()).toISOString();
  Object.assign(a, next);
  s.store.saveAgent(a);
  return { status: 200, body: { data: agentJson(a) } };
}

export function agentRoutes(s: ServerContext): Route[] {
  return [
    apiRoute('GET', /^\/api\/agents$/, 'listAgents', 'full', () => {
      // Fountain's AgentJSON also counts the agent's conversations (`conversation_count`).
      const count = (id: string) => [...s.store.conversations.values()].filter((c) => c.agent_id === id).length;
      return {
        status: 200,
        body: { data: [...s.store.agents.values()].map((a) => ({ ...agentJson(a), conversation_count: count(a.id) })) },
      };
    }),
    apiRoute('GET', /^\/api\/agents\/([^/]+)$/, 'getAgent', 'full', ({ params }) => {
      const a = s.store.agents.get(decodeURIComponent(params[0]));
      return a ? { status: 200, body: { data: agentJson(a) } } : notFound;
    }),
    apiRoute('PATCH', /^\/api\/agents\/([^/]+)$/, 'patchAgent', 'full', (ctx) => patchAgent(s, ctx)),
  ];
}
