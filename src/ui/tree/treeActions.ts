/**
 * The Pending Approvals tree's actions that run only after a user action, built as their own bundle
 * (dist/treeActions.js, loaded on first use, esbuild.mjs): Allow Selected… / Reject Selected… (src/ui/tree/batch.ts),
 * Retry on a request the server left open, moving the selection on after an answer (src/ui/tree/treeSelection.ts), and
 * the QuickPicks of Answer…, Answer Next Waiting Request and Open Diff (src/ui/answer/answerPicks.ts).
 */
import * as vscode from 'vscode';
import type { InboxItem } from '../../domain/inbox';
import { retryCheck } from '../../domain/rowStatus';
import type { AnswerFlow } from '../answer/answerFlow';
import { Time } from '../time';

export { answerQueue, openDiff, pickOption } from '../answer/answerPicks';
export { runBatch } from './batch';
export { followAnswer } from './treeSelection';

export const RetryStrings = {
  wait: (time: string, left: string) =>
    vscode.l10n.t(
      'The server asked to wait before trying again: Retry after {0} ({1} left). Nothing was sent.',
      time,
      left,
    ),
  notLeftOpen: vscode.l10n.t('This request is not waiting for a retry; nothing was sent.'),
};

/** Retry: the option the user chose, sent again through AnswerFlow, once the server's Retry-After has passed. */
export async function retry(flow: Pick<AnswerFlow, 'answer'>, item: InboxItem, now = Date.now()): Promise<void> {
  const check = retryCheck(item, now);
  if (check.kind === 'wait') {
    void vscode.window.showInformationMessage(RetryStrings.wait(Time.timeOfDay(check.at), Time.left(check.at - now)));
  } else if (check.kind === 'notLeftOpen') {
    void vscode.window.showInformationMessage(RetryStrings.notLeftOpen);
  } else {
    await flow.answer(item.id, check.optionId, 'tree');
  }
}
