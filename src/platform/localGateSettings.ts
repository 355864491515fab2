/**
 * The `fountain.local.*` settings the local gate decides with (issue 12). Each is machine scoped: a workspace's
 * settings file can neither allow more nor replace the user's deny list. Values are passed on as written, wrong
 * shapes included: the gate reports them as configuration problems and then allows nothing automatically, so a
 * typo never silently widens or narrows what runs unasked.
 */
import * as vscode from 'vscode';
import type { LocalGateSettings } from '../local';

export const LOCAL_SECTION = 'fountain.local';

/** The current settings (only the keys the user set, or that have a default, are present). */
export function readLocalGateSettings(): LocalGateSettings {
  const c = vscode.workspace.getConfiguration(LOCAL_SECTION);
  const out: { -readonly [K in keyof LocalGateSettings]: unknown } = {};
  for (const key of ['allow', 'deny', 'allowPaths', 'builtinAllow', 'builtinAllowExtras', 'requirePlan'] as const) {
    const v = c.get<unknown>(key);
    if (v !== undefined && v !== null) {
      out[key] = v;
    }
  }
  return out as LocalGateSettings;
}

/** `fountain.local.allowHosts` as written (the network decider reports and leaves out what does not parse). */
export function readAllowHosts(): unknown {
  return vscode.workspace.getConfiguration(LOCAL_SECTION).get<unknown>('allowHosts');
}

/** The workspace folders, absolute: the gate's read + write roots. */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
}
