import * as vscode from 'vscode';
import { detailsBundle } from './details';
import { EDITOR_ANSWER_COMMANDS, openRequestUris } from './requestEditors';
import type { EditorActionDeps, EditorActions } from './editorActions';

/** Allow Once, Reject and Answer… in the title bar of a request's details document and of its diff editor. */
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
