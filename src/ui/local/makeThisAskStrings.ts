import * as vscode from 'vscode';

/** Make This Ask (src/ui/local/makeThisAsk.ts); values passed in are already inert. */
export const MakeAskStrings = {
  title: (subject: string) => vscode.l10n.t('Make "{0}" ask from now on?', subject),
  button: vscode.l10n.t('Make This Ask'),
  pickRule: vscode.l10n.t('Several rules decided this call: pick the one to remove or narrow'),
  ruleLine: (rule: string) => vscode.l10n.t('Decided by {0}.', rule),
  settingDetail: (setting: string, before: string, after: string) =>
    vscode.l10n.t('Your user setting {0} changes from {1} to {2}.', setting, before, after),
  bundleOffDetail: vscode.l10n.t(
    'Your user setting fountain.local.builtinAllow becomes false: every built-in bundle is off, so ls, cat, grep and the other read-only commands are asked, in every local session.',
  ),
  policyDetail: (agent: string, key: string, before: string, after: string) =>
    vscode.l10n.t(
      'The policy of "{0}" in your setting fountain.localAgents gets "{1}": "ask" (now {2}); the entry becomes {3}. It applies to the agent\'s next start.',
      agent,
      key,
      before,
      after,
    ),
  modeDetail: (agent: string, mode: string) =>
    vscode.l10n.t('The session of {0} goes from mode "{1}" back to "ask".', agent, mode),
  grantDetail: (grant: string, agent: string) => vscode.l10n.t('Revokes {0} in the session of {1}.', grant, agent),
  requirePlanDetail: vscode.l10n.t(
    'Your user setting fountain.local.requirePlan becomes false: calls with effects before a plan are then asked instead of refused.',
  ),
  afterAsks: vscode.l10n.t('Afterwards the gate asks you about this call.'),
  afterStill: (verdict: string, reason: string) =>
    verdict === 'allow'
      ? vscode.l10n.t('Afterwards the gate would still allow this call: {0}', reason)
      : vscode.l10n.t('Afterwards the gate would still refuse this call: {0}', reason),
  afterUnknown: vscode.l10n.t(
    "The call's text was not kept, so what the gate does with it afterwards cannot be checked.",
  ),
  dryRunNone: (checked: number) =>
    checked === 1
      ? vscode.l10n.t('Dry run: the one decision made without you would not have been asked instead.')
      : vscode.l10n.t(
          'Dry run: none of the last {0} decisions made without you would have been asked instead.',
          checked,
        ),
  dryRun: (checked: number, hits: number, sessions: number, refusals: number) =>
    checked === 1
      ? vscode.l10n.t('Dry run: the one decision made without you would have been asked instead.')
      : hits === 1
        ? vscode.l10n.t(
            'Dry run: of the last {0} decisions made without you, 1 would have been asked instead (sessions: {1}, refusals: {2}).',
            checked,
            sessions,
            refusals,
          )
        : vscode.l10n.t(
            'Dry run: of the last {0} decisions made without you, {1} would have been asked instead (sessions: {2}, refusals: {3}).',
            checked,
            hits,
            sessions,
            refusals,
          ),
  dryRunHit: (at: string, what: string) => vscode.l10n.t('  • {0} — {1}', at, what),
  more: (n: number) => vscode.l10n.t('  …and {0} more', n),
  unchecked: (n: number) =>
    n === 1
      ? vscode.l10n.t('1 decision could not be checked: its text was not kept.')
      : vscode.l10n.t('{0} decisions could not be checked: their text was not kept.', n),
  notInUserSetting: (entry: string, setting: string) =>
    vscode.l10n.t(
      '"{0}" is not in your user setting {1} (it may be set in another scope, such as remote settings); change it there.',
      entry,
      setting,
    ),
  policyNotInEntry: (agent: string, key: string) =>
    vscode.l10n.t(
      '"{0}" has no entry of its own in fountain.localAgents, so its policy key "{1}" cannot be changed here; add an entry with the policy you want.',
      agent,
      key,
    ),
  grantEnded: vscode.l10n.t('That session grant is gone (revoked, or its session ended): nothing to change.'),
  modeEnded: vscode.l10n.t(
    "That session has ended, and a new session starts in ask (or its entry's defaultMode): nothing to change.",
  ),
  modeChangedSince: (mode: string) =>
    vscode.l10n.t('The session is in mode "{0}" now, not the mode that decided this call: nothing to change.', mode),
  scopeExplained: vscode.l10n.t(
    'The gate allows reads inside the workspace folders (and fountain.local.allowPaths) by itself; no setting makes them ask.',
  ),
  done: (rule: string) => vscode.l10n.t('Done: {0} no longer decides such calls without you.', rule),
};
