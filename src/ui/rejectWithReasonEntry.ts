/**
 * Reject with Reason… and the plan document, as dist/extension.js carries them: the commands (the tree's and the
 * details/diff editor title's), the toast's and Answer…'s check, and the plan document's scheme. Their code is
 * dist/steer.js (src/ui/rejectWithReason.ts), loaded on first use.
 */
import * as vscode from 'vscode';
import type { Inbox, InboxItem } from '../domain/inbox';
import { inlineRejectOption } from '../domain/optionChoice';
import { planOf } from '../domain/requestLabel';
import { isLocalSource } from '../session/localKey';
import { Disposable } from '../util/lifecycle';
import type { AnswerSource } from './answerFlow';
import { requestIdOf } from './details';
import { openRequestUris } from './editorTitle';
import { lazyBundle } from './lazyBundle';
import type { PendingTree } from './pendingTree';
import type { LocalTurnSession, RejectWithReason, SteerImplDeps } from './rejectWithReason';
import { CommandStrings } from './strings';

export const steerBundle = lazyBundle<typeof import('./rejectWithReason')>('steer.js');

export const PLAN_SCHEME = 'fountain-plan';

export interface SteerDeps extends Omit<SteerImplDeps, 'localSession'> {
  readonly tree: PendingTree;
  /** The running local session behind a local conversation id (undefined once it stopped). */
  readonly localSession: (conversationId: string) => LocalTurnSession | undefined;
}

export class Steer extends Disposable implements vscode.TextDocumentContentProvider {
  private impl: RejectWithReason | undefined;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly d: SteerDeps) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, this));
    this._register(
      vscode.commands.registerCommand('fountain.request.rejectWithReason', (a?: unknown) => this.fromTree(a)),
    );
    this._register(
      vscode.commands.registerCommand('fountain.editor.rejectWithReason', (a?: unknown) => this.fromEditor(a)),
    );
  }

  private get inbox(): Inbox {
    return this.d.inbox;
  }

  /** True when Reject with Reason… can answer `item` now: answerable, a reject offered, a way to send the reason. */
  can(item: InboxItem): boolean {
    if (!item.answerable || !inlineRejectOption(item.request.options)) {
      return false;
    }
    return isLocalSource(item.key.server) ? this.d.localSession(item.key.conversationId) !== undefined : true;
  }

  run(item: InboxItem, source: AnswerSource): Promise<void> {
    this.impl ??= new (steerBundle.load().RejectWithReason)(this.d);
    return this.impl.run(item, source);
  }

  /** Opens a plan approval's whole plan beside the editor (read-only, inert), keeping the focus where it is. */
  async openPlan(item: InboxItem): Promise<void> {
    if (planOf(item.request) === undefined) {
      return;
    }
    const uri = vscode.Uri.from({
      scheme: PLAN_SCHEME,
      path: `/Plan ${item.key.requestId.replace(/[^\w.-]/g, '_')}`,
      query: encodeURIComponent(item.id),
    });
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'fountain-request') {
      // The details documents' language: editor links off, invisible and ambiguous characters highlighted.
      await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    await vscode.window.showTextDocument(doc, {
      viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true,
      preview: true,
    });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return steerBundle.load().planDocumentText(this.inbox.get(decodeURIComponent(uri.query)));
  }

  /** The tree's Reject with Reason…: only on a row this extension issued (never the selection, never a forged one). */
  private async fromTree(arg: unknown): Promise<void> {
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
  private async fromEditor(arg: unknown): Promise<void> {
    const id = arg instanceof vscode.Uri ? requestIdOf(arg) : undefined;
    if (!(arg instanceof vscode.Uri) || id === undefined || !openRequestUris().has(arg.toString())) {
      this.d.log.warn('refused Reject with Reason: its argument is not an open Fountain request editor');
      void vscode.window.showErrorMessage(CommandStrings.forged);
      return;
    }
    const item = this.inbox.get(id);
    if (!item) {
      void vscode.window.showInformationMessage(CommandStrings.gone);
      return;
    }
    await this.run(item, 'details');
  }
}
