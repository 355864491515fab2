/**
 * Send Prompt…: VS Code's InputBox is single-line, so it takes a one-line prompt (Enter sends), and its title-bar
 * button "Compose in Editor" opens an untitled plain-text draft for a prompt of several lines. The draft editor has
 * a "Send Prompt" button in its title bar (context key `fountain.local.promptDraft`); sending closes the draft.
 * Nothing is sent on a dismiss or an empty prompt. A text given with the command (an argument) only prefills the input
 * box, or a draft when it has several lines: the user still sends it (src/ui/local/gestures.ts).
 */
import * as vscode from 'vscode';
import { Disposable } from '../../util/lifecycle';
import { gestures } from './gestures';
import type { LocalSessionManager, ManagedSession } from './manager';
import { LocalStrings } from './strings';

const DRAFT_CONTEXT = 'fountain.local.promptDraft';

/** The line typed, or `compose` (with the text typed so far) when the user prefers the editor. */
export type PromptInput = { kind: 'text'; text: string } | { kind: 'compose'; text: string } | undefined;

/** Asks for one line (prefilled with `value`); `compose` when the user prefers the editor. */
export function askOneLine(s: ManagedSession, value?: string): Promise<PromptInput> {
  return new Promise((resolve) => {
    const box = vscode.window.createInputBox();
    const compose: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('edit'),
      tooltip: LocalStrings.composeInEditor,
    };
    box.title = LocalStrings.promptTitle(s.agentName, s.folder.name);
    box.placeholder = LocalStrings.promptPlaceholder;
    box.buttons = [compose];
    box.ignoreFocusOut = true;
    if (value !== undefined) {
      box.value = value;
    }
    const seq = gestures.open('prompt', box.title, [], undefined, box.value);
    let result: PromptInput;
    box.onDidTriggerButton(() => {
      result = { kind: 'compose', text: box.value };
      box.hide();
    });
    box.onDidChangeValue((v) => {
      box.validationMessage = undefined;
      gestures.update(seq, { value: v });
    });
    box.onDidAccept(() => {
      if (!box.value.trim()) {
        box.validationMessage = LocalStrings.promptEmpty;
        return;
      }
      result = { kind: 'text', text: box.value };
      box.hide();
    });
    box.onDidHide(() => {
      gestures.close(seq);
      box.dispose();
      resolve(result);
    });
    box.show();
  });
}

/** Untitled prompt drafts, each bound to the session it was opened for. */
export class PromptDrafts extends Disposable {
  private readonly drafts = new Map<string, string>();

  constructor(private readonly manager: LocalSessionManager) {
    super();
    const update = () => {
      const uri = vscode.window.activeTextEditor?.document.uri.toString();
      void vscode.commands.executeCommand('setContext', DRAFT_CONTEXT, uri !== undefined && this.drafts.has(uri));
    };
    this._register(vscode.window.onDidChangeActiveTextEditor(update));
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        this.drafts.delete(doc.uri.toString());
        update();
      }),
    );
  }

  /** Opens a draft for `s`, with `content` in it (the user edits it and sends it from the title bar). */
  async open(s: ManagedSession, content = ''): Promise<void> {
    const doc = await vscode.workspace.openTextDocument({ language: 'plaintext', content });
    this.drafts.set(doc.uri.toString(), s.id);
    await vscode.window.showTextDocument(doc, { preview: false });
    await vscode.commands.executeCommand('setContext', DRAFT_CONTEXT, true);
  }

  /**
   * The active editor's draft: its text and the session it is for (undefined when that session left the list).
   * With `uri` (what the draft's title button passes), only when it is the active editor's.
   */
  active(uri?: vscode.Uri): { text: string; session: ManagedSession | undefined } | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    if (uri !== undefined && uri.toString() !== doc?.uri.toString()) {
      return undefined;
    }
    const id = doc && this.drafts.get(doc.uri.toString());
    return id === undefined ? undefined : { text: doc!.getText(), session: this.manager.get(id) };
  }

  /** Closes the active draft without asking to save it (its text was sent). */
  async closeActive(): Promise<void> {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}
