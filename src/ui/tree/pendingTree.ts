import * as vscode from 'vscode';
import type { ConversationGroup, Inbox, InboxItem } from '../../domain/inbox';
import { Emitter, type Event } from '../../domain/events';
import { inlineAllowOption, inlineRejectOption } from '../../domain/optionChoice';
import { conversationOfId, type ConversationInfo } from '../../domain/model';
import { conversationKey, TreeModel } from '../../domain/treeModel';
import { isLocalSource } from '../../session/localSource';
import { Disposable } from '../../util/lifecycle';
import { DangerStrings } from '../danger/dangerStrings';
import { inertBlockShort, inertLabel, inertLine } from '../display';
import { rowStateText } from './rowText';
import { SessionRows, type LocalGroups } from './sessionRows';
import { conversationName, PolicyStrings, TreeStrings } from '../strings';

/** Explains which policy key asked for a request (src/ui/provenance.ts); the text is already inert. */
export interface ProvenanceText {
  describe(item: InboxItem): string;
  readonly onDidChange: vscode.Event<void>;
}

export type { LocalGroups } from './sessionRows';

/** Tree elements are plain data; the provider hands out one object per id and remembers which ones it made. */
export type TreeElement =
  | { readonly kind: 'conversation'; readonly id: string }
  | { readonly kind: 'request'; readonly id: string }
  | { readonly kind: 'sessionRow'; readonly id: string };

/** Code points of one agent text a tooltip shows; the details document has all of it. */
const TOOLTIP_TEXT_MAX = 2000;

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
  private readonly _onDidChangeTreeData = this._register(new Emitter<TreeElement | TreeElement[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  /** The element objects handed out, by kind and id. */
  private readonly _elements: Record<TreeElement['kind'], Map<string, TreeElement>> = {
    conversation: new Map(),
    request: new Map(),
    sessionRow: new Map(),
  };
  /** The conversation keys of the root as last handed to VS Code, and each conversation's request ids. */
  private _roots: readonly string[] | undefined;
  private readonly _handed = new Map<string, readonly string[]>();
  /**
   * Tree items as last built: a request's for its inbox snapshot (a new object on every change of the item) and its
   * state text, a conversation's for its group object (the model keeps an unchanged group's object).
   */
  private readonly _requestItems = new Map<string, { snapshot: InboxItem; state: string; item: vscode.TreeItem }>();
  private readonly _conversationItems = new Map<string, { group: ConversationGroup; item: vscode.TreeItem }>();
  private readonly _issued = new WeakSet<object>();
  readonly view: vscode.TreeView<TreeElement>;
  private _refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Ids changed since the last refresh; undefined when the next refresh must redraw everything. */
  private _pendingIds: Set<string> | undefined = new Set();
  private _provenance: ProvenanceText | undefined;
  private readonly model: TreeModel;
  /** A local session's mode and its own rows (grants), from the local agents (the hook of sessionRows.ts). */
  private readonly sessionRows = new SessionRows();

  constructor(
    private readonly inbox: Inbox,
    countdown: Event<void>,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this.model = this._register(new TreeModel(inbox));
    this.view = this._register(
      vscode.window.createTreeView('fountain.pending', {
        treeDataProvider: this,
        showCollapseAll: true,
        canSelectMany: true,
      }),
    );
    this._register(
      inbox.onDidChangeItems((change) => {
        for (const id of change.ids) {
          this._pendingIds?.add(id);
        }
        this.scheduleRefresh();
      }),
    );
    // Countdowns in descriptions move on even when nothing else changes (the inbox clock's beat): redraw only the
    // rows whose text moved.
    this._register(countdown(() => this.refreshCountdowns()));
    this.updateBadge();
  }

  /** Adds "Why asked: …" (which policy key asked) to request tooltips, and redraws when it changes. */
  showProvenance(source: ProvenanceText): void {
    this._provenance = source;
    this._register(
      source.onDidChange(() => {
        this._requestItems.clear(); // their tooltips
        this.scheduleRefresh(true);
      }),
    );
  }

  /** Lists the local agent sessions beside the remote conversations, and redraws when they change. */
  showLocalSessions(source: LocalGroups): void {
    this.sessionRows.use(source);
    this.model.listConversations(() => source.conversations());
    this._register(
      source.onDidChange(() => {
        this.model.invalidate();
        this.scheduleRefresh(true);
      }),
    );
    this.scheduleRefresh(true);
  }

  /** True only for element objects this provider created (never for an object another extension passed). */
  isIssued(arg: unknown): arg is TreeElement {
    return typeof arg === 'object' && arg !== null && this._issued.has(arg);
  }

  /** The element of a request row (for revealing it), when the inbox holds the request. */
  requestElement(itemId: string): TreeElement | undefined {
    return this.inbox.get(itemId) ? this.element('request', itemId) : undefined;
  }

  /** The inbox item behind a request element this provider created. */
  itemOf(element: TreeElement): InboxItem | undefined {
    return element.kind === 'request' ? this.inbox.get(element.id) : undefined;
  }

  /**
   * Debounced refresh, so a burst of events redraws once: the changed rows and their conversations while the root's
   * list of conversations stays as VS Code has it, else all (then unchanged rows come from the item caches).
   */
  scheduleRefresh(all = false): void {
    if (all) {
      this._pendingIds = undefined;
    }
    if (this._refreshTimer) {
      return;
    }
    this._refreshTimer = setTimeout(() => {
      this._refreshTimer = undefined;
      const ids = this._pendingIds;
      this._pendingIds = new Set();
      if (ids === undefined || (ids.size > 0 && !this.sameRoots())) {
        this._onDidChangeTreeData.fire(undefined);
      } else if (ids.size > 0) {
        this.fireRows([...ids], true);
      }
      this.updateBadge();
    }, 50);
  }

  /** Redraws the request rows whose state text (countdown, "12 seconds ago") moved since drawn; none when none did. */
  refreshCountdowns(): void {
    const moved: string[] = [];
    for (const [id, drawn] of this._requestItems) {
      const item = this.inbox.get(id);
      if (item && this.stateText(item) !== drawn.state) {
        moved.push(id);
      }
    }
    if (moved.length) {
      this.fireRows(moved, false);
    }
  }

  /** True when the root's conversations, in order, are those VS Code was last handed. */
  private sameRoots(): boolean {
    const roots = this._roots;
    const groups = this.model.groups();
    return roots !== undefined && roots.length === groups.length && groups.every((g, i) => convId(g) === roots[i]);
  }

  /**
   * Fires a change for the given request rows that VS Code has been handed and still exist, and, with
   * `conversations`, for the conversation rows they are (or were) in: VS Code then asks those for their children
   * again, which shows a request that came or went.
   */
  private fireRows(ids: readonly string[], conversations: boolean): void {
    const elements = new Set<TreeElement>();
    for (const id of ids) {
      const item = this.inbox.get(id);
      const row = this._elements.request.get(id);
      if (row && item) {
        elements.add(row);
      }
      if (!conversations) {
        continue;
      }
      const c = conversationOfId(id); // also of a request that is gone
      const conv = this._elements.conversation.get(conversationKey(c.server, c.conversationId));
      if (conv) {
        elements.add(conv);
      }
    }
    if (elements.size) {
      this._onDidChangeTreeData.fire([...elements]);
    }
  }

  private element(kind: TreeElement['kind'], id: string): TreeElement {
    const known = this._elements[kind].get(id);
    if (known) {
      return known;
    }
    const e: TreeElement = { kind, id };
    this._elements[kind].set(id, e);
    this._issued.add(e);
    return e;
  }

  /** Forgets what is kept for a request row that is gone. */
  private forgetRequest(id: string): void {
    this._elements.request.delete(id);
    this._requestItems.delete(id);
  }

  private updateBadge(): void {
    const n = this.inbox.openCount;
    this.view.badge = n > 0 ? { value: n, tooltip: TreeStrings.badge(n) } : undefined;
  }

  //#region TreeDataProvider
  getChildren(element?: TreeElement): TreeElement[] {
    if (!element) {
      const groups = this.model.groups();
      this.sessionRows.clear();
      this._elements.sessionRow.clear();
      const roots = groups.map(convId);
      // Forget what is kept for things that are gone, so the maps stay bounded.
      const live = new Set(roots);
      for (const k of [...this._elements.conversation.keys()]) {
        if (!live.has(k)) {
          this._elements.conversation.delete(k);
          this._conversationItems.delete(k);
          this._handed.delete(k);
        }
      }
      for (const id of [...this._elements.request.keys()]) {
        if (!this.inbox.get(id)) {
          this.forgetRequest(id);
        }
      }
      this._roots = roots;
      return roots.map((k) => this.element('conversation', k));
    }
    if (element.kind === 'conversation') {
      const g = this.model.group(element.id);
      const ids = g ? g.items.map((i) => i.id) : [];
      const before = this._handed.get(element.id);
      if (before) {
        const now = new Set(ids);
        for (const id of before) {
          if (!now.has(id)) {
            this.forgetRequest(id);
          }
        }
      }
      this._handed.set(element.id, ids);
      const rows = g ? this.sessionRows.rowsOf(g.server, element.id).map((r) => this.element('sessionRow', r.id)) : [];
      return [...ids.map((id) => this.element('request', id)), ...rows];
    }
    return [];
  }

  getParent(element: TreeElement): TreeElement | undefined {
    if (element.kind === 'request') {
      const item = this.inbox.get(element.id);
      return item ? this.element('conversation', conversationKey(item.key.server, item.key.conversationId)) : undefined;
    }
    const conversation = element.kind === 'sessionRow' ? this.sessionRows.conversationOf(element.id) : undefined;
    return conversation !== undefined ? this.element('conversation', conversation) : undefined;
  }

  getTreeItem(element: TreeElement): vscode.TreeItem {
    if (element.kind === 'conversation') {
      const g = this.model.group(element.id);
      const cached = this._conversationItems.get(element.id);
      if (g && cached && cached.group === g) {
        return cached.item;
      }
      const t = this.conversationItem(element.id, g);
      if (g) {
        this._conversationItems.set(element.id, { group: g, item: t });
      }
      return t;
    }
    if (element.kind === 'sessionRow') {
      return this.sessionRows.item(element.id);
    }
    const item = this.inbox.get(element.id);
    if (!item) {
      const t = new vscode.TreeItem(TreeStrings.unknownRequest, vscode.TreeItemCollapsibleState.None);
      t.id = 'request:' + element.id;
      return t;
    }
    const state = this.stateText(item);
    const cached = this._requestItems.get(item.id);
    if (cached && cached.snapshot === item && cached.state === state) {
      return cached.item;
    }
    const t = this.requestItem(element, item, state);
    this._requestItems.set(item.id, { snapshot: item, state, item: t });
    return t;
  }

  /** A request's or conversation's tooltip is made when VS Code first shows it (on hover), not for every row drawn. */
  resolveTreeItem(t: vscode.TreeItem, element: TreeElement): vscode.TreeItem {
    if (t.tooltip !== undefined) {
      return t;
    }
    if (element.kind === 'request') {
      const item = this.inbox.get(element.id);
      t.tooltip = item && this.tooltip(item);
    } else if (element.kind === 'conversation') {
      const g = this.model.group(element.id);
      t.tooltip = g && this.conversationTooltip(g.conversation);
    }
    return t;
  }
  //#endregion

  private conversationItem(id: string, g: ConversationGroup | undefined): vscode.TreeItem {
    const t = new vscode.TreeItem(TreeStrings.unknownConversation, vscode.TreeItemCollapsibleState.Expanded);
    t.id = 'conversation:' + id;
    if (!g) {
      return t;
    }
    const c = g.conversation;
    // Named by its title, else its agent's name and runtime: never by an id (src/domain/conversationLabel.ts).
    const name = conversationName(c);
    t.label = inertLabel(name, 60).text;
    const waiting = g.items.filter((i) => i.pending).length;
    if (isLocalSource(g.server)) {
      return this.localGroupItem(t, c, waiting);
    }
    const agent = c.agentName;
    // The agent and runtime once, in the label or else here.
    const named = !!c.title?.trim();
    t.description = [
      named && agent && inertLine(agent),
      named && c.runtime && inertLine(c.runtime),
      TreeStrings.waiting(waiting),
    ]
      .filter(Boolean)
      .join(' · ');
    t.iconPath = themeIcon('comment-discussion');
    t.contextValue = 'fountainConversation;';
    return t;
  }

  /** A conversation row's tooltip (plain text): its name in full, its agent and runtime, its server. */
  private conversationTooltip(c: ConversationInfo): string {
    const title = inertBlockShort(conversationName(c), TOOLTIP_TEXT_MAX);
    if (isLocalSource(c.server)) {
      return [title.text, TreeStrings.tooltipLocal(inertLine(c.agentName ?? '—'))].join('\n');
    }
    return [
      title.text,
      ...(title.shortened ? [TreeStrings.tooltipShortened] : []),
      TreeStrings.tooltipAgent(c.agentName ? inertLine(c.agentName) : '—', c.runtime ? inertLine(c.runtime) : '—'),
      TreeStrings.tooltipServer(inertLine(c.server)),
    ].join('\n');
  }

  /** A request row; its tooltip comes from resolveTreeItem. */
  private requestItem(element: TreeElement, item: InboxItem, state: string): vscode.TreeItem {
    const t = new vscode.TreeItem(TreeStrings.unknownRequest, vscode.TreeItemCollapsibleState.None);
    t.id = 'request:' + element.id;
    const label = inertLabel(item.label, 80);
    t.label = label.text;
    const kind = item.request.kind ?? 'other';
    const danger = item.danger && DangerStrings.treeDescription;
    // A kind the protocol names is a plain word shown as it is; any other is agent text.
    const known = Object.hasOwn(KIND_ICONS, kind);
    const kindText = known ? kind : inertLine(kind, 40);
    t.description = danger ? `${danger} · ${kindText}` : kindText;
    if (state) {
      t.description += ' · ' + state;
    }
    t.iconPath = item.pending
      ? themeIcon(
          item.danger ? 'warning' : known ? KIND_ICONS[kind] : 'question',
          item.danger ? 'list.errorForeground' : item.severity === 'high' ? 'list.warningForeground' : undefined,
        )
      : themeIcon(item.state.kind === 'answeredByYou' ? 'pass' : 'circle-slash', 'disabledForeground');
    let flags = 'fountainRequest;';
    if (item.answerable) {
      flags += 'answerable;';
      if (inlineAllowOption(item.request.options)) {
        flags += 'allowOnce;';
      }
      if (inlineRejectOption(item.request.options)) {
        flags += 'reject;';
      }
      if (item.state.kind === 'leftOpen') {
        flags += 'retry;';
      }
    } else {
      flags += 'closed;';
    }
    if (item.request.diffs.length > 0) {
      flags += 'diff;';
    }
    t.contextValue = flags;
    t.command = { command: 'fountain.request.showDetails', title: TreeStrings.showDetails, arguments: [element] };
    t.accessibilityInformation = { label: `${label.text}, ${t.description}` };
    return t;
  }

  /** "Local · agent · folder", with the session's status (idle / running / waiting) and the waiting count. */
  private localGroupItem(t: vscode.TreeItem, c: ConversationInfo, waiting: number): vscode.TreeItem {
    t.description = [TreeStrings.localStatus(c.status ?? ''), TreeStrings.waiting(waiting)].join(' · ');
    t.tooltip = this.conversationTooltip(c); // made here: the session's mode is added to it
    t.iconPath = new vscode.ThemeIcon('vm');
    t.contextValue = 'fountainLocalSession;';
    this.sessionRows.decorateGroup(t, c);
    return t;
  }

  /** "4:59 left", "answering…", "answered elsewhere: Reject · 12 seconds ago", "expired"… (src/ui/tree/rowText.ts) */
  private stateText(item: InboxItem): string {
    return rowStateText(item, this.now());
  }

  /** Plain-text tooltip (never markdown): the full label and options, with control/bidi characters made visible. */
  private tooltip(item: InboxItem): string {
    const r = item.request;
    const label = inertBlockShort(item.label, TOOLTIP_TEXT_MAX);
    const lines = [label.text, ''];
    if (item.danger) {
      lines.push(DangerStrings.tooltip(inertLine(item.danger.reason, 200)));
    }
    let shortened = label.shortened;
    lines.push(TreeStrings.tooltipKind(inertLine(r.kind ?? '—')));
    if (this._provenance) {
      lines.push(PolicyStrings.tooltipWhy(this._provenance.describe(item)));
    }
    lines.push(TreeStrings.tooltipConversationTitle(inertLine(conversationName(item.conversation))));
    if (r.summary && r.summary !== item.label) {
      const summary = inertBlockShort(r.summary, TOOLTIP_TEXT_MAX);
      shortened ||= summary.shortened;
      lines.push(TreeStrings.tooltipSummary(''), summary.text);
    }
    lines.push(
      TreeStrings.tooltipOptions(r.options.map((o) => `${inertLine(o.name)} (${inertLine(o.kind)})`).join(', ')),
    );
    if (item.lastError) {
      lines.push(TreeStrings.tooltipLastError(item.lastError.result.kind));
    }
    if (shortened) {
      lines.push(TreeStrings.tooltipShortened);
    }
    return lines.join('\n');
  }
}

const icons = new Map<string, vscode.ThemeIcon>();

/** One ThemeIcon object per icon and colour (plain data VS Code reads), not one per row drawn. */
function themeIcon(name: string, color?: string): vscode.ThemeIcon {
  const key = `${name} ${color ?? ''}`;
  let icon = icons.get(key);
  if (!icon) {
    icon = new vscode.ThemeIcon(name, color === undefined ? undefined : new vscode.ThemeColor(color));
    icons.set(key, icon);
  }
  return icon;
}

function convId(g: { readonly server: string; readonly conversationId: string }): string {
  return conversationKey(g.server, g.conversationId);
}
