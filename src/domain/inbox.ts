/**
 * The approval inbox: every permission request the user could answer, across sources, servers and conversations,
 * with its lifecycle. Sources hand it facts (`apply`: request opened / resolved, turn ended, conversation ended,
 * backfill complete) and answer results (`beginAnswer` / `completeAnswer`); time moves only through `tick`, so every
 * rule is testable with a fake clock. It alone decides every state change, and alone guards answers: only an offered
 * option, one answer in flight, never after a final result.
 *
 * Lifecycle: `open` → `answering` → `answeredByYou` | `resolvedElsewhere` | `expired` | `turnEnded` |
 * `conversationEnded` | `noLongerWaiting`, or `leftOpen` (still answerable, with the server's reason).
 * Closed items linger (default 30 s) so the user sees what happened, then leave; what closed them is remembered
 * (bounded) so that a late or replayed `requestOpened` never resurrects them and a stale click can say why.
 */
import type { IDisposable } from '../util/lifecycle';
import { BoundedMap } from './boundedMap';
import { Emitter, type Event } from './events';
import {
  DEFAULT_LINGER_MS,
  DEFAULT_MEMORY_SIZE,
  IN_TURN_TIMEOUT_MS,
  type AnswerError,
  type AnswerTicket,
  type BeginAnswerResult,
  type ClickCheck,
  type Closure,
  type ConversationGroup,
  type InboxChange,
  type InboxItem,
  type InboxOptions,
  type ItemState,
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
import { labelOf, severityOf } from './requestLabel';

export * from './inboxTypes';
export { labelOf, severityOf, type Severity } from './requestLabel';

interface Entry {
  readonly id: string;
  request: RequestDetails;
  state: ItemState;
  lastError?: AnswerError;
  readonly source: 'live' | 'backfill';
  readonly firstSeenAt: number;
  closedAt?: number;
  /** The closure came from the server (a resolution, or our own accepted answer): later closures do not replace it. */
  final: boolean;
  attempt: number;
  snapshot: InboxItem;
}

interface Remembered {
  readonly closure: Closure;
  readonly optionName?: string;
}

const isPending = (s: ItemState) => s.kind === 'open' || s.kind === 'answering' || s.kind === 'leftOpen';
const isAnswerable = (s: ItemState) => s.kind === 'open' || s.kind === 'leftOpen';
const convId = (server: string, id: string) => JSON.stringify([server, id]);

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
  readonly lingerMs: number;

  private _added = new Set<string>();
  private _changed = new Set<string>();
  private _removed = new Set<string>();

  constructor(options: InboxOptions = {}) {
    this._now = options.now ?? Date.now;
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

  // ---- queries ----

  get(key: RequestKey | string): InboxItem | undefined {
    return this._entries.get(typeof key === 'string' ? key : keyId(key))?.snapshot;
  }

  /** Every visible item (pending and lingering), oldest first. */
  all(): InboxItem[] {
    return [...this._entries.values()].map((e) => e.snapshot).sort(byAge);
  }

  /** Pending items (open, answering, leftOpen), oldest first across conversations. */
  open(): InboxItem[] {
    return this.all().filter((i) => i.pending);
  }

  get openCount(): number {
    let n = 0;
    for (const e of this._entries.values()) {
      if (isPending(e.state)) {
        n++;
      }
    }
    return n;
  }

  /** Visible items grouped by conversation; groups ordered by their oldest item. */
  byConversation(): ConversationGroup[] {
    const groups = new Map<string, InboxItem[]>();
    for (const item of this.all()) {
      const k = convId(item.key.server, item.key.conversationId);
      let list = groups.get(k);
      if (!list) {
        list = [];
        groups.set(k, list);
      }
      list.push(item);
    }
    return [...groups.values()].map((items) => ({
      server: items[0].key.server,
      conversationId: items[0].key.conversationId,
      conversation: items[0].conversation,
      items,
    }));
  }

  /** The earliest epoch ms at which `tick` would change something (a deadline or a linger end), if any. */
  nextWakeAt(): number | undefined {
    let next: number | undefined;
    for (const e of this._entries.values()) {
      const t = isAnswerable(e.state)
        ? e.snapshot.deadline
        : !isPending(e.state) && e.closedAt !== undefined
          ? e.closedAt + this.lingerMs
          : undefined;
      if (t !== undefined && (next === undefined || t < next)) {
        next = t;
      }
    }
    return next;
  }

  // ---- feed ----

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
          const r = e.request;
          const otherTurn = event.turnId !== undefined && r.turnId !== undefined && r.turnId !== event.turnId;
          const askedLater = r.askedAt !== undefined && r.askedAt > event.at;
          if (isPending(e.state) && !r.detached && !otherTurn && !askedLater) {
            this._close(e, { kind: 'turnEnded', at: event.at, stopReason: event.stopReason }, false);
          }
        }
        break;
      case 'conversationEnded': {
        this._endedConversations.set(convId(event.server, event.conversationId), {
          at: event.at,
          reason: event.reason,
        });
        for (const e of this._entriesOf(event.server, event.conversationId)) {
          const askedLater = e.request.askedAt !== undefined && e.request.askedAt > event.at;
          if (isPending(e.state) && !askedLater) {
            this._close(e, { kind: 'conversationEnded', at: event.at, reason: event.reason }, false);
          }
        }
        break;
      }
      case 'backfillComplete':
        for (const e of this._entries.values()) {
          const k = e.request.key;
          if (
            k.server === event.server &&
            event.conversationIds.has(k.conversationId) &&
            !event.openKeys.has(e.id) &&
            (e.request.detached || !event.inTurnRead || event.inTurnRead.has(k.conversationId)) &&
            isAnswerable(e.state) &&
            (event.startedAt === undefined || e.firstSeenAt <= event.startedAt)
          ) {
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
      // An answer in flight is left to its POST result: the server decides whether it was in time.
      if (isAnswerable(e.state) && deadline !== undefined && deadline <= now) {
        this._close(e, { kind: 'expired', at: deadline, source: 'clock' }, false, now);
      } else if (!isPending(e.state) && e.closedAt !== undefined && e.closedAt + this.lingerMs <= now) {
        this._remove(e);
      }
    }
    this._flush();
  }

  // ---- answering ----

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
    if (!isAnswerable(e.state)) {
      const closure = e.state;
      return { kind: 'stale', closure, optionName: optionNameFor(e.request, closure) };
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
      switch (result.kind) {
        case 'answered':
          this._close(e, { kind: 'answeredByYou', optionId: ticket.optionId, at: now }, true);
          break;
        case 'notDelivered':
          this._close(
            e,
            { kind: 'answeredByYou', optionId: ticket.optionId, at: now, promptToWake: true, message: result.message },
            true,
          );
          break;
        case 'resolvedElsewhere':
          this._close(e, { kind: 'resolvedElsewhere', optionId: null, at: now }, false);
          break;
        case 'notFound':
          this._close(e, { kind: 'noLongerWaiting', at: now, cause: 'notFound' }, false);
          break;
        case 'leftOpen':
          e.state = {
            kind: 'leftOpen',
            reason: result.reason,
            optionId: ticket.optionId,
            at: now,
            message: result.message,
            retryAfterSec: result.retryAfterSec,
          };
          this._touch(e);
          break;
        default:
          e.state = { kind: 'open' };
          e.lastError = { optionId: ticket.optionId, at: now, result };
          this._touch(e);
      }
    } else if (result.kind === 'answered' || result.kind === 'notDelivered') {
      // The item moved on while the POST was in flight. The server accepted our answer, which beats any closure
      // this inbox inferred on its own (clock expiry, turn end, backfill), but not a resolution the server reported.
      const promptToWake = result.kind === 'notDelivered';
      if (!isPending(e.state) && !e.final) {
        this._close(e, { kind: 'answeredByYou', optionId: ticket.optionId, at: now, promptToWake }, true, now, true);
      } else if (promptToWake && e.state.kind === 'answeredByYou' && !e.state.promptToWake) {
        e.state = { ...e.state, promptToWake: true, message: result.message };
        this._touch(e);
      }
    }
    this._flush();
    return e.snapshot;
  }

  // ---- internals ----

  private _onConversation(info: ConversationInfo): void {
    const k = convId(info.server, info.id);
    const prev = this._conversations.get(k);
    const merged: ConversationInfo = prev ? { ...prev, ...definedOnly(info) } : info;
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
    const ended = this._endedConversations.get(convId(request.key.server, request.key.conversationId));
    if (ended && request.askedAt !== undefined && request.askedAt <= ended.at) {
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
      if (
        existing.state.kind === 'expired' &&
        existing.state.source === 'clock' &&
        merged.deadline !== undefined &&
        merged.deadline > this._now()
      ) {
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
    const e: Entry = {
      id,
      request: req,
      state: { kind: 'open' },
      source,
      firstSeenAt: this._now(),
      final: false,
      attempt: 0,
      snapshot: undefined as unknown as InboxItem,
    };
    this._entries.set(id, e);
    this._added.add(id);
    this._touch(e);
  }

  private _onResolved(key: RequestKey, outcome: ResolutionOutcome, optionId: string | null, at: number): void {
    const id = keyId(key);
    const e = this._entries.get(id);
    const closure = resolutionClosure(outcome, optionId, at);
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
    if (!isPending(e.state) && !(override && !e.final)) {
      return;
    }
    const wasPending = isPending(e.state);
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
    this._gone.set(e.id, { closure, optionName: optionNameFor(e.request, closure) });
    this._removed.add(e.id);
    this._added.delete(e.id);
  }

  private _touch(e: Entry): void {
    const r = e.request;
    const conversation = this._conversations.get(convId(r.key.server, r.key.conversationId)) ?? {
      server: r.key.server,
      id: r.key.conversationId,
    };
    const askedAt = r.askedAt ?? e.firstSeenAt;
    const deadline = r.detached ? r.deadline : (r.deadline ?? askedAt + IN_TURN_TIMEOUT_MS);
    const severity = severityOf(r.kind);
    e.snapshot = {
      id: e.id,
      key: r.key,
      request: r,
      conversation,
      state: e.state,
      pending: isPending(e.state),
      answerable: isAnswerable(e.state),
      label: labelOf(r),
      severity,
      isRisky: severity === 'high',
      askedAt,
      deadline,
      detached: r.detached,
      lastError: e.lastError,
      source: e.source,
      firstSeenAt: e.firstSeenAt,
      closedAt: isPending(e.state) ? undefined : e.closedAt,
    };
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

function resolutionClosure(outcome: ResolutionOutcome, optionId: string | null, at: number): Closure {
  switch (outcome) {
    case 'timeout':
      return { kind: 'expired', at, source: 'server', optionId };
    case 'turn_ended':
      return { kind: 'turnEnded', at };
    default:
      return { kind: 'resolvedElsewhere', optionId, outcome, at };
  }
}

function optionNameFor(r: RequestDetails, c: Closure): string | undefined {
  const optionId = 'optionId' in c ? c.optionId : undefined;
  return optionId == null ? undefined : r.options.find((o) => o.optionId === optionId)?.name;
}

function byAge(a: InboxItem, b: InboxItem): number {
  return a.askedAt - b.askedAt || a.firstSeenAt - b.firstSeenAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
