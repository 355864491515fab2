/** Wall-clock latency before every API response, and the count of API requests in flight (`/_control/latency`). */
import type { ServerResponse } from 'node:http';
import type { ServerContext } from '../context';
import { readRecord } from '../http';
import { controlRoute, type Route } from '../router';

export const MAX_LATENCY_MS = 60_000;

export class LatencyKnob {
  private latencyMs = 0;
  private readonly inflight = { max: 0, current: 0 };

  get ms(): number {
    return this.latencyMs;
  }

  set(ms: number): void {
    if (!(ms >= 0 && ms <= MAX_LATENCY_MS)) {
      throw new Error(`latency must be from 0 to ${MAX_LATENCY_MS} ms`);
    }
    this.latencyMs = ms;
  }

  /** Counts one API request in flight until its response closes. */
  track(res: ServerResponse): void {
    this.inflight.current++;
    this.inflight.max = Math.max(this.inflight.max, this.inflight.current);
    // 'close' follows 'finish', and also comes when the client goes away first.
    res.once('close', () => this.inflight.current--);
  }

  inFlight(): { max: number; current: number } {
    return { ...this.inflight };
  }

  resetInFlight(): void {
    this.inflight.max = this.inflight.current;
  }
}

/** `/_control/latency`, `/_control/inflight`, `/_control/inflight/reset`. */
export function latencyRoutes(s: ServerContext): Route[] {
  return [
    controlRoute('POST', /^\/_control\/latency$/, async ({ req }) => {
      const ms = (await readRecord(req)).ms;
      if (typeof ms !== 'number' || !(ms >= 0 && ms <= MAX_LATENCY_MS)) {
        return {
          status: 422,
          body: { error: 'validation_failed', errors: { ms: [`must be a number from 0 to ${MAX_LATENCY_MS}`] } },
        };
      }
      s.server.setLatency(ms);
      return { status: 200, body: { latency_ms: s.latency.ms } };
    }),
    controlRoute('GET', /^\/_control\/inflight$/, () => ({ status: 200, body: s.server.inFlight() })),
    controlRoute('POST', /^\/_control\/inflight\/reset$/, () => {
      s.server.resetInFlight();
      return { status: 200, body: s.server.inFlight() };
    }),
  ];
}
