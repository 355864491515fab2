/**
 * The application layer for the Fountain source: wires one server's protocol adapter (FountainClient) into the
 * inbox, owns its lifetime (one client per URL and key, replaced on `connect`), and is that source's answer path
 * (an AnswerSender). No vscode here: src/platform/connection.ts feeds it settings and secrets, and the conformance
 * runner drives the same class over a real socket.
 */
import { Emitter, type Event } from '../domain/events';
import type { Inbox } from '../domain/inbox';
import { isLocalSource } from './localKey';
import type { AnswerResult, ConnectionState, FeedEvent, RequestKey } from '../domain/model';
import type { ApiClient } from '../protocol/apiClient';
import type { Logger } from '../protocol/env';
import { FountainClient, type FountainClientOptions } from '../protocol/fountainClient';
import type { CursorStore } from '../protocol/sseClient';
import { Disposable, MutableDisposable } from '../util/lifecycle';
import { AgentNames } from './agentNames';
import type { AnswerSource } from './answerRouter';

export interface FountainCredentials {
  readonly url: string;
  readonly key: string;
  readonly allowInsecureHttp?: boolean;
}

export interface FountainSessionOptions {
  readonly inbox: Inbox;
  readonly cursorStore: CursorStore;
  readonly logger: Logger;
  /** More client options (clock, timers, stream timings); tests and the bench use them. */
  readonly client?: Omit<Partial<FountainClientOptions>, 'url' | 'key' | 'cursorStore' | 'openConversations'>;
}

export class FountainSession extends Disposable implements AnswerSource {
  private readonly _client = this._register(new MutableDisposable<FountainClient>());
  private readonly _onDidChangeState = this._register(new Emitter<ConnectionState>());
  readonly onDidChangeState: Event<ConnectionState> = this._onDidChangeState.event;
  private readonly _onDidReceiveEvent = this._register(new Emitter<FeedEvent>());
  /** Every fact of the source, after the inbox applied it. */
  readonly onDidReceiveEvent: Event<FeedEvent> = this._onDidReceiveEvent.event;
  private _state: ConnectionState = { kind: 'stopped' };

  constructor(private readonly opts: FountainSessionOptions) {
    super();
  }

  get state(): ConnectionState {
    return this._state;
  }

  /** The normalised URL of the server in use ('' when its URL was refused), if connected or connecting. */
  get server(): string | undefined {
    return this._client.value?.server;
  }

  /** The one HTTP client of the current server (shared by the stream's answers and the policy editor). */
  get api(): ApiClient | undefined {
    return this._client.value?.api;
  }

  /** The current client (tests read its cursor). */
  get client(): FountainClient | undefined {
    return this._client.value;
  }

  /**
   * Replaces the connection with one to `creds`, and starts its stream. The inbox keeps every item across the change.
   * `stream: false` (another window holds the stream): only the HTTP client, for the policy editor and provenance.
   */
  connect(creds: FountainCredentials, more?: FountainSessionOptions['client'], stream = true): FountainClient {
    this._client.value = undefined;
    const inbox = this.opts.inbox;
    const client = new FountainClient({
      ...this.opts.client,
      ...more,
      url: creds.url,
      key: creds.key,
      allowInsecureHttp: creds.allowInsecureHttp,
      cursorStore: this.opts.cursorStore,
      logger: this.opts.logger,
      openConversations: () => {
        const ids = new Set<string>();
        for (const item of inbox.open()) {
          if (item.key.server === client.server) {
            ids.add(item.key.conversationId);
          }
        }
        return ids;
      },
    });
    this._client.value = client;
    // Fountain names a conversation's agent by id only: its display name is read once per agent (agentNames.ts).
    const names = new AgentNames(
      async (id) => (client.api ? ((await client.api.getAgent(id)).name ?? undefined) : undefined),
      this.opts.logger,
    );
    const apply = (e: FeedEvent) => {
      inbox.apply(e);
      this._onDidReceiveEvent.fire(e);
    };
    // A name that arrives after this connection was replaced is dropped (the next connection reads its own).
    const late = (e: FeedEvent) => this._client.value === client && apply(e);
    client.onDidReceiveEvent((e) => apply(names.name(e, late)));
    client.onDidChangeState((s) => this.setState(s));
    if (stream) {
      client.start();
    }
    return client;
  }

  /** Drops the connection and reports why (no server, no key). */
  disconnect(state: ConnectionState = { kind: 'stopped' }): void {
    this._client.value = undefined;
    this.setState(state);
  }

  /**
   * Requests of the server this session is connected to (any Fountain server while none is: a restart in progress).
   * Never a local agent's: those are answered by their own source, signed in to Fountain or not.
   */
  owns(key: RequestKey): boolean {
    const server = this._client.value?.server;
    return server === undefined ? !isLocalSource(key.server) : server === key.server;
  }

  /**
   * The Fountain answer path: one POST through the current connection. While there is none, or it belongs to
   * another server (a restart in progress), the answer is not sent and the result is a retryable `network` one:
   * only the server's own 404 may close a held request.
   */
  send(key: RequestKey, optionId: string): Promise<AnswerResult> {
    const client = this._client.value;
    if (!client || client.server !== key.server) {
      return Promise.resolve({ kind: 'network', message: `reconnecting to ${key.server}` });
    }
    return client.answer(key, optionId);
  }

  /** Reads back whether an answer sent by another window took (FountainClient.settleLostAnswer); sends nothing. */
  settleLostAnswer(key: RequestKey, optionId: string, afterCursor?: string): Promise<AnswerResult> {
    const client = this._client.value;
    if (!client || client.server !== key.server) {
      return Promise.resolve({ kind: 'network', message: `reconnecting to ${key.server}` });
    }
    return client.settleLostAnswer(key, optionId, afterCursor);
  }

  reconnect(): boolean {
    if (!this._client.value) {
      return false;
    }
    this._client.value.reconnect();
    return true;
  }

  async refresh(): Promise<void> {
    await this._client.value?.refresh();
  }

  private setState(s: ConnectionState): void {
    this._state = s;
    this._onDidChangeState.fire(s);
  }
}
