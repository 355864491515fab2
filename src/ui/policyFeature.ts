import * as vscode from 'vscode';
import { HistoryLog, type HistoryEntry } from '../domain/history';
import type { Inbox } from '../domain/inbox';
import type { Recommendation } from '../domain/recommendations';
import { AgentApi } from '../platform/agentApi';
import type { Config } from '../platform/config';
import type { ConnectionManager } from '../platform/connection';
import { FileHistoryBackend } from '../platform/historyStore';
import type { Logger } from '../platform/log';
import type { ApiKeyStore } from '../platform/secrets';
import type { AnswerFlow } from './answerFlow';
import type { RequestDetailsView } from './details';
import { HistoryTree, historyEntryOf, historySettings } from './historyView';
import type { PendingTree } from './pendingTree';
import { PolicyEditorCommands } from './policyEditorCommands';
import { ProvenanceService } from './provenanceService';
import { HistoryStrings } from './strings';

/**
 * Issue 6 assembled: provenance on requests, the approval history (recorded from AnswerFlow) with its view and
 * recommendations, and the agent-policy editor with its commands.
 */
export class PolicyFeature implements vscode.Disposable {
  readonly provenance: ProvenanceService;
  readonly history: HistoryLog;
  readonly historyTree: HistoryTree;
  readonly editor: PolicyEditorCommands;
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
    this.provenance = new ProvenanceService(inbox, api);
    this.history = new HistoryLog(new FileHistoryBackend(deps.storageDir), {
      onError: (err) => log.warn(`approval history: ${err instanceof Error ? err.message : String(err)}`),
    });
    void this.history.load();
    this.historyTree = new HistoryTree(this.history, this.provenance);
    this.editor = new PolicyEditorCommands({ api, provenance: this.provenance, inbox, history: this.history, log });
    deps.tree.showProvenance(this.provenance);
    deps.details.showProvenance(this.provenance);
    this.disposables.push(
      this.provenance,
      this.historyTree,
      this.editor,
      { dispose: () => this.history.dispose() },
      deps.flow.onDidAnswer((e) => void this.history.record(historyEntryOf(e, historySettings.keepLabels))),
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

  historyEntries(): HistoryEntry[] {
    return this.history.entries();
  }

  recommendations(): Recommendation[] {
    return this.historyTree.recommendations();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) {
      d.dispose();
    }
  }
}
