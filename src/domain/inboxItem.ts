/**
 * One inbox item: its mutable entry, the immutable snapshot built from it, and the pure rules that turn a resolution
 * or an answer result into a state. The store that applies them is src/domain/inbox.ts.
 */
import {
  IN_TURN_TIMEOUT_MS,
  type AnswerError,
  type Closure,
  type ConversationGroup,
  type InboxItem,
  type ItemState,
} from './inboxTypes';
import {
  AGENT_EXITED,
  type AnswerResult,
  type ConversationInfo,
  type RequestDetails,
  type ResolutionOutcome,
} from './model';
import { memoDanger, type DangerCheck, type DangerMemo } from './danger';
import { labelOf, severityOf } from './requestLabel';

export interface Entry extends DangerMemo {
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

export interface Remembered {
  readonly closure: Closure;
  readonly optionName?: string;
}

export const isPending = (s: ItemState) => s.kind === 'open' || s.kind === 'answering' || s.kind === 'leftOpen';
export const isAnswerable = (s: ItemState) => s.kind === 'open' || s.kind === 'leftOpen';
export const convId = (server: string, id: string) => JSON.stringify([server, id]);

/** A new open entry (its snapshot is built by the store's first touch). */
export function newEntry(id: string, request: RequestDetails, source: Entry['source'], now: number): Entry {
  const snapshot = undefined as unknown as InboxItem;
  return { id, request, state: { kind: 'open' }, source, firstSeenAt: now, final: false, attempt: 0, snapshot };
}

/** The snapshot the UI reads; a new object whenever anything about the item changes. */
export function snapshotOf(e: Entry, conversation: ConversationInfo, check?: DangerCheck): InboxItem {
  const r = e.request;
  const askedAt = r.askedAt ?? e.firstSeenAt;
  const deadline = r.detached ? r.deadline : (r.deadline ?? askedAt + IN_TURN_TIMEOUT_MS);
  const danger = memoDanger(e, check);
  // A denylisted command is high severity whatever its kind says (a `riskyOnly` toast, the warning style).
  const severity = danger ? 'high' : severityOf(r.kind);
  return {
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
    ...(danger ? { danger } : {}),
    askedAt,
    deadline,
    detached: r.detached,
    lastError: e.lastError,
    source: e.source,
    firstSeenAt: e.firstSeenAt,
    closedAt: isPending(e.state) ? undefined : e.closedAt,
  };
}

/**
 * What the result of the current answer attempt makes of an item: a closure (`final` when the server accepted it),
 * or a state that stays answerable (left open by the server, or back to open with the error shown).
 */
export function stateAfterAnswer(
  optionId: string,
  result: AnswerResult,
  now: number,
): { closure: Closure; final: boolean } | { state: ItemState; lastError?: AnswerError } {
  switch (result.kind) {
    case 'answered':
      return { closure: { kind: 'answeredByYou', optionId, at: now }, final: true };
    case 'notDelivered':
      return {
        closure: { kind: 'answeredByYou', optionId, at: now, promptToWake: true, message: result.message },
        final: true,
      };
    case 'resolvedElsewhere':
      return { closure: { kind: 'resolvedElsewhere', optionId: null, at: now }, final: false };
    case 'notFound':
      return { closure: { kind: 'noLongerWaiting', at: now, cause: 'notFound' }, final: false };
    case 'leftOpen':
      return {
        state: {
          kind: 'leftOpen',
          reason: result.reason,
          optionId,
          at: now,
          message: result.message,
          retryAfterSec: result.retryAfterSec,
        },
      };
    default:
      return { state: { kind: 'open' }, lastError: { optionId, at: now, result } };
  }
}

export function resolutionClosure(outcome: ResolutionOutcome, optionId: string | null, at: number): Closure {
  switch (outcome) {
    case 'timeout':
      return { kind: 'expired', at, source: 'server', optionId };
    case 'turn_ended':
      return { kind: 'turnEnded', at };
    // A local agent source's own outcomes: the agent process ended (nothing was answered), or it withdrew the request.
    case AGENT_EXITED:
      return { kind: 'conversationEnded', at, reason: AGENT_EXITED };
    case 'withdrawn':
      return { kind: 'noLongerWaiting', at, cause: 'withdrawn' };
    default:
      return { kind: 'resolvedElsewhere', optionId, outcome, at };
  }
}

export function optionNameFor(r: RequestDetails, c: Closure): string | undefined {
  const optionId = 'optionId' in c ? c.optionId : undefined;
  return optionId == null ? undefined : r.options.find((o) => o.optionId === optionId)?.name;
}

export function byAge(a: InboxItem, b: InboxItem): number {
  return a.askedAt - b.askedAt || a.firstSeenAt - b.firstSeenAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

export function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** Items grouped by conversation, in the order of each group's first item. */
export function groupByConversation(items: readonly InboxItem[]): ConversationGroup[] {
  const groups = new Map<string, InboxItem[]>();
  for (const item of items) {
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
