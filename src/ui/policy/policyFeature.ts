import * as vscode from 'vscode';
import { DecidedLog, type DecidedEntry } from '../../domain/decidedLog';
import { HistoryLog, type HistoryEntry } from '../../domain/history';
import type { Inbox } from '../../domain/inbox';
import type { Recommendation } from '../../domain/recommendations';
import { AgentApi } from '../../platform/agentApi';
import type { Config } from '../../platform/config';
import type { ConnectionManager } from '../../platform/connection';
import { DECIDED_FILES, FileHistoryBackend } from '../../platform/historyStore';
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
  /** The local gates' decisions made without you (recorded by dist/localui.js, shown in the History view). */
  readonly decided: DecidedLog;
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
    this.decided = new DecidedLog(new FileHistoryBackend(deps.storageDir, DECIDED_FILES), {
      onError: (err) => log.warn(`decided without you: ${err instanceof Error ? err.message : String(err)}`),
    });
    void this.decided.load();
    this.historyTree = new HistoryTree(this.history, this.provenance, this.decided);
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
      { dispose: () => this.decided.dispose() },
      deps.flow.onDidAnswer((e) => this.record(e, inbox)),
      ...this.editor.register({ tree: deps.tree, historyTree: this.historyTree }),
      // A session row's click: only a session key (a string) is read; anything else opens the group alone.
      vscode.commands.registerCommand('fountain.history.showDecided', (session?: unknown) =>
        this.historyTree.showDecided(typeof session === 'string' ? session : undefined),
      ),
      // Make This Ask acts only on a row this view created (never on an argument another extension made up).
      vscode.commands.registerCommand('fountain.history.makeThisAsk', (arg?: unknown) => {
        const entry = this.historyTree.decidedEntryOf(arg);
        if (!entry) {
          log.warn('refused Make This Ask whose argument was not a row of the History view');
          return undefined;
        }
        return this.makeThisAsk?.(entry);
      }),
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

  private makeThisAsk: ((entry: DecidedEntry) => Promise<unknown>) | undefined;

  /** What Make This Ask runs (the local agents' part, src/ui/local/makeThisAsk.ts, wired by the composition root). */
  useMakeThisAsk(run: (entry: DecidedEntry) => Promise<unknown>): void {
    this.makeThisAsk = run;
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
