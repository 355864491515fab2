import * as vscode from 'vscode';
import { Emitter } from '../../domain/events';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { keyId } from '../../domain/model';
import type { InboxNotifier, NotificationDecision } from '../../domain/notificationPolicy';
import { MAX_TOAST_OPTIONS, optionButtonTitles, toastButtons } from '../../domain/optionChoice';
import { planOf } from '../../domain/requestLabel';
import type { Config } from '../../platform/config';
import { Disposable } from '../../util/lifecycle';
import type { AnswerFlow } from '../answer/answerFlow';
import { DangerStrings } from '../danger/dangerStrings';
import { inertLine } from '../display';
import { toastReach } from '../answer/reach';
import { conversationName, ToastStrings } from '../strings';

/** Total button text (in characters) up to which a per-request toast also offers "Don't Show Again". */
const MUTE_BUDGET_CHARS = 32;
/** Code points of an option name (or id) on a button. */
const BUTTON_NAME_MAX = 60;

/** A toast button: one of the runtime's options, or one of ours. Compared by identity, never by label. */
type Button = vscode.MessageItem &
  (
    | { readonly action: 'option'; readonly optionId: string }
    | { readonly action: 'more' | 'details' | 'mute' | 'review' | 'rejectWithReason' }
  );

/** A toast went up naming `ids`; `closed` settles when it is closed (a click, or dismissed). */
export interface ShownToast {
  readonly ids: readonly string[];
  readonly closed: Thenable<unknown>;
}

/**
 * Shows the toasts the notification policy decides on, at once: one per new request (buttons = the runtime's option
 * names in its order, or allow/reject/More… when there are more than three), "N more approvals waiting" for the
 * extras of a burst, "N approvals waiting" for what a backfill found or as a reminder (`remind`). A click goes
 * through AnswerFlow, which re-checks the request at click time: a toast clicked after someone else answered (or
 * from the notification centre much later) sends nothing.
 */
export class Notifier extends Disposable {
  private readonly _onDidShow = this._register(new Emitter<ShownToast>());
  /** Every toast this notifier shows, with the requests it names (src/ui/toast/focusReminder.ts listens). */
  readonly onDidShow = this._onDidShow.event;

  constructor(
    private readonly inbox: Inbox,
    notifier: InboxNotifier,
    private readonly flow: AnswerFlow,
    private readonly config: Config,
    private readonly actions: {
      showDetails(item: InboxItem): Promise<void>;
      pickOption(item: InboxItem): Promise<void>;
      review(): Promise<void>;
      /** True when Answer… offers more than the runtime's options (the local gate's grants): More… is shown. */
      hasExtraChoices?(item: InboxItem): boolean;
      /** A short "asked by kind "execute" (agent policy)", only when already known: a toast never waits for it. */
      provenance?(item: InboxItem): string | undefined;
      /** True when Reject with Reason… can answer this request (a reject option, a way to send the reason). */
      canRejectWithReason?(item: InboxItem): boolean;
      rejectWithReason?(item: InboxItem): Promise<void>;
      /** Opens a plan approval's whole plan beside the toast (read-only, inert). */
      openPlan?(item: InboxItem): Promise<void>;
      /** True for a local agent's request when that agent runs outside any sandbox: every such toast says so. */
      outsideSandbox?(item: InboxItem): boolean;
      /** True for a local agent's request when that agent is sandboxed on the host's network: every such toast says so. */
      openNetwork?(item: InboxItem): boolean;
    },
  ) {
    super();
    notifier.policy.mode = config.notifications;
    this._register(
      config.onDidChange((e) => {
        if (e.affectsConfiguration('fountain.notifications')) {
          notifier.policy.mode = config.notifications;
        }
      }),
    );
    this._register(notifier.onDidDecide((d) => void this.show(d)));
  }

  private async show(d: NotificationDecision): Promise<void> {
    if (d.type !== 'single') {
      const ids = d.keys.map(keyId).filter((id) => this.inbox.get(id)?.pending);
      if (ids.length) {
        await this.showMerged(
          ids,
          d.type === 'more' ? ToastStrings.moreWaiting(ids.length) : ToastStrings.merged(ids.length),
        );
      }
      return;
    }
    const item = this.inbox.get(keyId(d.key));
    if (item?.pending) {
      await this.showSingle(item);
    }
  }

  /** One "N approvals waiting" for requests whose toasts have hidden (a window gained focus). */
  async remind(ids: readonly string[]): Promise<void> {
    if (this.config.notifications === 'off') {
      return; // muted after those toasts were shown
    }
    const waiting = ids.filter((id) => this.inbox.get(id)?.pending);
    if (waiting.length) {
      await this.showMerged(waiting, ToastStrings.merged(waiting.length));
    }
  }

  private async showSingle(item: InboxItem): Promise<void> {
    const why = this.actions.provenance?.(item);
    const choice = toastButtons(item.request.options);
    const ours = [ToastStrings.more, ToastStrings.details, ToastStrings.mute, ToastStrings.rejectWithReason];
    // A name that disagrees with its kind shows the kind first; names that look alike (confusable-folded, e.g. a
    // Cyrillic "А"), or like our own buttons, get their id appended, so every button the user sees is distinct.
    const titles = optionButtonTitles(
      choice.options,
      {
        name: (o) => inertLine(o.name, BUTTON_NAME_MAX),
        id: (o) => inertLine(o.optionId, BUTTON_NAME_MAX),
        withKind: (name, kind) => ToastStrings.optionWithKind(name, ToastStrings.kindLabel(inertLine(kind, 40))),
      },
      ours,
    );
    const buttons: Button[] = choice.options.map((o, i) => ({
      title: titles[i],
      action: 'option',
      optionId: o.optionId,
    }));
    // Reject with Reason… gets its own button while the options leave room, else it is in More… (Answer…).
    const steer = this.actions.canRejectWithReason?.(item) ?? false;
    const extras = choice.more || (this.actions.hasExtraChoices?.(item) ?? false);
    if (steer && !extras && choice.options.length < MAX_TOAST_OPTIONS) {
      buttons.push({ title: ToastStrings.rejectWithReason, action: 'rejectWithReason' });
    } else if (extras || steer) {
      buttons.push({ title: ToastStrings.more, action: 'more' });
    }
    buttons.push({ title: ToastStrings.details, action: 'details' });
    // A toast is narrow: when the agent's option names are long, they get the room and "Don't Show Again" stays on
    // the merged notice (and in the toast's own gear menu), so option buttons are not cut more than needed.
    // (More… is not counted: it is short, and only there since Reject with Reason… moved into it.)
    const width = buttons.filter((b) => b.action !== 'more').reduce((n, b) => n + b.title.length, 0);
    if (width <= MUTE_BUDGET_CHARS) {
      buttons.push({ title: ToastStrings.mute, action: 'mute' });
    }
    // Named by its title (else its agent and runtime), never by an id; shortened so VS Code's own 1,000-character
    // cut never hides the kind or the conversation; Details has it all.
    const where = inertLine(conversationName(item.conversation), 80);
    const plan = planOf(item.request) !== undefined;
    const label = inertLine(item.label, 300);
    const base = plan
      ? ToastStrings.plan(label, where)
      : ToastStrings.single(label, where, inertLine(item.request.kind ?? 'tool', 40));
    const asked = why ? `${base} (${why})` : base;
    // What an "always" option keeps, before the click: the note when short, else a pointer to Details.
    const reach = toastReach(item);
    // "1 of N": the others waiting now, when there are any.
    const others = this.inbox.open().filter((i) => i.id !== item.id).length;
    const outside = this.actions.outsideSandbox?.(item)
      ? [ToastStrings.outsideSandbox]
      : this.actions.openNetwork?.(item)
        ? [ToastStrings.openNetwork]
        : [];
    const withReach = [
      asked,
      ...outside,
      ...(reach ? [reach] : []),
      ...(others > 0 ? [ToastStrings.oneOf(others + 1)] : []),
    ].join(' · ');
    const message = item.danger ? DangerStrings.toast(inertLine(item.danger.reason, 120), withReach) : withReach;
    const show = item.severity === 'high' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    const toast = this.shown([item.id], show<Button>(message, ...buttons));
    if (plan) {
      // The plan itself, beside the toast's buttons; the focus stays where it was.
      void this.actions.openPlan?.(item).catch(() => undefined);
    }
    const pick = await toast;
    if (!pick) {
      return; // dismissed: the request stays waiting in the tree
    }
    switch (pick.action) {
      case 'option':
        await this.flow.answer(item.id, pick.optionId, 'toast');
        return;
      case 'more':
        await this.actions.pickOption(item);
        return;
      case 'rejectWithReason':
        await this.actions.rejectWithReason?.(item);
        return;
      case 'details':
        await this.actions.showDetails(item);
        return;
      case 'mute':
        await this.mute();
        return;
      case 'review':
        return;
    }
  }

  private async showMerged(ids: readonly string[], message: string): Promise<void> {
    const review: Button = { title: ToastStrings.review, action: 'review' };
    const mute: Button = { title: ToastStrings.mute, action: 'mute' };
    const pick = await this.shown(ids, vscode.window.showWarningMessage<Button>(message, review, mute));
    if (pick === review) {
      await this.actions.review();
    } else if (pick === mute) {
      await this.mute();
    }
  }

  private shown<T>(ids: readonly string[], closed: Thenable<T>): Thenable<T> {
    this._onDidShow.fire({ ids, closed });
    return closed;
  }

  /** "Don't Show Again": writes fountain.notifications = off as a user setting (visible and reversible). */
  private async mute(): Promise<void> {
    await this.config.setNotifications('off');
    const open = ToastStrings.openSettings;
    const pick = await vscode.window.showInformationMessage(ToastStrings.muted, open);
    if (pick === open) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'fountain.notifications');
    }
  }
}
