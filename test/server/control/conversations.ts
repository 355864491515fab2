/** Acting as another client: create, inspect, prompt and interrupt any conversation. */
import type { ServerContext } from '../context';
import { notFound, readRecord } from '../http';
import { controlRoute, type Route } from '../router';

/** `/_control/conversations*`. */
export function conversationControlRoutes(s: ServerContext): Route[] {
  return [
    controlRoute('POST', /^\/_control\/conversations$/, async ({ req }) => {
      const b = await readRecord(req);
      return s.server.createConversation(b, typeof b.user === 'string' ? b.user : undefined);
    }),
    controlRoute('GET', /^\/_control\/conversations\/([^/]+)$/, ({ params }) => {
      const c = s.store.conversations.get(params[0]);
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
          sprite_key: s.engine.spriteKeyOf(c.id) ?? null,
          agent_prompts: s.server.agentPrompts(c.id),
          held: [...s.store.requests.values()]
            .filter((r) => r.conversation_id === c.id && s.engine.isHeld(c.id, r.request_id))
            .map((r) => r.request_id),
        },
      };
    }),
    controlRoute('POST', /^\/_control\/conversations\/([^/]+)\/prompts$/, async ({ params, req }) => {
      const b = await readRecord(req);
      return s.server.sendPrompt(params[0], typeof b.prompt === 'string' ? b.prompt : '');
    }),
    controlRoute('POST', /^\/_control\/conversations\/([^/]+)\/interrupt$/, async ({ params }) => {
      const c = s.store.conversations.get(params[0]);
      return c ? { status: 200, body: { interrupted: await s.engine.interrupt(c) } } : notFound;
    }),
  ];
}
