/**
 * "Allow Selected…" / "Reject Selected…": what a batch over the selected requests would send, decided before the
 * user confirms it. Each request gets its own offered option (the first `allow_once`, never an "always" allow; or the
 * inline reject option), exactly as its own inline action would; a request without one, or no longer answerable, is
 * listed as skipped. Pure: the VS Code part (the modal, then one AnswerFlow answer per entry) is src/ui/tree/batch.ts.
 */
import type { InboxItem } from './inboxTypes';
import type { PermissionOption } from './model';
import { inlineAllowOption, inlineRejectOption } from './optionChoice';
import { byUrgency } from './urgency';

export type BatchKind = 'allow' | 'reject';

export type SkipReason =
  /** The runtime offered no `allow_once` (for Allow) or no reject option (for Reject). */
  | 'noOption'
  /** Already answered, closed, or an answer is in flight. */
  | 'notWaiting';

export interface BatchPlan {
  readonly kind: BatchKind;
  /** One entry per request to answer, most urgent first; `option` is one of that request's offered objects. */
  readonly send: readonly { readonly item: InboxItem; readonly option: PermissionOption }[];
  readonly skip: readonly { readonly item: InboxItem; readonly reason: SkipReason }[];
}

/** The option a batch sends for one request, when it offered one. */
export function batchOption(item: InboxItem, kind: BatchKind): PermissionOption | undefined {
  return kind === 'allow' ? inlineAllowOption(item.request.options) : inlineRejectOption(item.request.options);
}

/** The plan for the selected requests (duplicates counted once), most urgent first. */
export function planBatch(selected: readonly InboxItem[], kind: BatchKind): BatchPlan {
  const unique = [...new Map(selected.map((i) => [i.id, i])).values()].sort(byUrgency);
  const send: { item: InboxItem; option: PermissionOption }[] = [];
  const skip: { item: InboxItem; reason: SkipReason }[] = [];
  for (const item of unique) {
    const option = batchOption(item, kind);
    if (!item.answerable) {
      skip.push({ item, reason: 'notWaiting' });
    } else if (!option) {
      skip.push({ item, reason: 'noOption' });
    } else {
      send.push({ item, option });
    }
  }
  return { kind, send, skip };
}
