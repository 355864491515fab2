/**
 * The words of "Decided without you" (the History group, the session row, Make This Ask): what decided a call and
 * where that rule is set. Agent and setting text passed in is made inert here.
 */
import * as vscode from 'vscode';
import type { DecidedEntry, DecidingRule } from '../../domain/decidedLog';
import type { Grant } from '../../policy';
import { inertLine } from '../display';

function grantText(g: Grant): string {
  switch (g.scope) {
    case 'verb':
      return vscode.l10n.t('every "{0}" command ({0} *)', inertLine(g.verb, 200));
    case 'tool':
      return vscode.l10n.t('every "{0}" call', inertLine(g.kind, 80));
    case 'path':
      return vscode.l10n.t('the folder {0} ({1})', inertLine(g.dir, 200), g.access);
    default:
      return vscode.l10n.t('exactly "{0}"', inertLine(g.key, 200));
  }
}

export const DecidedStrings = {
  group: (n: number) =>
    n === 1
      ? vscode.l10n.t('Decided without you (1), newest first')
      : vscode.l10n.t('Decided without you ({0}), newest first', n),
  /** The session row's label ("12 decided without you"), one form per count. */
  count: (n: number) =>
    n === 1 ? vscode.l10n.t('1 decided without you') : vscode.l10n.t('{0} decided without you', n),
  countTooltip: vscode.l10n.t(
    'Calls the local gate allowed or refused by itself in this session, each with the rule that decided it. Click to open them in the History view.',
  ),
  allowed: vscode.l10n.t('allowed'),
  refused: vscode.l10n.t('refused'),
  labelHidden: vscode.l10n.t('(label not kept)'),
  /** A rule and where it is set, in a few words. */
  rule: (r: DecidingRule): string => {
    switch (r.type) {
      case 'denylist':
        return vscode.l10n.t('the built-in denylist');
      case 'setting':
        return r.setting === 'allow'
          ? vscode.l10n.t('"{0}" in your setting fountain.local.allow', inertLine(r.entry, 200))
          : vscode.l10n.t('"{0}" in your setting fountain.local.deny', inertLine(r.entry, 200));
      case 'bundle':
        return r.bundle === 'read_only'
          ? vscode.l10n.t('the built-in read_only bundle (setting fountain.local.builtinAllow)')
          : vscode.l10n.t(
              'the built-in {0} bundle (setting fountain.local.builtinAllowExtras)',
              inertLine(r.bundle, 80),
            );
      case 'grant':
        return vscode.l10n.t('the session grant for {0}', grantText(r.grant));
      case 'policy':
        return vscode.l10n.t('the key "{0}": {1} in the agent\'s policy', inertLine(r.key, 200), r.verdict);
      case 'mode':
        return vscode.l10n.t('the session\'s mode "{0}"', r.mode);
      case 'requirePlan':
        return vscode.l10n.t('plan first (setting fountain.local.requirePlan)');
      case 'scope':
        return vscode.l10n.t('reads inside the workspace folders and fountain.local.allowPaths');
      case 'network':
        return vscode.l10n.t('the network rule "{0}"', inertLine(r.rule, 200));
    }
  },
  rules: (rules: readonly DecidingRule[]): string =>
    rules.length === 0
      ? vscode.l10n.t('the gate (no single rule)')
      : rules.map((r) => DecidedStrings.rule(r)).join('; '),
  tooltipVerdict: (verdict: string, rules: string) => vscode.l10n.t('{0} without asking, by {1}', verdict, rules),
  tooltipReason: (r: string) => vscode.l10n.t("The gate's reason: {0}", r),
  tooltipSession: (agent: string, folder: string, mode: string) =>
    vscode.l10n.t('Session: {0} in {1}, mode {2}', agent, folder, mode),
  tooltipSent: (sent: string) => vscode.l10n.t('Sent to the agent: {0}', sent),
  tooltipAt: (t: string) => vscode.l10n.t('At: {0}', t),
  noAsk: vscode.l10n.t('The built-in denylist refuses this in every mode; nothing makes it ask.'),
  networkNoAsk: vscode.l10n.t(
    "A connection is decided by its address, the agent's model hosts, the mode, fountain.local.allowHosts and the session's host grants: remove the entry from fountain.local.allowHosts to make it ask.",
  ),
};

/** What an entry is about: its command, else its paths, URL or title (raw: render it inert). */
export function decidedSubject(e: DecidedEntry): string | undefined {
  return e.command ?? (e.paths && e.paths.length > 0 ? e.paths.join(' ') : undefined) ?? e.url ?? e.title;
}

/** Whether Make This Ask is offered for an entry: not for the denylist or the gate's own read rule alone. */
export function canMakeAsk(e: DecidedEntry): boolean {
  return e.by.some((r) => r.type !== 'denylist' && r.type !== 'scope' && r.type !== 'network');
}
