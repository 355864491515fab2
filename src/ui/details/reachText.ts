/**
 * The reach of a request's persistent options as the user reads it, before the click: in the toast (when short),
 * in Answer…'s option list and in the details document. The facts come from src/domain/optionReach.ts; the
 * sentences are here, localised. Agent text in them (descriptions, scope, mode ids) arrives inert from the domain.
 * Built into dist/details.js (re-exported by detailsDocument.ts) and reached through src/ui/answer/reach.ts, so
 * dist/extension.js does not carry the sentences.
 */
import * as vscode from 'vscode';
import type { InboxItem } from '../../domain/inbox';
import {
  optionReaches,
  toastReachNote,
  type OptionReach,
  type ReachFormat,
  type ReachWhere,
} from '../../domain/optionReach';
import { isLocalSource } from '../../session/localKey';
import { inertLine } from '../display';

/** Where the request's agent runs, as the inbox knows it. */
function whereOf(item: InboxItem): ReachWhere {
  return isLocalSource(item.key.server) ? 'local' : 'fountain';
}

/** Every persistent option of `item` with its reach, in the runtime's order. */
export function reachesOf(item: InboxItem): OptionReach[] {
  return optionReaches(item.request, { runtime: item.conversation.runtime, where: whereOf(item) });
}

function scopePhrase(scope: string, where: ReachWhere): string {
  switch (scope.trim().toLowerCase()) {
    case 'persistent':
      return where === 'fountain'
        ? vscode.l10n.t('saved in the sandbox')
        : vscode.l10n.t('saved by the agent, past this session');
    case 'session':
      return vscode.l10n.t('for this session');
    default:
      return vscode.l10n.t('scope "{0}"', scope);
  }
}

/** One sentence: what choosing the option keeps, where, and for how long. */
export function reachSentence(r: OptionReach): string {
  const fountain = r.where === 'fountain';
  const reach = r.reach;
  switch (reach.source) {
    case 'meta': {
      const parts = [...reach.descriptions];
      if (reach.scope !== undefined) {
        parts.push(scopePhrase(reach.scope, r.where));
      }
      return vscode.l10n.t('the agent says: {0}', parts.join('; '));
    }
    case 'unknown':
      return vscode.l10n.t('reach unknown: the agent does not say what it keeps, or for how long');
    case 'runtime':
      break;
  }
  switch (reach.fact) {
    case 'claudeSandboxRule':
      return vscode.l10n.t(
        "a rule in the sandbox's .claude/settings.local.json, gone with it; not for writes outside the cwd",
      );
    case 'claudeLocalRule':
      return vscode.l10n.t(
        "a Claude Code rule (session, or the folder's .claude/settings.local.json); not for writes outside it",
      );
    case 'claudeModeSwitch':
      return vscode.l10n.t('switches the session to the "{0}" mode until the mode changes', reach.mode ?? '?');
    case 'codexSessionGrant':
      return fountain
        ? vscode.l10n.t('a codex grant for this sandbox wake only (usually this turn); not saved')
        : vscode.l10n.t('a codex grant until this agent process ends; not saved');
    case 'codexPrefixRule':
      return fountain
        ? vscode.l10n.t("a prefix rule in codex's rules file in the sandbox, gone with it")
        : vscode.l10n.t("a prefix rule saved in codex's rules file ($CODEX_HOME/rules); it holds");
    case 'geminiSession':
      return vscode.l10n.t('kept by Gemini CLI until its process ends; not saved');
    case 'geminiSaved':
      return fountain
        ? vscode.l10n.t('saved in ~/.gemini/policies/auto-saved.toml in the sandbox, gone with it')
        : vscode.l10n.t('saved in ~/.gemini/policies/auto-saved.toml, for every session');
    case 'qwenProject':
      return fountain
        ? vscode.l10n.t('a rule in .qwen/settings.json of the working folder in the sandbox, gone with it')
        : vscode.l10n.t('a rule saved in .qwen/settings.json of the working folder');
  }
}

const format: ReachFormat = {
  sentence: reachSentence,
  note: (name, sentence) => vscode.l10n.t('"{0}": {1}', name, sentence),
  seeDetails: (name) => vscode.l10n.t('"{0}" keeps something: see Details', name),
  name: (o) => inertLine(o.name, 60),
};

/** The toast's reach note (short, else a pointer to Details); undefined when nothing offered persists. */
export function toastReach(item: InboxItem): string | undefined {
  return toastReachNote(reachesOf(item), format, undefined, item.conversation.runtime !== undefined);
}

/** The reach line of one option for Answer…'s list; undefined for an option that keeps nothing. */
export function optionReachLine(item: InboxItem, optionId: string): string | undefined {
  const r = reachesOf(item).find((x) => x.option.optionId === optionId);
  return r ? vscode.l10n.t('Reach: {0}', reachSentence(r)) : undefined;
}
