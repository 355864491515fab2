/**
 * The approval inbox: every request the user could answer, across sources and conversations. Sources hand it facts
 * (`apply`) and answer results (`beginAnswer` / `completeAnswer`); time moves only through `tick`. It alone decides
 * every state change (the rules: lifecycleRules.ts) and alone guards answers: an offered option, one in flight,
 * never after a final result. `open` → `answering` → a closure (inboxTypes.ts), or `leftOpen` (answerable again).
 * Closed items linger (30 s), then leave; what closed them is remembered (bounded), so a replayed `requestOpened`
 * never resurrects them and a stale click can say why.
 */
import type { IDisposable } from '../util/lifecycle';
import { BoundedMap } from './boundedMap';
import { Emitter, type Event } from './events';
import * as item from './inboxItem';
import type { Entry, Remembered } from './inboxItem';
import * as rules from './lifecycleRules';
import {
  DEFAULT_LINGER_MS,
  DEFAULT_MEMORY_SIZE,
  type AnswerTicket,
  type BeginAnswerResult,
  type ClickCheck,
  type Closure,
  type ConversationGroup,
  type InboxChange,
  type InboxItem,
  type InboxOptions,
} from './inboxTypes';
import {
  keyId,
  type AnswerResult,
  type ConversationInfo,
  type FeedEvent,
  type RequestDetails,
  type RequestKey,
  type ResolutionOutcome,
} from './model';
import { mergeDetails } from './requestMerge';

export * from './inboxTypes';
export { labelOf, severityOf, type Severity } from './requestLabel';

export class Inbox implements IDisposable {
  private readonly _onDidChangeItems = new Emitter<InboxChange>();
  /** Fires once per apply/tick/answer step that changed anything, with the changed ids. */
  readonly onDidChangeItems: Event<InboxChange> = this._onDidChangeItems.event;

  private readonly _entries = new Map<string, Entry>();
  private readonly _conversations: BoundedMap<string, ConversationInfo>;
  /** Closures of keys that are not (or no longer) in `_entries`: early resolutions and items that lingered out. */
  private readonly _gone: BoundedMap<string, Remembered>;
  /** `turnEndedWaiting` seen before its request. */
  private readonly _earlyDetach: BoundedMap<string, { deadline?: number; turnId?: string }>;
  private readonly _endedConversations: BoundedMap<string, { at: number; reason: string }>;
  private readonly _now: () => number;
  private readonly _danger: InboxOptions['danger'];
  readonly lingerMs: number;

  private _added = new Set<string>();
  private _changed = new Set<string>();
  private _removed = new Set<string>();

  constructor(options: InboxOptions = {}) {
    this._now = options.now ?? Date.now;
    this._danger = options.danger;
    this.lingerMs = options.lingerMs ?? DEFAULT_LINGER_MS;
    const size = options.memorySize ?? DEFAULT_MEMORY_SIZE;
    this._conversations = new BoundedMap(size);
    this._gone = new BoundedMap(size);
    this._earlyDetach = new BoundedMap(size);
    this._endedConversations = new BoundedMap(size);
  }

  dispose(): void {
    this._onDidChangeItems.dispose();
  }

  get(key: RequestKey | string): InboxItem | undefined {
    return this._entries.get(typeof key === 'string' ? key : keyId(key))?.snapshot;
  }

  /** Every visible item (pending and lingering), oldest first. */
  all(): InboxItem[] {
    return [...this._entries.values()].map((e) => e.snapshot).sort(item.byAge);
  }

  /** Pending items (open, answering, leftOpen), oldest first across conversations. */
  /** What is known of a conversation (title, agent, runtime), once a source said it. */
  conversationOf(server: string, conversationId: string): ConversationInfo | undefined {
    return this._conversations.get(item.convId(server, conversationId));
  }

  open(): InboxItem[] {
    return this.all().filter((i) => i.pending);
  }

  get openCount(): number {
    let n = 0;
    for (const e of this._entries.values()) {
      if (item.isPending(e.state)) {
        n++;
      }
    }
    return n;
  }

  /** Visible items grouped by conversation; groups ordered by their oldest item. */
  byConversation(): ConversationGroup[] {
    return item.groupByConversation(this.all());
  }

  /** The earliest epoch ms at which `tick` would change something (a deadline or a linger end), if any. */
  nextWakeAt(): number | undefined {
    let next: number | undefined;
    for (const e of this._entries.values()) {
      const t = rules.wakeAt(e, this.lingerMs);
      if (t !== undefined && (next === undefined || t < next)) {
        next = t;
      }
    }
    return next;
  }

  apply(event: FeedEvent): void {
    switch (event.type) {
      case 'conversation':
        this._onConversation(event.conversation);
        break;
      case 'requestOpened':
        this._onOpened(event.request, event.source);
        break;
      case 'requestResolved':
        this._onResolved(event.key, event.outcome, event.optionId, event.at);
        break;
      case 'turnEndedWaiting':
        this._onTurnEndedWaiting(event.key, event.deadline, event.turnId);
        break;
      case 'turnEnded':
        for (const e of this._entriesOf(event.server, event.conversationId)) {
          if (rules.turnEndCloses(e, event)) {
            this._close(e, { kind: 'turnEnded', at: event.at, stopReason: event.stopReason }, false);
          }
        }
        break;
      case 'conversationEnded': {
        this._endedConversations.set(item.convId(event.server, event.conversationId), {
          at: event.at,
          reason: event.reason,
        });
        for (const e of this._entriesOf(event.server, event.conversationId)) {
          if (rules.conversationEndCloses(e, event)) {
            this._close(e, { kind: 'conversationEnded', at: event.at, reason: event.reason }, false);
          }
        }
        break;
      }
      case 'backfillComplete':
        for (const e of this._entries.values()) {
          if (rules.backfillAbsenceCloses(e, event)) {
            this._close(e, { kind: 'noLongerWaiting', at: event.at, cause: 'backfill' }, false);
          }
        }
        break;
    }
    this._flush();
  }

  /** Expires items whose deadline has passed and removes closed items whose linger period is over. */
  tick(now: number = this._now()): void {
    for (const e of [...this._entries.values()]) {
      const deadline = e.snapshot.deadline;
      if (rules.clockExpires(e, now)) {
        this._close(e, { kind: 'expired', at: deadline!, source: 'clock' }, false, now);
      } else if (rules.lingerIsOver(e, this.lingerMs, now)) {
        this._remove(e);
      }
    }
    this._flush();
  }

  /** Read-only version of `beginAnswer`: what a click on (key, optionId) would do now. */
  clickCheck(key: RequestKey, optionId: string): ClickCheck {
    const id = keyId(key);
    const e = this._entries.get(id);
    if (!e) {
      const gone = this._gone.get(id);
      return gone ? { kind: 'stale', ...gone } : { kind: 'unknown' };
    }
    if (e.state.kind === 'answering') {
      return { kind: 'busyAnswering', optionId: e.state.optionId };
    }
    if (!item.isAnswerable(e.state)) {
      const closure = e.state;
      return { kind: 'stale', closure, optionName: item.optionNameFor(e.request, closure) };
    }
    const option = e.request.options.find((o) => o.optionId === optionId);
    if (!option) {
      return { kind: 'notOffered', optionId };
    }
    return { kind: 'answerable', item: e.snapshot, option };
  }

  /**
   * Starts answering: returns a ticket only when the item is open or left open and `optionId` is one the runtime
   * offered. While an answer is in flight every further attempt is refused (`busyAnswering`) and nothing changes.
   */
  beginAnswer(key: RequestKey, optionId: string): BeginAnswerResult {
    const check = this.clickCheck(key, optionId);
    if (check.kind !== 'answerable') {
      return { ok: false, refusal: check };
    }
    const e = this._entries.get(check.item.id)!;
    e.attempt++;
    e.lastError = undefined;
    e.state = { kind: 'answering', optionId, since: this._now() };
    this._touch(e);
    this._flush();
    return { ok: true, ticket: { key: e.request.key, id: e.id, optionId, attempt: e.attempt } };
  }

  /** Records the POST's result for a ticket and moves the item on. Returns the item after the change, if still known. */
  completeAnswer(ticket: AnswerTicket, result: AnswerResult): InboxItem | undefined {
    const e = this._entries.get(ticket.id);
    if (!e) {
      return undefined;
    }
    const now = this._now();
    const current = e.state.kind === 'answering' && e.attempt === ticket.attempt;
    if (current) {
      const next = item.stateAfterAnswer(ticket.optionId, result, now);
      if ('closure' in next) {
        this._close(e, next.closure, next.final);
      } else {
        e.state = next.state;
        e.lastError = next.lastError;
        this._touch(e);
      }
    } else if (result.kind === 'answered' || result.kind === 'notDelivered') {
      // The item moved on while the POST was in flight. The server accepted our answer, which beats any closure
      // this inbox inferred on its own (clock expiry, turn end, backfill), but not a resolution the server reported.
      const promptToWake = result.kind === 'notDelivered';
      if (!item.isPending(e.state) && !e.final) {
        this._close(e, { kind: 'answeredByYou', optionId: ticket.optionId, at: now, promptToWake }, true, now, true);
      } else if (promptToWake && e.state.kind === 'answeredByYou' && !e.state.promptToWake) {
        e.state = { ...e.state, promptToWake: true, message: result.message };
        this._touch(e);
      }
    }
    this._flush();
    return e.snapshot;
  }

  private _onConversation(info: ConversationInfo): void {
    const k = item.convId(info.server, info.id);
    const prev = this._conversations.get(k);
    const merged: ConversationInfo = prev ? { ...prev, ...item.definedOnly(info) } : info;
    this._conversations.set(k, merged);
    for (const e of this._entriesOf(info.server, info.id)) {
      this._touch(e);
    }
  }

  private _onOpened(request: RequestDetails, source: 'live' | 'backfill'): void {
    const id = keyId(request.key);
    if (this._gone.has(id)) {
      return; // resolved before we saw it, or already closed and gone: never resurrect
    }
    const ended = this._endedConversations.get(item.convId(request.key.server, request.key.conversationId));
    if (ended && rules.askedBeforeEnd(request, ended)) {
      this._gone.set(id, { closure: { kind: 'conversationEnded', at: ended.at, reason: ended.reason } });
      return;
    }
    const existing = this._entries.get(id);
    if (existing) {
      const { key: _key, ...partial } = request;
      const merged = mergeDetails(request.key, existing.request, partial);
      if (merged === existing.request) {
        return;
      }
      existing.request = merged;
      // A server-confirmed later deadline reopens an item this inbox expired on its own clock.
      if (rules.laterDeadlineReopens(existing, this._now())) {
        this._reopen(existing);
      }
      this._touch(existing);
      return;
    }
    let req = request;
    const early = this._earlyDetach.get(id);
    if (early) {
      this._earlyDetach.delete(id);
      req = { ...req, detached: true, deadline: early.deadline ?? req.deadline, turnId: early.turnId ?? req.turnId };
    }
    const e = item.newEntry(id, req, source, this._now());
    this._entries.set(id, e);
    this._added.add(id);
    this._touch(e);
  }

  private _onResolved(key: RequestKey, outcome: ResolutionOutcome, optionId: string | null, at: number): void {
    const id = keyId(key);
    const e = this._entries.get(id);
    const closure = item.resolutionClosure(outcome, optionId, at);
    if (!e) {
      if (!this._gone.has(id)) {
        this._gone.set(id, { closure });
      }
      this._earlyDetach.delete(id);
      return;
    }
    if (e.final) {
      return; // the first resolution wins
    }
    if (e.state.kind === 'answering' && outcome === 'answered' && optionId === e.state.optionId) {
      this._close(e, { kind: 'answeredByYou', optionId, at }, true);
      return;
    }
    this._close(e, closure, true, undefined, true);
  }

  private _onTurnEndedWaiting(key: RequestKey, deadline: number | undefined, turnId: string | undefined): void {
    const id = keyId(key);
    const e = this._entries.get(id);
    if (!e) {
      if (!this._gone.has(id)) {
        this._earlyDetach.set(id, { deadline, turnId });
      }
      return;
    }
    // Without a deadline on the event, the in-turn countdown no longer applies: the deadline is unknown.
    e.request = { ...e.request, detached: true, deadline, turnId: turnId ?? e.request.turnId };
    if (e.state.kind === 'expired' && e.state.source === 'clock') {
      this._reopen(e);
    }
    this._touch(e);
  }

  private _reopen(e: Entry): void {
    e.state = { kind: 'open' };
    e.closedAt = undefined;
  }

  /**
   * Closes an entry. A closure only replaces a pending state, or (with `override`) a closure this inbox inferred
   * itself; `final` marks closures from the server or our accepted answer, which nothing later replaces.
   */
  private _close(e: Entry, closure: Closure, final: boolean, now = this._now(), override = false): void {
    if (!item.isPending(e.state) && !(override && !e.final)) {
      return;
    }
    const wasPending = item.isPending(e.state);
    e.state = closure;
    e.final = final;
    if (wasPending || e.closedAt === undefined) {
      e.closedAt = now;
    }
    this._touch(e);
  }

  private _remove(e: Entry): void {
    this._entries.delete(e.id);
    const closure = e.state as Closure;
    this._gone.set(e.id, { closure, optionName: item.optionNameFor(e.request, closure) });
    this._removed.add(e.id);
    this._added.delete(e.id);
  }

  private _touch(e: Entry): void {
    const r = e.request;
    const conversation = this._conversations.get(item.convId(r.key.server, r.key.conversationId)) ?? {
      server: r.key.server,
      id: r.key.conversationId,
    };
    e.snapshot = item.snapshotOf(e, conversation, this._danger);
    this._changed.add(e.id);
  }

  private *_entriesOf(server: string, conversationId: string): Iterable<Entry> {
    for (const e of [...this._entries.values()]) {
      if (e.request.key.server === server && e.request.key.conversationId === conversationId) {
        yield e;
      }
    }
  }

  private _flush(): void {
    const ids = new Set([...this._added, ...this._changed, ...this._removed]);
    if (!ids.size) {
      return;
    }
    const change: InboxChange = {
      ids: [...ids],
      added: [...this._added].filter((id) => this._entries.has(id)),
      removed: [...this._removed],
    };
    this._added = new Set();
    this._changed = new Set();
    this._removed = new Set();
    this._onDidChangeItems.fire(change);
  }
}
