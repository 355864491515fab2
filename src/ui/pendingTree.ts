import * as vscode from 'vscode';
import type { ConversationGroup, Inbox, InboxItem, ItemState } from '../domain/inbox';
import { Emitter, type Event } from '../domain/events';
import { Time } from './time';
import { inlineAllowOption, inlineRejectOption } from '../domain/optionChoice';
import { AGENT_EXITED, type ConversationInfo } from '../domain/model';
import { isLocalSource } from '../session/localSource';
import { Disposable } from '../util/lifecycle';
import { inertBlock, inertLabel, inertLine } from './display';
import { PolicyStrings, TreeStrings } from './strings';

/** Explains which policy key asked for a request (src/ui/provenance.ts); the text is already inert. */
export interface ProvenanceText {
  describe(item: InboxItem): string;
  readonly onDidChange: vscode.Event<void>;
}

/** The local agent sessions: each is a group of the tree, shown even while nothing of it is waiting. */
export interface LocalGroups {
  /** One conversation per session (server `local:<id>`), oldest session first. */
  conversations(): readonly ConversationInfo[];
  readonly onDidChange: vscode.Event<void>;
}

/** Tree elements are plain data; the provider hands out one object per id and remembers which ones it made. */
export type TreeElement =
  { readonly kind: 'conversation'; readonly id: string } | { readonly kind: 'request'; readonly id: string };

const KIND_ICONS: Record<string, string> = {
  execute: 'terminal',
  edit: 'edit',
  delete: 'trash',
  move: 'arrow-swap',
  read: 'file',
  search: 'search',
  fetch: 'globe',
  think: 'lightbulb',
  switch_mode: 'debug-step-over',
  other: 'question',
};

/**
 * The "Pending Approvals" tree: conversations → requests, with the view badge. It only presents the inbox; every
 * answer goes through AnswerFlow. Elements it created are tracked so that commands can refuse forged arguments.
 */
export class PendingTree extends Disposable implements vscode.TreeDataProvider<TreeElement> {
  private readonly _onDidChangeTreeData = this._register(new Emitter<TreeElement | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly _elements = new Map<string, TreeElement>();
  private readonly _issued = new WeakSet<object>();
  readonly view: vscode.TreeView<TreeElement>;
  private _refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private _provenance: ProvenanceText | undefined;
  private _local: LocalGroups | undefined;

  constructor(
    private readonly inbox: Inbox,
    countdown: Event<void>,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.view = this._register(
      vscode.window.createTreeView('fountain.pending', { treeDataProvider: this, showCollapseAll: true }),
    );
    this._register(inbox.onDidChangeItems(() => this.scheduleRefresh()));
    // Countdowns in descriptions move on even when nothing else changes (the inbox clock's beat).
    this._register(countdown(() => this._onDidChangeTreeData.fire(undefined)));
    this.updateBadge();
  }

  /** Adds "Why asked: …" (which policy key asked) to request tooltips, and redraws when it changes. */
  showProvenance(source: ProvenanceText): void {
    this._provenance = source;
    this._register(source.onDidChange(() => this.scheduleRefresh()));
  }

  /** Lists the local agent sessions beside the remote conversations, and redraws when they change. */
  showLocalSessions(source: LocalGroups): void {
    this._local = source;
    this._register(source.onDidChange(() => this.scheduleRefresh()));
    this.scheduleRefresh();
  }

  /** True only for element objects this provider created (never for an object another extension passed). */
  isIssued(arg: unknown): arg is TreeElement {
    return typeof arg === 'object' && arg !== null && this._issued.has(arg);
  }

  /** The inbox item behind a request element this provider created. */
  itemOf(element: TreeElement): InboxItem | undefined {
    return element.kind === 'request' ? this.inbox.get(element.id) : undefined;
  }

  /** Debounced refresh, so a burst of events redraws once. */
  scheduleRefresh(): void {
    if (this._refreshTimer) {
      return;
    }
    this._refreshTimer = setTimeout(() => {
      this._refreshTimer = undefined;
      this._onDidChangeTreeData.fire(undefined);
      this.updateBadge();
    }, 50);
  }

  private element(kind: TreeElement['kind'], id: string): TreeElement {
    const key = kind + ':' + id;
    const known = this._elements.get(key);
    if (known) {
      return known;
    }
    const e: TreeElement = { kind, id };
    this._elements.set(key, e);
    this._issued.add(e);
    return e;
  }

  private updateBadge(): void {
    const n = this.inbox.openCount;
    this.view.badge = n > 0 ? { value: n, tooltip: TreeStrings.badge(n) } : undefined;
  }

  private groups(): ConversationGroup[] {
    const groups = this.inbox.byConversation();
    const sessions = this._local?.conversations() ?? [];
    if (!sessions.length) {
      return groups;
    }
    // A local session's row carries its current status; one with nothing in the inbox is still listed.
    const fresh = new Map(sessions.map((c) => [JSON.stringify([c.server, c.id]), c]));
    const merged = groups.map((g) => {
      const c = fresh.get(convId(g));
      fresh.delete(convId(g));
      return c ? { ...g, conversation: c } : g;
    });
    for (const c of fresh.values()) {
      merged.push({ server: c.server, conversationId: c.id, conversation: c, items: [] });
    }
    return merged;
  }

  //#region TreeDataProvider
  getChildren(element?: TreeElement): TreeElement[] {
    if (!element) {
      const groups = this.groups();
      // Forget element objects for things that are gone, so the maps stay bounded.
      const live = new Set<string>();
      for (const g of groups) {
        live.add('conversation:' + convId(g));
        for (const i of g.items) {
          live.add('request:' + i.id);
        }
      }
      for (const k of [...this._elements.keys()]) {
        if (!live.has(k)) {
          this._elements.delete(k);
        }
      }
      return groups.map((g) => this.element('conversation', convId(g)));
    }
    if (element.kind === 'conversation') {
      const g = this.groups().find((x) => convId(x) === element.id);
      return g ? g.items.map((i) => this.element('request', i.id)) : [];
    }
    return [];
  }

  getParent(element: TreeElement): TreeElement | undefined {
    if (element.kind === 'request') {
      const item = this.inbox.get(element.id);
      return item
        ? this.element('conversation', JSON.stringify([item.key.server, item.key.conversationId]))
        : undefined;
    }
    return undefined;
  }

  getTreeItem(element: TreeElement): vscode.TreeItem {
    if (element.kind === 'conversation') {
      const g = this.groups().find((x) => convId(x) === element.id);
      const t = new vscode.TreeItem(TreeStrings.unknownConversation, vscode.TreeItemCollapsibleState.Expanded);
      t.id = 'conversation:' + element.id;
      if (!g) {
        return t;
      }
      const c = g.conversation;
      t.label = inertLabel(c.title || c.id, 60).text;
      const waiting = g.items.filter((i) => i.pending).length;
      if (isLocalSource(g.server)) {
        return this.localGroupItem(t, c, waiting);
      }
      const agent = c.agentName || c.agentId;
      t.description = [agent && inertLine(agent), c.runtime && inertLine(c.runtime), TreeStrings.waiting(waiting)]
        .filter(Boolean)
        .join(' · ');
      t.tooltip = [
        inertBlock(c.title || c.id),
        TreeStrings.tooltipAgent(agent ? inertLine(agent) : '—', c.runtime ? inertLine(c.runtime) : '—'),
        TreeStrings.tooltipConversation(c.id, c.server),
      ].join('\n');
      t.iconPath = new vscode.ThemeIcon('comment-discussion');
      t.contextValue = 'fountainConversation;';
      return t;
    }
    const item = this.inbox.get(element.id);
    const t = new vscode.TreeItem(TreeStrings.unknownRequest, vscode.TreeItemCollapsibleState.None);
    t.id = 'request:' + element.id;
    if (!item) {
      return t;
    }
    const label = inertLabel(item.label, 80);
    t.label = label.text;
    const kind = item.request.kind ?? 'other';
    t.description = [inertLine(kind), this.stateText(item)].filter(Boolean).join(' · ');
    t.tooltip = this.tooltip(item);
    t.iconPath = item.pending
      ? new vscode.ThemeIcon(
          KIND_ICONS[kind] ?? 'question',
          item.severity === 'high' ? new vscode.ThemeColor('list.warningForeground') : undefined,
        )
      : new vscode.ThemeIcon(
          item.state.kind === 'answeredByYou' ? 'pass' : 'circle-slash',
          new vscode.ThemeColor('disabledForeground'),
        );
    const flags = ['fountainRequest'];
    if (item.answerable) {
      flags.push('answerable');
      if (inlineAllowOption(item.request.options)) {
        flags.push('allowOnce');
      }
      if (inlineRejectOption(item.request.options)) {
        flags.push('reject');
      }
    } else {
      flags.push('closed');
    }
    if (item.request.diffs.length > 0) {
      flags.push('diff');
    }
    t.contextValue = flags.join(';') + ';';
    t.command = { command: 'fountain.request.showDetails', title: TreeStrings.showDetails, arguments: [element] };
    t.accessibilityInformation = { label: `${label.text}, ${t.description}` };
    return t;
  }
  //#endregion

  /** "Local · agent · folder", with the session's status (idle / running / waiting) and the waiting count. */
  private localGroupItem(t: vscode.TreeItem, c: ConversationInfo, waiting: number): vscode.TreeItem {
    t.description = [TreeStrings.localStatus(c.status ?? ''), TreeStrings.waiting(waiting)].join(' · ');
    t.tooltip = [inertBlock(c.title || c.id), TreeStrings.tooltipLocal(inertLine(c.agentName ?? '—'))].join('\n');
    t.iconPath = new vscode.ThemeIcon('vm');
    t.contextValue = 'fountainLocalSession;';
    return t;
  }

  /** "4:59 left", "answering…", "answered elsewhere: reject_once", "expired"… */
  private stateText(item: InboxItem): string {
    const s: ItemState = item.state;
    switch (s.kind) {
      case 'open':
        return item.deadline !== undefined ? TreeStrings.left(Time.left(item.deadline - this.now())) : '';
      case 'answering':
        return TreeStrings.answering;
      case 'leftOpen':
        return TreeStrings.leftOpen(s.reason);
      case 'answeredByYou':
        return TreeStrings.answeredByYou(inertLine(s.optionId));
      case 'resolvedElsewhere':
        return s.optionId
          ? TreeStrings.answeredElsewhere(inertLine(s.optionId))
          : TreeStrings.answeredElsewhereNoOption;
      case 'expired':
        return TreeStrings.expired;
      case 'turnEnded':
        return TreeStrings.turnEnded;
      case 'conversationEnded':
        return s.reason === AGENT_EXITED ? TreeStrings.agentExited : TreeStrings.conversationEnded;
      case 'noLongerWaiting':
        return s.cause === 'withdrawn' ? TreeStrings.withdrawn : TreeStrings.noLongerWaiting;
    }
  }

  /** Plain-text tooltip (never markdown): the full label and options, with control/bidi characters made visible. */
  private tooltip(item: InboxItem): string {
    const r = item.request;
    const lines = [inertBlock(item.label), ''];
    lines.push(TreeStrings.tooltipKind(inertLine(r.kind ?? '—')));
    if (this._provenance) {
      lines.push(PolicyStrings.tooltipWhy(this._provenance.describe(item)));
    }
    lines.push(TreeStrings.tooltipConversationTitle(inertLine(item.conversation.title || item.conversation.id)));
    if (r.summary && r.summary !== item.label) {
      lines.push(TreeStrings.tooltipSummary(inertBlock(r.summary)));
    }
    lines.push(
      TreeStrings.tooltipOptions(r.options.map((o) => `${inertLine(o.name)} (${inertLine(o.kind)})`).join(', ')),
    );
    if (item.lastError) {
      lines.push(TreeStrings.tooltipLastError(item.lastError.result.kind));
    }
    return lines.join('\n');
  }
}

function convId(g: ConversationGroup): string {
  return JSON.stringify([g.server, g.conversationId]);
}
