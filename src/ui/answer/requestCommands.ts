import * as vscode from 'vscode';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { inlineAllowOption, inlineRejectOption } from '../../domain/optionChoice';
import type { ConnectionManager } from '../../platform/connection';
import type { Logger } from '../../platform/log';
import type { AnswerFlow, AnswerSource } from './answerFlow';
import type { ExtraAnswerChoices } from './answerChoices';
import type { PickDeps, SteerChoice } from './answerPicks';
import type { RequestDetailsView } from '../details/details';
import { itemIdOf } from '../details/requestEditors';
import { lazyBundle } from '../lazyBundle';
import { ContextKey, setContext } from '../../platform/contextKeys';
import type { PendingTree } from '../tree/pendingTree';
import { CommandStrings } from '../strings';

/**
 * Batch answers, Retry, the selection after an answer and the QuickPicks (src/ui/tree/treeActions.ts), loaded on first use.
 */
const treeActions = lazyBundle<typeof import('../tree/treeActions')>('treeActions.js');

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
 * extension handed out (menus and inline actions pass it), or an item the user picked in our own QuickPick. An
 * argument forged by another extension's `executeCommand` call is refused and nothing is sent, and so is a call with
 * no argument: `executeCommand('fountain.request.allowOnce')` or a `command:fountain.request.allowOnce` link never
 * answers "whatever row was last selected".
 *
 * The keyboard (Ctrl+Alt+Shift+A / Ctrl+Alt+Shift+R, Cmd on macOS) binds to separate internal ids, not in the
 * palette (`fountain.pending.allowOnceFocused` / `rejectFocused`), whose keybinding has the when-clause
 * `focusedView == fountain.pending` (VS Code checks it at the key press) and the argument
 * `{ $treeViewId, $focusedTreeItem }`. VS Code turns that argument into the tree's focused element only on its way
 * from the workbench to this extension host; a call from another extension in this host gets the plain object,
 * which is not an element we issued, and is refused. No VS Code API tells an extension whether a view has focus,
 * so the when-clause is the focus check; what remains is a `command:` link carrying that argument in trusted
 * markdown, which this extension never renders from agent or server text.
 */
export class RequestCommands {
  private extras: ExtraAnswerChoices | undefined;
  private steer: SteerChoice | undefined;

  constructor(private readonly d: CommandDeps) {}

  /** Our own choices after the runtime's options in Answer… (the local gate's grants). */
  useExtras(extras: ExtraAnswerChoices): void {
    this.extras = extras;
  }

  /** Reject with Reason… in Answer…, after the runtime's options (src/ui/steer/rejectWithReasonEntry.ts). */
  useSteer(steer: SteerChoice): void {
    this.steer = steer;
  }

  register(): vscode.Disposable[] {
    const r = vscode.commands.registerCommand;
    return [
      r('fountain.refresh', () => this.d.connection.refresh()),
      r('fountain.reconnect', () => this.d.connection.reconnect()),
      r('fountain.answerNext', () => this.answerQueue()),
      r('fountain.request.allowOnce', (arg?: unknown) => this.answerInline(arg, 'allow', 'tree')),
      r('fountain.request.reject', (arg?: unknown) => this.answerInline(arg, 'reject', 'tree')),
      r('fountain.pending.allowOnceFocused', (arg?: unknown) => this.answerInline(arg, 'allow', 'keyboard')),
      r('fountain.pending.rejectFocused', (arg?: unknown) => this.answerInline(arg, 'reject', 'keyboard')),
      r('fountain.request.answer', async (arg?: unknown) => {
        const item = this.answerTarget(arg);
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
      r('fountain.request.retry', async (arg?: unknown) => {
        const item = this.answerTarget(arg);
        if (item) {
          await treeActions.load().retry(this.d.flow, item);
        }
      }),
      r('fountain.request.allowSelected', (clicked?: unknown, selected?: unknown) =>
        treeActions.load().runBatch(this.d, 'allow', clicked, selected),
      ),
      r('fountain.request.rejectSelected', (clicked?: unknown, selected?: unknown) =>
        treeActions.load().runBatch(this.d, 'reject', clicked, selected),
      ),
      // After an answer the tree's selection moves on to the next waiting request (src/ui/tree/treeSelection.ts).
      this.d.flow.onDidAnswer((e) => {
        if (this.d.tree.view.visible) {
          void treeActions.load().followAnswer(this.d, e);
        }
      }),
      this.d.tree.view.onDidChangeSelection(
        (e) => void setContext(ContextKey.PendingMultiSelected, e.selection.length > 1),
      ),
    ];
  }

  /** Answer…: every option, then Reject with Reason… and the gate's grant choices (src/ui/answer/answerPicks.ts). */
  pickOption(item: InboxItem, source: AnswerSource): Promise<void> {
    return treeActions.load().pickOption(this.pickDeps(), item, source);
  }

  /** "Answer Next Waiting Request", most urgent first (src/ui/answer/answerPicks.ts). */
  answerQueue(): Promise<void> {
    return treeActions.load().answerQueue(this.pickDeps());
  }

  private pickDeps(): PickDeps {
    return { inbox: this.d.inbox, flow: this.d.flow, details: this.d.details, steer: this.steer, extras: this.extras };
  }

  private async answerInline(arg: unknown, which: 'allow' | 'reject', source: AnswerSource): Promise<void> {
    const item = this.answerTarget(arg);
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
    await this.d.flow.answer(item.id, option.optionId, source);
  }

  /** Open Diff on the details' or diff's own request, else on the row clicked or selected (src/ui/answer/answerPicks.ts). */
  private openDiff(arg: unknown): Promise<void> {
    return treeActions.load().openDiff({ ...this.pickDeps(), target: (a) => this.target(a), itemIdOf }, arg);
  }

  /**
   * The item an answer command acts on: only an element this extension issued. Without an argument nothing is
   * answered (a programmatic call or a `command:` link must not answer the selected row).
   */
  private answerTarget(arg: unknown): InboxItem | undefined {
    if (arg === null) {
      void vscode.window.showInformationMessage(CommandStrings.selectFirst); // the keyboard path with no focused row
      return undefined;
    }
    if (arg === undefined) {
      this.d.log.warn('ignored an answer command with no request: answers need a click or a key on the focused row');
      void vscode.window.showInformationMessage(CommandStrings.answerNeedsRow);
      return undefined;
    }
    return this.target(arg);
  }

  /** The item a viewing command acts on: an element this extension issued, else (no argument) the selected row. */
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
