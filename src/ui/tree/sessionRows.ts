/**
 * What a local session's group in the Pending Approvals tree shows besides its requests: its gate mode (in the
 * group's description and tooltip, with a warning icon in yolo) and rows of its own after its requests (its
 * grants). The tree asks this hook; the text it gets is already inert. Rows are plain, inert tree items; their
 * actions come from their contextValue (package.json menus), and a command acts only on an element the tree issued.
 * A row's click runs only a command of our own the row names (it opens a view, it answers nothing).
 */
import * as vscode from 'vscode';
import type { ConversationInfo } from '../../domain/model';
import { isLocalSource } from '../../session/localSource';

/** The local agent sessions: each is a group of the tree, shown even while nothing of it is waiting. */
export interface LocalGroups {
  /** One conversation per session (server `local:<id>`), oldest session first. */
  conversations(): readonly ConversationInfo[];
  readonly onDidChange: vscode.Event<void>;
  /** What a session's group shows besides its requests (its gate mode, its grants); text already inert. */
  extras?(server: string): LocalGroupExtras | undefined;
}

/** A local session group's gate mode and the rows after its requests. */
export interface LocalGroupExtras {
  readonly mode: { readonly text: string; readonly tooltip: string; readonly warning: boolean };
  readonly rows: readonly SessionRow[];
}

export interface SessionRow {
  /** Unique in the tree. */
  readonly id: string;
  readonly label: string;
  readonly tooltip: string;
  readonly icon: string;
  readonly contextValue: string;
  /** What a click runs (the "N decided without you" row opens its group); most rows have none. */
  readonly command?: { readonly command: string; readonly title: string; readonly arguments?: readonly unknown[] };
}

/** The tree's side of the hook: the rows it handed out (since its last full listing), under which group. */
export class SessionRows {
  private source: LocalGroups | undefined;
  private readonly rows = new Map<string, { row: SessionRow; conversation: string }>();

  use(source: LocalGroups): void {
    this.source = source;
  }

  extras(server: string): LocalGroupExtras | undefined {
    return isLocalSource(server) ? this.source?.extras?.(server) : undefined;
  }

  /** The tree lists its groups again: rows are remembered anew as their groups are expanded. */
  clear(): void {
    this.rows.clear();
  }

  /** The rows of the group `conversation` (its element id), remembered for getTreeItem and getParent. */
  rowsOf(server: string, conversation: string): readonly SessionRow[] {
    const rows = this.extras(server)?.rows ?? [];
    rows.forEach((row) => this.rows.set(row.id, { row, conversation }));
    return rows;
  }

  row(id: string): SessionRow | undefined {
    return this.rows.get(id)?.row;
  }

  conversationOf(id: string): string | undefined {
    return this.rows.get(id)?.conversation;
  }

  item(id: string): vscode.TreeItem {
    const row = this.row(id);
    const t = new vscode.TreeItem(row?.label ?? '');
    t.id = 'sessionRow:' + id;
    t.tooltip = row?.tooltip;
    t.iconPath = row && new vscode.ThemeIcon(row.icon);
    t.contextValue = row?.contextValue;
    t.command = row?.command as vscode.Command | undefined;
    return t;
  }

  /** The group's description and tooltip with the mode added, and the warning icon in yolo. */
  decorateGroup(t: vscode.TreeItem, c: ConversationInfo): void {
    const mode = this.extras(c.server)?.mode;
    if (mode) {
      t.description = `${String(t.description)} · ${mode.text}`;
      t.tooltip = `${t.tooltip as string}\n${mode.tooltip}`;
      if (mode.warning) {
        t.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground'));
      }
    }
  }
}
