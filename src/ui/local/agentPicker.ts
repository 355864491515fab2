/**
 * Start Local Agent…: the QuickPick of built-in presets and `fountain.localAgents` entries (a missing command shows
 * its install command), then the workspace folder the agent works in. The setting is read from user and machine
 * settings only (inspect(): globalValue, else defaultValue), never from a workspace.
 */
import * as vscode from 'vscode';
import type { AgentAsking, LocalAgentSpec } from '../../local';
import type { LocalFolder, LocalSessionManager } from './manager';
import { LocalStrings } from './strings';

export const LOCAL_AGENTS_SETTING = 'localAgents';

/** The setting's value from user/machine settings; a workspace or folder value is ignored. */
export function localAgentsSetting(): unknown {
  const inspected = vscode.workspace.getConfiguration('fountain').inspect<unknown>(LOCAL_AGENTS_SETTING);
  return inspected?.globalValue ?? inspected?.defaultValue;
}

export interface AgentChoice {
  readonly id: string;
  readonly spec: LocalAgentSpec;
  /** Undefined when the command is on PATH; else what to tell the user. */
  readonly missing?: string;
  /** Undefined when the agent asks before every command, edit and fetch; else what it does unasked. */
  readonly asking?: string;
}

/** The picker's words for an agent that does not ask about everything (undefined when it does). */
export function askingText(asks: AgentAsking | undefined): string | undefined {
  switch (asks?.level) {
    case 'all':
      return undefined;
    case 'never':
      return vscode.l10n.t('This agent does not ask; the gate sees nothing.');
    case 'partial':
      return vscode.l10n.t('Not everything is asked (the gate never sees it): {0}.', asks.unasked);
    default:
      return vscode.l10n.t('Not checked: this agent may act without asking, and the gate would not see it.');
  }
}

/** Presets first (id `preset:<id>`), then configured agents (`config:<name>`). Problems go to `warn`. */
export async function agentChoices(manager: LocalSessionManager, warn: (line: string) => void): Promise<AgentChoice[]> {
  const local = manager.module();
  const parsed = local.parseLocalAgents(localAgentsSetting());
  for (const p of parsed.problems) {
    warn(p);
  }
  if (parsed.problems.length) {
    void vscode.window.showWarningMessage(LocalStrings.settingProblems(parsed.problems.length));
  }
  const specs: { id: string; spec: LocalAgentSpec }[] = [
    ...local.PRESETS.map((p) => ({ id: `preset:${p.id}`, spec: local.specFromPreset(p) })),
    ...parsed.agents.map((a) => ({ id: `config:${a.name}`, spec: local.specFromConfig(a) })),
  ];
  const path = manager.sourceEnv.PATH;
  return Promise.all(
    specs.map(async ({ id, spec }) => {
      const found = await local.resolveCommand(spec.command, path);
      const asking = askingText(spec.asks);
      const extra = asking ? { asking } : {};
      if (found) {
        return { id, spec, ...extra };
      }
      const missing = spec.install ? LocalStrings.notInstalled(spec.install) : LocalStrings.notFound;
      return { id, spec, missing, ...extra };
    }),
  );
}

interface AgentItem extends vscode.QuickPickItem {
  readonly choice?: AgentChoice;
}

export async function pickAgent(choices: readonly AgentChoice[]): Promise<AgentChoice | undefined> {
  const item = (c: AgentChoice): AgentItem => ({
    // Names come from presets or the user's own settings; shown as plain labels (no $(icon) expansion).
    label: c.spec.name,
    description: [c.spec.command, ...c.spec.args].join(' '),
    ...(c.missing || c.asking ? { detail: [c.missing, c.asking].filter(Boolean).join(' ') } : {}),
    choice: c,
  });
  const presets = choices.filter((c) => c.id.startsWith('preset:'));
  const configured = choices.filter((c) => c.id.startsWith('config:'));
  const items: AgentItem[] = [
    { label: LocalStrings.presetsGroup, kind: vscode.QuickPickItemKind.Separator },
    ...presets.map(item),
    ...(configured.length
      ? [{ label: LocalStrings.configuredGroup, kind: vscode.QuickPickItemKind.Separator }, ...configured.map(item)]
      : []),
  ];
  const picked = await vscode.window.showQuickPick(items, { placeHolder: LocalStrings.pickAgent, matchOnDetail: true });
  return picked?.choice;
}

/** The only folder, or the one the user picks; undefined when none is open (the caller says so) or cancelled. */
export async function pickFolder(): Promise<LocalFolder | undefined> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
  if (folders.length <= 1) {
    return folders[0] && { name: folders[0].name, fsPath: folders[0].uri.fsPath };
  }
  const picked = await vscode.window.showWorkspaceFolderPick({ placeHolder: LocalStrings.pickFolder });
  return picked && picked.uri.scheme === 'file' ? { name: picked.name, fsPath: picked.uri.fsPath } : undefined;
}

/** A folder given by path (command argument): must be one of the workspace's folders. */
export function folderByPath(fsPath: string): LocalFolder | undefined {
  const f = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(fsPath));
  return f && f.uri.fsPath === vscode.Uri.file(fsPath).fsPath ? { name: f.name, fsPath: f.uri.fsPath } : undefined;
}
