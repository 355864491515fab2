import * as vscode from 'vscode';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { inlineAllowOption, inlineRejectOption } from '../../domain/optionChoice';
import type { Logger } from '../../platform/log';
import type { AnswerFlow, AnswerSource } from '../answer/answerFlow';
import { openRequestUris, requestIdOf, type EditorAnswerCommand } from './requestEditors';
import { CommandStrings } from '../strings';
import { Disposable } from '../../util/lifecycle';

/**
 * The editor-title answer commands' code. Built into dist/details.js (exported by detailsDocument.ts) and loaded by
 * editorTitle.ts when the first request editor opens, so dist/extension.js does not carry it.
 */
export interface EditorActionDeps {
  readonly inbox: Inbox;
  readonly flow: AnswerFlow;
  readonly log: Logger;
  /** The full option QuickPick (RequestCommands.pickOption). */
  readonly pickOption: (item: InboxItem, source: AnswerSource) => Promise<void>;
}

/** Context keys (arrays of URI strings) the editor/title menus test with `resource in …` (package.json). */
const EditorContextKeys = {
  allowOnce: 'fountain.editor.allowOnce',
  reject: 'fountain.editor.reject',
  answerable: 'fountain.editor.answerable',
} as const;

const EditorActionStrings = {
  needsEditor: vscode.l10n.t(
    "Nothing was sent: answer from the title bar of a request's details or diff editor, or from the Pending Approvals view.",
  ),
  notARequest: vscode.l10n.t('Refused: that editor does not show a Fountain approval request. Nothing was sent.'),
  notOpen: vscode.l10n.t("Refused: that request's details or diff is not open in an editor. Nothing was sent."),
  notActive: vscode.l10n.t(
    "Refused: that request's details or diff is not the active editor. Answer from the title bar of the editor you are looking at. Nothing was sent.",
  ),
};

/** The active editor's URIs: the active text editor's document, and both sides of the active tab when it is a diff. */
function activeEditorUris(): Set<string> {
  const out = new Set<string>();
  const doc = vscode.window.activeTextEditor?.document.uri;
  if (doc) {
    out.add(doc.toString());
  }
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText) {
    out.add(input.uri.toString());
  } else if (input instanceof vscode.TabInputTextDiff) {
    out.add(input.original.toString());
    out.add(input.modified.toString());
  }
  return out;
}

/**
 * Allow Once, Reject and Answer… in the title bar of a request's details document and of its diff editor. VS Code
 * passes an editor/title command the editor's resource URI; each command acts on the request that URI names and on
 * nothing else: never the tree selection, never the active editor when called without an argument (a palette entry,
 * a `command:` link or another extension's call sends nothing). The URI must be of this extension's schemes and be the
 * active editor's (the active text editor, or a side of the active diff): a URI of another open tab, built by a
 * caller, sends nothing. Every answer goes through AnswerFlow (offered options only, never twice).
 *
 * The buttons show only while the request can still be answered: the context keys above list the open tabs'
 * URIs whose request is answerable (and offers allow-once / a reject option); the commands check again at the click.
 */
export class EditorActions extends Disposable {
  private _last = '';

  constructor(private readonly d: EditorActionDeps) {
    super();
    this._register(vscode.window.tabGroups.onDidChangeTabs(() => this.updateContext()));
    this._register(d.inbox.onDidChangeItems(() => this.updateContext()));
    this.updateContext();
  }

  /** Runs one of EDITOR_ANSWER_COMMANDS with the argument VS Code (or a caller) passed. */
  async run(command: EditorAnswerCommand, arg: unknown): Promise<void> {
    if (command !== 'fountain.editor.answer') {
      return this.answerWith(arg, command === 'fountain.editor.allowOnce' ? 'allow' : 'reject');
    }
    const item = this.target(arg);
    if (!item) {
      return;
    }
    const check = this.d.inbox.clickCheck(item.key, item.request.options[0]?.optionId ?? '');
    if (check.kind === 'answerable' || check.kind === 'notOffered') {
      await this.d.pickOption(item, 'details');
    } else {
      this.d.flow.showRefusal(item, check); // already answered, expired, …: says so, shows no list
    }
  }

  private async answerWith(arg: unknown, which: 'allow' | 'reject'): Promise<void> {
    const item = this.target(arg);
    if (!item) {
      return;
    }
    const options = item.request.options;
    const option = which === 'allow' ? inlineAllowOption(options) : inlineRejectOption(options);
    if (!option) {
      void vscode.window.showInformationMessage(
        which === 'allow' ? CommandStrings.noAllowOnce : CommandStrings.noReject,
      );
      return;
    }
    await this.d.flow.answer(item.id, option.optionId, 'details');
  }

  /** The request the editor whose title was clicked shows, or undefined (and why) when there is none. */
  private target(arg: unknown): InboxItem | undefined {
    if (arg === undefined || arg === null) {
      this.d.log.warn('ignored an editor answer command with no editor: answers need a click in an editor title');
      void vscode.window.showInformationMessage(EditorActionStrings.needsEditor);
      return undefined;
    }
    const id = arg instanceof vscode.Uri ? requestIdOf(arg) : undefined;
    if (!(arg instanceof vscode.Uri) || id === undefined) {
      this.d.log.warn('refused an editor answer command whose argument is not a Fountain request editor');
      void vscode.window.showErrorMessage(EditorActionStrings.notARequest);
      return undefined;
    }
    if (!openRequestUris().has(arg.toString())) {
      this.d.log.warn('refused an editor answer command for a request editor that is not open');
      void vscode.window.showErrorMessage(EditorActionStrings.notOpen);
      return undefined;
    }
    if (!activeEditorUris().has(arg.toString())) {
      this.d.log.warn('refused an editor answer command for a request editor that is not the active editor');
      void vscode.window.showErrorMessage(EditorActionStrings.notActive);
      return undefined;
    }
    const item = this.d.inbox.get(id);
    if (!item) {
      void vscode.window.showInformationMessage(CommandStrings.gone);
    }
    return item;
  }

  /** Sets the three context keys from the open tabs; only when they changed (inbox changes are frequent). */
  private updateContext(): void {
    const keys: Record<keyof typeof EditorContextKeys, string[]> = { allowOnce: [], reject: [], answerable: [] };
    for (const [uri, parsed] of openRequestUris()) {
      const id = requestIdOf(parsed);
      const item = id !== undefined ? this.d.inbox.get(id) : undefined;
      if (!item?.answerable) {
        continue;
      }
      keys.answerable.push(uri);
      if (inlineAllowOption(item.request.options)) {
        keys.allowOnce.push(uri);
      }
      if (inlineRejectOption(item.request.options)) {
        keys.reject.push(uri);
      }
    }
    const next = JSON.stringify(keys);
    if (next === this._last) {
      return;
    }
    this._last = next;
    for (const k of Object.keys(keys) as (keyof typeof EditorContextKeys)[]) {
      void vscode.commands.executeCommand('setContext', EditorContextKeys[k], keys[k]);
    }
  }
}
