import * as vscode from 'vscode';
import { refusalWords } from '../plainWords';

/** Reject with Reason… and the plan document (dist/steer.js). Agent and server text goes in inert. */
export const ReasonStrings = {
  inputTitle: (label: string) => vscode.l10n.t('Reject with Reason: {0}', label),
  inputPrompt: (option: string, where: string) =>
    vscode.l10n.t(
      'Answers "{0}", then sends your reason to {1} as its next prompt. Escape sends nothing.',
      option,
      where,
    ),
  inputPlaceholder: vscode.l10n.t('What should the agent do instead?'),
  inputEmpty: vscode.l10n.t('Type a reason, or press Escape to send nothing.'),
  cannotDeliver: vscode.l10n.t(
    'Reject with Reason… cannot reach this conversation (not connected to its server, or its agent is not running). Nothing was sent.',
  ),
  sending: (where: string) => vscode.l10n.t('Sending your reason to {0}…', where),
  waitingForTurn: (agent: string) => vscode.l10n.t('Rejected. Your reason goes to {0} once its turn ends…', agent),
  sent: (label: string, where: string) =>
    vscode.l10n.t('Rejected "{0}" and sent your reason to {1} as its next prompt.', label, where),
  notSent: (label: string, why: string) =>
    vscode.l10n.t('Rejected "{0}", but your reason was not sent: {1}.', label, why),
  notSentSeeLogs: (label: string, why: string) =>
    vscode.l10n.t('Rejected "{0}", but your reason was not sent: {1}. Show Logs has the details.', label, why),
  showLogs: vscode.l10n.t('Show Logs'),
  retry: vscode.l10n.t('Retry'),
  copy: vscode.l10n.t('Copy Reason'),
  // Why a reason was not sent (each completes "your reason was not sent: …").
  whyNotConnected: vscode.l10n.t('this window is no longer connected to that server'),
  whyAuth: vscode.l10n.t('the server no longer accepts your key'),
  whyRefused: (status: number) =>
    status === 403 ? vscode.l10n.t('the server refused it: your key may not send prompts') : refusalWords(status),
  whyUnavailable: vscode.l10n.t('the server stayed unavailable through every retry'),
  whyUnavailableRetryAfter: (sec: number) => vscode.l10n.t('the server is unavailable and asked to wait {0} s', sec),
  whyUnreachable: vscode.l10n.t('the server could not be reached'),
  whyAgentGone: (agent: string) => vscode.l10n.t('{0} is no longer running', agent),
  whyRestarted: (agent: string) => vscode.l10n.t('{0} was restarted since', agent),
  whyTurnGoesOn: (agent: string, minutes: number) =>
    vscode.l10n.t("{0}'s turn did not end within {1} minutes", agent, minutes),
  whyPromptFailed: (message: string) => vscode.l10n.t('the agent refused the prompt ({0})', message),
  // The plan document.
  planHeader: (where: string) =>
    vscode.l10n.t(
      'The plan the agent proposes in {0}. Read-only; answer with the notification\'s buttons or in the Pending Approvals view. Every line of the agent starts with "│ ".',
      where,
    ),
  planGone: vscode.l10n.t('This plan is no longer known to Fountain Approvals.'),
};
