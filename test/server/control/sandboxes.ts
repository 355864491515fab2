/** `/_control/sandboxes/{conversation or sandbox id}`: set or read a sandbox's files, changes and state. */
import type { ServerContext } from '../context';
import { notFound, readRecord } from '../http';
import { controlRoute, type Route } from '../router';
import type { ConversationRec } from '../store';

function conversationOf(s: ServerContext, id: string): ConversationRec | undefined {
  const k = id.toLowerCase();
  return s.store.conversations.get(k) ?? [...s.store.conversations.values()].find((c) => c.sandbox_id === k);
}

export function sandboxControlRoutes(s: ServerContext): Route[] {
  return [
    controlRoute('GET', /^\/_control\/sandboxes\/([^/]+)$/, ({ params }) => {
      const c = conversationOf(s, decodeURIComponent(params[0]));
      return c ? { status: 200, body: { data: s.sandboxes.view(c) } } : notFound;
    }),
    controlRoute('POST', /^\/_control\/sandboxes\/([^/]+)$/, async ({ params, req }) => {
      const c = conversationOf(s, decodeURIComponent(params[0]));
      if (!c) {
        return notFound;
      }
      const problems = s.sandboxes.set(c, await readRecord(req));
      return problems.length
        ? { status: 422, body: { error: 'validation_failed', errors: { sandbox: problems } } }
        : { status: 200, body: { data: s.sandboxes.view(c) } };
    }),
  ];
}
