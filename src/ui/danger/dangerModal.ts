/**
 * The danger mark's lazily loaded part (dist/danger.js, esbuild.mjs): the denylist check (src/policy/remoteDanger.ts
 * with the shell parser, about 12 KB that dist/extension.js has no room for) and the modal before an allow of a marked
 * request. Loaded by src/ui/danger/danger.ts when the first request arrives.
 */
import * as vscode from 'vscode';
import type { DangerMark } from '../../domain/danger';
import type { InboxItem } from '../../domain/inbox';
import type { PermissionOption } from '../../domain/model';
import { commandOf } from '../../domain/requestLabel';
import { inertBlockShort, inertLine } from '../display';

export { remoteDanger } from '../../policy/remoteDanger';

/** Code points of the command the modal shows; the details document has all of it. */
const MODAL_TEXT_MAX = 2000;

const S = {
  confirm: (reason: string, option: string) =>
    vscode.l10n.t('This request is dangerous: it {0}. Answer "{1}" anyway?', reason, option),
  detail: (command: string) => vscode.l10n.t('What it would run:\n{0}', command),
  shortened: vscode.l10n.t('(shortened: Show Details has the whole text)'),
  allowAnyway: vscode.l10n.t('Allow Anyway'),
  fromHub: (reason: string, option: string) =>
    vscode.l10n.t(
      'Another window of VS Code (or another program on this machine) asks to answer "{1}" to a dangerous request: it {0}. Allow it?',
      reason,
      option,
    ),
};

/** The modal: names the danger and the option, shows the command (inert), offers "Allow Anyway" or Cancel. */
export function confirmDangerModal(item: InboxItem, option: PermissionOption, danger: DangerMark): Promise<boolean> {
  return ask(item, S.confirm(inertLine(danger.reason, 200), inertLine(option.name, 80)));
}

/**
 * The same modal in the window holding the Fountain stream, for an allow that arrived over the window hub (from
 * another window, or from whatever else talks to the hub socket): it is sent only when confirmed here.
 */
export function confirmHubDangerModal(item: InboxItem, option: PermissionOption, danger: DangerMark): Promise<boolean> {
  return ask(item, S.fromHub(inertLine(danger.reason, 200), inertLine(option.name, 80)));
}

async function ask(item: InboxItem, message: string): Promise<boolean> {
  const shown = inertBlockShort(commandOf(item.request) ?? item.request.title ?? item.label, MODAL_TEXT_MAX);
  const detail = S.detail(shown.text) + (shown.shortened ? `\n${S.shortened}` : '');
  const allow: vscode.MessageItem = { title: S.allowAnyway };
  const pick = await vscode.window.showWarningMessage(message, { modal: true, detail }, allow);
  return pick === allow;
}
