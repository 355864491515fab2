/**
 * Reject with Reason… (dist/steer.js, loaded on first use by src/ui/steer/rejectWithReasonEntry.ts), one action for both
 * sources: an input box for the reason (required; it names the request), then the runtime's own reject option
 * (reject_once first, else the first reject) through the answer flow (the inbox's one answer path), and only when
 * that reject was taken, the reason as the conversation's next prompt. ACP has no reason field; this is the pattern
 * that works. A reject refused (answered elsewhere, expired) sends no reason, and the message says why. Never
 * `cancelled` instead of the reject: a local agent's reason waits until its turn has ended.
 */
import * as vscode from 'vscode';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { inlineRejectOption } from '../../domain/optionChoice';
import { planOf } from '../../domain/requestLabel';
import type { LocalAgentSession } from '../../local';
import type { Logger } from '../../platform/log';
import { defaultEnv } from '../../protocol/env';
import { PromptClient, newClientRequestId, type PromptResult } from '../../protocol/prompts';
import { isLocalSource } from '../../session/localKey';
import type { AnswerFlow, AnswerSource } from '../answer/answerFlow';
import { confirmDangerModal } from '../danger/danger';
import { openRequestUris, requestIdOf } from '../details/requestEditors';
import type { PendingTree } from '../tree/pendingTree';
import { inertBlock, inertLine, pickText } from '../display';
import { ReasonStrings as S } from './rejectWithReasonStrings';
import { CommandStrings, conversationName } from '../strings';

/** What a local session offers this flow (src/local/session.ts). */
export type LocalTurnSession = Pick<LocalAgentSession, 'status' | 'onDidChangeStatus' | 'prompt' | 'agentName'>;

export interface SteerImplDeps {
  readonly inbox: Inbox;
  /** The Pending Approvals tree: its Reject with Reason… acts only on a row it issued. */
  readonly tree: Pick<PendingTree, 'isIssued' | 'itemOf'>;
  readonly flow: AnswerFlow;
  readonly log: Logger;
  /** The server's URL and key when this window can send prompts to `server` (the connected one), else undefined. */
  readonly fountain: (server: string) => Promise<{ readonly server: string; readonly key: string } | undefined>;
  /** The running local session behind a local conversation id. */
  readonly localSession: (conversationId: string) => LocalTurnSession | undefined;
  /** How long a local reason waits for the agent's turn to end. Default 10 minutes. */
  readonly turnWaitMs?: number;
}

type Delivered =
  | { readonly kind: 'sent' }
  /** `detail` is the server's status, code and route: for the log, never the toast. */
  | { readonly kind: 'notSent'; readonly why: string; readonly retry: boolean; readonly detail?: string };

/** Sends one reason (made once per Reject with Reason…: a retry sends the same client_request_id). */
type Delivery = (text: string) => Promise<Delivered>;

const DEFAULT_TURN_WAIT_MS = 10 * 60_000;

export class RejectWithReason {
  constructor(private readonly d: SteerImplDeps) {}

  async run(clicked: InboxItem, source: AnswerSource): Promise<void> {
    const item = this.d.inbox.get(clicked.id) ?? clicked;
    const option = inlineRejectOption(item.request.options);
    if (!option) {
      void vscode.window.showInformationMessage(CommandStrings.noReject);
      return;
    }
    const check = this.d.inbox.clickCheck(item.key, option.optionId);
    if (check.kind !== 'answerable') {
      this.d.flow.showRefusal(item, check); // answered elsewhere, expired, …: no input box, nothing sent
      return;
    }
    const delivery = await this.delivery(item);
    if (!delivery) {
      void vscode.window.showWarningMessage(S.cannotDeliver);
      return;
    }
    const reason = await askReason(item, option.name);
    if (reason === undefined) {
      this.d.log.info(`Reject with Reason for ${item.key.requestId}: dismissed, nothing sent`);
      return;
    }
    await this.d.flow.answer(item.id, option.optionId, source, confirmDangerModal, {
      reason,
      // Not awaited: a local reason waits for the turn to end, and the queue or the toast must not wait with it.
      accepted: (answered) => {
        void this.deliver(answered, reason, delivery);
        return Promise.resolve();
      },
    });
  }

  /** The tree's Reject with Reason…: only on a row this extension issued (never the selection, never a forged one). */
  async fromTree(arg: unknown): Promise<void> {
    if (arg === undefined || arg === null || !this.d.tree.isIssued(arg)) {
      this.d.log.warn('refused Reject with Reason: its argument is not a request row of Fountain Approvals');
      void vscode.window.showErrorMessage(CommandStrings.forged);
      return;
    }
    const item = this.d.tree.itemOf(arg);
    if (!item) {
      void vscode.window.showInformationMessage(CommandStrings.gone);
      return;
    }
    await this.run(item, 'tree');
  }

  /** The details/diff editor title's: the request the clicked editor shows, if that editor is open. */
  async fromEditor(arg: unknown): Promise<void> {
    const id = arg instanceof vscode.Uri ? requestIdOf(arg) : undefined;
    if (!(arg instanceof vscode.Uri) || id === undefined || !openRequestUris().has(arg.toString())) {
      this.d.log.warn('refused Reject with Reason: its argument is not an open Fountain request editor');
      void vscode.window.showErrorMessage(CommandStrings.forged);
      return;
    }
    const item = this.d.inbox.get(id);
    if (!item) {
      void vscode.window.showInformationMessage(CommandStrings.gone);
      return;
    }
    await this.run(item, 'details');
  }

  /** The plan document beside the editor, read-only, in the details documents' language (editor links off). */
  async openPlan(item: InboxItem, scheme: string): Promise<void> {
    const uri = vscode.Uri.from({
      scheme,
      path: `/Plan ${item.key.requestId.replace(/[^\w.-]/g, '_')}`,
      query: encodeURIComponent(item.id),
    });
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'fountain-request') {
      await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: true,
    });
  }

  /** How the reason reaches this request's conversation, or undefined when it cannot now. */
  private async delivery(item: InboxItem): Promise<Delivery | undefined> {
    const { key } = item;
    if (isLocalSource(key.server)) {
      const session = this.d.localSession(key.conversationId);
      return session && ((text) => this.sendLocal(key.conversationId, session, text));
    }
    const creds = await this.d.fountain(key.server);
    if (!creds) {
      return undefined;
    }
    const client = new PromptClient({ server: creds.server, key: creds.key, env: defaultEnv(this.d.log) });
    const clientRequestId = newClientRequestId(); // once: every retry of this reason sends the same id
    return async (text) => describePrompt(await client.send(key.conversationId, text, clientRequestId));
  }

  /** After the reject was taken: sends the reason and says what became of it (Retry re-sends the same prompt). */
  private async deliver(item: InboxItem, reason: string, delivery: Delivery): Promise<void> {
    const where = inertLine(conversationName(item.conversation), 80);
    const label = inertLine(item.label, 200);
    const local = isLocalSource(item.key.server);
    const agent = inertLine(item.conversation.agentName ?? where, 80);
    const status = local ? vscode.window.setStatusBarMessage(pickText(S.waitingForTurn(agent), 200)) : undefined;
    let out: Delivered;
    try {
      out = local
        ? await delivery(reason)
        : await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: S.sending(where) }, () =>
            delivery(reason),
          );
    } finally {
      status?.dispose();
    }
    if (out.kind === 'sent') {
      this.d.log.info(`the reason for ${item.key.requestId} was sent to ${item.key.conversationId} as its next prompt`);
      void vscode.window.showInformationMessage(S.sent(label, where));
      return;
    }
    this.d.log.warn(
      `the reason for ${item.key.requestId} was not sent: ${out.why}${out.detail ? ` (${out.detail})` : ''}`,
    );
    const buttons = [...(out.retry ? [S.retry] : []), S.copy, ...(out.detail ? [S.showLogs] : [])];
    const text = out.detail ? S.notSentSeeLogs(label, out.why) : S.notSent(label, out.why);
    void vscode.window.showWarningMessage(text, ...buttons).then(async (pick) => {
      if (pick === S.showLogs) {
        await vscode.commands.executeCommand('fountain.showLogs');
      } else if (pick === S.retry) {
        await this.deliver(item, reason, delivery);
      } else if (pick === S.copy) {
        await vscode.env.clipboard.writeText(reason);
      }
    });
  }

  /** The reason as the local session's next `session/prompt`, once its turn has ended. */
  private async sendLocal(id: string, session: LocalTurnSession, text: string): Promise<Delivered> {
    const agent = inertLine(session.agentName, 80);
    const deadline = Date.now() + (this.d.turnWaitMs ?? DEFAULT_TURN_WAIT_MS);
    for (let tries = 0; tries < 5; tries++) {
      const state = await untilIdle(session, deadline);
      if (this.d.localSession(id) !== session) {
        return { kind: 'notSent', why: S.whyRestarted(agent), retry: false };
      }
      if (state === 'gone') {
        return { kind: 'notSent', why: S.whyAgentGone(agent), retry: false };
      }
      if (state === 'timeout') {
        const minutes = Math.round((this.d.turnWaitMs ?? DEFAULT_TURN_WAIT_MS) / 60_000);
        return { kind: 'notSent', why: S.whyTurnGoesOn(agent, minutes), retry: true };
      }
      const started = await startPrompt(session, text, this.d.log);
      if (started === true) {
        return { kind: 'sent' };
      }
      if (session.status === 'idle') {
        return { kind: 'notSent', why: S.whyPromptFailed(inertLine(started.message, 200)), retry: true };
      }
      // Someone else's prompt got there first: wait for that turn too.
    }
    return { kind: 'notSent', why: S.whyTurnGoesOn(agent, 0), retry: true };
  }
}

/** Resolves once the session is idle (its turn ended), gone, or at the deadline. */
function untilIdle(s: LocalTurnSession, deadline: number): Promise<'idle' | 'gone' | 'timeout'> {
  const now = (): 'idle' | 'gone' | undefined =>
    s.status === 'idle' ? 'idle' : s.status === 'exited' || s.status === 'stopped' ? 'gone' : undefined;
  const at = now();
  if (at) {
    return Promise.resolve(at);
  }
  return new Promise((resolve) => {
    const done = (r: 'idle' | 'gone' | 'timeout') => {
      sub.dispose();
      clearTimeout(timer);
      resolve(r);
    };
    const sub = s.onDidChangeStatus(() => {
      const r = now();
      if (r) {
        done(r);
      }
    });
    const timer = setTimeout(() => done('timeout'), Math.max(0, deadline - Date.now()));
  });
}

/** Sends the prompt; true once it went out (the turn then runs on), or the error it was refused with at once. */
async function startPrompt(s: LocalTurnSession, text: string, log: Logger): Promise<true | Error> {
  const turn = s.prompt(text);
  const first = await Promise.race([
    turn.then(
      () => true as const,
      (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
    ),
    new Promise<true>((r) => setTimeout(() => r(true), 100)),
  ]);
  if (first === true) {
    turn.catch((e: unknown) => log.warn(`[${s.agentName}] the turn of the reason's prompt failed: ${String(e)}`));
  }
  return first;
}

/** What a prompts-route result means for the user. */
function describePrompt(r: PromptResult): Delivered {
  switch (r.kind) {
    case 'queued':
      return { kind: 'sent' };
    case 'auth':
      return { kind: 'notSent', why: S.whyAuth, retry: false };
    case 'refused':
      return { kind: 'notSent', why: S.whyRefused(r.status), retry: false, detail: promptDetail(r) };
    case 'gaveUp':
      if (r.status === undefined) {
        return { kind: 'notSent', why: S.whyUnreachable, retry: true, detail: r.message };
      }
      return {
        kind: 'notSent',
        why: r.retryAfterSec !== undefined ? S.whyUnavailableRetryAfter(r.retryAfterSec) : S.whyUnavailable,
        retry: true,
        detail: promptDetail(r),
      };
  }
}

/** What the log says of a refused prompt: the route, the status and the server's code and message. */
function promptDetail(r: { readonly status?: number; readonly code?: string; readonly message?: string }): string {
  const code = r.code ? ` ${r.code}` : '';
  const message = r.message ? `: ${r.message}` : '';
  return `POST /api/conversations/{id}/prompts answered HTTP ${r.status ?? '—'}${code}${message}`;
}

/** The reason, or undefined when dismissed; an empty reason is refused in the box itself. */
function askReason(item: InboxItem, optionName: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    box.title = pickText(S.inputTitle(inertLine(item.label, 200)), 300);
    box.prompt = pickText(
      S.inputPrompt(inertLine(optionName, 60), inertLine(conversationName(item.conversation), 80)),
      400,
    );
    box.placeholder = S.inputPlaceholder;
    box.ignoreFocusOut = true;
    let result: string | undefined;
    box.onDidChangeValue(() => (box.validationMessage = undefined));
    box.onDidAccept(() => {
      if (!box.value.trim()) {
        box.validationMessage = S.inputEmpty;
        return;
      }
      result = box.value.trim();
      box.hide();
    });
    box.onDidHide(() => {
      box.dispose();
      resolve(result);
    });
    box.show();
  });
}

/** The plan document's text: our header, then the whole plan with every line marked as the agent's. */
export function planDocumentText(item: InboxItem | undefined): string {
  const plan = item && planOf(item.request);
  if (!item || plan === undefined) {
    return `${S.planGone}\n`;
  }
  const where = inertLine(conversationName(item.conversation), 200);
  return `${S.planHeader(where)}\n\n${inertBlock(plan)}\n`;
}
