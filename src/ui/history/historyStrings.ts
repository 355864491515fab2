import * as vscode from 'vscode';
import { Counted } from '../plainWords';

/** The History view: answers and recommendations (issue 6); loaded with dist/history.js. */
export const HistoryViewStrings = {
  outcome: (o: 'answered' | 'resolvedElsewhere' | 'failed') =>
    ({
      answered: vscode.l10n.t('answered'),
      resolvedElsewhere: vscode.l10n.t('resolved elsewhere'),
      failed: vscode.l10n.t('failed'),
    })[o],
  labelHidden: vscode.l10n.t('(label not kept)'),
  entryTooltip: (lines: string) => lines,
  agent: (a: string) => vscode.l10n.t('Agent: {0}', a),
  runtime: (r: string) => vscode.l10n.t('Runtime: {0}', r),
  conversation: (name: string, s: string) => vscode.l10n.t('Conversation: {0} on {1}', name, s),
  unnamedAgent: vscode.l10n.t('an agent without a name'),
  option: (id: string, kind: string) => vscode.l10n.t('Option: {0} ({1})', id, kind),
  kind: (k: string) => vscode.l10n.t('Kind: {0}', k),
  at: (t: string) => vscode.l10n.t('At: {0}', t),
  outcomeLine: (o: string) => vscode.l10n.t('Outcome: {0}', o),
  reasonLine: (r: string) => vscode.l10n.t('Your reason: {0}', r),
  withReason: vscode.l10n.t('with a reason'),
  recommendationsGroup: (n: number) => vscode.l10n.t('Recommendations ({0})', n),
  historyGroup: (n: number) => vscode.l10n.t('Answers ({0}), newest first', n),
  allow: (kind: string, agent: string) => vscode.l10n.t('Make "{0}" auto_allow for {1}?', kind, agent),
  deny: (kind: string, agent: string) => vscode.l10n.t('Make "{0}" auto_deny for {1}?', kind, agent),
  evidenceAllow: (count: number, convs: number) =>
    vscode.l10n.t(
      'you allowed it {0} in {1} and never rejected it',
      Counted.times(count),
      Counted.conversations(convs),
    ),
  evidenceDeny: (count: number, convs: number) =>
    vscode.l10n.t(
      'you rejected it {0} in {1} and never allowed it',
      Counted.times(count),
      Counted.conversations(convs),
    ),
  riskyLabel: vscode.l10n.t('risky: expand to read the warning'),
  riskyProceed: vscode.l10n.t('I understand: review the change…'),
};
