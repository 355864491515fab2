/**
 * The reach of a request's persistent options for the toast and Answer…: the sentences live in dist/details.js
 * (src/ui/reachText.ts), which is loaded only for a request that offers an option that may keep something.
 */
import type { InboxItem } from '../domain/inbox';
import { detailsBundle } from './details';

/** A cheap first look: an `*_always` option, or one with `_meta` (which may say it persists). */
function mayPersist(item: InboxItem): boolean {
  return item.request.options.some((o) => o.kind.endsWith('_always') || o._meta !== undefined);
}

/** The toast's reach note (short, else a pointer to Details); undefined when nothing offered persists. */
export function toastReach(item: InboxItem): string | undefined {
  return mayPersist(item) ? detailsBundle.load().toastReach(item) : undefined;
}

/** The reach line of one option for Answer…'s list; undefined for an option that keeps nothing. */
export function optionReachLine(item: InboxItem, optionId: string): string | undefined {
  return mayPersist(item) ? detailsBundle.load().optionReachLine(item, optionId) : undefined;
}
