/**
 * The request lifecycle rules, each in exactly one place: which facts close which items. The inbox
 * (src/domain/inbox.ts) is the only caller; no source decides any of this.
 */
import { isAnswerable, isPending, type Entry } from './inboxItem';
import type { FeedEvent, RequestDetails } from './model';

type Fact<T extends FeedEvent['type']> = Extract<FeedEvent, { type: T }>;

/** A terminal turn (not `waiting`) ends the pending in-turn requests of that turn asked before it ended. */
export function turnEndCloses(e: Entry, ev: Fact<'turnEnded'>): boolean {
  const r = e.request;
  const otherTurn = ev.turnId !== undefined && r.turnId !== undefined && r.turnId !== ev.turnId;
  const askedLater = r.askedAt !== undefined && r.askedAt > ev.at;
  return isPending(e.state) && !r.detached && !otherTurn && !askedLater;
}

/** An ended conversation ends every pending request of it asked before it ended. */
export function conversationEndCloses(e: Entry, ev: Fact<'conversationEnded'>): boolean {
  const askedLater = e.request.askedAt !== undefined && e.request.askedAt > ev.at;
  return isPending(e.state) && !askedLater;
}

/**
 * A finished backfill closes an answerable request it did not find, only when it read the request's conversation
 * completely (for an in-turn request: its /events feed too) and the request was seen before the backfill started.
 */
export function backfillAbsenceCloses(e: Entry, ev: Fact<'backfillComplete'>): boolean {
  const k = e.request.key;
  return (
    k.server === ev.server &&
    ev.conversationIds.has(k.conversationId) &&
    !ev.openKeys.has(e.id) &&
    (e.request.detached || !ev.inTurnRead || ev.inTurnRead.has(k.conversationId)) &&
    isAnswerable(e.state) &&
    (ev.startedAt === undefined || e.firstSeenAt <= ev.startedAt)
  );
}

/** The local clock expires an answerable item at its deadline; an answer in flight is left to its POST result. */
export function clockExpires(e: Entry, now: number): boolean {
  const deadline = e.snapshot.deadline;
  return isAnswerable(e.state) && deadline !== undefined && deadline <= now;
}

/** A closed item leaves the inbox `lingerMs` after it closed. */
export function lingerIsOver(e: Entry, lingerMs: number, now: number): boolean {
  return !isPending(e.state) && e.closedAt !== undefined && e.closedAt + lingerMs <= now;
}

/** When `clockExpires` or `lingerIsOver` would next become true for this item, if ever. */
export function wakeAt(e: Entry, lingerMs: number): number | undefined {
  if (isAnswerable(e.state)) {
    return e.snapshot.deadline;
  }
  return !isPending(e.state) && e.closedAt !== undefined ? e.closedAt + lingerMs : undefined;
}

/** A sighting of a request asked before its conversation ended is over already (it never opens). */
export function askedBeforeEnd(r: RequestDetails, ended: { readonly at: number }): boolean {
  return r.askedAt !== undefined && r.askedAt <= ended.at;
}

/** A later deadline from the server reopens an item this inbox expired on its own clock (and only that closure). */
export function laterDeadlineReopens(e: Entry, now: number): boolean {
  return (
    e.state.kind === 'expired' &&
    e.state.source === 'clock' &&
    e.request.deadline !== undefined &&
    e.request.deadline > now
  );
}
