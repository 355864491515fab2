/** Time: move the server's clock (firing due timers) and run the detached sweep now. */
import type { ServerContext } from '../context';
import { invalid, readRecord } from '../http';
import { controlRoute, type Route } from '../router';

/** `/_control/clock/advance`, `/_control/clock/rewind`, `/_control/sweep`. */
export function clockRoutes(s: ServerContext): Route[] {
  return [
    controlRoute('POST', /^\/_control\/clock\/advance$/, async ({ req }) => {
      const b = await readRecord(req);
      const ms = Number(b.ms ?? 0) + Number(b.seconds ?? 0) * 1000;
      if (!(ms >= 0)) {
        return invalid('ms', 'must be >= 0');
      }
      const now = s.clock.advance(ms);
      return { status: 200, body: { now: new Date(now).toISOString(), now_ms: now } };
    }),
    controlRoute('POST', /^\/_control\/clock\/rewind$/, async ({ req }) => {
      const b = await readRecord(req);
      const ms = Number(b.ms ?? 0) + Number(b.seconds ?? 0) * 1000;
      if (!(ms >= 0)) {
        return invalid('ms', 'must be >= 0');
      }
      const now = s.clock.rewind(ms);
      return { status: 200, body: { now: new Date(now).toISOString(), now_ms: now } };
    }),
    controlRoute('POST', /^\/_control\/sweep$/, () => {
      s.engine.sweep();
      return { status: 200, body: { ok: true } };
    }),
  ];
}
