import * as vscode from 'vscode';

/**
 * The one "error with Show Logs" toast: shows `message` with `actions` and a Show Logs button, opens the log when
 * that is picked, and resolves with the other action picked (or undefined).
 */
export async function showErrorWithLogs(message: string, ...actions: string[]): Promise<string | undefined> {
  const showLogs = vscode.l10n.t('Show Logs');
  const pick = await vscode.window.showErrorMessage(message, ...actions, showLogs);
  if (pick === showLogs) {
    void vscode.commands.executeCommand('fountain.showLogs');
    return undefined;
  }
  return pick;
}
