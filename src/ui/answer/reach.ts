/**
 * The reach of a request's persistent options for the toast and Answer…: the sentences live in dist/details.js
 * (src/ui/details/reachText.ts), which is loaded only for a request that offers an option that may keep something.
 */
import type { InboxItem } from '../../domain/inbox';
import * as vscode from 'vscode';
import { detailsBundle } from '../details/details';

/** A cheap first look: an `*_always` option, or one with `_meta` (which may say it persists). */
function mayPersist(item: InboxItem): boolean {
  return item.request.options.some((o) => o.kind.endsWith('_always') || o._meta !== undefined);
}

/** An edit, delete or move that carries no diff: the toast says so, so its Allow is never a bare one. */
function noDiffNote(item: InboxItem): string | undefined {
  const kind = item.request.kind;
  return kind === 'edit' && item.request.diffs.length === 0
    ? vscode.l10n.t('No diff was sent with this edit: see Details')
    : undefined;
}

/**
 * The toast's note: an edit without a diff says so, then the reach note (short, else a pointer to Details);
 * undefined when there is nothing to say.
 */
export function toastReach(item: InboxItem): string | undefined {
  const notes = [noDiffNote(item), mayPersist(item) ? detailsBundle.load().toastReach(item) : undefined].filter(
    (n): n is string => n !== undefined,
  );
  return notes.length ? notes.join(' · ') : undefined;
}

/** The reach line of one option for Answer…'s list; undefined for an option that keeps nothing. */
export function optionReachLine(item: InboxItem, optionId: string): string | undefined {
  return mayPersist(item) ? detailsBundle.load().optionReachLine(item, optionId) : undefined;
}
