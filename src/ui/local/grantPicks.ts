/**
 * The local gate's grant choices (src/local/gateChoices.ts) as Answer… items, in dist/localui.js: allow this exact
 * request, every command starting with its verb, every call of its kind, the folder of a path outside the scope
 * (session grants), or always (a pattern appended to the user setting `fountain.local.allow`, or the folder's entry
 * appended to `fountain.local.allowPaths`, after a modal that names both). Each answers the request
 * with the runtime's own `allow_once` (else `allow_always`) through the answer flow, so the inbox records it like
 * any other answer and never sends twice; a session grant is taken back when nothing was delivered.
 */
import * as vscode from 'vscode';
import { Counted } from '../plainWords';
import type { GrantChoice, PendingAsk } from '../../local';
import type { ExtraAnswerChoice } from '../answer/answerChoices';
import type { WaitingRequests } from '../always/alwaysContext';
import { answerCovered, confirmAlways } from '../always/alwaysModal';
import { inertLine } from '../display';
import { parseAllowPathRule, type RuleGate } from '../../domain/dryRunMatch';
import { appendAllowPath, appendAllowPattern, localAlways, ruleGateOf } from './alwaysLocal';
import type { LocalModule } from './loader';
import type { ManagedSession } from './manager';

/** What an "always" choice checks and answers beyond its own request: the waiting requests and each one's gate. */
export interface AlwaysDeps {
  readonly waiting: WaitingRequests;
  /** The gate of the session a waiting local request belongs to (server `local:<id>`). */
  readonly gateOf: (server: string) => RuleGate | undefined;
}

/** Sends `optionId` through the answer flow; true when the agent got it. */
export type FlowAnswer = (optionId: string) => Promise<boolean>;

function labelOf(c: GrantChoice): string {
  const g = c.grant;
  switch (c.id) {
    case 'exact':
      return vscode.l10n.t('Allow this exact request for the rest of the session');
    case 'verb':
      return vscode.l10n.t(
        'Allow every command starting with "{0}" for the session',
        inertLine(g?.scope === 'verb' ? g.verb : '?', 80),
      );
    case 'tool':
      return vscode.l10n.t('Allow every "{0}" call for the session', inertLine(g?.scope === 'tool' ? g.kind : '?', 40));
    case 'always':
      return vscode.l10n.t('Always allow "{0}" (user setting fountain.local.allow)', inertLine(c.pattern ?? '?', 200));
    case 'folder':
      return folderWords(g?.scope === 'path' ? g : undefined, false);
    case 'alwaysFolder':
      return folderWords(
        c.allowPath && { dir: c.allowPath.pattern.replace(/\/\.\.\.$/, ''), access: c.allowPath.access },
        true,
      );
  }
}

/** "Allow reading in <folder> for This Session", "Always allow writing in <folder>": the folder whole and inert. */
function folderWords(f: { readonly dir: string; readonly access: string } | undefined, always: boolean): string {
  const dir = inertLine(f?.dir ?? '?', 4000);
  switch (f?.access) {
    case 'r':
      return always
        ? vscode.l10n.t('Always allow reading in {0} (user setting fountain.local.allowPaths)', dir)
        : vscode.l10n.t('Allow reading in {0} for This Session', dir);
    case 'w':
      return always
        ? vscode.l10n.t('Always allow writing in {0} (user setting fountain.local.allowPaths)', dir)
        : vscode.l10n.t('Allow writing in {0} for This Session', dir);
    default:
      return always
        ? vscode.l10n.t('Always allow reading and writing in {0} (user setting fountain.local.allowPaths)', dir)
        : vscode.l10n.t('Allow reading and writing in {0} for This Session', dir);
  }
}
function descriptionOf(c: GrantChoice): string | undefined {
  return c.id === 'verb' && c.grant?.scope === 'verb' ? inertLine(`${c.grant.verb} *`, 80) : undefined;
}

/**
 * The honest "always": the rule shown editable as it will be stored, a dry run over the history and the waiting
 * requests it covers (src/ui/always/alwaysModal.ts); nothing is written or sent before the confirmation.
 */
async function runAlways(
  always: AlwaysDeps,
  local: LocalModule,
  session: ManagedSession,
  ask: PendingAsk,
  choice: GrantChoice,
  answer: FlowAnswer,
): Promise<void> {
  const option = local.grantAnswerOption(ask.request.options);
  const folder = choice.allowPath !== undefined;
  const setting = folder ? local.LOCAL_ALLOW_PATHS_SETTING : local.LOCAL_ALLOW_SETTING;
  const decision = await confirmAlways(
    always.waiting,
    localAlways(
      {
        rule: folder ? JSON.stringify(choice.allowPath) : (choice.pattern ?? ''),
        setting,
        gate: ruleGateOf(session),
        gateOf: always.gateOf,
        requestId: ask.id,
        optionName: inertLine(option?.name ?? '?', 80),
        ...(folder ? { kind: 'allowPath' as const } : {}),
        ...(choice.untilRestart === true
          ? {
              notes: [
                vscode.l10n.t(
                  "The agent's sandbox was built at its start without this folder: until you restart the agent, the call allowed now may fail inside it.",
                ),
              ],
            }
          : {}),
      },
      session.gate.gateRequestOf(ask.request),
    ),
  );
  if (decision.kind === 'cancel') {
    return; // cancelled: nothing written, nothing sent
  }
  let chosen: GrantChoice = { ...choice, pattern: decision.rule };
  if (folder) {
    const parsed = parseAllowPathRule(decision.rule);
    if (!('entry' in parsed)) {
      return; // confirmAlways returns only rules its check accepted
    }
    chosen = { ...choice, allowPath: parsed.entry };
  }
  const r = await local.applyGrantChoiceVia(session.gate, ask, chosen, answer);
  if (!r.sent || (r.pattern === undefined && r.allowPath === undefined)) {
    return; // the flow already said why nothing was sent (answered elsewhere, expired, …)
  }
  if (r.allowPath !== undefined) {
    await appendAllowPath(r.allowPath);
  } else if (r.pattern !== undefined) {
    await appendAllowPattern(r.pattern);
  }
  const others = await answerCovered(always.waiting, decision.alsoAnswer);
  const rule = inertLine(decision.rule, 300);
  const open = vscode.l10n.t('Open Setting');
  const shown = await vscode.window.showInformationMessage(
    others > 0
      ? vscode.l10n.t(
          'Added "{0}" to {1} in your user settings and allowed {2}.',
          rule,
          setting,
          Counted.otherWaitingRequests(others),
        )
      : vscode.l10n.t('Added "{0}" to {1} in your user settings.', rule, setting),
    open,
  );
  if (shown === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', setting);
  }
}

/** The grant choices for an open ask of `session`, as Answer… items. */
export function grantPicks(
  always: AlwaysDeps,
  local: LocalModule,
  session: ManagedSession,
  ask: PendingAsk,
  answer: FlowAnswer,
): ExtraAnswerChoice[] {
  if (!ask.isOpen || local.grantAnswerOption(ask.request.options) === undefined) {
    return [];
  }
  const option = inertLine(local.grantAnswerOption(ask.request.options)?.name ?? '?', 80);
  const sandbox = session.session.confinement.sandboxed ? session.session.confinement.plan : undefined;
  return local.grantChoices(session.gate, ask.request, sandbox).map((choice) => {
    const description = descriptionOf(choice);
    return {
      label: labelOf(choice),
      ...(description !== undefined ? { description } : {}),
      detail:
        choice.id === 'always' || choice.id === 'alwaysFolder'
          ? vscode.l10n.t('Sends the agent\'s "{0}" now and writes your user setting (you confirm first)', option)
          : vscode.l10n.t('Sends the agent\'s "{0}" now; this session then allows these without asking', option),
      run: async () => {
        if (choice.id === 'always' || choice.id === 'alwaysFolder') {
          await runAlways(always, local, session, ask, choice, answer);
        } else {
          await local.applyGrantChoiceVia(session.gate, ask, choice, answer);
        }
      },
    };
  });
}
