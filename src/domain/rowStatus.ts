/**
 * What a request's row in the Pending Approvals tree says about its state, as data (src/ui/tree/rowText.ts puts it in
 * words): the countdown while it waits; which option won (its name as the runtime offered it) and how long ago when it
 * was answered elsewhere; for a request the server left open (busy, out of credits, suspended, not ready) why, its
 * countdown still running, and when the same answer may be sent again (after the server's Retry-After, if given).
 */
import type { InboxItem, ItemState, LeftOpenReason } from './inboxTypes';

export type RowStatus =
  | { readonly kind: 'open'; readonly leftMs?: number }
  | {
      readonly kind: 'leftOpen';
      readonly reason: LeftOpenReason;
      /** The option the user chose (its offered name, else its id), which Retry sends again. */
      readonly option: string;
      readonly leftMs?: number;
      /** Epoch ms before which Retry is refused (the server's Retry-After); undefined: at once. */
      readonly retryAt?: number;
    }
  | { readonly kind: 'answeredByYou'; readonly option: string }
  /** `option` undefined: the server did not say which option won. */
  | { readonly kind: 'resolvedElsewhere'; readonly option?: string; readonly agoMs: number }
  | Exclude<ItemState, { kind: 'open' | 'leftOpen' | 'answeredByYou' | 'resolvedElsewhere' }>;

/** The name of the offered option with this id, else the id itself (untrusted text either way). */
export function optionText(item: InboxItem, optionId: string): string {
  return item.request.options.find((o) => o.optionId === optionId)?.name ?? optionId;
}

/** Epoch ms from which a request the server left open may be answered again; undefined: at once, or not left open. */
export function retryAt(item: InboxItem): number | undefined {
  const s = item.state;
  return s.kind === 'leftOpen' && s.retryAfterSec ? s.at + s.retryAfterSec * 1000 : undefined;
}

/** What Retry does now: send the option the user chose again, wait until `at`, or nothing (not left open). */
export function retryCheck(
  item: InboxItem,
  now: number,
): { kind: 'send'; optionId: string } | { kind: 'wait'; at: number } | { kind: 'notLeftOpen' } {
  if (item.state.kind !== 'leftOpen') {
    return { kind: 'notLeftOpen' };
  }
  const at = retryAt(item);
  return at !== undefined && now < at ? { kind: 'wait', at } : { kind: 'send', optionId: item.state.optionId };
}

export function rowStatus(item: InboxItem, now: number): RowStatus {
  const s = item.state;
  const leftMs = item.deadline !== undefined ? item.deadline - now : undefined;
  switch (s.kind) {
    case 'open':
      return { kind: 'open', leftMs };
    case 'leftOpen':
      return {
        kind: 'leftOpen',
        reason: s.reason,
        option: optionText(item, s.optionId),
        leftMs,
        retryAt: retryAt(item),
      };
    case 'answeredByYou':
      return { kind: 'answeredByYou', option: optionText(item, s.optionId) };
    case 'resolvedElsewhere':
      return {
        kind: 'resolvedElsewhere',
        option: s.optionId ? optionText(item, s.optionId) : undefined,
        agoMs: Math.max(0, now - s.at),
      };
    default:
      return s; // the text follows from the state alone
  }
}
