import * as vscode from 'vscode';
import { Inbox } from './domain/inbox';
import { InboxNotifier, NotificationPolicy } from './domain/notificationPolicy';
import { Config } from './platform/config';
import { AnswerRouter } from './session/answerRouter';
import { InboxClock } from './session/inboxClock';
import { LazyLocalSource } from './session/lazyLocalSource';
import { localConversation } from './session/localSource';
import { ConnectionManager } from './platform/connection';
import { GlobalStateCursorStore } from './platform/cursorStore';
import { joinWindows, sharedCursors } from './platform/windows';
import { createLogChannel } from './platform/log';
import { LocalAgents } from './ui/local/feature';
import type { ManagedSession } from './ui/local/manager';
import { ApiKeyStore } from './platform/secrets';
import { AnswerFlow } from './ui/answer/answerFlow';
import type { ExtraAnswerChoices } from './ui/answer/answerChoices';
import { signIn, signOut } from './ui/auth/authCommands';
import { FountainAuthProvider } from './ui/auth/authProvider';
import { RequestCommands } from './ui/answer/requestCommands';
import { ConnectionStatus } from './ui/status/connectionStatus';
import { dangerCheck } from './ui/danger/danger';
import { RequestDetailsView, detailsBundle } from './ui/details/details';
import { registerEditorActions } from './ui/details/editorTitle';
import { FocusReminder } from './ui/toast/focusReminder';
import { Notifier } from './ui/toast/notifier';
import { PendingTree } from './ui/tree/pendingTree';
import { PolicyFeature } from './ui/policy/policyFeature';
import { Steer } from './ui/steer/rejectWithReasonEntry';
import { policyEditorBundle } from './ui/policy/policyEditorCommands';
import type { TestApi } from './testApi';

export type { TestApi };

let localAgents: LocalAgents | undefined;

/** Composition root: builds everything in order and registers every disposable (house style §8.2). */
export async function activate(context: vscode.ExtensionContext): Promise<TestApi | undefined> {
  const subs = context.subscriptions;
  const log = createLogChannel();
  subs.push(log);
  const config = new Config();
  const keys = new ApiKeyStore(context.secrets);
  subs.push(keys);

  const inbox = new Inbox({ danger: dangerCheck((err) => log.error(`the denylist check failed: ${String(err)}`)) });
  const clock = new InboxClock(inbox);
  const cursors = sharedCursors(new GlobalStateCursorStore(context.globalState));
  const connection = new ConnectionManager(config, keys, inbox, cursors, log);
  // The windows of this VS Code share one stream: one holds it, the others follow (src/session/windowSync.ts).
  const storageDir = context.globalStorageUri.fsPath;
  const windows = await joinWindows({ storageDir, inbox, connection, cursors, log, subscriptions: subs });
  const answers = new AnswerRouter();
  subs.push(answers.add(windows?.answerSource ?? connection.session));
  const flow = new AnswerFlow(inbox, answers, log);
  const tree = new PendingTree(inbox, clock.onDidCountdown);
  const details = new RequestDetailsView(inbox);
  const commands = new RequestCommands({ inbox, flow, tree, details, connection, log });
  const policy = new PolicyFeature({
    config,
    keys,
    connection,
    inbox,
    flow,
    tree,
    details,
    log,
    storageDir,
  });
  const notifications = new InboxNotifier(
    inbox,
    new NotificationPolicy({ mode: config.notifications }),
    () => clock.timers.now(),
    clock.timers,
  );
  notifications.shouldToast = (item) => windows?.shouldToast(item) ?? true;
  const notifier = new Notifier(inbox, notifications, flow, config, {
    showDetails: (item) => details.show(item),
    pickOption: (item) => commands.pickOption(item, 'toast'),
    hasExtraChoices: (item) => extras.has(item),
    review: async () => {
      await vscode.commands.executeCommand('fountain.pending.focus');
      await commands.answerQueue();
    },
    provenance: (item) => policy.provenance.cachedShort(item),
    canRejectWithReason: (item) => steer.can(item),
    rejectWithReason: (item) => steer.run(item, 'toast'),
    openPlan: (item) => steer.openPlan(item),
    outsideSandbox: (item) => {
      const a = localSource.askOf(item.key);
      const c = a && local.session(a.sessionId)?.session.confinement;
      return !!c && !c.sandboxed && c.reason !== 'not_requested';
    },
    openNetwork: (item) => {
      const a = localSource.askOf(item.key);
      const c = a && local.session(a.sessionId)?.session.confinement;
      return !!c && c.sandboxed && c.network === 'open';
    },
  });
  subs.push(
    inbox,
    connection,
    tree,
    details,
    policy,
    notifications,
    notifier,
    new ConnectionStatus(connection, inbox, tree.view, clock),
    new FocusReminder(notifier, inbox, () => clock.timers.now()),
    clock,
    new FountainAuthProvider(config, keys, log),
  );
  // ExtensionMode.Test only: dist/testApi.js, built beside the bundle (esbuild.mjs) so that the shipped one carries no
  // test hooks. What the tests change in the local agents reaches them as options; the product passes none.
  const test =
    context.extensionMode === vscode.ExtensionMode.Test
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require('./testApi') as typeof import('./testApi')).testHooks()
      : undefined;
  // Local agents are the inbox's second source: their asks become requests, answered through the same router.
  // Built with the local agents' bundle, once a session is listed (src/session/lazyLocalSource.ts).
  const localSource = new LazyLocalSource(() => local.createSource(inbox));
  const sessionInfo = (s: ManagedSession) => local.sessionInfo(s);
  const local = (localAgents = new LocalAgents({
    log,
    ask: (s, a) => localSource.ask(sessionInfo(s), a),
    waiting: policy.waitingRequests,
    history: policy.historyTree,
    storage: context,
    ...test?.localOptions,
  }));
  subs.push(local, ...local.register(), answers.add(localSource));
  subs.push(
    local.onDidChangeSessions(() => {
      for (const s of local.sessions) {
        localSource.sessionChanged(sessionInfo(s));
      }
    }),
  );
  tree.showLocalSessions({
    conversations: () => local.sessions.map((s) => localConversation(sessionInfo(s))),
    onDidChange: local.onDidChangeSessions,
    extras: (server) => local.treeExtras(server),
  });
  local.useTree((a) => (tree.isIssued(a) ? a : undefined));
  policy.provenance.useLocal((item) => localSource.provenance(item.key));
  // The local gate's grant choices beside the runtime's options (Answer…, the toast's More…), answered through the flow.
  const extras: ExtraAnswerChoices = {
    has: (item) => {
      const a = localSource.askOf(item.key);
      return !!a && local.hasGrantChoices(a.sessionId, a.ask);
    },
    choices: (item, source) => {
      const a = localSource.askOf(item.key);
      const answer = async (optionId: string) => (await flow.answer(item.id, optionId, source))?.kind === 'answered';
      return Promise.resolve(a ? local.grantChoices(a.sessionId, a.ask, answer) : []);
    },
  };
  commands.useExtras(extras);
  // Reject with Reason…: the reject through the flow, then the reason as the next prompt (src/ui/steer/rejectWithReason.ts).
  const steer = new Steer({
    inbox,
    flow,
    log,
    tree,
    fountain: async (server) => {
      const url = config.serverUrl;
      const key = url && connection.server === server ? await keys.get(url) : undefined;
      return key ? { server, key: key.key } : undefined;
    },
    localSession: (id) => local.session(id)?.session,
  });
  commands.useSteer(steer);
  subs.push(steer);
  subs.push(
    (windows?.onDidReceiveEvent ?? connection.onDidReceiveEvent)((e) => {
      if (e.type === 'backfillComplete') {
        notifications.endBackfill();
      }
    }),
    ...commands.register(),
    registerEditorActions({ inbox, flow, log, pickOption: (i, s) => commands.pickOption(i, s) }),
    vscode.commands.registerCommand('fountain.signIn', async () => !!(await signIn(config, keys, log))),
    vscode.commands.registerCommand('fountain.signOut', () => signOut(config, keys)),
    vscode.commands.registerCommand('fountain.showLogs', () => log.show()),
  );
  if (!windows) {
    await connection.restart();
  }
  log.info(`Fountain Approvals ${String((context.extension.packageJSON as { version?: string }).version)} activated`);

  const bundlesLoaded = { policyEditor: policyEditorBundle.loaded, details: detailsBundle.loaded };
  return test?.api({ context, config, keys, connection, inbox, tree, details, flow, policy, local, bundlesLoaded });
}

/** Resolves once every local agent's process group has ended. */
export async function deactivate(): Promise<void> {
  await localAgents?.stopAll();
}
