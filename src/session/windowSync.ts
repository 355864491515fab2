/**
 * One Fountain stream per machine (issue 13): the windows (extension host processes) of one VS Code share one
 * stream through src/hub/WindowHub. No vscode here; src/extension.ts wires it to the connection, the inbox, focus
 * and the toast path.
 *
 * - Leader: holds the stream. Every fact its inbox applied goes to the followers, in order, with the stream cursor;
 *   so does its connection state. A joining follower gets a snapshot: the open remote requests, their
 *   conversations and the connection state. The leader answers followers' answer requests through its own inbox
 *   (`answerThroughInbox`), so every inbox guard applies there too (an offered option, one in flight, never twice),
 *   and tells every window the result. An allow of a request its inbox marks dangerous is sent only after the danger
 *   modal in the leader's own window is confirmed (`confirmDanger`): whatever talks to the hub socket (a follower,
 *   or any other process of the user) cannot get a dangerous request allowed without the user saying so here.
 * - Follower: opens no stream. It feeds the leader's facts to its own inbox (the inbox alone decides state), shows
 *   the leader's connection state, and sends its answers to the leader.
 * - Takeover: when the leader goes away the hub elects another window; it adopts the last cursor it saw (when newer
 *   than its stored one) and opens the stream; the first connection's backfill covers any gap.
 * - One toast: the leader picks the window that toasts each new remote request (the focused one, else the most
 *   recently focused) and says so in the fact; `shouldToast` is false in every other window. Local agents' requests
 *   stay in their own window and always toast there.
 */
import { answerThroughInbox } from '../domain/answering';
import { BoundedMap } from '../domain/boundedMap';
import { Emitter, type Event } from '../domain/events';
import type { AnswerRefusal, Inbox } from '../domain/inbox';
import {
  keyId,
  type AnswerResult,
  type ConnectionState,
  type ConversationInfo,
  type FeedEvent,
  type RequestDetails,
  type RequestKey,
} from '../domain/model';
import { WindowHub, type HubLog, type HubOptions, type Json } from '../hub/windowHub';
import type { CursorStore } from '../protocol/cursorStore';
import { Disposable } from '../util/lifecycle';
import type { AnswerSource } from './answerRouter';
import { HubDangerGate, type HubDangerConfirm } from './hubDanger';
import { eventFromJson, eventToJson, isObject, keyOf, NOT_CONFIRMED, REFUSALS, refusalResult } from './windowFacts';

/** How long a follower waits for the leader's answer result or refresh (the leader's HTTP has its own timeouts). */
const ANSWER_TIMEOUT_MS = 120_000;
const MEMORY = 5_000;

/** This window's own Fountain connection, as the sync drives it (src/platform/connection.ts implements it). */
export interface StreamHolder {
  /** true: open this window's stream (it leads); false: keep it closed (another window holds it). */
  holdStream(holds: boolean): void | Promise<void>;
  /** While not holding the stream: the state to show (the leader's). */
  mirror(state: ConnectionState): void;
  readonly state: ConnectionState;
  readonly onDidChangeState: Event<ConnectionState>;
  /** Every fact of this window's stream, after its inbox applied it. */
  readonly onDidReceiveEvent: Event<FeedEvent>;
  /** The leader's side of a follower's Reconnect and Refresh commands. */
  reconnect(): void;
  refresh(): Promise<void>;
}

/** Records the stream cursor as the stream advances, so the leader can hand it on; adopts one on takeover. */
export class SharedCursorStore implements CursorStore {
  onDidSet: ((scope: string, cursor: string) => void) | undefined;

  constructor(private readonly _inner: CursorStore) {}

  get(scope: string): string | undefined | PromiseLike<string | undefined> {
    return this._inner.get(scope);
  }

  set(scope: string, cursor: string): void | PromiseLike<void> {
    this.onDidSet?.(scope, cursor);
    return this._inner.set(scope, cursor);
  }

  /** Keeps the previous leader's cursor when it is newer than the stored one (event ids are numbers). */
  async adopt(scope: string, cursor: string): Promise<void> {
    const mine = await this._inner.get(scope);
    const newer = mine === undefined || !/^\d+$/.test(mine) || !/^\d+$/.test(cursor) || Number(cursor) > Number(mine);
    if (newer) {
      await this._inner.set(scope, cursor);
    }
  }
}

/** This window's own Fountain answer path (the FountainSession). */
export interface WindowAnswerSender extends AnswerSource {
  /** Reads back whether an answer another window sent took, sending nothing (`network`: it cannot tell). */
  settleLostAnswer(key: RequestKey, optionId: string, afterCursor?: string): Promise<AnswerResult>;
}

export interface WindowSyncOptions {
  /** The storage folder every window of this VS Code shares (context.globalStorageUri.fsPath). */
  readonly dir: string;
  readonly windowId: string;
  readonly focused: boolean;
  readonly log: HubLog;
  readonly inbox: Inbox;
  readonly stream: StreamHolder;
  /** The one answer POST of this window's connection, and its read-back of a lost one (the FountainSession). */
  readonly sender: WindowAnswerSender;
  readonly cursors: SharedCursorStore;
  /** True for a local agent's request (src/session/localSource.ts isLocalSource): never shared, never answered here. */
  readonly isLocal: (server: string) => boolean;
  /**
   * Leader: asks the user in this window before an answer that came over the hub allows a request marked dangerous
   * (the danger modal); true only when confirmed. Without it such an answer is never sent.
   */
  readonly confirmDanger?: HubDangerConfirm;
  /** More hub options (tests). */
  readonly hub?: Partial<HubOptions>;
}

/** Hub facts (leader → followers). */
type Fact =
  | { f: 'event'; event: Json; toast?: string }
  | { f: 'state'; state: Json }
  | { f: 'cursor' }
  | { f: 'answered'; key: RequestKey; optionId: string; result: Json; at: number };

export class WindowSync extends Disposable {
  readonly hub: WindowHub;
  /** The Fountain answer path of this window: the POST on the leader, a hub request to the leader on a follower. */
  readonly answerSource: AnswerSource;
  private readonly _onDidReceiveEvent = this._register(new Emitter<FeedEvent>());
  /** Every remote fact this window's inbox applied: from its own stream (leader) or the leader's (follower). */
  readonly onDidReceiveEvent: Event<FeedEvent> = this._onDidReceiveEvent.event;
  /** keyId → the window that toasts that request. */
  private readonly _targets = new BoundedMap<string, string>(MEMORY);
  /** Leader: the danger modal before a dangerous allow that came over the hub. */
  private readonly _danger: HubDangerGate;

  constructor(private readonly o: WindowSyncOptions) {
    super();
    this._danger = new HubDangerGate(o.inbox, o.confirmDanger, o.log);
    const hub = (this.hub = WindowHub.join({
      dir: o.dir,
      windowId: o.windowId,
      log: o.log,
      focused: o.focused,
      ...o.hub,
    }));
    this._register(hub);
    this.answerSource = {
      owns: (key) => !this.o.isLocal(key.server) && (hub.role === 'follower' || o.sender.owns(key)),
      send: (key, optionId) => (hub.role === 'follower' ? this._askLeader(key, optionId) : this._post(key, optionId)),
    };
    hub.snapshotProvider = () => this._snapshot();
    this._register(hub.onRequest((body) => this._onRequest(body)));
    this._register(hub.onDidBecomeLeader((e) => void this._lead(e.cursor)));
    this._register(hub.onDidBecomeFollower((e) => this._follow(e.snapshot)));
    this._register(hub.onFact((e) => this._fact(e.body)));
    // Without a hub this window is on its own: it opens its own stream rather than none.
    this._register(hub.onDidFail(() => void o.stream.holdStream(true)));
    // Each stored cursor goes to the followers at once (the stream stores it at most about once a second).
    o.cursors.onDidSet = (scope, cursor) => this._publish({ f: 'cursor' }, { scope, cursor });
    this._register(
      o.stream.onDidReceiveEvent((e) => {
        if (hub.role !== 'leader') {
          return;
        }
        const toast = e.type === 'requestOpened' ? this._targetFor(keyId(e.request.key)) : undefined;
        this._publish(
          toast === undefined ? { f: 'event', event: eventToJson(e) } : { f: 'event', event: eventToJson(e), toast },
        );
        this._onDidReceiveEvent.fire(e);
      }),
    );
    this._register(o.stream.onDidChangeState((s) => this._publish({ f: 'state', state: s as unknown as Json })));
  }

  /** Reports this window's focus (vscode.window.onDidChangeWindowState). */
  setFocused(focused: boolean): void {
    this.hub.setFocused(focused);
  }

  /**
   * Whether this window shows the toast for a new request: local agents' requests always; a remote one only in the
   * window the leader picked for it.
   */
  shouldToast(item: { readonly key: RequestKey }): boolean {
    if (this.o.isLocal(item.key.server)) {
      return true;
    }
    const id = keyId(item.key);
    if (this.hub.role === 'leader') {
      return this._targetFor(id) === this.hub.windowId;
    }
    return this._targets.get(id) === this.hub.windowId;
  }

  /** Leader: the toast window of a request, picked once, when first asked. */
  private _targetFor(id: string): string {
    let target = this._targets.get(id);
    if (target === undefined) {
      target = this.hub.toastTarget() ?? this.hub.windowId;
      this._targets.set(id, target);
    }
    return target;
  }

  private _publish(fact: Fact, cursor: Json | undefined = this.hub.cursor): void {
    if (this.hub.role === 'leader') {
      this.hub.publish(fact as unknown as Json, cursor);
    }
  }

  private async _lead(cursor: Json | undefined): Promise<void> {
    if (isObject(cursor) && typeof cursor.scope === 'string' && typeof cursor.cursor === 'string') {
      await this.o.cursors.adopt(cursor.scope, cursor.cursor);
      this.hub.setCursor({ scope: cursor.scope, cursor: cursor.cursor });
    }
    if (!this.isDisposed) {
      await this.o.stream.holdStream(true);
    }
  }

  private _snapshot(): Json {
    const items = this.o.inbox.open().filter((i) => !this.o.isLocal(i.key.server));
    const conversations = new Map<string, ConversationInfo>();
    for (const i of items) {
      conversations.set(JSON.stringify([i.conversation.server, i.conversation.id]), i.conversation);
    }
    const snapshot = {
      state: this.o.stream.state,
      conversations: [...conversations.values()],
      requests: items.map((i) => ({ request: i.request, source: i.source })),
    };
    return JSON.parse(JSON.stringify(snapshot)) as Json;
  }

  private _follow(snapshot: Json): void {
    void this.o.stream.holdStream(false);
    if (!isObject(snapshot)) {
      return;
    }
    if (isObject(snapshot.state)) {
      this.o.stream.mirror(snapshot.state as unknown as ConnectionState);
    }
    const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
    for (const conversation of list(snapshot.conversations)) {
      this._apply({ type: 'conversation', conversation: conversation as ConversationInfo });
    }
    for (const r of list(snapshot.requests)) {
      if (isObject(r) && isObject(r.request)) {
        const source = r.source === 'live' ? 'live' : 'backfill';
        this._apply({ type: 'requestOpened', request: r.request as unknown as RequestDetails, source });
      }
    }
  }

  private _fact(body: Json): void {
    if (this.hub.role !== 'follower' || !isObject(body)) {
      return;
    }
    if (body.f === 'event') {
      const e = eventFromJson(body.event ?? null);
      if (!e) {
        this.o.log.warn('hub: skipped a fact that is not a feed event');
        return;
      }
      if (e.type === 'requestOpened' && typeof body.toast === 'string' && !this._targets.has(keyId(e.request.key))) {
        this._targets.set(keyId(e.request.key), body.toast);
      }
      if (this._apply(e)) {
        this._onDidReceiveEvent.fire(e);
      }
    } else if (body.f === 'state' && isObject(body.state)) {
      this.o.stream.mirror(body.state as unknown as ConnectionState);
    } else if (body.f === 'answered') {
      this._answered(body);
    }
  }

  /** Another window's answer the server accepted: the request is resolved with that option, here too. */
  private _answered(body: Record<string, Json>): void {
    const key = keyOf(body.key);
    const result = body.result;
    if (!key || typeof body.optionId !== 'string' || !isObject(result) || typeof body.at !== 'number') {
      return;
    }
    if (result.kind !== 'answered' && result.kind !== 'notDelivered') {
      return;
    }
    const detached = this.o.inbox.get(key)?.detached ?? false;
    this._apply({
      type: 'requestResolved',
      key,
      outcome: 'answered',
      optionId: body.optionId,
      detached,
      at: body.at,
    });
  }

  private _apply(e: FeedEvent): boolean {
    try {
      this.o.inbox.apply(e);
      return true;
    } catch (err) {
      this.o.log.warn(`hub: a '${e.type}' fact from the leader could not be applied: ${String(err)}`);
      return false;
    }
  }

  /** Leader: the one POST, and its result to every window. */
  private async _post(key: RequestKey, optionId: string): Promise<AnswerResult> {
    const result = await this.o.sender.send(key, optionId);
    this._publish({ f: 'answered', key, optionId, result: result as unknown as Json, at: Date.now() });
    return result;
  }

  /**
   * Follower: the leader answers through its inbox. When the leader goes away (or never replies), it may have POSTed
   * first: the server's record, read after the cursor of this moment, says whether the answer took, so a request
   * already answered is not offered for answering again; only when that cannot tell is it a retryable network result.
   */
  private async _askLeader(key: RequestKey, optionId: string): Promise<AnswerResult> {
    const at = this.hub.cursor;
    const after = isObject(at) && typeof at.cursor === 'string' ? at.cursor : undefined;
    try {
      const body = { t: 'answer', key: { ...key }, optionId };
      const reply = await this.hub.request(body, ANSWER_TIMEOUT_MS);
      if (isObject(reply) && isObject(reply.sent) && typeof reply.sent.kind === 'string') {
        return reply.sent as unknown as AnswerResult;
      }
      const refused = isObject(reply) ? reply.refused : undefined;
      if (refused === NOT_CONFIRMED) {
        return refusalResult(NOT_CONFIRMED);
      }
      return refusalResult(REFUSALS.has(refused) ? (refused as AnswerRefusal['kind']) : 'malformed');
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      const settled = await this.o.sender.settleLostAnswer(key, optionId, after);
      if (settled.kind !== 'network') {
        this.o.log.info(
          `hub: the leader did not reply to the answer to ${key.requestId} (${why}); the server says ${settled.kind}`,
        );
        return settled;
      }
      return { kind: 'network', message: `the window holding the Fountain connection did not answer (${why})` };
    }
  }

  /** Follower: runs Reconnect or Refresh in the window holding the stream. */
  async inLeader(action: 'reconnect' | 'refresh'): Promise<void> {
    await this.hub.request({ t: action }, ANSWER_TIMEOUT_MS);
  }

  /** Leader: a follower's request. */
  private async _onRequest(body: Json): Promise<Json> {
    if (isObject(body) && body.t === 'reconnect') {
      this.o.stream.reconnect();
      return null;
    }
    if (isObject(body) && body.t === 'refresh') {
      await this.o.stream.refresh();
      return null;
    }
    return this._answerForFollower(body);
  }

  /** Leader: a follower's answer, through this window's inbox guard and POST (never a local agent's request). */
  private async _answerForFollower(body: Json): Promise<Json> {
    const key = isObject(body) && body.t === 'answer' ? keyOf(body.key) : undefined;
    const optionId = isObject(body) ? body.optionId : undefined;
    if (!key || typeof optionId !== 'string') {
      throw new Error('not an answer request');
    }
    if (this.o.isLocal(key.server)) {
      throw new Error("a local agent's request is answered in its own window");
    }
    const refused = await this._danger.refusal(key, optionId);
    if (refused !== undefined) {
      return { refused };
    }
    const attempt = await answerThroughInbox(this.o.inbox, { send: (k, o) => this._post(k, o) }, key, optionId);
    return attempt.kind === 'sent' ? { sent: attempt.result as unknown as Json } : { refused: attempt.refusal.kind };
  }
}
