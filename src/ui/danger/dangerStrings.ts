import * as vscode from 'vscode';

/** Strings of the danger mark on the toast and in the tree (the modal's are in dangerModal.ts, details' in detailsStrings.ts). */
export const DangerStrings = {
  /** Before the toast's own text: "Dangerous: recursively removes your home directory. Approve execute: …". */
  toast: (reason: string, message: string) => vscode.l10n.t('Dangerous: {0}. {1}', reason, message),
  treeDescription: vscode.l10n.t('dangerous'),
  tooltip: (reason: string) =>
    vscode.l10n.t('Dangerous: {0} (the built-in denylist). Allowing it asks for a confirmation.', reason),
};
