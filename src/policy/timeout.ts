/**
 * Ask deadlines, as the server computes them (`Fountain.PermissionPolicy.seconds/1`,
 * `Fountain.Conversations.DetachedRequest.timeout_ms/2`, `Managoat.ACP.Permissions.ask_timeout_ms/1`).
 */
import { ASK_TIMEOUT_MAX_SEC, IN_TURN_CEILING_SEC } from './verdicts';

const WHOLE_INTEGER = /^[+-]?[0-9]+$/;
const LEADING_INTEGER = /^[+-]?[0-9]+/;

/**
 * A stored or requested timeout in seconds: a positive integer, or a string that is exactly one, no greater than
 * a year. Anything else is undefined, which every caller reads as "fall back to the next source": a typo becomes
 * a shorter wait, never "deny at once" and never "never deny".
 */
export function parseTimeoutSec(v: unknown): number | undefined {
  let n: number;
  if (typeof v === 'number') {
    n = v;
  } else if (typeof v === 'string' && WHOLE_INTEGER.test(v)) {
    n = Number(v);
  } else {
    return undefined;
  }
  return Number.isSafeInteger(n) && n > 0 && n <= ASK_TIMEOUT_MAX_SEC ? n : undefined;
}

/**
 * The configured global ceiling in seconds: a positive integer, or a string that starts with one (the server
 * reads it with `Integer.parse/1`, so `"600s"` is 600). Anything else, missing included, is the 300 s default:
 * a misconfiguration must never become "never deny".
 */
export function parseConfiguredTimeoutSec(v: unknown, fallbackSec: number = IN_TURN_CEILING_SEC): number {
  if (typeof v === 'number') {
    return Number.isSafeInteger(v) && v > 0 ? v : fallbackSec;
  }
  if (typeof v === 'string') {
    const m = LEADING_INTEGER.exec(v);
    const n = m ? Number(m[0]) : NaN;
    return Number.isSafeInteger(n) && n > 0 ? n : fallbackSec;
  }
  return fallbackSec;
}

/**
 * How long a held request waits before the server denies it, in seconds.
 *
 * In-turn requests always get the ceiling. A detached request (the agent ended its turn `waiting`) takes the
 * shorter of the request's own `_meta.fountain.timeout` and the effective policy's `ask_timeout`; either alone is
 * honoured; an unreadable or over-a-year value falls back to the next source, and with neither it gets the ceiling.
 * Detached deadlines may exceed the ceiling (days are what they are for).
 */
export function effectiveTimeoutSec(opts: {
  detached: boolean;
  metaTimeout?: unknown;
  askTimeout?: unknown;
  ceilingSec?: unknown;
}): number {
  const ceiling = parseConfiguredTimeoutSec(opts.ceilingSec);
  if (opts.detached !== true) {
    return ceiling;
  }
  const fromRequest = parseTimeoutSec(opts.metaTimeout);
  const fromPolicy = parseTimeoutSec(opts.askTimeout);
  if (fromRequest !== undefined && fromPolicy !== undefined) {
    return Math.min(fromRequest, fromPolicy);
  }
  return fromRequest ?? fromPolicy ?? ceiling;
}

/** `_meta.fountain.timeout` from a request's `_meta`, unparsed; undefined when the path is absent. */
export function metaTimeoutOf(meta: unknown): unknown {
  if (typeof meta !== 'object' || meta === null || !Object.hasOwn(meta, 'fountain')) {
    return undefined;
  }
  const fountain: unknown = (meta as Record<string, unknown>)['fountain'];
  if (typeof fountain !== 'object' || fountain === null || !Object.hasOwn(fountain, 'timeout')) {
    return undefined;
  }
  return (fountain as Record<string, unknown>)['timeout'];
}
