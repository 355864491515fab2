/**
 * The danger mark's VS Code side in the main bundle: the inbox's denylist check and the confirmation AnswerFlow asks
 * before an allow of a marked request, both from dist/danger.js (src/ui/danger/dangerModal.ts), loaded on first use.
 */
import type { DangerCheck, DangerMark } from '../../domain/danger';
import type { InboxItem } from '../../domain/inbox';
import type { PermissionOption } from '../../domain/model';
import { lazyBundle } from '../lazyBundle';

export const dangerBundle = lazyBundle<typeof import('./dangerModal')>('danger.js');

/**
 * The inbox's check: loads dist/danger.js on the first request (a synchronous require, about 1.5 ms once, so the mark
 * is there when the request is first shown). A check that throws marks the request: allowing it still asks.
 */
export function dangerCheck(onError: (err: unknown) => void): DangerCheck {
  return (command, title) => {
    try {
      return dangerBundle.load().remoteDanger(command, title);
    } catch (err) {
      onError(err);
      return { reason: 'could not be checked against the denylist' };
    }
  };
}

/** Asks before an allow of a dangerous request; true only when the user confirmed. */
export type DangerConfirm = (item: InboxItem, option: PermissionOption, danger: DangerMark) => Promise<boolean>;

/** The modal (dangerModal.ts). */
export const confirmDangerModal: DangerConfirm = (item, option, danger) =>
  dangerBundle.load().confirmDangerModal(item, option, danger);

/** The modal in the window holding the stream, for an allow that came over the window hub (windowSync.ts). */
export const confirmHubDangerModal: DangerConfirm = (item, option, danger) =>
  dangerBundle.load().confirmHubDangerModal(item, option, danger);

/** Rejecting never asks; every other kind (allow_once, allow_always, or one we do not know) does. */
export function needsConfirmation(option: PermissionOption): boolean {
  return option.kind !== 'reject_once' && option.kind !== 'reject_always';
}
