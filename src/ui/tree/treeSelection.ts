/**
 * The Pending Approvals tree's selection after an answer: when the answered request was selected (or nothing was),
 * the selection moves to the next waiting request, the most urgent one (src/domain/urgency.ts), so the next answer is
 * one key or click away. Only while the view is visible (revealing would otherwise open it); the keyboard focus moves
 * with it only when the answer came from the tree itself, so an answer from a toast, the queue or an editor never
 * takes the focus from where the user is.
 */
import type { Inbox } from '../../domain/inbox';
import { nextWaiting } from '../../domain/urgency';
import type { AnsweredEvent } from '../answer/answerFlow';
import type { PendingTree } from './pendingTree';

export interface SelectionDeps {
  readonly tree: Pick<PendingTree, 'view' | 'itemOf' | 'requestElement'>;
  readonly inbox: Pick<Inbox, 'get' | 'open'>;
}

export async function followAnswer(d: SelectionDeps, e: AnsweredEvent): Promise<void> {
  const view = d.tree.view;
  if (!view.visible || d.inbox.get(e.item.id)?.answerable) {
    return; // not shown, or still waiting (left open, or the answer failed): stay on it
  }
  const selected = view.selection.map((s) => d.tree.itemOf(s)?.id);
  if (selected.length > 0 && !selected.includes(e.item.id)) {
    return; // the user is looking at something else: leave the selection alone
  }
  const next = nextWaiting(d.inbox.open(), new Set([e.item.id]));
  const element = next && d.tree.requestElement(next.id);
  if (element) {
    const inTree = e.source === 'tree' || e.source === 'keyboard';
    await Promise.resolve(view.reveal(element, { select: true, focus: inTree })).catch(() => undefined);
  }
}
