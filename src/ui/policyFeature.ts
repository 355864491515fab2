import * as vscode from 'vscode';
import { HistoryLog, type HistoryEntry } from '../domain/history';
import type { Inbox } from '../domain/inbox';
import type { Recommendation } from '../domain/recommendations';
import { AgentApi } from '../platform/agentApi';
import type { Config } from '../platform/config';
import { FileHistoryBackend } from '../platform/historyStore';
import type { Logger } from '../platform/log';
import type { ApiKeyStore } from '../platform/secrets';
import type { Verdict } from '../policy';
import type { AnswerFlow } from './answerFlow';
import type { RequestDetails } from './details';
import { HistoryTree, historyEntryOf, historySettings } from './historyView';
import type { PendingTree } from './pendingTree';
import { PolicyEditor, type EditResult, type PolicyPrompts } from './policyEditor';
import { ProvenanceService } from './provenance';
import { HistoryStrings } from './strings';

/** A scripted walk through the edit flow, for the extension-host tests (the same code path minus the widgets). */
export interface EditScript {
  readonly server?: string;
  readonly agentId: string;
  readonly kind?: string;
  readonly steps: readonly (
    { readonly key: string; readonly verdict: Verdict | 'remove' } | { readonly timeout: string }
  )[];
  readonly confirm: boolean;
  readonly acceptRisk?: boolean;
}

/**
 * Issue 6 assembled: provenance on requests, the approval history (recorded from AnswerFlow) with its view and
 * recommendations, and the agent-policy editor with its commands.
 */
export class PolicyFeature implements vscode.Disposable {
  readonly provenance: ProvenanceService;
  readonly history: HistoryLog;
  readonly historyTree: HistoryTree;
  readonly editor: PolicyEditor;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(deps: {
    config: Config;
    keys: ApiKeyStore;
    inbox: Inbox;
    flow: AnswerFlow;
    tree: PendingTree;
    details: RequestDetails;
    log: Logger;
    storageDir: string;
  }) {
    const { inbox, log } = deps;
    const api = new AgentApi(deps.config, deps.keys, log);
    this.provenance = new ProvenanceService(inbox, api);
    this.history = new HistoryLog(new FileHistoryBackend(deps.storageDir), {
      onError: (err) => log.warn(`approval history: ${err instanceof Error ? err.message : String(err)}`),
    });
    void this.history.load();
    this.historyTree = new HistoryTree(this.history, this.provenance);
    this.editor = new PolicyEditor(api, this.provenance, inbox, this.history, log);
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

  /** Runs the edit flow with scripted answers instead of widgets; `calls` lists the prompts reached, in order. */
  async editScripted(script: EditScript): Promise<{ result: EditResult; calls: string[]; errors: string[] }> {
    const calls: string[] = [];
    const errors: string[] = [];
    let step = 0;
    const prompts: PolicyPrompts = {
      pickAgent: () => (calls.push('pickAgent'), Promise.resolve(script.agentId)),
      pickKey: () => {
        calls.push('pickKey');
        const s = script.steps[step];
        if (!s) {
          return Promise.resolve({ type: 'review' });
        }
        return Promise.resolve('timeout' in s ? { type: 'timeout' } : { type: 'key', key: s.key });
      },
      pickVerdict: (key) => {
        calls.push(`pickVerdict:${key}`);
        const s = script.steps[step++];
        return Promise.resolve(s && 'verdict' in s ? s.verdict : undefined);
      },
      inputTimeout: () => {
        calls.push('inputTimeout');
        const s = script.steps[step++];
        return Promise.resolve(s && 'timeout' in s ? s.timeout : undefined);
      },
      confirmRisk: (kind) => (calls.push(`confirmRisk:${kind}`), Promise.resolve(!!script.acceptRisk)),
      preview: () => (calls.push('preview'), Promise.resolve()),
      confirm: () => (calls.push('confirm'), Promise.resolve(script.confirm)),
      showError: (m) => void errors.push(m),
      showInfo: () => undefined,
    };
    const result = await this.editor.edit(
      {
        agentId: script.agentId,
        ...(script.server ? { server: script.server } : {}),
        ...(script.kind ? { kind: script.kind } : {}),
      },
      prompts,
    );
    return { result, calls, errors };
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
