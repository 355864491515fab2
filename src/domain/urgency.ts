/**
 * Urgency order of waiting requests, shared by the keyboard queue, the Pending Approvals tree and "what comes next
 * after an answer": nearest deadline first, requests with no deadline after every request with one, then oldest
 * first. A detached request due in three days therefore waits behind an in-turn one due in two minutes.
 */
import { byAge } from './inboxItem';
import type { ConversationGroup, InboxItem } from './inboxTypes';

/** Comparator: the nearest deadline first, no deadline last, then oldest first. */
export function byUrgency(a: InboxItem, b: InboxItem): number {
  const da = a.deadline;
  const db = b.deadline;
  if (da !== db) {
    if (da === undefined) {
      return 1;
    }
    if (db === undefined) {
      return -1;
    }
    return da - db;
  }
  return byAge(a, b);
}

/** The requests that may be answered now, most urgent first. */
export function urgentFirst(items: readonly InboxItem[]): InboxItem[] {
  return items.filter((i) => i.answerable).sort(byUrgency);
}

/** The most urgent request that may be answered now, other than the ids in `except`. */
export function nextWaiting(
  items: readonly InboxItem[],
  except: ReadonlySet<string> = new Set(),
): InboxItem | undefined {
  let best: InboxItem | undefined;
  for (const i of items) {
    if (i.answerable && !except.has(i.id) && (!best || byUrgency(i, best) < 0)) {
      best = i;
    }
  }
  return best;
}

/**
 * The tree's order: in each conversation its waiting requests (open, answering, left open) most urgent first, then
 * its closed ones oldest first; conversations by their most urgent waiting request, then those with nothing
 * waiting in the order given (their oldest item first).
 */
export function byUrgencyGroups(groups: readonly ConversationGroup[]): ConversationGroup[] {
  const ordered = groups.map((g) => {
    const waiting = g.items.filter((i) => i.pending).sort(byUrgency);
    const items = waiting.length === g.items.length ? waiting : [...waiting, ...g.items.filter((i) => !i.pending)];
    return { group: { ...g, items }, first: waiting[0] };
  });
  ordered.sort((a, b) => {
    if (a.first && b.first) {
      return byUrgency(a.first, b.first);
    }
    return a.first ? -1 : b.first ? 1 : 0;
  });
  return ordered.map((o) => o.group);
}
