import * as vscode from 'vscode';
import type { HistoryEntry } from './domain/history';
import { Inbox, type InboxItem } from './domain/inbox';
import type { AnswerResult, ConnectionState } from './domain/model';
import { InboxNotifier, NotificationPolicy } from './domain/notificationPolicy';
import type { Recommendation } from './domain/recommendations';
import { Config } from './platform/config';
import { ConnectionManager } from './platform/connection';
import { GlobalStateCursorStore } from './platform/cursorStore';
import { createLogChannel } from './platform/log';
import { ApiKeyStore } from './platform/secrets';
import { AnswerFlow } from './ui/answerFlow';
import { signIn, signOut } from './ui/authCommands';
import { RequestCommands } from './ui/commands';
import { ConnectionStatus } from './ui/connectionStatus';
import { RequestDetails } from './ui/details';
import { Notifier } from './ui/notifier';
import { PendingTree } from './ui/pendingTree';
import { PolicyFeature, type EditScript } from './ui/policyFeature';
import type { EditResult } from './ui/policyEditor';
import { InboxTicker } from './ui/ticker';

/** What activate() returns in test mode only: read-only views plus the hooks integration tests need. */
export interface TestApi {
  readonly serverUrl: () => string | undefined;
  readonly hasKey: () => Promise<boolean>;
  readonly connectionState: () => ConnectionState;
  readonly items: () => InboxItem[];
  /** The tree as the user sees it: conversation labels/descriptions with their request rows. */
  readonly tree: () => {
    label: string;
    description: string;
    children: { label: string; description: string; contextValue: string; tooltip: string }[];
  }[];
  /** Why a request asked ("ask by kind "execute" in the agent policy"), and the toast's short form. */
  readonly provenance: (itemId: string) => { full: string; toast: Promise<string | undefined> };
  /** The policy edit flow with scripted answers in place of the QuickPicks and the modal. */
  readonly editPolicy: (script: EditScript) => Promise<{ result: EditResult; calls: string[]; errors: string[] }>;
  readonly history: () => HistoryEntry[];
  readonly recommendations: () => Recommendation[];
  readonly detailsText: (itemId: string) => string;
  /** Answers through the same path as a click (click-time check, one in flight). */
  readonly answer: (itemId: string, optionId: string) => Promise<AnswerResult | undefined>;
  readonly restart: () => Promise<void>;
  /** Stream cursors persisted for the next start of VS Code, by scope (server and user). */
  readonly storedCursors: () => Record<string, unknown>;
  /** The Pending Approvals view's description (the connection problem, if any). */
  readonly viewDescription: () => string | undefined;
}

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
  );
  subs.push(
    connection.onDidReceiveEvent((e) => {
      if (e.type === 'backfillComplete') {
        notifications.endBackfill();
      }
    }),
    ...commands.register(),
    vscode.commands.registerCommand('fountain.signIn', () => signIn(config, keys)),
    vscode.commands.registerCommand('fountain.signOut', () => signOut(config, keys)),
    vscode.commands.registerCommand('fountain.showLogs', () => log.show()),
  );
  await connection.restart();
  log.info(`Fountain Approvals ${String((context.extension.packageJSON as { version?: string }).version)} activated`);

  if (context.extensionMode !== vscode.ExtensionMode.Test) {
    return undefined;
  }
  return {
    serverUrl: () => config.serverUrl,
    hasKey: async () => {
      const server = config.serverUrl;
      return !!server && !!(await keys.get(server));
    },
    connectionState: () => connection.state,
    items: () => inbox.all(),
    tree: () =>
      tree.getChildren().map((c) => {
        const t = tree.getTreeItem(c);
        return {
          label: labelText(t.label),
          description: String(t.description ?? ''),
          children: tree.getChildren(c).map((r) => {
            const ti = tree.getTreeItem(r);
            return {
              label: labelText(ti.label),
              description: String(ti.description ?? ''),
              contextValue: ti.contextValue ?? '',
              tooltip: typeof ti.tooltip === 'string' ? ti.tooltip : (ti.tooltip?.value ?? ''),
            };
          }),
        };
      }),
    detailsText: (itemId) => {
      const item = inbox.get(itemId);
      return item ? details.render(item) : '';
    },
    answer: (itemId, optionId) => flow.answer(itemId, optionId, 'details'),
    provenance: (itemId) => {
      const item = inbox.get(itemId);
      return item
        ? { full: policy.provenance.describe(item), toast: policy.provenance.short(item) }
        : { full: '', toast: Promise.resolve(undefined) };
    },
    editPolicy: (script) => policy.editScripted(script),
    history: () => policy.historyEntries(),
    recommendations: () => policy.recommendations(),
    restart: () => connection.restart(),
    viewDescription: () => tree.view.description,
    storedCursors: () =>
      Object.fromEntries(
        context.globalState
          .keys()
          .filter((k) => k.startsWith('fountain.cursor:'))
          .map((k) => [k, context.globalState.get(k)]),
      ),
  };
}

function labelText(l: string | vscode.TreeItemLabel | undefined): string {
  return typeof l === 'string' ? l : (l?.label ?? '');
}

export function deactivate(): void {}
