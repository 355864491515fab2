/**
 * The QuickPicks of the request commands (src/ui/answer/requestCommands.ts) that run only after a user action: Answer… (every
 * option, then Reject with Reason… and the local gate's grant choices), Answer Next Waiting Request, and the file
 * picker of Open Diff. Part of dist/treeActions.js (src/ui/tree/treeActions.ts), loaded on first use.
 */
import * as vscode from 'vscode';
import type { Inbox, InboxItem } from '../../domain/inbox';
import type { PermissionOption } from '../../domain/model';
import { inlineRejectOption } from '../../domain/optionChoice';
import { urgentFirst } from '../../domain/urgency';
import type { AnswerFlow, AnswerSource } from './answerFlow';
import type { ExtraAnswerChoice, ExtraAnswerChoices } from './answerChoices';
import type { RequestDetailsView } from '../details/details';
import { inertLine, pickText } from '../display';
import { optionReachLine } from './reach';
import { conversationName } from '../strings';
import { Time } from '../time';

/** The QuickPicks' strings (src/ui/answer/answerPicks.ts, in dist/treeActions.js). */
export const PickStrings = {
  optionId: (id: string) => vscode.l10n.t('option id: {0}', id),
  answerTitle: (label: string) => vscode.l10n.t('Answer: {0}', label),
  answerPlaceholder: vscode.l10n.t("Pick one of the agent's options (Escape sends nothing)"),
  grantsSeparator: vscode.l10n.t('Allow and remember (local gate)'),
  steerSeparator: vscode.l10n.t('Say no and steer'),
  rejectWithReason: vscode.l10n.t('Reject with Reason…'),
  rejectWithReasonDetail: (option: string) =>
    vscode.l10n.t('answers "{0}", then sends what you type as the conversation\'s next prompt', option),
  nothingWaiting: vscode.l10n.t('No approval requests are waiting.'),
  left: (c: string) => vscode.l10n.t('{0} left', c),
  waitingSince: (t: string) => vscode.l10n.t('waiting since {0}', t),
  queueTitle: (n: number) => vscode.l10n.t('Waiting approvals ({0}), most urgent first', n),
  queuePlaceholder: vscode.l10n.t('Pick a request to answer'),
  noDiff: vscode.l10n.t('This request carries no diff.'),
  pickDiff: (n: number) => vscode.l10n.t('This request changes {0} files: pick one to compare', n),
  newFile: vscode.l10n.t('new file'),
};

/** Reject with Reason… as Answer… offers it. */
export interface SteerChoice {
  can(item: InboxItem): boolean;
  run(item: InboxItem, source: AnswerSource): Promise<void>;
}

export interface PickDeps {
  readonly inbox: Inbox;
  readonly flow: AnswerFlow;
  readonly details: Pick<RequestDetailsView, 'openDiff'>;
  readonly steer: SteerChoice | undefined;
  readonly extras: ExtraAnswerChoices | undefined;
}

/**
 * A QuickPick of every option (name, kind, id, and what a persistent one keeps), in the agent's order; then, for a
 * local agent's request, the gate's grant choices. Answers the option picked, or runs the choice picked.
 */
export async function pickOption(d: PickDeps, item: InboxItem, source: AnswerSource): Promise<void> {
  type OptionPick = vscode.QuickPickItem & { option?: PermissionOption; extra?: ExtraAnswerChoice };
  const picks: OptionPick[] = item.request.options.map((o) => {
    const reach = optionReachLine(item, o.optionId);
    const id = PickStrings.optionId(pickText(o.optionId));
    return {
      label: pickText(o.name),
      description: pickText(o.kind),
      detail: reach ? `${id} · ${pickText(reach)}` : id,
      option: o,
    };
  });
  const steer = d.steer;
  const reject = item.answerable && steer?.can(item) ? inlineRejectOption(item.request.options) : undefined;
  if (steer && reject) {
    picks.push({ label: PickStrings.steerSeparator, kind: vscode.QuickPickItemKind.Separator });
    picks.push({
      label: PickStrings.rejectWithReason,
      detail: PickStrings.rejectWithReasonDetail(pickText(reject.name, 80)),
      extra: { label: PickStrings.rejectWithReason, run: () => steer.run(item, source) },
    });
  }
  const extras = item.answerable ? ((await d.extras?.choices(item, source)) ?? []) : [];
  if (extras.length > 0) {
    picks.push({ label: PickStrings.grantsSeparator, kind: vscode.QuickPickItemKind.Separator });
    for (const extra of extras) {
      picks.push({
        label: pickText(extra.label),
        ...(extra.description !== undefined ? { description: pickText(extra.description) } : {}),
        ...(extra.detail !== undefined ? { detail: pickText(extra.detail) } : {}),
        extra,
      });
    }
  }
  const pick = await vscode.window.showQuickPick(picks, {
    title: PickStrings.answerTitle(inertLine(item.label, 200)),
    placeHolder: PickStrings.answerPlaceholder,
    ignoreFocusOut: true,
  });
  if (pick?.option) {
    await d.flow.answer(item.id, pick.option.optionId, source);
  } else if (pick?.extra) {
    await pick.extra.run();
  }
}

/**
 * "Answer Next Waiting Request": the waiting requests across conversations, most urgent first (nearest deadline,
 * then no deadline, then oldest); after each answer the next most urgent, until none.
 */
export async function answerQueue(d: PickDeps): Promise<void> {
  for (;;) {
    const open = urgentFirst(d.inbox.open());
    if (open.length === 0) {
      void vscode.window.showInformationMessage(PickStrings.nothingWaiting);
      return;
    }
    type RequestPick = vscode.QuickPickItem & { item: InboxItem };
    const picks: RequestPick[] = open.map((i) => ({
      label: pickText(i.label, 300),
      description: [pickText(i.request.kind ?? 'tool', 40), pickText(conversationName(i.conversation), 80)].join(' · '),
      detail:
        i.deadline !== undefined
          ? PickStrings.left(Time.left(i.deadline - Date.now()))
          : PickStrings.waitingSince(Time.timeOfDay(i.askedAt)),
      item: i,
    }));
    const pick = await vscode.window.showQuickPick(picks, {
      title: PickStrings.queueTitle(open.length),
      placeHolder: PickStrings.queuePlaceholder,
      ignoreFocusOut: true,
    });
    if (!pick) {
      return;
    }
    const before = d.inbox.get(pick.item.id)?.state.kind;
    await pickOption(d, pick.item, 'queue');
    if (d.inbox.get(pick.item.id)?.state.kind === before) {
      return; // the user backed out of the option list: stop the queue
    }
  }
}

/** What Open Diff needs besides: the command's target (an issued element or the selection) and a details URI's item. */
export interface DiffDeps extends PickDeps {
  target(arg: unknown): InboxItem | undefined;
  itemIdOf(uri: vscode.Uri): string | undefined;
}

/**
 * Open Diff on a details or diff document's request (its URI, or the active editor's), else on the element clicked
 * or the selected row; with several files, the user picks which one to compare first.
 */
export async function openDiff(d: DiffDeps, arg: unknown): Promise<void> {
  let item: InboxItem | undefined;
  if (arg instanceof vscode.Uri) {
    const id = d.itemIdOf(arg);
    item = id ? d.inbox.get(id) : undefined;
  } else if (arg === undefined && vscode.window.activeTextEditor) {
    const id = d.itemIdOf(vscode.window.activeTextEditor.document.uri);
    item = id ? d.inbox.get(id) : d.target(undefined);
  } else {
    item = d.target(arg);
  }
  if (!item) {
    return;
  }
  let index = 0;
  const diffs = item.request.diffs;
  if (diffs.length > 1) {
    const pick = await vscode.window.showQuickPick(
      diffs.map((df, i) => ({
        label: pickText(df.path),
        description: df.oldText === null ? PickStrings.newFile : '',
        index: i,
      })),
      { title: PickStrings.pickDiff(diffs.length) },
    );
    if (!pick) {
      return;
    }
    index = pick.index;
  }
  if (!(await d.details.openDiff(item, index))) {
    void vscode.window.showInformationMessage(PickStrings.noDiff);
  }
}
