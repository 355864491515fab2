/**
 * What the protocol layer needs from the outside world, injected so tests are deterministic:
 * a logger (the VS Code side passes its LogOutputChannel), a clock with timers, randomness and fetch.
 */

export { nullLogger, type Logger } from '../util/logger';
export { realTimers, type TimerHandle, type Timers } from '../util/timers';
import { nullLogger, type Logger } from '../util/logger';
import { realTimers, type Timers } from '../util/timers';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface ProtocolEnv {
  readonly logger: Logger;
  readonly timers: Timers;
  /** Uniform in [0, 1). */
  readonly random: () => number;
  readonly fetch: FetchLike;
}

export function defaultEnv(logger: Logger = nullLogger): ProtocolEnv {
  return { logger, timers: realTimers, random: Math.random, fetch: (i, init) => fetch(i, init) };
}

/** Resolves after `ms` on the injected timers; rejects with the signal's reason if aborted first. */
export function sleep(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onAbort = () => {
      timers.clearTimeout(handle);
      reject(abortError(signal!));
    };
    const handle = timers.setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted');
}

/**
 * Replaces every occurrence of the secret in a log line. Used on URLs, headers and error messages so a key never
 * reaches a log even if a server echoes it back.
 */
export function redact(text: string, secret: string | undefined): string {
  if (!secret || secret.length < 4) {
    return text;
  }
  return text.split(secret).join('<redacted>');
}
