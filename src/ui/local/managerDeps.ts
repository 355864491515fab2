/**
 * The session manager's dependencies and the listeners that keep its sessions' gates current (settings, workspace
 * folders, trust), and the inbox's local source with what it reads of a session. Part of dist/localui.js: built with
 * the manager, on the first local command, or with the first listed session (src/ui/local/feature.ts).
 */
import * as vscode from 'vscode';
import { LOCAL_SECTION, readAllowHosts, readLocalGateSettings, workspaceRoots } from '../../platform/localGateSettings';
import { NETWORK_WORDS } from './networkStrings';
import type { Inbox } from '../../domain/inbox';
import type { WaitingRequests } from '../always/alwaysContext';
import type { DecidedEntry, DecidedLog } from '../../domain/decidedLog';
import { LocalSource, type LocalSessionInfo } from '../../session/localSource';
import type { LocalAskHandler, LocalManagerDeps, LocalSessionManager, ManagedSession } from './manager';
import type { LocalModule } from './loader';
import { extensionStoragePaths, readSandboxRequest } from './sandboxSettings';

/** What the composition root gives the local agents (src/ui/local/feature.ts builds them with it). */
export interface LocalAgentsOptions {
  readonly ask: LocalAskHandler;
  readonly log: vscode.LogOutputChannel;
  /**
   * The history and the waiting requests, for the "always" confirmations (a local grant, Recommend Local Allow
   * Patterns): handed over here, never reached through a command another extension could run.
   */
  readonly waiting: WaitingRequests;
  /**
   * "Decided without you" in the History view: every decision a session's gate made by itself is recorded in its log,
   * and Make This Ask acts only on a row the view created.
   */
  readonly history: {
    decided(): DecidedLog;
    decidedEntryOf(arg: unknown): DecidedEntry | undefined;
  };
  /**
   * What activate() passes in ExtensionMode.Test only (src/testApi.ts builds them; the product passes none): the trust
   * check (default: the workspace's), where agents' variables come from (default: the extension host's environment)
   * and a tap on every JSON-RPC line (default: none).
   */
  readonly isTrusted?: LocalManagerDeps['isTrusted'];
  readonly sourceEnv?: LocalManagerDeps['sourceEnv'];
  readonly wireTap?: LocalManagerDeps['wireTap'];
  /**
   * Where the extension keeps its own files (its storage folders are never visible to a sandboxed agent): read with
   * the sandbox setting at each agent start (src/ui/local/sandboxSettings.ts, in dist/localui.js).
   */
  readonly storage?: Pick<vscode.ExtensionContext, 'globalStorageUri' | 'logUri' | 'storageUri'>;
}

export function managerDeps(opts: LocalAgentsOptions, load: () => LocalModule): LocalManagerDeps {
  const { log } = opts;
  return {
    load,
    isTrusted: opts.isTrusted ?? (() => vscode.workspace.isTrusted),
    ask: opts.ask,
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m) },
    ...(opts.sourceEnv ? { sourceEnv: opts.sourceEnv } : {}),
    ...(opts.wireTap ? { wireTap: opts.wireTap } : {}),
    gateSettings: readLocalGateSettings,
    allowHosts: readAllowHosts,
    networkWords: NETWORK_WORDS,
    roots: workspaceRoots,
    sandbox: () => readSandboxRequest(opts.storage ? extensionStoragePaths(opts.storage) : []),
  };
}

/** Each session's gate follows the settings, the workspace folders and trust as they change. */
export function refreshGatesOnChange(manager: LocalSessionManager): vscode.Disposable[] {
  const refresh = () => manager.refreshGates();
  return [
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(LOCAL_SECTION)) {
        refresh();
      }
    }),
    vscode.workspace.onDidChangeWorkspaceFolders(refresh),
    vscode.workspace.onDidGrantWorkspaceTrust(refresh),
  ];
}

/**
 * The inbox's local source: a request of a sandboxed session one of whose paths lies outside the sandbox gets
 * src/local's sentence (dist/local.js: a local ask exists only once a session does, so that bundle is loaded).
 */
export function createLocalSource(inbox: Inbox, load: () => LocalModule): LocalSource {
  return new LocalSource(inbox, Date.now, undefined, (sandbox, toolCall) =>
    sandbox ? load().outsideSentence(sandbox, toolCall) : undefined,
  );
}

/** What the inbox's local source knows of a listed session. */
export function sessionInfo(s: ManagedSession): LocalSessionInfo {
  return {
    id: s.id,
    agentName: s.agentName,
    folderName: s.folder.name,
    ...(s.spec.runtime !== undefined ? { runtime: s.spec.runtime } : {}),
    status: s.status,
    ...(s.session.confinement.sandboxed ? { sandbox: { ...s.session.confinement.plan } } : {}),
  };
}
