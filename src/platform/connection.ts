import * as vscode from 'vscode';
import { Emitter } from '../domain/events';
import type { Inbox } from '../domain/inbox';
import { inertNotice } from '../domain/inertNotice';
import type { ConnectionState, FeedEvent } from '../domain/model';
import type { ApiClient } from '../protocol/apiClient';
import { redactingLogger } from '../protocol/fountainClient';
import type { CursorStore } from '../protocol/sseClient';
import { FountainSession } from '../session/fountainSession';
import { Disposable } from '../util/lifecycle';
import type { Config } from './config';
import { ContextKey, setContext } from './contextKeys';
import type { Logger } from './log';
import type { ApiKeyStore } from './secrets';
import { showErrorWithLogs } from './window';

/**
 * VS Code glue for the Fountain session (src/session/fountainSession.ts): reads the server URL and key from settings
 * and Secret Storage, restarts the session when either changes, mirrors its state into context keys, and asks for a
 * key when the server refuses one.
 */
export class ConnectionManager extends Disposable {
  readonly session: FountainSession;
  private readonly _onDidChangeState = this._register(new Emitter<ConnectionState>());
  readonly onDidChangeState = this._onDidChangeState.event;
  private readonly _onDidReceiveEvent = this._register(new Emitter<FeedEvent>());
  /** Every feed event, after the inbox applied it. */
  readonly onDidReceiveEvent = this._onDidReceiveEvent.event;
  private _state: ConnectionState = { kind: 'stopped' };
  private _generation = 0;
  /** False while another window of this VS Code holds the stream (src/session/windowSync.ts). */
  private _holdsStream = true;
  private _deferred = false;
  private _mirrored: ConnectionState = { kind: 'connecting', attempt: 0 };
  /** `log` with the key in use redacted: every line this class writes goes through it. */
  private _log: Logger;

  constructor(
    private readonly config: Config,
    private readonly keys: ApiKeyStore,
    inbox: Inbox,
    cursors: CursorStore,
    private readonly log: Logger,
  ) {
    super();
    this._log = log;
    this.session = this._register(new FountainSession({ inbox, cursorStore: cursors, logger: log }));
    this._register(this.session.onDidChangeState((s) => this.setState(s)));
    this._register(this.session.onDidReceiveEvent((e) => this._onDidReceiveEvent.fire(e)));
    this._register(
      config.onDidChange((e) => {
        if (e.affectsConfiguration('fountain.serverUrl') || e.affectsConfiguration('fountain.allowInsecureHttp')) {
          void this.restart();
        }
      }),
    );
    this._register(keys.onDidChange(() => void this.restart()));
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** The normalised URL of the server in use, if any. */
  get server(): string | undefined {
    return this.session.server || undefined;
  }

  /** The one HTTP client of the server in use (the policy editor shares it). */
  get api(): ApiClient | undefined {
    return this.session.api;
  }

  /** Before the first start: no stream until `holdStream` says whether this window holds it (the election). */
  deferStream(): void {
    this._holdsStream = false;
    this._deferred = true;
  }

  /** Opens (true) or keeps closed (false: another window holds it) this window's stream; restarts on a change. */
  async holdStream(holds: boolean): Promise<void> {
    if (holds !== this._holdsStream || this._deferred) {
      this._deferred = false;
      this._holdsStream = holds;
      await this.restart();
    }
  }

  /** While another window holds the stream: shows its state. */
  mirror(state: ConnectionState): void {
    this._mirrored = state;
    if (!this._holdsStream) {
      this.setState(state);
    }
  }

  /** (Re)creates the client from the current settings and key. */
  async restart(): Promise<void> {
    const generation = ++this._generation;
    this.session.disconnect();
    const url = this.config.serverUrl;
    const key = url ? await this.keys.get(url) : undefined;
    if (generation !== this._generation || this.isDisposed) {
      return; // a newer restart won
    }
    await setContext(ContextKey.Configured, !!url);
    await setContext(ContextKey.SignedIn, !!key);
    if (!url) {
      this.session.disconnect({ kind: 'unconfigured', reason: 'noServer' });
      return;
    }
    if (!key) {
      const envServer = this.keys.environmentKeyServer();
      if (envServer) {
        this.log.info(`FOUNTAIN_API_KEY is not used for ${url}: it belongs to ${envServer} (FOUNTAIN_BASE_URL)`);
      }
      this.session.disconnect({ kind: 'unconfigured', reason: 'noKey' });
      return;
    }
    this._log = redactingLogger(this.log, key.key);
    const creds = { url, key: key.key, allowInsecureHttp: this.config.allowInsecureHttp };
    const client = this.session.connect(creds, undefined, this._holdsStream);
    if (!this._holdsStream) {
      this.setState(this._mirrored);
      return; // another window holds the stream; this one keeps the HTTP client (policy editor, provenance)
    }
    this._log.info(`connecting to ${client.server || url} (key from ${key.source})`);
  }

  /** While another window holds the stream, Reconnect and Refresh run there (src/session/windowSync.ts). */
  inLeader: ((action: 'reconnect' | 'refresh') => Promise<void>) | undefined;

  reconnect(): void {
    if (!this._holdsStream) {
      void this.inLeader?.('reconnect').catch((e: unknown) => this._log.warn(`reconnect: ${String(e)}`));
      return;
    }
    if (!this.session.reconnect()) {
      void this.restart();
    }
  }

  async refresh(): Promise<void> {
    if (!this._holdsStream) {
      await this.inLeader?.('refresh');
      return;
    }
    await this.session.refresh();
  }

  private setState(s: ConnectionState): void {
    const was = this._state.kind;
    this._state = s;
    if (s.kind === 'authFailed' && was !== 'authFailed' && this._holdsStream) {
      // The stream stopped (no retry loop on 401/403): ask for a key once, instead of failing quietly.
      this._log.warn(
        `the server refused the key (${s.status} ${s.reason ?? ''}); the connection stopped: ${JSON.stringify(s.message)}`,
      );
      const signIn = vscode.l10n.t('Sign In');
      // The server's sentence is shown inert (no links, no icons); the whole of it is in the log line above.
      void showErrorWithLogs(
        vscode.l10n.t('The Fountain server refused your key: {0}. Sign in again.', inertNotice(s.message).text),
        signIn,
      ).then((pick) => {
        if (pick === signIn) {
          void vscode.commands.executeCommand('fountain.signIn');
        }
      });
    }
    const problem = s.kind === 'backoff' || s.kind === 'authFailed' || s.kind === 'refused';
    void setContext(ContextKey.Connected, s.kind === 'connected');
    void setContext(ContextKey.ConnectionProblem, problem);
    this._onDidChangeState.fire(s);
  }
}
