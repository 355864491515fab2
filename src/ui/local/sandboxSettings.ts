/**
 * `fountain.local.sandbox` read for each agent start, with the same workspace folders and allowPaths the gate's
 * path scope reads (one scope, two enforcers), the extension's own storage hidden, and what to do before an agent
 * starts unsandboxed: `off` asks once per window with a modal; `auto` on a machine without a sandbox warns once per
 * window, with the install command. Main bundle, so nothing of src/local is imported here but types.
 */
import * as vscode from 'vscode';
import type { NetworkSetting, SandboxRequest, SandboxSetting, Unsandboxed } from '../../local/sandbox';
import { LOCAL_SECTION, workspaceRoots } from '../../platform/localGateSettings';
import { SandboxStrings } from './sandboxStrings';

export const SANDBOX_SETTING = 'sandbox';

let offConfirmed = false;
const warned = new Set<string>();

async function beforeUnsandboxed(c: Unsandboxed): Promise<boolean> {
  if (c.reason === 'off') {
    if (offConfirmed) {
      return true;
    }
    const start = SandboxStrings.startUnsandboxed;
    const pick = await vscode.window.showWarningMessage(
      SandboxStrings.offModal,
      { modal: true, detail: SandboxStrings.offModalDetail },
      start,
    );
    offConfirmed = pick === start;
    return offConfirmed;
  }
  if (!warned.has(c.reason)) {
    warned.add(c.reason);
    const copy = SandboxStrings.copyInstall;
    void vscode.window
      .showWarningMessage(SandboxStrings.unavailableWarning(c.reason, c.install, c.fix), ...(c.install ? [copy] : []))
      .then((pick) => (pick === copy && c.install ? vscode.env.clipboard.writeText(c.install) : undefined));
  }
  return true;
}

/** The setting's value; anything else is `auto`. */
export function readSandboxSetting(): SandboxSetting {
  const v = vscode.workspace.getConfiguration(LOCAL_SECTION).get<unknown>(SANDBOX_SETTING);
  return v === 'required' || v === 'off' ? v : 'auto';
}

/** `fountain.local.network`; anything else is `ask`. */
export function readNetworkSetting(): NetworkSetting {
  return vscode.workspace.getConfiguration(LOCAL_SECTION).get<unknown>('network') === 'open' ? 'open' : 'ask';
}

/** What one start is confined by; `hidden`: the extension's storage paths (never visible to an agent). */
export function readSandboxRequest(hidden: readonly string[]): SandboxRequest {
  const allowPaths = vscode.workspace.getConfiguration(LOCAL_SECTION).get<unknown>('allowPaths');
  return {
    setting: readSandboxSetting(),
    network: readNetworkSetting(),
    roots: workspaceRoots(),
    ...(allowPaths !== undefined ? { allowPaths } : {}),
    hidden,
    beforeUnsandboxed,
  };
}

/**
 * The extension's storage never visible to an agent: its global storage, logs and workspace storage, and the
 * editor's whole user data folder (settings, state, SecretStorage) when the usual `<data>/User/globalStorage/<id>`
 * layout shows where it is.
 */
export function extensionStoragePaths(
  context: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'logUri' | 'storageUri'>,
): string[] {
  const global = context.globalStorageUri.fsPath;
  const out = [global, context.logUri.fsPath, ...(context.storageUri ? [context.storageUri.fsPath] : [])];
  const parts = global.split(/[\\/]/);
  if (parts.length > 4 && parts.at(-2) === 'globalStorage' && parts.at(-3) === 'User') {
    out.push(parts.slice(0, -3).join('/'));
  }
  return out;
}
