/**
 * The Fountain protocol adapter for one server: the account-wide stream (SseClient), the REST backfill (Backfiller)
 * and the assembler of sightings (RequestAssembler) produce one ordered stream of facts; `answer` is the plain POST.
 * It decides no request state and guards no answer: that is the inbox's (src/domain/inbox.ts), wired to this
 * adapter by src/session/fountainSession.ts. Credentials are handed in; nothing here reads settings or secrets.
 */
import { createHash } from 'node:crypto';
import type { AnswerResult, ConnectionState, FeedEvent, RequestKey } from '../domain/model';
import { Emitter, type Event } from '../domain/events';
import { Disposable, toDisposable } from '../util/lifecycle';
import { ApiClient } from './apiClient';
import { Backfiller } from './backfill';
import { defaultEnv, redact, type Logger, type ProtocolEnv, type TimerHandle } from './env';
import { RequestAssembler } from './requestAssembler';
import { checkServerUrl, isSandboxKey } from './serverUrl';
import { SseClient, errorMessage, type BackoffOptions, type CursorStore } from './sseClient';

export { checkServerUrl, isSandboxKey, normalizeServerUrl } from './serverUrl';

export interface FountainClientOptions {
  readonly url: string;
  readonly key: string;
  readonly cursorStore: CursorStore;
  /** Tells users of one server apart in the cursor store; defaults to a one-way hash of the key. */
  readonly userId?: string;
  readonly allowInsecureHttp?: boolean;
  readonly logger?: Logger;
  /** Clock, timers, randomness and fetch; defaults to the real ones. */
  readonly env?: Partial<ProtocolEnv>;
  readonly stream?: {
    readonly watchdogMs?: number;
    readonly healthyMs?: number;
    readonly cursorFlushMs?: number;
    readonly backoff?: BackoffOptions;
    readonly maxFrameChars?: number;
  };
  readonly backfillConcurrency?: number;
  /** Coalesces bursts of `conversations` events before re-reading the list. Default 500 ms. */
  readonly conversationsDebounceMs?: number;
  readonly requestTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** Conversations with requests still waiting (the inbox's view); the backfill re-reads those that leave the list. */
  readonly openConversations?: () => ReadonlySet<string>;
}

/** The stream query the client holds (§12.1). */
export const STREAM_PATH = '/api/events/stream?streams=acp,stage&blocks=true';

export class FountainClient extends Disposable {
  private readonly _onDidReceiveEvent = this._register(new Emitter<FeedEvent>());
  readonly onDidReceiveEvent: Event<FeedEvent> = this._onDidReceiveEvent.event;
  private readonly _onDidChangeState = this._register(new Emitter<ConnectionState>());
  readonly onDidChangeState: Event<ConnectionState> = this._onDidChangeState.event;

  /** Normalised server URL (the `server` of every RequestKey), or '' when the URL was refused. */
  readonly server: string;
  readonly api: ApiClient | undefined;
  private readonly env: ProtocolEnv;
  private readonly assembler: RequestAssembler | undefined;
  private readonly backfiller: Backfiller | undefined;
  private readonly sse: SseClient | undefined;
  private readonly lifetime = new AbortController();
  private readonly refusal: ConnectionState | undefined;
  private _state: ConnectionState = { kind: 'stopped' };
  private started = false;
  private connectedOnce = false;
  private debounce: TimerHandle | undefined;

  constructor(private readonly opts: FountainClientOptions) {
    super();
    const base = defaultEnv();
    const rawLogger = opts.logger ?? base.logger;
    const logger = redactingLogger(rawLogger, opts.key);
    this.env = { ...base, ...opts.env, logger };
    const check = checkServerUrl(opts.url, { allowInsecureHttp: opts.allowInsecureHttp });
    if (!check.ok) {
      this.server = '';
      this.refusal = opts.url.trim()
        ? { kind: 'refused', message: check.message }
        : { kind: 'unconfigured', reason: 'noServer' };
    } else if (!opts.key.trim()) {
      this.server = check.url;
      this.refusal = { kind: 'unconfigured', reason: 'noKey' };
    } else if (isSandboxKey(opts.key)) {
      this.server = check.url;
      this.refusal = {
        kind: 'refused',
        message: 'This is a sandbox token, which cannot answer requests. Sign in with a user API key.',
      };
    } else {
      this.server = check.url;
    }
    if (this.refusal) {
      return;
    }
    const now = () => this.env.timers.now();
    this.api = new ApiClient({ server: this.server, key: opts.key, env: this.env, timeoutMs: opts.requestTimeoutMs });
    this.assembler = new RequestAssembler(this.server, logger, { now });
    this.backfiller = new Backfiller({
      api: this.api,
      assembler: this.assembler,
      openConversations: opts.openConversations ?? (() => new Set()),
      logger,
      emit: (e) => this.emit(e),
      now,
      concurrency: opts.backfillConcurrency,
    });
    const scope = `${this.server}|${opts.userId ?? `key:${createHash('sha256').update(opts.key).digest('hex').slice(0, 16)}`}`;
    this.sse = this._register(
      new SseClient({
        url: this.server + STREAM_PATH,
        key: opts.key,
        cursorStore: opts.cursorStore,
        cursorScope: scope,
        env: this.env,
        ...opts.stream,
        onMessage: (m) => {
          const r = this.assembler!.handleSse(m);
          for (const e of r.events) {
            this.emit(e);
          }
          if (r.conversationsChanged) {
            this.scheduleChangedBackfill();
          }
          return r.reconnect ? 'reconnect' : undefined;
        },
        onConnected: ({ hadCursor }) => {
          // The first connection of this session must rebuild what is open; a cursorless reconnect missed events.
          if (!this.connectedOnce || !hadCursor) {
            this.connectedOnce = true;
            void this.backfiller!.request('full', this.lifetime.signal);
          }
        },
      }),
    );
    this._register(this.sse.onDidChangeState((s) => this.setState(s)));
    this._register(
      toDisposable(() => {
        this.lifetime.abort(new Error('disposed'));
        if (this.debounce !== undefined) {
          this.env.timers.clearTimeout(this.debounce);
        }
      }),
    );
    if (opts.signal) {
      opts.signal.addEventListener('abort', () => this.dispose(), { once: true });
    }
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** The stream cursor (last event id processed). */
  get cursor(): string | undefined {
    return this.sse?.cursor;
  }

  /** Connects (or reports why it cannot: unconfigured/refused). Idempotent. */
  start(): void {
    if (this.started || this.isDisposed) {
      return;
    }
    this.started = true;
    if (this.refusal) {
      this.setState(this.refusal);
      return;
    }
    void this.sse!.start();
  }

  /** Drops and re-opens the stream now (also after an auth failure). */
  reconnect(): void {
    this.sse?.reconnect();
  }

  /** Re-reads every idle/running conversation (detached and in-turn requests). */
  async refresh(): Promise<void> {
    await this.backfiller?.request('full', this.lifetime.signal);
  }

  /**
   * POSTs `optionId` for the request, once, and types the response. No guard here: the inbox decided that this
   * answer may be sent. A request of another server, or a client that was refused, gets a retryable `network`.
   */
  answer(key: RequestKey, optionId: string): Promise<AnswerResult> {
    if (!this.api || key.server !== this.server || this.isDisposed) {
      return Promise.resolve({ kind: 'network', message: `not connected to ${key.server}` });
    }
    return this.api
      .answer(key.conversationId, key.requestId, optionId, {
        afterCursor: this.sse?.cursor,
        signal: this.lifetime.signal,
      })
      .catch((e: unknown): AnswerResult => ({ kind: 'network', message: errorMessage(e) }));
  }

  /**
   * Reads back whether an answer whose response never reached this window took (one another window POSTed before it
   * went away): the server's own record, read as after a lost response. Sends nothing; `network` when it cannot tell.
   * Not cut short when this client is replaced meanwhile (the takeover that follows a leader's going away does so):
   * the request timeouts bound it.
   */
  settleLostAnswer(key: RequestKey, optionId: string, afterCursor?: string): Promise<AnswerResult> {
    if (!this.api || key.server !== this.server || this.isDisposed) {
      return Promise.resolve({ kind: 'network', message: `not connected to ${key.server}` });
    }
    return this.api.verifyLostAnswer(key.conversationId, key.requestId, optionId, afterCursor);
  }

  override dispose(): void {
    if (this.isDisposed) {
      return;
    }
    this.setState({ kind: 'stopped' });
    super.dispose();
  }

  private scheduleChangedBackfill(): void {
    if (this.debounce !== undefined) {
      return;
    }
    this.debounce = this.env.timers.setTimeout(() => {
      this.debounce = undefined;
      void this.backfiller?.request('changed', this.lifetime.signal);
    }, this.opts.conversationsDebounceMs ?? 500);
  }

  private emit(e: FeedEvent): void {
    if (!this.isDisposed) {
      this._onDidReceiveEvent.fire(e);
    }
  }

  private setState(s: ConnectionState): void {
    this._state = s;
    this._onDidChangeState.fire(s);
  }
}

/** Wraps a logger so the key can never reach it, whatever a message interpolates. */
export function redactingLogger(inner: Logger, key: string): Logger {
  const clean = (a: unknown[]) => a.map((x) => (typeof x === 'string' ? redact(x, key) : x));
  return {
    trace: (m, ...a) => inner.trace(redact(m, key), ...clean(a)),
    debug: (m, ...a) => inner.debug(redact(m, key), ...clean(a)),
    info: (m, ...a) => inner.info(redact(m, key), ...clean(a)),
    warn: (m, ...a) => inner.warn(redact(m, key), ...clean(a)),
    error: (m, ...a) => inner.error(redact(m, key), ...clean(a)),
  };
}
