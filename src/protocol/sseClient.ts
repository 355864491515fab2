/**
 * The account-wide SSE connection (fountain-protocol.md §4.6, §12.1): framing by eventsource-parser over a fetch
 * stream, `Last-Event-ID` resume with a persisted cursor, full-jitter backoff, Retry-After, a watchdog on complete
 * frames, a cap on the bytes buffered without a complete frame, and a hard stop on 401/403. It only moves
 * messages; validation and mapping happen in the `onMessage` handler.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ConnectionState } from '../domain/model';
import { Emitter, type Event } from '../domain/events';
import { Disposable } from '../util/lifecycle';
import type { CursorStore } from './cursorStore';
import { redact, sleep, type ProtocolEnv, type TimerHandle } from './env';
import {
  DEFAULT_BACKOFF,
  backoffDelay,
  parseRetryAfter,
  readErrorBody,
  errorMessage,
  type BackoffOptions,
} from './failures';

export * from './failures';
export * from './cursorStore';

/**
 * Characters the parser may buffer without a complete frame (a partial line plus a multi-line event) before the
 * connection is dropped: room for a request with a multi-megabyte tool call (escaped twice), not for a flood.
 */
export const DEFAULT_MAX_FRAME_CHARS = 16 * 1024 * 1024;

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
  /**
   * Reconnect when no complete frame (an event, or a heartbeat comment) arrives for this long; bytes that do not
   * complete a frame do not count. Default 45 s.
   */
  readonly watchdogMs?: number;
  /** Drop and reconnect when this many characters arrive without completing a frame. Default 16 Mi. */
  readonly maxFrameChars?: number;
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
      maxFrameChars: opts.maxFrameChars ?? DEFAULT_MAX_FRAME_CHARS,
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
        // A redirect is never followed (an https stream sent to plain http would accept forged events from there).
        res = await env.fetch(url, { headers, signal: ac.signal, redirect: 'manual' });
      } catch (e) {
        return { kind: 'retry', healthy: false, reason: watchdogFired ? 'no response' : redact(errorMessage(e), key) };
      }
      if (res.status === 401 || res.status === 403) {
        const body = await readErrorBody(res);
        return {
          kind: 'auth',
          status: res.status,
          // A server may echo the Authorization header back; the key never leaves in a state or a log line.
          reason: body.reason || body.error ? redact((body.reason || body.error)!, key) : undefined,
          message: redact(body.message ?? body.error ?? `HTTP ${res.status}`, key),
        };
      }
      if (res.status >= 300 && res.status < 400) {
        await res.body?.cancel().catch(() => undefined);
        env.logger.warn(
          `The stream answered HTTP ${res.status}${res.headers.get('location') ? ` to ${res.headers.get('location')}` : ''}; redirects are not followed.`,
        );
        return { kind: 'retry', healthy: false, reason: `redirected (HTTP ${res.status}); redirects are not followed` };
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
      let overflow = false;
      const maxFrameChars = this.opts.maxFrameChars;
      // Only a complete frame or a comment (the heartbeat) re-arms the watchdog: a trickle of bytes that never
      // finishes a frame is not a live stream.
      const parser = createParser({
        maxBufferSize: maxFrameChars,
        onEvent: (m) => {
          armWatchdog();
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
          armWatchdog();
          this.serverRetryMs = Math.min(ms, this.opts.backoff.capMs);
        },
        onComment: (c) => {
          armWatchdog();
          env.logger.trace(`Stream comment: ${c.trim().slice(0, 80)}`);
        },
        onError: (e) => {
          if (e.type === 'max-buffer-size-exceeded') {
            overflow = true;
          } else {
            env.logger.warn(`Stream framing problem: ${e.message}`);
          }
        },
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
          parser.feed(decoder.decode(value, { stream: true }));
          if (overflow) {
            reason = `no complete frame within ${maxFrameChars} characters`;
            env.logger.warn(
              `The stream sent more than ${maxFrameChars} characters without completing a frame; dropping the connection and reconnecting.`,
            );
            ac.abort(new Error('frame too large'));
            break;
          }
          if (reconnectRequested) {
            reason = 'the server ended the stream';
            ac.abort(new Error('server stage event'));
            break;
          }
        }
      } catch (e) {
        reason = watchdogFired
          ? `no complete frame for ${Math.round(this.opts.watchdogMs / 1000)} s`
          : this.isDisposed
            ? 'disposed'
            : redact(errorMessage(e), key);
      } finally {
        reader.releaseLock();
      }
      // A flood is never a healthy period: the backoff keeps growing while a server does it.
      const healthy = !overflow && env.timers.now() - connectedAt >= this.opts.healthyMs;
      return { kind: 'retry', healthy, reason };
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
