/**
 * Sign In and Sign Out (the commands and the Accounts menu's "Sign in with Fountain"): dist/auth.js, loaded on their
 * first use through src/ui/auth/authCommands.ts.
 */
import * as vscode from 'vscode';
import type { Config } from '../../platform/config';
import type { Logger } from '../../platform/log';
import { accountName, type ApiKeyStore, type StoredAccount } from '../../platform/secrets';
import { defaultEnv } from '../../protocol/env';
import { checkKey } from '../../protocol/whoami';
import { inertNotice, withoutClosingPunctuation } from '../../domain/inertNotice';
import { inertLine } from '../display';
import { SignInStrings } from './signInStrings';
import { Strings } from '../strings';

/** Sandbox tokens are scoped `sprite:<conversation>`; they are refused by the answer route. */
function looksLikeSandboxToken(key: string): boolean {
  return /^sprite[:_]/i.test(key);
}

/**
 * "Fountain: Sign In" (and the Accounts menu's "Sign in with Fountain"): asks for a key with a password box, asks the
 * server whose key it is (`GET /api/auth/me`), and only then keeps it in SecretStorage. A refused key is reported with
 * the server's own reason, shown as inert text, and nothing is stored.
 */
export async function signIn(
  config: Config,
  keys: ApiKeyStore,
  log: Logger,
): Promise<{ server: string; account: StoredAccount } | undefined> {
  const server = config.serverUrl;
  if (!server) {
    const pick = await vscode.window.showWarningMessage(Strings.noServer, Strings.openSettings);
    if (pick === Strings.openSettings) {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'fountain.serverUrl');
    }
    return undefined;
  }
  const key = (
    await vscode.window.showInputBox({
      title: SignInStrings.apiKeyPrompt(server),
      placeHolder: SignInStrings.apiKeyPlaceholder,
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) =>
        !v.trim()
          ? SignInStrings.apiKeyEmpty
          : looksLikeSandboxToken(v.trim())
            ? SignInStrings.apiKeySandbox
            : undefined,
    })
  )?.trim();
  if (!key) {
    return undefined;
  }
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: SignInStrings.checkingKey(server) },
    () => checkKey(server, key, defaultEnv(log), { allowInsecureHttp: config.allowInsecureHttp }),
  );
  switch (result.kind) {
    case 'ok':
      await keys.store(server, key, result.account);
      log.info(`signed in to ${result.server} as user ${result.account.id}`);
      void vscode.window.showInformationMessage(
        SignInStrings.signedInAs(server, inertLine(accountName(result.account))),
      );
      return { server, account: result.account };
    case 'refused': {
      log.warn(`sign-in: the server refused the key (${result.status} ${result.reason ?? ''}); nothing was stored`);
      // A server sentence ("This API key was revoked.") goes inside ours without its own full stop; its code and
      // the status went to the log above.
      const reason = result.error
        ? inertNotice(result.error).text
        : SignInStrings.refusalReason(result.reason, result.status);
      void vscode.window.showErrorMessage(SignInStrings.keyRefused(server, reason));
      return undefined;
    }
    case 'sandboxToken':
      void vscode.window.showErrorMessage(SignInStrings.apiKeySandbox);
      return undefined;
    case 'badUrl':
      void vscode.window.showErrorMessage(
        SignInStrings.keyNotChecked(server, withoutClosingPunctuation(result.message)),
      );
      return undefined;
    case 'unreachable':
      log.warn(`sign-in: could not check the key: ${result.message}`);
      void vscode.window.showErrorMessage(SignInStrings.keyNotChecked(server, inertNotice(result.message).text));
      return undefined;
  }
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
    void vscode.window.showInformationMessage(
      current?.source === 'environment'
        ? SignInStrings.notSignedInKeyFromEnvironment(server)
        : SignInStrings.notSignedIn(server),
    );
    return false;
  }
  const pick = await vscode.window.showWarningMessage(
    SignInStrings.confirmSignOut(server),
    Strings.signOut,
    SignInStrings.cancel,
  );
  if (pick !== Strings.signOut) {
    return false;
  }
  await keys.delete(server);
  void vscode.window.showInformationMessage(Strings.signedOut(server));
  return true;
}
