/**
 * The account-wide SSE connection (fountain-protocol.md §4.6, §12.1): framing by eventsource-parser over a fetch
 * stream, `Last-Event-ID` resume with a persisted cursor, full-jitter backoff, Retry-After, a no-byte watchdog,
 * and a hard stop on 401/403. It only moves messages; validation and mapping happen in the `onMessage` handler.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ConnectionState } from '../domain/model';
import { Emitter, type Event } from '../domain/events';
import { Disposable } from '../util/lifecycle';
import { redact, sleep, type ProtocolEnv, type TimerHandle } from './env';
import { DEFAULT_BACKOFF, backoffDelay, parseRetryAfter, type BackoffOptions } from './backoff';
import { ErrorBodySchema, parseJson } from './schema';

/** Where the last processed event id is kept between sessions (the VS Code side backs it with globalState). */
export interface CursorStore {
  get(scope: string): string | undefined | PromiseLike<string | undefined>;
  set(scope: string, cursor: string): void | PromiseLike<void>;
}

export { DEFAULT_BACKOFF, backoffDelay, parseRetryAfter, type BackoffOptions } from './backoff';

export interface SseClientOptions {
  /** Full URL of the stream, query included. */
  readonly url: string;
  readonly key: string;
  readonly cursorStore: CursorStore;
  /** Key under which the cursor is stored: one per server and user. */
  readonly cursorScope: string;
  readonly env: ProtocolEnv;
  /** Handles one message; return 'reconnect' to drop the connection (the synthetic `server` stage event). */
  readonly onMessage: (msg: EventSourceMessage) => 'reconnect' | void;
  /** Called on every successful connection; `hadCursor` false means history was not replayed. */
  readonly onConnected?: (info: { hadCursor: boolean }) => void;
  readonly backoff?: BackoffOptions;
  /** Reconnect when no byte (heartbeats included) arrives for this long. Default 45 s. */
  readonly watchdogMs?: number;
  /** A connection that lived this long resets the backoff. Default 30 s. */
  readonly healthyMs?: number;
  /** Debounce for writing the cursor to the store. Default 1 s. */
  readonly cursorFlushMs?: number;
  readonly signal?: AbortSignal;
}

type Attempt =
  | { kind: 'auth'; status: number; reason?: string; message: string }
  | { kind: 'retry'; reason: string; healthy: boolean; retryAfterMs?: number };

const MAX_CURSOR_LENGTH = 200;

export class SseClient extends Disposable {
  private readonly _onDidChangeState = this._register(new Emitter<ConnectionState>());
  readonly onDidChangeState: Event<ConnectionState> = this._onDidChangeState.event;

  private _state: ConnectionState = { kind: 'stopped' };
  private _cursor: string | undefined;
  private persistedCursor: string | undefined;
  private persistTimer: TimerHandle | undefined;
  private loopAbort = new AbortController();
  private current: AbortController | undefined;
  private running = false;
  private skipNextBackoff = false;
  private serverRetryMs: number | undefined;
  private readonly opts: Required<Omit<SseClientOptions, 'signal' | 'onConnected'>> &
    Pick<SseClientOptions, 'signal' | 'onConnected'>;

  constructor(opts: SseClientOptions) {
    super();
    this.opts = {
      backoff: DEFAULT_BACKOFF,
      watchdogMs: 45_000,
      healthyMs: 30_000,
      cursorFlushMs: 1000,
      ...opts,
    };
    if (opts.signal) {
      const onAbort = () => this.dispose();
      if (opts.signal.aborted) {
        queueMicrotask(onAbort);
      } else {
        opts.signal.addEventListener('abort', onAbort, { once: true });
      }
    }
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** The last event id processed (the `id:` line), if any. */
  get cursor(): string | undefined {
    return this._cursor;
  }

  /** Starts the connect loop; resolves when it stops (dispose, auth failure). */
  start(): Promise<void> {
    if (this.running || this.isDisposed) {
      return Promise.resolve();
    }
    this.running = true;
    this.loopAbort = new AbortController();
    return this.loop().finally(() => {
      this.running = false;
    });
  }

  /** Drops the current connection and reconnects without waiting; restarts the loop after an auth failure. */
  reconnect(): void {
    if (this.isDisposed) {
      return;
    }
    if (!this.running) {
      void this.start();
      return;
    }
    this.skipNextBackoff = true;
    this.current?.abort(new Error('reconnect requested'));
    this.loopAbort.abort(new Error('reconnect requested'));
    this.loopAbort = new AbortController();
  }

  override dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.loopAbort.abort(new Error('disposed'));
    this.current?.abort(new Error('disposed'));
    this.flushCursor();
    this.setState({ kind: 'stopped' });
    super.dispose();
  }

  private async loop(): Promise<void> {
    const { env } = this.opts;
    try {
      const stored = await this.opts.cursorStore.get(this.opts.cursorScope);
      this._cursor ??= stored;
      this.persistedCursor = stored;
    } catch (e) {
      env.logger.warn(`Could not read the stream cursor: ${errorMessage(e)}`);
    }
    let attempt = 0;
    while (!this.isDisposed) {
      this.setState({ kind: 'connecting', attempt: attempt + 1 });
      const result = await this.connectOnce();
      if (this.isDisposed) {
        break;
      }
      if (result.kind === 'auth') {
        env.logger.error(
          `The server refused the API key (HTTP ${result.status}${result.reason ? `, ${result.reason}` : ''}); not retrying.`,
        );
        this.setState({ kind: 'authFailed', status: result.status, reason: result.reason, message: result.message });
        return;
      }
      if (result.healthy) {
        attempt = 0;
      }
      let delay =
        result.retryAfterMs ?? Math.max(backoffDelay(attempt, env.random, this.opts.backoff), this.serverRetryMs ?? 0);
      attempt++;
      if (this.skipNextBackoff) {
        this.skipNextBackoff = false;
        delay = 0;
      }
      env.logger.info(`Stream disconnected (${result.reason}); reconnecting in ${delay} ms.`);
      this.setState({ kind: 'backoff', retryAt: env.timers.now() + delay, reason: result.reason, attempt });
      try {
        await sleep(env.timers, delay, this.loopAbort.signal);
      } catch {
        // Woken early by reconnect() or dispose(); the loop condition decides.
      }
    }
  }

  private async connectOnce(): Promise<Attempt> {
    const { env, key, url } = this.opts;
    const ac = new AbortController();
    this.current = ac;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${key}`,
      Accept: 'text/event-stream',
      'Cache-Control': 'no-cache',
    };
    const hadCursor = this._cursor !== undefined;
    if (hadCursor) {
      headers['Last-Event-ID'] = this._cursor!;
    }
    env.logger.info(`Connecting to ${redact(url, key)} (${hadCursor ? `Last-Event-ID ${this._cursor}` : 'no cursor'})`);

    let watchdogFired = false;
    let watchdog: TimerHandle | undefined;
    const armWatchdog = () => {
      if (watchdog !== undefined) {
        env.timers.clearTimeout(watchdog);
      }
      watchdog = env.timers.setTimeout(() => {
        watchdogFired = true;
        ac.abort(new Error('watchdog'));
      }, this.opts.watchdogMs);
    };
    armWatchdog();
    let connectedAt: number | undefined;
    try {
      let res: Response;
      try {
        res = await env.fetch(url, { headers, signal: ac.signal });
      } catch (e) {
        return { kind: 'retry', healthy: false, reason: watchdogFired ? 'no response' : redact(errorMessage(e), key) };
      }
      if (res.status === 401 || res.status === 403) {
        const body = await readErrorBody(res);
        return {
          kind: 'auth',
          status: res.status,
          reason: body.reason ?? body.error,
          message: redact(body.message ?? body.error ?? `HTTP ${res.status}`, key),
        };
      }
      if (res.status === 429 || res.status === 503) {
        await res.body?.cancel().catch(() => undefined);
        const retryAfterMs = parseRetryAfter(res.headers.get('retry-after'), env.timers.now());
        return { kind: 'retry', healthy: false, reason: `HTTP ${res.status}`, retryAfterMs };
      }
      const type = res.headers.get('content-type') ?? '';
      if (!res.ok || !res.body || !type.toLowerCase().includes('text/event-stream')) {
        await res.body?.cancel().catch(() => undefined);
        return {
          kind: 'retry',
          healthy: false,
          reason: res.ok ? `unexpected content-type ${type || 'none'}` : `HTTP ${res.status}`,
        };
      }

      connectedAt = env.timers.now();
      this.setState({ kind: 'connected', since: connectedAt });
      env.logger.info('Stream connected.');
      try {
        this.opts.onConnected?.({ hadCursor });
      } catch (e) {
        env.logger.error(`onConnected failed: ${errorMessage(e)}`);
      }

      let reconnectRequested = false;
      const parser = createParser({
        onEvent: (m) => {
          if (reconnectRequested || ac.signal.aborted) {
            return;
          }
          let verdict: 'reconnect' | void = undefined;
          try {
            verdict = this.opts.onMessage(m);
          } catch (e) {
            env.logger.error(`Handling stream event ${m.id ?? '(no id)'} failed: ${errorMessage(e)}`);
          }
          if (m.id !== undefined) {
            this.advanceCursor(m.id);
          }
          if (verdict === 'reconnect') {
            reconnectRequested = true;
          }
        },
        onRetry: (ms) => {
          this.serverRetryMs = Math.min(ms, this.opts.backoff.capMs);
        },
        onComment: (c) => env.logger.trace(`Stream comment: ${c.trim().slice(0, 80)}`),
        onError: (e) => env.logger.warn(`Stream framing problem: ${e.message}`),
      });
      const decoder = new TextDecoder();
      const reader = res.body.getReader();
      let reason = 'closed by the server';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            break;
          }
          armWatchdog();
          parser.feed(decoder.decode(value, { stream: true }));
          if (reconnectRequested) {
            reason = 'the server ended the stream';
            ac.abort(new Error('server stage event'));
            break;
          }
        }
      } catch (e) {
        reason = watchdogFired
          ? `no data for ${Math.round(this.opts.watchdogMs / 1000)} s`
          : this.isDisposed
            ? 'disposed'
            : redact(errorMessage(e), key);
      } finally {
        reader.releaseLock();
      }
      return { kind: 'retry', healthy: env.timers.now() - connectedAt >= this.opts.healthyMs, reason };
    } finally {
      if (watchdog !== undefined) {
        env.timers.clearTimeout(watchdog);
      }
      if (!ac.signal.aborted) {
        ac.abort(new Error('connection finished'));
      }
      if (this.current === ac) {
        this.current = undefined;
      }
      this.flushCursor();
    }
  }

  private advanceCursor(id: string): void {
    if (!id || id.length > MAX_CURSOR_LENGTH || /[^\x21-\x7e]/.test(id)) {
      this.opts.env.logger.warn('Ignored an unusable event id.');
      return;
    }
    this._cursor = id;
    if (this.persistTimer === undefined) {
      this.persistTimer = this.opts.env.timers.setTimeout(() => {
        this.persistTimer = undefined;
        this.flushCursor();
      }, this.opts.cursorFlushMs);
    }
  }

  private flushCursor(): void {
    if (this.persistTimer !== undefined) {
      this.opts.env.timers.clearTimeout(this.persistTimer);
      this.persistTimer = undefined;
    }
    const c = this._cursor;
    if (c === undefined || c === this.persistedCursor) {
      return;
    }
    this.persistedCursor = c;
    try {
      const r = this.opts.cursorStore.set(this.opts.cursorScope, c);
      if (r && typeof r.then === 'function') {
        r.then(undefined, (e: unknown) =>
          this.opts.env.logger.warn(`Could not save the stream cursor: ${errorMessage(e)}`),
        );
      }
    } catch (e) {
      this.opts.env.logger.warn(`Could not save the stream cursor: ${errorMessage(e)}`);
    }
  }

  private setState(s: ConnectionState): void {
    this._state = s;
    this._onDidChangeState.fire(s);
  }
}

/** The `{error, reason, message}` of a refusal, or {} when the body is not that. */
export async function readErrorBody(res: Response): Promise<{ error?: string; reason?: string; message?: string }> {
  try {
    const text = await res.text();
    const j = parseJson(text);
    if (!j.ok) {
      return {};
    }
    const r = ErrorBodySchema.safeParse(j.value);
    return r.success
      ? { error: r.data.error ?? undefined, reason: r.data.reason ?? undefined, message: r.data.message ?? undefined }
      : {};
  } catch {
    return {};
  }
}

export function errorMessage(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: unknown }).cause;
    return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
  }
  return String(e);
}
