import * as vscode from 'vscode';
import { Counted } from '../plainWords';
import type { GateMode } from '../../local';

/** The local gate commands' user-facing strings (lazily loaded bundle), as whole sentences for vscode.l10n. */
export const GateStrings = {
  pickMode: (agent: string, mode: string) => vscode.l10n.t('Mode of the local gate for {0} (now: {1})', agent, mode),
  current: vscode.l10n.t('current'),
  yoloConfirm: (agent: string) =>
    vscode.l10n.t(
      'Turn on yolo for {0}? Every call that the built-in denylist, your deny patterns, plan-first and the policy do not refuse then runs without asking you, including commands and writes outside the workspace.',
      agent,
    ),
  yoloButton: vscode.l10n.t('Turn On Yolo'),
  modeRefused: (reason: string) => vscode.l10n.t('The mode did not change: {0}', reason),
  modeChanged: (agent: string, mode: string) => vscode.l10n.t('{0} is now in mode {1}.', agent, mode),
  yoloStatus: (agent: string) => vscode.l10n.t('$(warning) Yolo: {0}', agent),
  yoloStatusMany: (n: number) => vscode.l10n.t('$(warning) Yolo: {0} agents', n),
  yoloTooltip: (agents: string) =>
    vscode.l10n.t(
      'Yolo mode is on for {0}: calls the denylist, deny patterns and the policy do not refuse run without asking. Click to change the mode.',
      agents,
    ),
  probePrompt: (agent: string) => vscode.l10n.t('What would happen in {0}?', agent),
  probePlaceholder: vscode.l10n.t('A command (git status) or a path (/etc/hosts, ./src/main.ts)'),
  pickAccess: (path: string) => vscode.l10n.t('Which access to {0}?', path),
  read: vscode.l10n.t('Read'),
  write: vscode.l10n.t('Write'),
  probeTitle: (agent: string, mode: string) => vscode.l10n.t('What would happen in {0} (mode {1}), now:', agent, mode),
  verdict: (verdict: string) =>
    verdict === 'allow'
      ? vscode.l10n.t('allowed without asking')
      : verdict === 'deny'
        ? vscode.l10n.t('refused without asking')
        : vscode.l10n.t('asked (it comes to the inbox)'),
  probeLine: (probe: string, verdict: string) => vscode.l10n.t('{0}: {1}', probe, verdict),
  rule: (rule: string) => vscode.l10n.t('Rule: {0}', rule),
  reason: (reason: string) => vscode.l10n.t('Reason: {0}', reason),
  pattern: (pattern: string) => vscode.l10n.t('Pattern: {0}', pattern),
  nothingTyped: vscode.l10n.t('Type a command or a path.'),
  noEvidence: (agent: string) =>
    vscode.l10n.t(
      'No recommendations for {0} yet: they come from requests you answered in this session (at least two allows of the same kind of call, none rejected).',
      agent,
    ),
  pickRecommendation: vscode.l10n.t('Pick a pattern to add to fountain.local.allow (most specific first)'),
  evidence: (samples: string) => vscode.l10n.t('You allowed: {0}', samples),
  riskyNote: vscode.l10n.t(
    'This pattern covers every command starting with this verb, including ones that change or delete things.',
  ),
  previewTitle: (pattern: string) => vscode.l10n.t('Add "{0}" to fountain.local.allow in your user settings?', pattern),
  previewDetail: (current: string, next: string) =>
    vscode.l10n.t('User setting fountain.local.allow\nNow: {0}\nAfter: {1}', current, next),
  addButton: vscode.l10n.t('Add to User Settings'),
  addAndAllow: (n: number) => vscode.l10n.t('Add and Allow {0} Waiting', n),
  edited: (pattern: string) => vscode.l10n.t('You edited the recommended pattern "{0}".', pattern),
  note: (warning: string) => vscode.l10n.t('Note: {0}', warning),
  addedAndAllowed: (pattern: string, n: number) =>
    vscode.l10n.t(
      'Added "{0}" to fountain.local.allow in your user settings and allowed {1} it covers.',
      pattern,
      Counted.waitingRequests(n),
    ),
  added: (pattern: string) =>
    vscode.l10n.t(
      'Added "{0}" to fountain.local.allow in your user settings: every local session allows it from now on.',
      pattern,
    ),
  forged: vscode.l10n.t('This grant row was not created by Fountain Approvals: nothing was revoked.'),
  grantGone: vscode.l10n.t('This grant is no longer there.'),
  revoked: (grant: string) => vscode.l10n.t('Revoked: {0}', grant),
};

/** Each mode's name and one line on what it does, for the QuickPick. */
export function modeChoice(mode: GateMode): { label: string; detail: string } {
  switch (mode) {
    case 'acceptEdits':
      return {
        label: vscode.l10n.t('acceptEdits'),
        detail: vscode.l10n.t(
          'File edits, deletes and moves run without asking (also outside the workspace); commands and everything else ask.',
        ),
      };
    case 'plan':
      return {
        label: vscode.l10n.t('plan'),
        detail: vscode.l10n.t('Only reading, searching and thinking; every other call is refused without asking.'),
      };
    case 'allow':
      return {
        label: vscode.l10n.t('allow'),
        detail: vscode.l10n.t(
          'Only what an allow pattern, a bundle, a grant or an in-scope read allows runs; the rest is refused without asking.',
        ),
      };
    case 'yolo':
      return {
        label: vscode.l10n.t('yolo'),
        detail: vscode.l10n.t(
          'Everything runs without asking except what the denylist, deny patterns, plan-first or the policy refuse. Asks for confirmation; needs a trusted workspace.',
        ),
      };
    default:
      return {
        label: vscode.l10n.t('ask'),
        detail: vscode.l10n.t('You are asked about every call that no rule allows or refuses.'),
      };
  }
}
