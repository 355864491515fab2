/**
 * Every user-facing string of a network ask (src/local/network/decider.ts asks, src/ui/local/networkPicks.ts offers
 * Always…). Host text from the agent arrives here already inert (the callers pass inertLine output).
 */
import * as vscode from 'vscode';
import type { NetworkWords } from '../../local';

export const NETWORK_WORDS: NetworkWords = {
  title: (hostPort) => vscode.l10n.t('Connect to {0}', hostPort),
  allowOnce: () => vscode.l10n.t('Allow Once'),
  allowSession: (pattern) => vscode.l10n.t('Allow {0} for This Session', pattern),
  sessionReach: (pattern) =>
    vscode.l10n.t(
      'This session then connects to {0} without asking, until it stops (nothing is written to your settings)',
      pattern,
    ),
  reject: () => vscode.l10n.t('Reject'),
  notAllowed: () => vscode.l10n.t('not in fountain.local.allowHosts'),
};

export const NetworkStrings = {
  always: (pattern: string) => vscode.l10n.t('Always allow "{0}" (user setting fountain.local.allowHosts)…', pattern),
  alwaysDetail: (option: string) =>
    vscode.l10n.t('Sends "{0}" now and adds the host to your user setting (you confirm first)', option),
  notThisRequest: vscode.l10n.t('This rule does not cover the connection you are answering.'),
  added: (pattern: string) => vscode.l10n.t('Added "{0}" to fountain.local.allowHosts in your user settings.', pattern),
  addedAnd: (pattern: string, others: string) =>
    vscode.l10n.t('Added "{0}" to fountain.local.allowHosts in your user settings and allowed {1}.', pattern, others),
  openSetting: vscode.l10n.t('Open Setting'),
};
