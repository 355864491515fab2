/**
 * The History view's rows (issue 6): recommendations (a risky one only opens its "review" action after the user
 * expands its warning), then every recorded answer, newest first. Agent text is rendered inert; tooltips are plain
 * text. Built as dist/history.js and loaded when the view first asks for rows or a recommendation is needed
 * (src/ui/history/historyView.ts holds the view itself), so dist/extension.js does not carry it.
 */
import * as vscode from 'vscode';
import { DecidedLog, type DecidedEntry } from '../../domain/decidedLog';

/** The files of "Decided without you", beside the approval history's (same storage, src/platform/historyStore.ts). */
const DECIDED_FILES = { current: 'decided-without-you.jsonl', previous: 'decided-without-you.1.jsonl' };
import { FileHistoryBackend } from '../../platform/historyStore';
import type { HistoryEntry, HistoryLog, HistoryOutcome } from '../../domain/history';
import type { AnswerResult } from '../../domain/model';
import type { AnsweredEvent } from '../answer/answerFlow';
import { recommend, type Recommendation } from '../../domain/recommendations';
import { verdictOf } from '../../policy/verdicts';
import { Disposable } from '../../util/lifecycle';
import { inertBlock, inertLabel, inertLine } from '../display';
import { canMakeAsk, decidedSubject, DecidedStrings } from './decidedStrings';
import { HistoryViewStrings } from './historyStrings';
import { RiskStrings } from '../policy/policyEditorStrings';
import type { ProvenanceService } from '../policy/provenanceService';
import { conversationName } from '../strings';
import { Time } from '../time';

export type HistoryElement =
  | { readonly kind: 'group'; readonly group: 'recommendations' | 'decided' | 'answers' }
  | { readonly kind: 'decided'; readonly entry: DecidedEntry }
  | { readonly kind: 'recommendation'; readonly rec: Recommendation }
  | { readonly kind: 'warning'; readonly rec: Recommendation }
  | { readonly kind: 'proceed'; readonly rec: Recommendation }
  | { readonly kind: 'entry'; readonly entry: HistoryEntry; readonly index: number };

/**
 * The "History" view: recommendations (a risky one only opens its "review" action after the user expands its
 * warning), then every recorded answer, newest first. Agent text is rendered inert; tooltips are plain text.
 */
export class HistoryTreeImpl extends Disposable {
  private readonly _issued = new WeakSet<object>();
  /** The one "Decided without you" group element (revealed by a session's row). */
  readonly decidedGroup: HistoryElement = this.issue({ kind: 'group', group: 'decided' });
  /** The decided elements last listed, by entry (their parent is the group; reveal needs the same element). */
  private decidedElements = new Map<DecidedEntry, HistoryElement>();

  constructor(
    private readonly history: HistoryLog,
    private readonly provenance: ProvenanceService,
    private readonly settings: { readonly minAnswers: number; readonly minConversations: number },
    private readonly decided: DecidedLog,
  ) {
    super();
  }

  /** The element of the newest decision of `session` (listing the group's children first), if any. */
  newestOf(session: string): HistoryElement | undefined {
    const entry = this.decided.latest().find((e) => e.session === session);
    if (!entry) {
      return undefined;
    }
    this.getChildren(this.decidedGroup);
    return this.decidedElements.get(entry);
  }

  getParent(element: HistoryElement): HistoryElement | undefined {
    return element.kind === 'decided' ? this.decidedGroup : undefined;
  }

  /** The decision a row this view created shows; undefined for anything else. */
  decidedEntryOf(arg: unknown): DecidedEntry | undefined {
    return this.isIssued(arg) && arg.kind === 'decided' ? arg.entry : undefined;
  }

  /** Shows "Decided without you" in `view`, expanded, with the newest decision of `session` selected. */
  async showDecided(view: vscode.TreeView<HistoryElement>, session: unknown): Promise<void> {
    await vscode.commands.executeCommand('fountain.history.focus');
    if (this.decided.latest().length === 0) {
      return; // no group to show: the view shows its answers, or its welcome content
    }
    await view.reveal(this.decidedGroup, { expand: true, focus: true, select: true });
    const newest = typeof session === 'string' ? this.newestOf(session) : undefined;
    if (newest) {
      await view.reveal(newest, { focus: true, select: true });
    }
  }

  /** The current recommendations, skipping what the cached agent policy already says. */
  recommendations(): Recommendation[] {
    return recommend(
      this.history.entries(),
      { minAnswers: this.settings.minAnswers, minConversations: this.settings.minConversations },
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
      if (this.decided.latest().length) {
        groups.push(this.decidedGroup);
      }
      // No answers and nothing to suggest: no rows, so VS Code shows the view's welcome content.
      if (groups.length || this.history.entries().length) {
        groups.push(this.issue({ kind: 'group', group: 'answers' }));
      }
      return groups;
    }
    if (element.kind === 'group' && element.group === 'decided') {
      const next = new Map<DecidedEntry, HistoryElement>();
      const out = this.decided.latest().map((entry) => {
        const el = this.decidedElements.get(entry) ?? this.issue({ kind: 'decided', entry });
        next.set(entry, el);
        return el;
      });
      this.decidedElements = next;
      return out;
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
        if (element.group === 'decided') {
          const t = new vscode.TreeItem(
            DecidedStrings.group(this.decided.latest().length),
            vscode.TreeItemCollapsibleState.Collapsed,
          );
          t.id = 'group:decided';
          t.tooltip = DecidedStrings.countTooltip;
          return t;
        }
        const n = element.group === 'recommendations' ? this.recommendations().length : this.history.entries().length;
        const t = new vscode.TreeItem(
          element.group === 'recommendations'
            ? HistoryViewStrings.recommendationsGroup(n)
            : HistoryViewStrings.historyGroup(n),
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
        t.description = r.risky ? HistoryViewStrings.riskyLabel : recommendationEvidence(r);
        t.tooltip = `${recommendationLabel(r)}\n${recommendationEvidence(r)}`;
        t.iconPath = new vscode.ThemeIcon(r.risky ? 'warning' : 'lightbulb');
        t.contextValue = r.risky ? 'fountainRecommendation;risky;' : 'fountainRecommendation;';
        if (!r.risky) {
          t.command = {
            command: 'fountain.policy.applyRecommendation',
            title: HistoryViewStrings.riskyProceed,
            arguments: [element],
          };
        }
        return t;
      }
      case 'warning': {
        const t = new vscode.TreeItem(RiskStrings.riskTitle(inertLine(element.rec.kind)));
        t.description = RiskStrings.riskDetail(element.rec.kind);
        t.tooltip = RiskStrings.riskDetail(element.rec.kind);
        t.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
        return t;
      }
      case 'proceed': {
        const t = new vscode.TreeItem(HistoryViewStrings.riskyProceed);
        t.iconPath = new vscode.ThemeIcon('arrow-right');
        t.command = {
          command: 'fountain.policy.applyRecommendation',
          title: HistoryViewStrings.riskyProceed,
          arguments: [element],
        };
        return t;
      }
      case 'decided':
        return decidedItem(element.entry);
      case 'entry': {
        const e = element.entry;
        const label = e.label !== undefined ? inertLabel(e.label, 80).text : (e.kind ?? HistoryViewStrings.labelHidden);
        const t = new vscode.TreeItem(label);
        t.description = [
          e.kind && inertLine(e.kind),
          inertLine(e.optionId),
          HistoryViewStrings.outcome(e.outcome),
          e.reason !== undefined && HistoryViewStrings.withReason,
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

/** One decision made without you: its command or path (inert, shortened; whole in the tooltip) and its rule. */
function decidedItem(e: DecidedEntry): vscode.TreeItem {
  const subject = decidedSubject(e);
  const t = new vscode.TreeItem(
    subject !== undefined ? inertLabel(subject, 80).text : (e.kind ?? DecidedStrings.labelHidden),
  );
  const verdict = e.verdict === 'allow' ? DecidedStrings.allowed : DecidedStrings.refused;
  const rules = DecidedStrings.rules(e.by);
  t.description = [verdict, rules, inertLine(e.agentName, 60), Time.dateTime(e.at)].join(' · ');
  t.tooltip = [
    subject !== undefined ? inertBlock(subject) : DecidedStrings.labelHidden,
    '',
    DecidedStrings.tooltipVerdict(verdict, rules),
    DecidedStrings.tooltipReason(inertLine(e.reason, 2000)),
    DecidedStrings.tooltipSession(inertLine(e.agentName, 200), inertLine(e.folder, 500), inertLine(e.mode, 40)),
    DecidedStrings.tooltipSent(inertLine(e.sent, 200)),
    DecidedStrings.tooltipAt(Time.dateTime(e.at)),
    ...(e.by.some((r) => r.type === 'denylist') ? [DecidedStrings.noAsk] : []),
  ].join('\n');
  t.iconPath = new vscode.ThemeIcon(e.verdict === 'allow' ? 'pass' : 'circle-slash');
  t.contextValue = canMakeAsk(e) ? 'fountainDecided;ask;' : 'fountainDecided;';
  return t;
}

/** The decisions made without you, kept in `dir` beside the approval history, read from disk now. */
export function decidedLog(dir: string, logger: { warn(m: string): void }): DecidedLog {
  const log = new DecidedLog(new FileHistoryBackend(dir, DECIDED_FILES), {
    onError: (err) => logger.warn(`decided without you: ${err instanceof Error ? err.message : String(err)}`),
  });
  void log.load();
  return log;
}

export function recommendationLabel(r: Recommendation): string {
  const agent = r.agentName ? inertLine(r.agentName) : HistoryViewStrings.unnamedAgent;
  const kind = inertLine(r.kind);
  return r.verdict === 'auto_allow' ? HistoryViewStrings.allow(kind, agent) : HistoryViewStrings.deny(kind, agent);
}

export function recommendationEvidence(r: Recommendation): string {
  return r.verdict === 'auto_allow'
    ? HistoryViewStrings.evidenceAllow(r.count, r.conversations)
    : HistoryViewStrings.evidenceDeny(r.count, r.conversations);
}

function entryTooltip(e: HistoryEntry): string {
  const lines = [e.label !== undefined ? inertBlock(e.label) : HistoryViewStrings.labelHidden, ''];
  lines.push(HistoryViewStrings.at(Time.dateTime(e.at)));
  lines.push(HistoryViewStrings.kind(inertLine(e.kind ?? '—')));
  lines.push(HistoryViewStrings.option(inertLine(e.optionId), inertLine(e.optionKind ?? '—')));
  lines.push(
    HistoryViewStrings.outcomeLine(HistoryViewStrings.outcome(e.outcome) + (e.detail ? ` (${e.detail})` : '')),
  );
  if (e.reason !== undefined) {
    // The user's own words, still shown inert (one line; the whole text is in the stored history).
    lines.push(HistoryViewStrings.reasonLine(inertLine(e.reason, 500)));
  }
  lines.push(HistoryViewStrings.agent(inertLine(e.agentName ?? '—')));
  lines.push(HistoryViewStrings.runtime(inertLine(e.runtime ?? '—')));
  // Named by its title, else its agent's name, as everywhere; never by an id.
  const name = conversationName({
    ...(e.conversationTitle !== undefined ? { title: e.conversationTitle } : {}),
    ...(e.agentName !== undefined ? { agentName: e.agentName } : {}),
    ...(e.runtime !== undefined ? { runtime: e.runtime } : {}),
  });
  lines.push(HistoryViewStrings.conversation(inertLine(name, 200), inertLine(e.server)));
  return lines.join('\n');
}

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
    ...(keepLabels && c.title ? { conversationTitle: c.title } : {}),
    ...(c.agentId ? { agentId: c.agentId } : {}),
    ...(c.agentName ? { agentName: c.agentName } : {}),
    ...(c.runtime ? { runtime: c.runtime } : {}),
    ...(item.request.kind ? { kind: item.request.kind } : {}),
    ...(keepLabels ? { label: item.label } : {}),
    optionId,
    ...(option ? { optionKind: option.kind } : {}),
    outcome,
    ...(outcome === 'failed' ? { detail: result.kind } : {}),
    ...(e.reason !== undefined ? { reason: e.reason } : {}),
  };
}
