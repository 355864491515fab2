import * as vscode from 'vscode';
import { answerThroughInbox, type AnswerSender } from '../../domain/answering';
import { Emitter, type Event } from '../../domain/events';
import type { AnswerRefusal, Closure, Inbox, InboxItem } from '../../domain/inbox';
import { AGENT_EXITED, type AnswerResult } from '../../domain/model';
import type { Logger } from '../../platform/log';
import { showErrorWithLogs } from '../../platform/window';
import { refusalWords } from '../plainWords';
import { confirmDangerModal, needsConfirmation, type DangerConfirm } from '../danger/danger';
import { inertLine, pickText } from '../display';
import { Strings } from '../strings';
import { Time } from '../time';

/** One answer sent from this extension, and what the server made of it. */
export interface AnsweredEvent {
  readonly item: InboxItem;
  readonly optionId: string;
  readonly result: AnswerResult;
  /** Where the click came from (the tree moves its selection on without taking the focus from elsewhere). */
  readonly source: AnswerSource;
  /** Reject with Reason…: the reason the user typed (sent as the conversation's next prompt once the reject took). */
  readonly reason?: string;
}

/**
 * Reject with Reason… (src/ui/steer/rejectWithReason.ts): the reason rides with the reject, `accepted` runs only when the
 * runtime took the reject (answered, or recorded but not woken), and every other outcome says the reason was not sent.
 */
export interface AnswerReason {
  readonly reason: string;
  accepted(item: InboxItem, result: AnswerResult): Promise<void>;
}

/** Where the click came from; logged, never trusted for anything else. */
export type AnswerSource = 'toast' | 'tree' | 'queue' | 'details' | 'keyboard';

/**
 * The one path every answer takes (toasts, tree actions, the keyboard queue): click-time check, one answer in
 * flight per request, the POST, and the outcome shown to the user. A click on a stale request sends nothing and says
 * who answered.
 */
export class AnswerFlow {
  private readonly _onDidAnswer = new Emitter<AnsweredEvent>();
  /** Every POST this flow made, with its result (the approval history records these). */
  readonly onDidAnswer: Event<AnsweredEvent> = this._onDidAnswer.event;

  constructor(
    private readonly inbox: Inbox,
    private readonly sender: AnswerSender,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Answers `itemId` with `optionId` (which must be one the runtime offered). Resolves when the outcome is shown.
   * An allow of a request marked dangerous sends only after `confirm` (the modal) says yes; else nothing is sent.
   */
  async answer(
    itemId: string,
    optionId: string,
    source: AnswerSource,
    confirm: DangerConfirm = confirmDangerModal,
    withReason?: AnswerReason,
  ): Promise<AnswerResult | undefined> {
    let item = this.inbox.get(itemId);
    const note = withReason ? (m: string) => Strings.reasonNotSent(m) : (m: string) => m;
    if (!item) {
      void vscode.window.showInformationMessage(note(Strings.noLongerWaitingGone));
      return undefined;
    }
    const check = this.inbox.clickCheck(item.key, optionId);
    if (check.kind === 'answerable' && check.item.danger && needsConfirmation(check.option)) {
      if (!(await confirm(check.item, check.option, check.item.danger))) {
        this.log.info(`not answering ${item.key.requestId}: its danger was not confirmed`);
        return undefined;
      }
      item = this.inbox.get(itemId) ?? item; // while the modal was open it may have been answered elsewhere
    }
    const sender: AnswerSender = {
      send: (key, id) => {
        this.log.info(
          `answering ${key.conversationId}/${key.requestId} with option ${JSON.stringify(id)} (from ${source})`,
        );
        return this.sender.send(key, id);
      },
    };
    const attempt = await answerThroughInbox(this.inbox, sender, item.key, optionId);
    if (attempt.kind === 'refused') {
      if (withReason) {
        this.log.info(
          `the reason for ${item.key.requestId} is not sent: the reject was refused (${attempt.refusal.kind})`,
        );
      }
      this.showRefusal(item, attempt.refusal, note);
      return undefined;
    }
    const result = attempt.result;
    this._onDidAnswer.fire({ item, optionId, result, source, ...(withReason ? { reason: withReason.reason } : {}) });
    this.log.info(`answer to ${item.key.requestId}: ${result.kind}`);
    if (withReason && (result.kind === 'answered' || result.kind === 'notDelivered')) {
      await withReason.accepted(item, result); // says what became of the reject and of the reason
      return result;
    }
    if (withReason) {
      this.log.info(`the reason for ${item.key.requestId} is not sent: the reject ended ${result.kind}`);
    }
    this.showResult(item, optionId, result, withReason, note);
    return result;
  }

  /** What a click on a request that cannot be answered shows (`note` adds to the sentence, e.g. "reason not sent"). */
  showRefusal(item: InboxItem, refusal: AnswerRefusal, note: (message: string) => string = (m) => m): void {
    switch (refusal.kind) {
      case 'busyAnswering':
        return; // a second click while the first answer is in flight does nothing
      case 'notOffered':
        this.log.warn(`refused to send option ${JSON.stringify(refusal.optionId)}: the runtime did not offer it`);
        void vscode.window.showErrorMessage(note(Strings.optionNotOfferedLocal));
        return;
      case 'unknown':
        void vscode.window.showInformationMessage(note(Strings.noLongerWaitingGone));
        return;
      case 'stale':
        void vscode.window.showInformationMessage(
          note(this.describeClosure(item, refusal.closure, refusal.optionName)),
        );
        return;
    }
  }

  /** "Already answered elsewhere: Reject 2 min ago", "No longer waiting: expired", … */
  describeClosure(item: InboxItem, closure: Closure, optionName?: string): string {
    const ago = Time.ago(this.now() - closure.at);
    const label = inertLine(item.label, 300);
    switch (closure.kind) {
      case 'resolvedElsewhere': {
        const opt = optionName ?? closure.optionId ?? undefined;
        return opt
          ? Strings.answeredElsewhere(inertLine(opt), ago, label)
          : Strings.answeredElsewhereUnknown(ago, label);
      }
      case 'answeredByYou':
        return Strings.alreadyAnsweredByYou(inertLine(optionName ?? closure.optionId), ago, label);
      case 'expired':
        return Strings.noLongerWaiting(Strings.reasonExpired, label);
      case 'turnEnded':
        return Strings.noLongerWaiting(Strings.reasonTurnEnded, label);
      case 'conversationEnded':
        return Strings.noLongerWaiting(
          closure.reason === AGENT_EXITED ? Strings.reasonAgentExited : Strings.reasonConversationEnded,
          label,
        );
      case 'noLongerWaiting':
        return Strings.noLongerWaiting(
          closure.cause === 'withdrawn' ? Strings.reasonWithdrawn : Strings.reasonGone,
          label,
        );
    }
  }

  private showResult(
    item: InboxItem,
    optionId: string,
    result: AnswerResult,
    withReason: AnswerReason | undefined,
    note: (message: string) => string,
  ): void {
    const label = inertLine(item.label, 300);
    const retry = Strings.retry;
    const offerRetry = (message: string) => {
      void showErrorWithLogs(note(message), retry).then((pick) => {
        if (pick === retry) {
          void this.answer(item.id, optionId, 'toast', confirmDangerModal, withReason);
        }
      });
    };
    switch (result.kind) {
      case 'answered':
        // The status bar draws $(icon) references: agent text goes in with them escaped.
        vscode.window.setStatusBarMessage(Strings.answered(pickText(item.label, 200)), 4000);
        return;
      case 'resolvedElsewhere': {
        const now = this.inbox.get(item.id);
        const closure = now && 'at' in now.state && now.state.kind === 'resolvedElsewhere' ? now.state : undefined;
        void vscode.window.showInformationMessage(
          note(closure ? this.describeClosure(item, closure) : Strings.answeredElsewhereUnknown('', label)),
        );
        return;
      }
      case 'notDelivered':
        void vscode.window.showWarningMessage(Strings.notDelivered(label));
        return;
      case 'leftOpen':
        void vscode.window.showWarningMessage(note(Strings.leftOpen(Strings.leftOpenReason(result.reason), label)));
        return;
      case 'optionNotOffered':
        void vscode.window.showErrorMessage(note(Strings.optionNotOfferedServer(label)));
        return;
      case 'spriteToken':
        void vscode.window.showErrorMessage(note(Strings.spriteToken), Strings.signIn).then((pick) => {
          if (pick === Strings.signIn) {
            void vscode.commands.executeCommand('fountain.signIn');
          }
        });
        return;
      case 'auth':
        void vscode.window.showErrorMessage(note(Strings.authFailed), Strings.signIn).then((pick) => {
          if (pick === Strings.signIn) {
            void vscode.commands.executeCommand('fountain.signIn');
          }
        });
        return;
      case 'rateLimited':
        offerRetry(Strings.rateLimited(result.retryAfterSec));
        return;
      case 'notFound':
        void vscode.window.showInformationMessage(note(Strings.noLongerWaiting(Strings.reasonGone, label)));
        return;
      case 'network':
        offerRetry(Strings.network(label));
        return;
      case 'unexpected':
        this.log.warn(`the answer to ${item.key.requestId} got an unexpected HTTP ${result.status}`);
        offerRetry(Strings.unexpected(refusalWords(result.status), label));
        return;
    }
  }
}
