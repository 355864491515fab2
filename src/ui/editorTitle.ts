import * as vscode from 'vscode';
import { DETAILS_SCHEME, DIFF_SCHEME, detailsBundle } from './details';
import type { EditorActionDeps, EditorActions } from './editorActions';

/** Allow Once, Reject and Answer… in the title bar of a request's details document and of its diff editor. */
export const EDITOR_ANSWER_COMMANDS = [
  'fountain.editor.allowOnce',
  'fountain.editor.reject',
  'fountain.editor.answer',
] as const;
export type EditorAnswerCommand = (typeof EDITOR_ANSWER_COMMANDS)[number];

/**
 * Registers the editor-title answer commands. Their code (editorActions.ts, in dist/details.js) is loaded when the
 * first tab showing a request opens (a tab restored at start-up counts), or on the first call.
 */
export function registerEditorActions(deps: EditorActionDeps): vscode.Disposable {
  let actions: EditorActions | undefined;
  const load = () => (actions ??= new (detailsBundle.load().EditorActions)(deps));
  const watch = vscode.window.tabGroups.onDidChangeTabs(() => {
    if (!actions && openRequestUris().size > 0) {
      load();
    }
  });
  if (openRequestUris().size > 0) {
    load();
  }
  return vscode.Disposable.from(
    watch,
    ...EDITOR_ANSWER_COMMANDS.map((c) => vscode.commands.registerCommand(c, (arg?: unknown) => load().run(c, arg))),
    { dispose: () => actions?.dispose() },
  );
}

/** Every open tab's URI (by its string) that shows a request's details document or a side of its diff. */
export function openRequestUris(): Map<string, vscode.Uri> {
  const out = new Map<string, vscode.Uri>();
  const add = (uri: vscode.Uri) => {
    if (uri.scheme === DETAILS_SCHEME || uri.scheme === DIFF_SCHEME) {
      out.set(uri.toString(), uri);
    }
  };
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const input = tab.input;
      if (input instanceof vscode.TabInputText) {
        add(input.uri);
      } else if (input instanceof vscode.TabInputTextDiff) {
        add(input.original);
        add(input.modified);
      }
    }
  }
  return out;
}
