import * as vscode from 'vscode';
import { Emitter } from '../domain/events';
import type { HistoryEntry, HistoryLog, HistoryOutcome } from '../domain/history';
import type { AnswerResult } from '../domain/model';
import { recommend, type Recommendation } from '../domain/recommendations';
import { verdictOf } from '../policy/verdicts';
import { Disposable } from '../util/lifecycle';
import type { AnsweredEvent } from './answerFlow';
import { inertBlock, inertLabel, inertLine } from './display';
import type { ProvenanceService } from './provenanceService';
import { HistoryStrings, PolicyStrings } from './strings';
import { Time } from './time';

/** `fountain.history.*` and `fountain.recommendations.*`, read live. */
export const historySettings = {
  get keepLabels(): boolean {
    return vscode.workspace.getConfiguration('fountain.history').get<boolean>('keepLabels', true);
  },
  get minAnswers(): number {
    return vscode.workspace.getConfiguration('fountain.recommendations').get<number>('minAnswers', 5);
  },
  get minConversations(): number {
    return vscode.workspace.getConfiguration('fountain.recommendations').get<number>('minConversations', 2);
  },
};

export function outcomeOf(result: AnswerResult): HistoryOutcome {
  switch (result.kind) {
    case 'answered':
    case 'notDelivered':
      return 'answered';
    case 'resolvedElsewhere':
      return 'resolvedElsewhere';
    default:
      return 'failed';
  }
}

/** The history entry for one answer sent from this extension; the label only when the user keeps labels. */
export function historyEntryOf(e: AnsweredEvent, keepLabels: boolean, now = Date.now()): HistoryEntry {
  const { item, optionId, result } = e;
  const c = item.conversation;
  const option = item.request.options.find((o) => o.optionId === optionId);
  const outcome = outcomeOf(result);
  return {
    at: now,
    server: item.key.server,
    conversationId: item.key.conversationId,
    ...(c.agentId ? { agentId: c.agentId } : {}),
    ...(c.agentName ? { agentName: c.agentName } : {}),
    ...(c.runtime ? { runtime: c.runtime } : {}),
    ...(item.request.kind ? { kind: item.request.kind } : {}),
    ...(keepLabels ? { label: item.label } : {}),
    optionId,
    ...(option ? { optionKind: option.kind } : {}),
    outcome,
    ...(outcome === 'failed' ? { detail: result.kind } : {}),
  };
}

export type HistoryElement =
  | { readonly kind: 'group'; readonly group: 'recommendations' | 'answers' }
  | { readonly kind: 'recommendation'; readonly rec: Recommendation }
  | { readonly kind: 'warning'; readonly rec: Recommendation }
  | { readonly kind: 'proceed'; readonly rec: Recommendation }
  | { readonly kind: 'entry'; readonly entry: HistoryEntry; readonly index: number };

/**
 * The "History" view: recommendations (a risky one only opens its "review" action after the user expands its
 * warning), then every recorded answer, newest first. Agent text is rendered inert; tooltips are plain text.
 */
export class HistoryTree extends Disposable implements vscode.TreeDataProvider<HistoryElement> {
  private readonly _onDidChangeTreeData = this._register(new Emitter<HistoryElement | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<HistoryElement>;
  private readonly _issued = new WeakSet<object>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly history: HistoryLog,
    private readonly provenance: ProvenanceService,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView('fountain.history', { treeDataProvider: this }));
    this._register(history.onDidChange(() => this.refresh()));
    this._register(provenance.onDidChange(() => this.refresh()));
    this._register({ dispose: () => this.timer && clearTimeout(this.timer) });
  }

  /** The current recommendations, skipping what the cached agent policy already says. */
  recommendations(): Recommendation[] {
    return recommend(
      this.history.entries(),
      { minAnswers: historySettings.minAnswers, minConversations: historySettings.minConversations },
      (server, agentId, kind) => {
        const s = this.provenance.cache.get(server, agentId);
        return s?.kind === 'known' ? verdictOf(s.agent.policy, { kind }).verdict : undefined;
      },
    );
  }

  /** True for a recommendation element this view created (commands refuse anything else). */
  isIssued(arg: unknown): arg is HistoryElement {
    return typeof arg === 'object' && arg !== null && this._issued.has(arg);
  }

  private refresh(): void {
    if (this.timer) {
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this._onDidChangeTreeData.fire(undefined);
    }, 100);
  }

  private issue<T extends HistoryElement>(e: T): T {
    this._issued.add(e);
    return e;
  }

  getChildren(element?: HistoryElement): HistoryElement[] {
    if (!element) {
      const groups: HistoryElement[] = [];
      if (this.recommendations().length) {
        groups.push(this.issue({ kind: 'group', group: 'recommendations' }));
      }
      // No answers and nothing to suggest: no rows, so VS Code shows the view's welcome content.
      if (groups.length || this.history.entries().length) {
        groups.push(this.issue({ kind: 'group', group: 'answers' }));
      }
      return groups;
    }
    if (element.kind === 'group') {
      return element.group === 'recommendations'
        ? this.recommendations().map((rec) => this.issue({ kind: 'recommendation', rec }))
        : this.history.entries().map((entry, index) => this.issue({ kind: 'entry', entry, index }));
    }
    if (element.kind === 'recommendation' && element.rec.risky) {
      return [this.issue({ kind: 'warning', rec: element.rec }), this.issue({ kind: 'proceed', rec: element.rec })];
    }
    return [];
  }

  getTreeItem(element: HistoryElement): vscode.TreeItem {
    switch (element.kind) {
      case 'group': {
        const n = element.group === 'recommendations' ? this.recommendations().length : this.history.entries().length;
        const t = new vscode.TreeItem(
          element.group === 'recommendations' ? HistoryStrings.recommendationsGroup(n) : HistoryStrings.historyGroup(n),
          vscode.TreeItemCollapsibleState.Expanded,
        );
        t.id = `group:${element.group}`;
        return t;
      }
      case 'recommendation': {
        const r = element.rec;
        const t = new vscode.TreeItem(
          recommendationLabel(r),
          r.risky ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
        );
        t.description = r.risky ? HistoryStrings.riskyLabel : recommendationEvidence(r);
        t.tooltip = `${recommendationLabel(r)}\n${recommendationEvidence(r)}`;
        t.iconPath = new vscode.ThemeIcon(r.risky ? 'warning' : 'lightbulb');
        t.contextValue = r.risky ? 'fountainRecommendation;risky;' : 'fountainRecommendation;';
        if (!r.risky) {
          t.command = {
            command: 'fountain.policy.applyRecommendation',
            title: HistoryStrings.riskyProceed,
            arguments: [element],
          };
        }
        return t;
      }
      case 'warning': {
        const t = new vscode.TreeItem(PolicyStrings.riskTitle(inertLine(element.rec.kind)));
        t.description = PolicyStrings.riskDetail(element.rec.kind);
        t.tooltip = PolicyStrings.riskDetail(element.rec.kind);
        t.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
        return t;
      }
      case 'proceed': {
        const t = new vscode.TreeItem(HistoryStrings.riskyProceed);
        t.iconPath = new vscode.ThemeIcon('arrow-right');
        t.command = {
          command: 'fountain.policy.applyRecommendation',
          title: HistoryStrings.riskyProceed,
          arguments: [element],
        };
        return t;
      }
      case 'entry': {
        const e = element.entry;
        const label = e.label !== undefined ? inertLabel(e.label, 80).text : (e.kind ?? HistoryStrings.labelHidden);
        const t = new vscode.TreeItem(label);
        t.description = [
          e.kind && inertLine(e.kind),
          inertLine(e.optionId),
          HistoryStrings.outcome(e.outcome),
          Time.dateTime(e.at),
        ]
          .filter(Boolean)
          .join(' · ');
        t.tooltip = entryTooltip(e);
        t.iconPath = new vscode.ThemeIcon(
          e.outcome === 'answered' ? (e.optionKind?.startsWith('reject') ? 'close' : 'check') : 'circle-slash',
        );
        t.contextValue = 'fountainHistoryEntry;';
        return t;
      }
    }
  }
}

export function recommendationLabel(r: Recommendation): string {
  const agent = inertLine(r.agentName ?? r.agentId);
  const kind = inertLine(r.kind);
  return r.verdict === 'auto_allow' ? HistoryStrings.allow(kind, agent) : HistoryStrings.deny(kind, agent);
}

export function recommendationEvidence(r: Recommendation): string {
  return r.verdict === 'auto_allow'
    ? HistoryStrings.evidenceAllow(r.count, r.conversations)
    : HistoryStrings.evidenceDeny(r.count, r.conversations);
}

function entryTooltip(e: HistoryEntry): string {
  const lines = [e.label !== undefined ? inertBlock(e.label) : HistoryStrings.labelHidden, ''];
  lines.push(HistoryStrings.at(Time.dateTime(e.at)));
  lines.push(HistoryStrings.kind(inertLine(e.kind ?? '—')));
  lines.push(HistoryStrings.option(inertLine(e.optionId), inertLine(e.optionKind ?? '—')));
  lines.push(HistoryStrings.outcomeLine(HistoryStrings.outcome(e.outcome) + (e.detail ? ` (${e.detail})` : '')));
  lines.push(
    HistoryStrings.agent(inertLine(e.agentName ?? e.agentId ?? '—') + (e.agentId ? ` (${inertLine(e.agentId)})` : '')),
  );
  lines.push(HistoryStrings.runtime(inertLine(e.runtime ?? '—')));
  lines.push(HistoryStrings.conversation(inertLine(e.conversationId), e.server));
  return lines.join('\n');
}
