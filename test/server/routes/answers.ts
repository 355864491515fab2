/** `POST /api/conversations/{id}/requests/{request_id}`: answer a held or detached permission request. */
import { UUID_RE, type ServerContext } from '../context';
import { invalid, isRecord, notFound, readBody } from '../http';
import type { Route } from '../router';
import { apiRoute } from './api';
import { answerHttp } from './results';

export function answerRoutes(s: ServerContext): Route[] {
  return [
    apiRoute('POST', /^\/api\/conversations\/([^/]+)\/requests\/([^/]+)$/, 'answer', 'any', async (ctx) => {
      const { params, auth, req } = ctx;
      let requestId: string;
      try {
        requestId = decodeURIComponent(params[1]);
      } catch {
        return notFound;
      }
      const body = await readBody(req);
      if (!isRecord(body) || !('option_id' in body)) {
        return invalid('option_id', 'is required');
      }
      const id = params[0];
      const convId = UUID_RE.test(id) ? id.toLowerCase() : '';
      if (auth!.key.scope !== 'full' && !auth!.key.scope.startsWith('sprite:')) {
        return notFound;
      }
      return answerHttp(s.engine.answer(auth!.key.scope, auth!.user, convId, requestId, body.option_id));
    }),
  ];
}
