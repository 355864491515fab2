/**
 * Reject with Reason… and the plan document, as dist/extension.js carries them: the commands (the tree's and the
 * details/diff editor title's), the toast's and Answer…'s check, and the plan document's scheme. Their code is
 * dist/steer.js (src/ui/steer/rejectWithReason.ts), loaded on first use.
 */
import * as vscode from 'vscode';
import type { InboxItem } from '../../domain/inbox';
import { inlineRejectOption } from '../../domain/optionChoice';
import { planOf } from '../../domain/requestLabel';
import { isLocalSource } from '../../session/localKey';
import { Disposable } from '../../util/lifecycle';
import type { AnswerSource } from '../answer/answerFlow';
import { lazyBundle } from '../lazyBundle';
import type { RejectWithReason, SteerImplDeps } from './rejectWithReason';

export const steerBundle = lazyBundle<typeof import('./rejectWithReason')>('steer.js');

export const PLAN_SCHEME = 'fountain-plan';

export type SteerDeps = SteerImplDeps;

export class Steer extends Disposable implements vscode.TextDocumentContentProvider {
  private impl: RejectWithReason | undefined;
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly d: SteerDeps) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(PLAN_SCHEME, this));
    this._register(
      vscode.commands.registerCommand('fountain.request.rejectWithReason', (a?: unknown) => this.load().fromTree(a)),
    );
    this._register(
      vscode.commands.registerCommand('fountain.editor.rejectWithReason', (a?: unknown) => this.load().fromEditor(a)),
    );
  }

  /** True when Reject with Reason… can answer `item` now: answerable, a reject offered, a way to send the reason. */
  can(item: InboxItem): boolean {
    if (!item.answerable || !inlineRejectOption(item.request.options)) {
      return false;
    }
    return isLocalSource(item.key.server) ? this.d.localSession(item.key.conversationId) !== undefined : true;
  }

  run(item: InboxItem, source: AnswerSource): Promise<void> {
    return this.load().run(item, source);
  }

  /** Opens a plan approval's whole plan beside the editor (read-only, inert), keeping the focus where it is. */
  openPlan(item: InboxItem): Promise<void> {
    return planOf(item.request) === undefined ? Promise.resolve() : this.load().openPlan(item, PLAN_SCHEME);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return steerBundle.load().planDocumentText(this.d.inbox.get(decodeURIComponent(uri.query)));
  }

  private load(): RejectWithReason {
    this.impl ??= new (steerBundle.load().RejectWithReason)(this.d);
    return this.impl;
  }
}
