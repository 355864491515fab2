import * as vscode from 'vscode';
import type { Inbox } from '../domain/inbox';
import { inertNotice } from '../domain/inertNotice';
import type { AnswerResult, ConnectionState, FeedEvent, RequestKey } from '../domain/model';
import { FountainClient, redactingLogger } from '../protocol/fountainClient';
import type { CursorStore } from '../protocol/sseClient';
import { Disposable, MutableDisposable } from '../util/lifecycle';
import type { Config } from './config';
import { ContextKey, setContext } from './contextKeys';
import type { Logger } from './log';
import type { ApiKeyStore } from './secrets';

/**
 * Owns the connection to the configured server (one FountainClient per server URL and key, replaced when either
 * changes) and feeds its events into the inbox. Connection-scoped resources live in `_client` and are disposed on
 * every restart (house style §8.7).
 */
export class ConnectionManager extends Disposable {
  private readonly _client = this._register(new MutableDisposable<FountainClient>());
  private readonly _onDidChangeState = this._register(new vscode.EventEmitter<ConnectionState>());
  readonly onDidChangeState = this._onDidChangeState.event;
  private readonly _onDidReceiveEvent = this._register(new vscode.EventEmitter<FeedEvent>());
  /** Every feed event, after the inbox applied it. */
  readonly onDidReceiveEvent = this._onDidReceiveEvent.event;
  private _state: ConnectionState = { kind: 'stopped' };
  private _generation = 0;
  /** `log` with the key in use redacted: every line this class writes goes through it. */
  private _log: Logger;

  constructor(
    private readonly config: Config,
    private readonly keys: ApiKeyStore,
    private readonly inbox: Inbox,
    private readonly cursors: CursorStore,
    private readonly log: Logger,
  ) {
    super();
    this._log = log;
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
    return this._client.value?.server || undefined;
  }

  /** (Re)creates the client from the current settings and key. */
  async restart(): Promise<void> {
    const generation = ++this._generation;
    this._client.value = undefined;
    const url = this.config.serverUrl;
    const key = url ? await this.keys.get(url) : undefined;
    if (generation !== this._generation || this.isDisposed) {
      return; // a newer restart won
    }
    await setContext(ContextKey.Configured, !!url);
    await setContext(ContextKey.SignedIn, !!key);
    if (!url) {
      this.setState({ kind: 'unconfigured', reason: 'noServer' });
      return;
    }
    if (!key) {
      const envServer = this.keys.environmentKeyServer();
      if (envServer) {
        this.log.info(`FOUNTAIN_API_KEY is not used for ${url}: it belongs to ${envServer} (FOUNTAIN_BASE_URL)`);
      }
      this.setState({ kind: 'unconfigured', reason: 'noKey' });
      return;
    }
    this._log = redactingLogger(this.log, key.key);
    const client = new FountainClient({
      url,
      key: key.key,
      cursorStore: this.cursors,
      allowInsecureHttp: this.config.allowInsecureHttp,
      logger: this.log,
    });
    this._client.value = client;
    client.onDidReceiveEvent((e) => {
      this.inbox.apply(e);
      this._onDidReceiveEvent.fire(e);
    });
    client.onDidChangeState((s) => this.setState(s));
    this._log.info(`connecting to ${client.server || url} (key from ${key.source})`);
    client.start();
    this.setState(client.state);
  }

  /** Posts one answer through the client of the request's server. Never re-sends a POST by itself. */
  answer(key: RequestKey, optionId: string): Promise<AnswerResult> {
    const client = this._client.value;
    if (!client || client.server !== key.server) {
      return Promise.resolve({ kind: 'network', message: `not connected to ${key.server}` });
    }
    return client.answer(key, optionId);
  }

  reconnect(): void {
    if (this._client.value) {
      this._client.value.reconnect();
    } else {
      void this.restart();
    }
  }

  async refresh(): Promise<void> {
    await this._client.value?.refresh();
  }

  private setState(s: ConnectionState): void {
    const was = this._state.kind;
    this._state = s;
    if (s.kind === 'authFailed' && was !== 'authFailed') {
      // The stream stopped (no retry loop on 401/403): ask for a key once, instead of failing quietly.
      this._log.warn(
        `the server refused the key (${s.status} ${s.reason ?? ''}); the connection stopped: ${JSON.stringify(s.message)}`,
      );
      const signIn = vscode.l10n.t('Sign In');
      const showLogs = vscode.l10n.t('Show Logs');
      // The server's sentence is shown inert (no links, no icons); the whole of it is in the log line above.
      void vscode.window
        .showErrorMessage(
          vscode.l10n.t('The Fountain server refused your key: {0}. Sign in again.', inertNotice(s.message).text),
          signIn,
          showLogs,
        )
        .then((pick) => {
          if (pick === signIn) {
            void vscode.commands.executeCommand('fountain.signIn');
          } else if (pick === showLogs) {
            void vscode.commands.executeCommand('fountain.showLogs');
          }
        });
    }
    const problem = s.kind === 'backoff' || s.kind === 'authFailed' || s.kind === 'refused';
    void setContext(ContextKey.Connected, s.kind === 'connected');
    void setContext(ContextKey.ConnectionProblem, problem);
    this._onDidChangeState.fire(s);
  }
}
