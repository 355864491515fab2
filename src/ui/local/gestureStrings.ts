import * as vscode from 'vscode';

/** Strings of the confirmations that Start Local Agent and Send Prompt show (src/ui/local/gestures.ts). */
export const GestureStrings = {
  startTitle: vscode.l10n.t('Start Local Agent'),
  startPlaceholder: vscode.l10n.t('Press Enter to start this agent on this machine, or Escape to start nothing'),
  startItem: (agent: string, folder: string) => vscode.l10n.t('Start {0} in {1}', agent, folder),
  chooseOther: vscode.l10n.t('Choose another agent…'),
  draftNotActive: vscode.l10n.t(
    'Nothing was sent: Send Prompt in the title bar sends the prompt draft of the active editor.',
  ),
};
