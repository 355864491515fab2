import * as vscode from 'vscode';
import { HistoryLog, type HistoryEntry } from '../../domain/history';
import type { Inbox } from '../../domain/inbox';
import type { Recommendation } from '../../domain/recommendations';
import { AgentApi } from '../../platform/agentApi';
import type { Config } from '../../platform/config';
import type { ConnectionManager } from '../../platform/connection';
import { FileHistoryBackend } from '../../platform/historyStore';
import type { Logger } from '../../platform/log';
import type { ApiKeyStore } from '../../platform/secrets';
import type { AnswerFlow, AnsweredEvent } from '../answer/answerFlow';
import type { RequestDetailsView } from '../details/details';
import { waitingRequests, type WaitingRequests } from '../always/alwaysContext';
import { LazyEvidence } from '../evidence/lazyEvidence';
import { HistoryTree } from '../history/historyView';
import type { PendingTree } from '../tree/pendingTree';
import { PolicyEditorCommands } from './policyEditorCommands';
import { ProvenanceService } from './provenanceService';
import { HistoryStrings } from '../strings';

/**
 * Issue 6 assembled: provenance on requests, the approval history (recorded from AnswerFlow) with its view and
 * recommendations, and the agent-policy editor with its commands.
 */
/** How long an answer's history entry waits for its conversation's agent to be known. */
const AGENT_WAIT_MS = 15_000;

export class PolicyFeature implements vscode.Disposable {
  readonly provenance: ProvenanceService;
  readonly history: HistoryLog;
  readonly historyTree: HistoryTree;
  readonly editor: PolicyEditorCommands;
  /** The history and the waiting requests, for the "always" confirmations of the lazily loaded bundles. */
  readonly waitingRequests: WaitingRequests;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(deps: {
    config: Config;
    keys: ApiKeyStore;
    connection: ConnectionManager;
    inbox: Inbox;
    flow: AnswerFlow;
    tree: PendingTree;
    details: RequestDetailsView;
    log: Logger;
    storageDir: string;
  }) {
    const { inbox, log } = deps;
    const api = new AgentApi(deps.config, deps.keys, deps.connection, log);
    this.provenance = new ProvenanceService(inbox, api, log);
    this.history = new HistoryLog(new FileHistoryBackend(deps.storageDir), {
      onError: (err) => log.warn(`approval history: ${err instanceof Error ? err.message : String(err)}`),
    });
    void this.history.load();
    this.historyTree = new HistoryTree(this.history, this.provenance, { dir: deps.storageDir, log });
    this.waitingRequests = waitingRequests(inbox, this.history, deps.flow);
    this.editor = new PolicyEditorCommands({
      api,
      provenance: this.provenance,
      inbox,
      history: this.history,
      waiting: this.waitingRequests,
      log,
    });
    deps.tree.showProvenance(this.provenance);
    deps.details.showProvenance(this.provenance);
    // Evidence before the click: the sandbox's (or disk's) current file and the agent's changes, read lazily
    // (dist/evidence.js, loaded on first use).
    const evidence = new LazyEvidence(deps);
    deps.details.showEvidence(evidence);
    this.disposables.push(
      this.provenance,
      this.historyTree,
      this.editor,
      evidence,
      { dispose: () => this.history.dispose() },
      deps.flow.onDidAnswer((e) => this.record(e, inbox)),
      ...this.editor.register({ tree: deps.tree, historyTree: this.historyTree }),
      vscode.commands.registerCommand('fountain.history.clear', async () => {
        const clear = HistoryStrings.clear;
        const pick = await vscode.window.showWarningMessage(HistoryStrings.confirmClear, { modal: true }, clear);
        if (pick === clear) {
          await this.history.clear();
          void vscode.window.showInformationMessage(HistoryStrings.cleared);
        }
      }),
    );
  }

  /**
   * Records an answer in the history. A toast shows at once, so an answer can come before the conversation's agent is
   * known (a new conversation is read a moment after its first request): the entry then waits for it, up to
   * {@link AGENT_WAIT_MS}, since recommendations group answers by agent.
   */
  private record(e: AnsweredEvent, inbox: Inbox): void {
    const at = Date.now();
    const write = (conversation = e.item.conversation) =>
      void this.history.record(this.historyTree.entryOf({ ...e, item: { ...e.item, conversation } }, at));
    const known = () => {
      const c = inbox.conversationOf(e.item.key.server, e.item.key.conversationId);
      return c?.agentId !== undefined || c?.agentName !== undefined ? c : undefined;
    };
    const c = e.item.conversation;
    if (c.agentId !== undefined || c.agentName !== undefined) {
      write();
      return;
    }
    const now = known();
    if (now) {
      write({ ...c, ...now });
      return;
    }
    const done = (info?: typeof c) => {
      sub.dispose();
      clearTimeout(timer);
      this.waiting.delete(done);
      write(info ? { ...c, ...info } : c);
    };
    const sub = inbox.onDidChangeItems(() => {
      const info = known();
      if (info) {
        done(info);
      }
    });
    const timer = setTimeout(done, AGENT_WAIT_MS);
    this.waiting.add(done);
  }

  /** Answers whose entry waits for its agent: written as they are on dispose. */
  private readonly waiting = new Set<() => void>();

  historyEntries(): HistoryEntry[] {
    return this.history.entries();
  }

  recommendations(): Recommendation[] {
    return this.historyTree.recommendations();
  }

  dispose(): void {
    for (const done of [...this.waiting]) {
      done();
    }
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }
}
