/**
 * The local gate's grant choices (src/local/gateChoices.ts) as Answer… items, in dist/localui.js: allow this exact
 * request, every command starting with its verb, every call of its kind (session grants), or always (a pattern
 * appended to the user setting `fountain.local.allow`, after a modal that names both). Each answers the request
 * with the runtime's own `allow_once` (else `allow_always`) through the answer flow, so the inbox records it like
 * any other answer and never sends twice; a session grant is taken back when nothing was delivered.
 */
import * as vscode from 'vscode';
import type { GrantChoice, PendingAsk } from '../local';
import type { ExtraAnswerChoice } from '../ui/answerChoices';
import { inertLine } from '../ui/display';
import type { LocalModule } from './loader';
import type { ManagedSession } from './manager';

/** Sends `optionId` through the answer flow; true when the agent got it. */
export type FlowAnswer = (optionId: string) => Promise<boolean>;

const ALLOW_KEY = 'allow';

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
  }
}

function descriptionOf(c: GrantChoice): string | undefined {
  return c.id === 'verb' && c.grant?.scope === 'verb' ? inertLine(`${c.grant.verb} *`, 80) : undefined;
}

/** Appends `pattern` to the user (global) value of fountain.local.allow, unless it is there already. */
async function appendAllowPattern(pattern: string): Promise<void> {
  const c = vscode.workspace.getConfiguration('fountain.local');
  const current = c.inspect<unknown>(ALLOW_KEY)?.globalValue;
  const list = Array.isArray(current) ? current.filter((p): p is string => typeof p === 'string') : [];
  if (!list.includes(pattern)) {
    await c.update(ALLOW_KEY, [...list, pattern], vscode.ConfigurationTarget.Global);
  }
}

async function runAlways(
  local: LocalModule,
  session: ManagedSession,
  ask: PendingAsk,
  choice: GrantChoice,
  answer: FlowAnswer,
): Promise<void> {
  const pattern = inertLine(choice.pattern ?? '?', 300);
  const option = local.grantAnswerOption(ask.request.options);
  const confirm = vscode.l10n.t('Add and Allow');
  const pick = await vscode.window.showWarningMessage(
    vscode.l10n.t('Always allow "{0}"?', pattern),
    {
      modal: true,
      detail: vscode.l10n.t(
        'This appends "{0}" to the user setting {1}: every local agent session then runs matching requests without asking, until you remove it. This request is answered with the agent\'s option "{2}".',
        pattern,
        local.LOCAL_ALLOW_SETTING,
        inertLine(option?.name ?? '?', 80),
      ),
    },
    confirm,
  );
  if (pick !== confirm) {
    return; // cancelled: nothing written, nothing sent
  }
  const r = await local.applyGrantChoiceVia(session.gate, ask, choice, answer);
  if (!r.sent || r.pattern === undefined) {
    return; // the flow already said why nothing was sent (answered elsewhere, expired, …)
  }
  await appendAllowPattern(r.pattern);
  const open = vscode.l10n.t('Open Setting');
  const shown = await vscode.window.showInformationMessage(
    vscode.l10n.t('Added "{0}" to {1} in your user settings.', pattern, local.LOCAL_ALLOW_SETTING),
    open,
  );
  if (shown === open) {
    await vscode.commands.executeCommand('workbench.action.openSettings', local.LOCAL_ALLOW_SETTING);
  }
}

/** The grant choices for an open ask of `session`, as Answer… items. */
export function grantPicks(
  local: LocalModule,
  session: ManagedSession,
  ask: PendingAsk,
  answer: FlowAnswer,
): ExtraAnswerChoice[] {
  if (!ask.isOpen || local.grantAnswerOption(ask.request.options) === undefined) {
    return [];
  }
  const option = inertLine(local.grantAnswerOption(ask.request.options)?.name ?? '?', 80);
  return local.grantChoices(session.gate, ask.request).map((choice) => {
    const description = descriptionOf(choice);
    return {
      label: labelOf(choice),
      ...(description !== undefined ? { description } : {}),
      detail:
        choice.id === 'always'
          ? vscode.l10n.t('Sends the agent\'s "{0}" now and writes your user setting (you confirm first)', option)
          : vscode.l10n.t('Sends the agent\'s "{0}" now; this session then allows these without asking', option),
      run: async () => {
        if (choice.id === 'always') {
          await runAlways(local, session, ask, choice, answer);
        } else {
          await local.applyGrantChoiceVia(session.gate, ask, choice, answer);
        }
      },
    };
  });
}
