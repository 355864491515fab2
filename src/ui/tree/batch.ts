/**
 * "Allow Selected…" / "Reject Selected…" on the Pending Approvals tree's selection (in the lazily loaded
 * dist/treeActions.js, src/ui/tree/treeActions.ts). Nothing is sent before a modal lists every selected request
 * (its full label, kind and conversation, with the option it will get) and which are skipped; Cancel sends nothing.
 * Confirm sends each request its own offered option (src/domain/batchPlan.ts) through AnswerFlow, one at a time,
 * so every guard applies: a request answered elsewhere since the selection sends nothing and says so.
 */
import * as vscode from 'vscode';
import { planBatch, type BatchKind, type BatchPlan, type SkipReason } from '../../domain/batchPlan';
import type { InboxItem } from '../../domain/inbox';
import type { Logger } from '../../platform/log';
import type { AnswerFlow } from '../answer/answerFlow';
import { inertFull, inertLine } from '../display';
import type { PendingTree } from './pendingTree';
import { CommandStrings, conversationName } from '../strings';

export const BatchStrings = {
  confirmAllow: (n: number) =>
    n === 1 ? vscode.l10n.t('Allow 1 selected request once?') : vscode.l10n.t('Allow {0} selected requests once?', n),
  confirmReject: (n: number) =>
    n === 1 ? vscode.l10n.t('Reject 1 selected request?') : vscode.l10n.t('Reject {0} selected requests?', n),
  allowButton: (n: number) => vscode.l10n.t('Allow {0}', n),
  rejectButton: (n: number) => vscode.l10n.t('Reject {0}', n),
  nothingToSend: (n: number) =>
    n === 1
      ? vscode.l10n.t('The selected request cannot be answered this way; nothing was sent.')
      : vscode.l10n.t('None of the {0} selected requests can be answered this way; nothing was sent.', n),
  willSend: vscode.l10n.t('Will answer, each with its own option:'),
  skippedNoAllow: vscode.l10n.t('Skipped (the agent offered no "allow once" option):'),
  skippedNoReject: vscode.l10n.t('Skipped (the agent offered no reject option):'),
  skippedNotWaiting: vscode.l10n.t('Skipped (no longer waiting, or an answer is in flight):'),
  /** One request: "• <full label> — kind <kind> · <conversation>". */
  entry: (label: string, kind: string, conversation: string) =>
    vscode.l10n.t('• {0} — kind {1} · conversation {2}', label, kind, conversation),
  /** The option a request will get: "→ Allow (allow_once)". */
  option: (name: string, kind: string) => vscode.l10n.t('→ {0} ({1})', name, kind),
  noRequests: vscode.l10n.t('Select one or more requests in the Pending Approvals view first.'),
};

export interface BatchDeps {
  readonly tree: Pick<PendingTree, 'isIssued' | 'itemOf'>;
  readonly flow: Pick<AnswerFlow, 'answer'>;
  readonly log: Logger;
}

function entry(item: InboxItem): string {
  return BatchStrings.entry(
    inertFull(item.label),
    inertLine(item.request.kind ?? 'other', 40),
    inertLine(conversationName(item.conversation), 200),
  );
}

/** The modal's detail: what each request will get, then what is skipped and why. */
export function batchDetail(plan: BatchPlan): string {
  const lines: string[] = [];
  if (plan.send.length) {
    lines.push(BatchStrings.willSend);
    for (const { item, option } of plan.send) {
      lines.push(entry(item), '   ' + BatchStrings.option(inertLine(option.name, 200), inertLine(option.kind, 40)));
    }
  }
  const skipped = (reason: SkipReason, title: string) => {
    const items = plan.skip.filter((s) => s.reason === reason);
    if (items.length) {
      lines.push('', title, ...items.map((s) => entry(s.item)));
    }
  };
  skipped('noOption', plan.kind === 'allow' ? BatchStrings.skippedNoAllow : BatchStrings.skippedNoReject);
  skipped('notWaiting', BatchStrings.skippedNotWaiting);
  return lines.join('\n').trim();
}

/**
 * Runs a batch command. VS Code passes (clicked, selected[]) when several rows are selected; only elements this
 * extension issued count. Resolves when every answer's outcome is shown, or nothing was sent.
 */
export async function runBatch(d: BatchDeps, kind: BatchKind, clicked: unknown, selected: unknown): Promise<void> {
  const args: unknown[] = Array.isArray(selected) && selected.length ? selected : clicked != null ? [clicked] : [];
  const issued = args.filter((a) => d.tree.isIssued(a));
  if (issued.length < args.length) {
    d.log.warn(`a batch command ignored ${args.length - issued.length} argument(s) not created by Fountain Approvals`);
    if (!issued.length) {
      void vscode.window.showErrorMessage(CommandStrings.forged);
      return;
    }
  }
  const items = issued.map((e) => d.tree.itemOf(e)).filter((i): i is InboxItem => i !== undefined);
  if (!items.length) {
    void vscode.window.showInformationMessage(BatchStrings.noRequests);
    return;
  }
  const plan = planBatch(items, kind);
  const detail = batchDetail(plan);
  const n = plan.send.length;
  if (n === 0) {
    await vscode.window.showInformationMessage(BatchStrings.nothingToSend(items.length), { modal: true, detail });
    return;
  }
  const confirm = kind === 'allow' ? BatchStrings.allowButton(n) : BatchStrings.rejectButton(n);
  const message = kind === 'allow' ? BatchStrings.confirmAllow(n) : BatchStrings.confirmReject(n);
  const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, confirm);
  if (pick !== confirm) {
    return; // cancelled: nothing is sent
  }
  for (const { item, option } of plan.send) {
    await d.flow.answer(item.id, option.optionId, 'tree');
  }
}
