/**
 * What the protocol layer needs from the outside world, injected so tests are deterministic:
 * a logger (the VS Code side passes its LogOutputChannel), a clock with timers, randomness and fetch.
 */

/** Same shape as the logging half of vscode.LogOutputChannel. */
export interface Logger {
  trace(message: string, ...args: unknown[]): void;
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

export const nullLogger: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** Whatever the timer implementation returns (a Node Timeout, a number in tests). */
export type TimerHandle = object | number;

/** A clock and one-shot timers. */
export interface Timers {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, Math.min(Math.max(0, ms), 2 ** 31 - 1));
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

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
