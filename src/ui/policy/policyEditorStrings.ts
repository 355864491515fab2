import * as vscode from 'vscode';
import { Counted } from '../plainWords';

/**
 * Strings of the agent-policy editor (issue 6). They are built into dist/policyEditor.js with the editor, loaded on
 * its first use (policyEditorCommands.ts); what the activation-time parts show stays in strings.ts.
 */
export const PolicyEditorStrings = {
  recommendationsTitle: vscode.l10n.t('Policy recommendations from your approval history'),
  recommendationsPlaceholder: vscode.l10n.t('Pick one to preview the change (nothing is applied without confirmation)'),
  notConfigured: vscode.l10n.t('No Fountain server is configured, or you are not signed in.'),
  pickAgentTitle: vscode.l10n.t('Edit Agent Permission Policy: pick an agent'),
  pickAgentPlaceholder: vscode.l10n.t('Pick the agent whose permission policy you want to change (type to filter)'),
  unnamedAgentPick: vscode.l10n.t('Agent without a name'),
  sandbox: (sandbox: string) => vscode.l10n.t('sandbox: {0}', sandbox),
  lastActive: (ago: string) => vscode.l10n.t('active {0}', ago),
  agentIdDetail: (id: string) => vscode.l10n.t('Agent id: {0}', id),
  agentListFailed: vscode.l10n.t(
    "The server's list of agents could not be read, so only agents seen in this window are listed. Show Logs has the details.",
  ),
  otherAgent: vscode.l10n.t('An agent not listed here…'),
  otherAgentDetail: vscode.l10n.t("Type the agent's id, as Fountain shows it"),
  agentIdPrompt: vscode.l10n.t("The agent's id, as Fountain shows it"),
  readFailed: (reason: string) =>
    vscode.l10n.t('The agent policy could not be read: {0}. Nothing was changed.', reason),
  unnamedAgent: vscode.l10n.t('an agent without a name'),
  editTitle: (agent: string) => vscode.l10n.t('Permission policy of {0}', agent),
  changeTitle: (kind: string, agent: string) => vscode.l10n.t('Change policy for {0} on {1}…', kind, agent),
  editPlaceholder: vscode.l10n.t('Pick a key to change, then "Review and Apply…" (Escape changes nothing)'),
  review: vscode.l10n.t('$(check) Review and Apply…'),
  reviewDetail: (n: number) =>
    n === 1
      ? vscode.l10n.t('1 change: preview the policy before and after, then confirm')
      : vscode.l10n.t('{0} changes: preview the policy before and after, then confirm', n),
  kindsSeparator: vscode.l10n.t('ACP kinds'),
  titlesSeparator: vscode.l10n.t('Title keys (match one exact tool title)'),
  otherSeparator: vscode.l10n.t('Other'),
  explicit: (verdict: string) => vscode.l10n.t('{0} (set)', verdict),
  inheritedDefault: (verdict: string) => vscode.l10n.t('{0} (from default)', verdict),
  inheritedBuiltin: (verdict: string) => vscode.l10n.t('{0} (built-in)', verdict),
  changed: (before: string, after: string) => vscode.l10n.t('{0} → {1}', before, after),
  askTimeout: vscode.l10n.t('ask_timeout'),
  askTimeoutDetail: vscode.l10n.t('How long a detached request waits for an answer, in seconds'),
  askTimeoutNone: vscode.l10n.t('not set'),
  askTimeoutPrompt: vscode.l10n.t(
    'ask_timeout in seconds (1 to 31536000); empty removes it. Only detached requests use it.',
  ),
  verdictTitle: (key: string) => vscode.l10n.t('Verdict for {0}', key),
  remove: vscode.l10n.t('Remove this key'),
  removeDetail: vscode.l10n.t('Falls back to "default", else auto_allow'),
  verdictAllow: vscode.l10n.t('Run without asking'),
  verdictAsk: vscode.l10n.t('Ask a human (this extension shows it)'),
  verdictDeny: vscode.l10n.t("Refuse without asking (the agent's reject option)"),
  noChanges: vscode.l10n.t('No changes to apply.'),
  refusedLocally: (messages: string) =>
    vscode.l10n.t('The server would refuse this policy: {0}. Nothing was sent.', messages),
  refusedByServer: (messages: string) => vscode.l10n.t('The server refused the policy: {0}', messages),
  patchFailed: (reason: string) => vscode.l10n.t('The policy could not be saved: {0}.', reason),
  previewTitle: (agent: string) => vscode.l10n.t('Policy of {0}: current ↔ proposed', agent),
  confirm: (agent: string) => vscode.l10n.t('Apply this permission policy to {0} on the server?', agent),
  confirmDetail: (changes: string) =>
    vscode.l10n.t(
      '{0}\n\nIt applies to every conversation of this agent, including running ones, for everyone using it.',
      changes,
    ),
  apply: vscode.l10n.t('Apply to Agent'),
  applyAndAllow: (n: number) => vscode.l10n.t('Apply and Allow {0} Waiting', n),
  appliedAndAllowed: (agent: string, n: number) =>
    vscode.l10n.t('Saved the permission policy of {0} and allowed {1} it covers.', agent, Counted.waitingRequests(n)),
  applied: (agent: string) => vscode.l10n.t('Saved the permission policy of {0}.', agent),
  riskAccept: vscode.l10n.t('I Understand the Risk'),
};

/** The warning before an execute or delete kind is allowed without asking (the History view and the editor). */
export const RiskStrings = {
  riskTitle: (kind: string) => vscode.l10n.t('Allow every "{0}" request without asking?', kind),
  riskDetail: (kind: string) =>
    kind === 'delete'
      ? vscode.l10n.t(
          'The agent could delete any file it can reach without asking anyone, in every conversation, including running ones. A prompt-injected agent would not be stopped.',
        )
      : vscode.l10n.t(
          'The agent could run any command without asking anyone, in every conversation, including running ones. A prompt-injected agent would not be stopped.',
        ),
};
