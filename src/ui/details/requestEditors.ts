/**
 * Which editors show a request: the schemes of its details document and of the sides of its diffs, the request id a
 * URI names, the open tabs that show one, and the editor-title answer commands. A leaf module (only vscode), so the
 * details view, its lazily loaded editor actions and the editor title all read it without importing each other.
 */
import * as vscode from 'vscode';

export const DETAILS_SCHEME = 'fountain-request';
export const DIFF_SCHEME = 'fountain-diff';

export const EDITOR_ANSWER_COMMANDS = [
  'fountain.editor.allowOnce',
  'fountain.editor.reject',
  'fountain.editor.answer',
] as const;
export type EditorAnswerCommand = (typeof EDITOR_ANSWER_COMMANDS)[number];

export function itemIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DETAILS_SCHEME) {
    return undefined;
  }
  try {
    return decodeURIComponent(uri.query);
  } catch {
    return undefined;
  }
}

/** The inbox id of the request a details document or either side of one of its diffs shows; else undefined. */
export function requestIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DIFF_SCHEME) {
    return itemIdOf(uri);
  }
  try {
    return decodeURIComponent(uri.query.split('&')[0]) || undefined;
  } catch {
    return undefined;
  }
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
