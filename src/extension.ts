import * as vscode from 'vscode';
import { Inbox } from './domain/inbox';
import { InboxNotifier, NotificationPolicy } from './domain/notificationPolicy';
import { Config } from './platform/config';
import { ConnectionManager } from './platform/connection';
import { GlobalStateCursorStore } from './platform/cursorStore';
import { createLogChannel } from './platform/log';
import { ApiKeyStore } from './platform/secrets';
import { AnswerFlow } from './ui/answerFlow';
import { signIn, signOut } from './ui/authCommands';
import { FountainAuthProvider } from './ui/authProvider';
import { RequestCommands } from './ui/commands';
import { ConnectionStatus } from './ui/connectionStatus';
import { RequestDetails } from './ui/details';
import { Notifier } from './ui/notifier';
import { PendingTree } from './ui/pendingTree';
import { PolicyFeature } from './ui/policyFeature';
import { InboxTicker } from './ui/ticker';
import type { TestApi } from './testApi';

export type { TestApi };

/** Composition root: builds everything in order and registers every disposable (house style §8.2). */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const subs = context.subscriptions;
  const log = createLogChannel();
  subs.push(log);
  const config = new Config();
  const keys = new ApiKeyStore(context.secrets);
  subs.push(keys);

  const inbox = new Inbox();
  const connection = new ConnectionManager(config, keys, inbox, new GlobalStateCursorStore(context.globalState), log);
  const flow = new AnswerFlow(inbox, (key, optionId) => connection.answer(key, optionId), log);
  const tree = new PendingTree(inbox);
  const details = new RequestDetails(inbox);
  const commands = new RequestCommands({ inbox, flow, tree, details, connection, log });
  const policy = new PolicyFeature({
    config,
    keys,
    inbox,
    flow,
    tree,
    details,
    log,
    storageDir: context.globalStorageUri.fsPath,
  });
  const notifications = new InboxNotifier(inbox, new NotificationPolicy({ mode: config.notifications }));
  const notifier = new Notifier(inbox, notifications, flow, config, {
    showDetails: (item) => details.show(item),
    pickOption: (item) => commands.pickOption(item, 'toast'),
    review: async () => {
      await vscode.commands.executeCommand('fountain.pending.focus');
      await commands.answerQueue();
    },
    provenance: (item) => policy.provenance.short(item),
  });
  subs.push(
    inbox,
    connection,
    tree,
    details,
    policy,
    notifications,
    notifier,
    new ConnectionStatus(connection, inbox, tree.view),
    new InboxTicker(inbox),
    new FountainAuthProvider(config, keys, log),
  );
  subs.push(
    connection.onDidReceiveEvent((e) => {
      if (e.type === 'backfillComplete') {
        notifications.endBackfill();
      }
    }),
    ...commands.register(),
    vscode.commands.registerCommand('fountain.signIn', async () => !!(await signIn(config, keys, log))),
    vscode.commands.registerCommand('fountain.signOut', () => signOut(config, keys)),
    vscode.commands.registerCommand('fountain.showLogs', () => log.show()),
  );
  await connection.restart();
  log.info(`Fountain Approvals ${String((context.extension.packageJSON as { version?: string }).version)} activated`);

  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    return undefined;
  }
  // dist/testApi.js is built beside the bundle (esbuild.mjs), so the shipped bundle carries no test hooks.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createTestApi } = require('./testApi') as typeof import('./testApi');
  return createTestApi({ context, config, keys, connection, inbox, tree, details, flow, policy });
}

export function deactivate(): void {}
