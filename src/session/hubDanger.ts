/**
 * The leader's danger check for answers that arrive over the window hub (src/session/windowSync.ts): an allow of a
 * request its inbox marks dangerous is sent only after the danger modal in the leader's own window is confirmed.
 * The hub socket is reachable by every window of this VS Code and by any other process of the user, so a confirmation
 * in the sending window (or a claim of one in the request) proves nothing here.
 */
import type { DangerMark } from '../domain/danger';
import type { Inbox, InboxItem } from '../domain/inbox';
import { keyId, type PermissionOption, type RequestKey } from '../domain/model';
import type { HubLog } from '../hub/windowHub';
import { allowNeedsConfirmation, NOT_CONFIRMED } from './windowFacts';

/** Asks the user in this window; true only when confirmed. */
export type HubDangerConfirm = (item: InboxItem, option: PermissionOption, danger: DangerMark) => Promise<boolean>;

export class HubDangerGate {
  /** keyIds whose modal is open: a second answer for one of them is refused meanwhile. */
  private readonly _confirming = new Set<string>();

  constructor(
    private readonly inbox: Inbox,
    private readonly confirm: HubDangerConfirm | undefined,
    private readonly log: HubLog,
  ) {}

  /**
   * Undefined when the answer may go on to the inbox's own guard (not a dangerous allow, or the user confirmed it
   * here); else the refusal to send back (nothing is sent).
   */
  async refusal(key: RequestKey, optionId: string): Promise<string | undefined> {
    const check = this.inbox.clickCheck(key, optionId);
    if (check.kind !== 'answerable' || !check.item.danger || !allowNeedsConfirmation(check.option)) {
      return undefined;
    }
    const id = keyId(key);
    if (this._confirming.has(id)) {
      return 'busyAnswering';
    }
    if (!this.confirm) {
      this.log.warn(`hub: refused an allow of dangerous request ${key.requestId}: nothing can confirm it here`);
      return NOT_CONFIRMED;
    }
    this._confirming.add(id);
    try {
      if (await this.confirm(check.item, check.option, check.item.danger)) {
        return undefined;
      }
    } catch (err) {
      this.log.warn(`hub: the danger confirmation failed: ${String(err)}`);
    } finally {
      this._confirming.delete(id);
    }
    this.log.info(`hub: not answering ${key.requestId}: its danger was not confirmed in this window`);
    return NOT_CONFIRMED;
  }
}
