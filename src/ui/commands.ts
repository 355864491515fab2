import * as vscode from 'vscode';
import type { Inbox, InboxItem } from '../domain/inbox';
import { Time } from './time';
import { inlineAllowOption, inlineRejectOption } from '../domain/optionChoice';
import type { PermissionOption } from '../domain/model';
import type { ConnectionManager } from '../platform/connection';
import type { Logger } from '../platform/log';
import type { AnswerFlow, AnswerSource } from './answerFlow';
import { itemIdOf, type RequestDetailsView } from './details';
import { inertLine } from './display';
import type { PendingTree } from './pendingTree';
import { CommandStrings } from './strings';

export interface CommandDeps {
  readonly inbox: Inbox;
  readonly flow: AnswerFlow;
  readonly tree: PendingTree;
  readonly details: RequestDetailsView;
  readonly connection: ConnectionManager;
  readonly log: Logger;
}

/**
 * The request commands. Answer commands act only on items the extension itself created: a tree element this
 * extension handed out, the focused tree item, or an item the user picked in our own QuickPick. An argument forged
 * by another extension's `executeCommand` call is refused and nothing is sent.
 */
export class RequestCommands {
  constructor(private readonly d: CommandDeps) {}

  register(): vscode.Disposable[] {
    const r = vscode.commands.registerCommand;
    return [
      r('fountain.refresh', () => this.d.connection.refresh()),
      r('fountain.reconnect', () => this.d.connection.reconnect()),
      r('fountain.answerNext', () => this.answerQueue()),
      r('fountain.request.allowOnce', (arg?: unknown) => this.answerInline(arg, 'allow')),
      r('fountain.request.reject', (arg?: unknown) => this.answerInline(arg, 'reject')),
      r('fountain.request.answer', async (arg?: unknown) => {
        const item = this.target(arg);
        if (item) {
          await this.pickOption(item, 'tree');
        }
      }),
      r('fountain.request.showDetails', async (arg?: unknown) => {
        const item = this.target(arg);
        if (item) {
          await this.d.details.show(item, { preserveFocus: true });
        }
      }),
      r('fountain.request.openDiff', (arg?: unknown) => this.openDiff(arg)),
    ];
  }

  /** A QuickPick of every option (name, kind and id), in the agent's order; answers the one picked. */
  async pickOption(item: InboxItem, source: AnswerSource): Promise<void> {
    type OptionPick = vscode.QuickPickItem & { option: PermissionOption };
    const picks: OptionPick[] = item.request.options.map((o) => ({
      label: inertLine(o.name),
      description: inertLine(o.kind),
      detail: CommandStrings.optionId(inertLine(o.optionId)),
      option: o,
    }));
    const pick = await vscode.window.showQuickPick(picks, {
      title: CommandStrings.answerTitle(inertLine(item.label)),
      placeHolder: CommandStrings.answerPlaceholder,
      ignoreFocusOut: true,
    });
    if (pick) {
      await this.d.flow.answer(item.id, pick.option.optionId, source);
    }
  }

  /** "Answer Next Waiting Request": the oldest waiting request across conversations, then the next, until none. */
  async answerQueue(): Promise<void> {
    for (;;) {
      const open = this.d.inbox.open().filter((i) => i.answerable);
      if (open.length === 0) {
        void vscode.window.showInformationMessage(CommandStrings.nothingWaiting);
        return;
      }
      type RequestPick = vscode.QuickPickItem & { item: InboxItem };
      const picks: RequestPick[] = open.map((i) => ({
        label: inertLine(i.label),
        description: [inertLine(i.request.kind ?? 'tool'), inertLine(i.conversation.title || i.conversation.id)].join(
          ' · ',
        ),
        detail:
          i.deadline !== undefined
            ? CommandStrings.left(Time.left(i.deadline - Date.now()))
            : CommandStrings.waitingSince(Time.timeOfDay(i.askedAt)),
        item: i,
      }));
      const pick = await vscode.window.showQuickPick(picks, {
        title: CommandStrings.queueTitle(open.length),
        placeHolder: CommandStrings.queuePlaceholder,
        ignoreFocusOut: true,
      });
      if (!pick) {
        return;
      }
      const before = this.d.inbox.get(pick.item.id)?.state.kind;
      await this.pickOption(pick.item, 'queue');
      if (this.d.inbox.get(pick.item.id)?.state.kind === before) {
        return; // the user backed out of the option list: stop the queue
      }
    }
  }

  private async answerInline(arg: unknown, which: 'allow' | 'reject'): Promise<void> {
    const item = this.target(arg);
    if (!item) {
      return;
    }
    const option =
      which === 'allow' ? inlineAllowOption(item.request.options) : inlineRejectOption(item.request.options);
    if (!option) {
      void vscode.window.showInformationMessage(
        which === 'allow' ? CommandStrings.noAllowOnce : CommandStrings.noReject,
      );
      return;
    }
    await this.d.flow.answer(item.id, option.optionId, arg === undefined ? 'keyboard' : 'tree');
  }

  private async openDiff(arg: unknown): Promise<void> {
    let item: InboxItem | undefined;
    if (arg instanceof vscode.Uri) {
      const id = itemIdOf(arg);
      item = id ? this.d.inbox.get(id) : undefined;
    } else if (arg === undefined && vscode.window.activeTextEditor) {
      const id = itemIdOf(vscode.window.activeTextEditor.document.uri);
      item = id ? this.d.inbox.get(id) : this.target(undefined);
    } else {
      item = this.target(arg);
    }
    if (!item) {
      return;
    }
    let index = 0;
    const diffs = item.request.diffs;
    if (diffs.length > 1) {
      // Several files: let the user pick which one to compare.
      const pick = await vscode.window.showQuickPick(
        diffs.map((d, i) => ({
          label: inertLine(d.path),
          description: d.oldText === null ? CommandStrings.newFile : '',
          index: i,
        })),
        { title: CommandStrings.pickDiff(diffs.length) },
      );
      if (!pick) {
        return;
      }
      index = pick.index;
    }
    if (!(await this.d.details.openDiff(item, index))) {
      void vscode.window.showInformationMessage(CommandStrings.noDiff);
    }
  }

  /** The item a command acts on: an element this extension issued, else (no argument) the focused tree item. */
  private target(arg: unknown): InboxItem | undefined {
    let item: InboxItem | undefined;
    if (arg === undefined) {
      const sel = this.d.tree.view.selection[0];
      item = sel ? this.d.tree.itemOf(sel) : undefined;
      if (!item) {
        void vscode.window.showInformationMessage(CommandStrings.selectFirst);
      }
      return item;
    }
    if (!this.d.tree.isIssued(arg)) {
      this.d.log.warn('refused a request command whose argument was not created by Fountain Approvals');
      void vscode.window.showErrorMessage(CommandStrings.forged);
      return undefined;
    }
    item = this.d.tree.itemOf(arg);
    if (!item) {
      void vscode.window.showInformationMessage(CommandStrings.gone);
    }
    return item;
  }
}
