import * as vscode from 'vscode';
import type { Config } from '../platform/config';
import type { ApiKeyStore } from '../platform/secrets';
import { Strings } from './strings';

/** Sandbox tokens are scoped `sprite:<conversation>`; they are refused by the answer route. */
function looksLikeSandboxToken(key: string): boolean {
  return /^sprite[:_]/i.test(key);
}

/** "Fountain: Sign In": asks for a key with a password box and keeps it in SecretStorage. */
export async function signIn(config: Config, keys: ApiKeyStore): Promise<boolean> {
  const server = config.serverUrl;
  if (!server) {
    const pick = await vscode.window.showWarningMessage(Strings.noServer, Strings.openSettings);
    if (pick === Strings.openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'fountain.serverUrl');
    }
    return false;
  }
  const key = await vscode.window.showInputBox({
    title: Strings.apiKeyPrompt(server),
    placeHolder: Strings.apiKeyPlaceholder,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) =>
      !v.trim() ? Strings.apiKeyEmpty : looksLikeSandboxToken(v.trim()) ? Strings.apiKeySandbox : undefined,
  });
  if (!key?.trim()) {
    return false;
  }
  await keys.store(server, key.trim());
  void vscode.window.showInformationMessage(Strings.signedIn(server));
  return true;
}

/** "Fountain: Sign Out": confirms, then deletes the stored key for the configured server. */
export async function signOut(config: Config, keys: ApiKeyStore): Promise<boolean> {
  const server = config.serverUrl;
  if (!server) {
    void vscode.window.showInformationMessage(Strings.noServer);
    return false;
  }
  const current = await keys.get(server);
  if (current?.source !== 'secretStorage') {
    const extra = current?.source === 'environment' ? ' ' + Strings.keyFromEnvironment : '';
    void vscode.window.showInformationMessage(Strings.notSignedIn(server) + extra);
    return false;
  }
  const pick = await vscode.window.showWarningMessage(Strings.confirmSignOut(server), Strings.signOut, Strings.cancel);
  if (pick !== Strings.signOut) {
    return false;
  }
  await keys.delete(server);
  void vscode.window.showInformationMessage(Strings.signedOut(server));
  return true;
}
