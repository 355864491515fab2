import * as vscode from 'vscode';
import { Config } from './platform/config';
import { ContextKey, setContext } from './platform/contextKeys';
import { createLogChannel } from './platform/log';
import { ApiKeyStore } from './platform/secrets';
import { signIn, signOut } from './ui/authCommands';

/** What activate() returns in test mode only: read-only views plus the hooks integration tests need. */
export interface TestApi {
  readonly serverUrl: () => string | undefined;
  readonly hasKey: () => Promise<boolean>;
}

/** Composition root: builds everything in order and registers every disposable (house style §8.2). */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const log = createLogChannel();
  context.subscriptions.push(log);
  const config = new Config();
  const keys = new ApiKeyStore(context.secrets);
  context.subscriptions.push(keys);

  const refreshContext = async () => {
    const server = config.serverUrl;
    await setContext(ContextKey.Configured, !!server);
    await setContext(ContextKey.SignedIn, !!server && !!(await keys.get(server)));
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('fountain.signIn', () => signIn(config, keys)),
    vscode.commands.registerCommand('fountain.signOut', () => signOut(config, keys)),
    vscode.commands.registerCommand('fountain.showLogs', () => log.show()),
    config.onDidChange(() => void refreshContext()),
    keys.onDidChange(() => void refreshContext()),
  );
  await refreshContext();
  log.info(
    `Fountain Approvals ${String((context.extension.packageJSON as { version?: string }).version)} activated; server: ${config.serverUrl ?? '(none)'}`,
  );

  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    return undefined;
  }
  return {
    serverUrl: () => config.serverUrl,
    hasKey: async () => {
      const server = config.serverUrl;
      return !!server && !!(await keys.get(server));
    },
  };
}

export function deactivate(): void {}
