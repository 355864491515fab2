import * as vscode from 'vscode';
import { Emitter } from '../../domain/events';
import type { DecidedEntry, DecidedLog } from '../../domain/decidedLog';
import type { HistoryEntry, HistoryLog } from '../../domain/history';
import type { Recommendation } from '../../domain/recommendations';
import { Disposable } from '../../util/lifecycle';
import type { AnsweredEvent } from '../answer/answerFlow';
import type { HistoryElement, HistoryTreeImpl } from './historyTree';
import { lazyBundle } from '../lazyBundle';
import type { ProvenanceService } from '../policy/provenanceService';

export type { HistoryElement };

/** The History view's rows and recommendation texts: dist/history.js, loaded on the view's first rows. */
export const historyBundle = lazyBundle<typeof import('./historyTree')>('history.js');

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

/**
 * The "History" view, registered at activation; its rows come from dist/history.js (src/ui/history/historyTree.ts), loaded
 * when VS Code first asks for them (the view is shown) or a recommendation is needed.
 */
export class HistoryTree extends Disposable implements vscode.TreeDataProvider<HistoryElement> {
  private readonly _onDidChangeTreeData = this._register(new Emitter<HistoryElement | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  readonly view: vscode.TreeView<HistoryElement>;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private _impl: HistoryTreeImpl | undefined;

  constructor(
    private readonly history: HistoryLog,
    private readonly provenance: ProvenanceService,
    private readonly decided: DecidedLog,
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView('fountain.history', { treeDataProvider: this }));
    this._register(history.onDidChange(() => this.refresh()));
    this._register(decided.onDidChange(() => this.refresh()));
    this._register(provenance.onDidChange(() => this.refresh()));
    this._register({ dispose: () => this.timer && clearTimeout(this.timer) });
  }

  private impl(): HistoryTreeImpl {
    this._impl ??= this._register(
      new (historyBundle.load().HistoryTreeImpl)(this.history, this.provenance, historySettings, this.decided),
    );
    return this._impl;
  }

  /** The current recommendations, skipping what the cached agent policy already says. */
  recommendations(): Recommendation[] {
    return this.impl().recommendations();
  }

  /**
   * The history entry for one answer sent from this extension; the label only when the user keeps labels. Built in
   * dist/history.js (loaded here at the first answer, not at activation).
   */
  entryOf(e: AnsweredEvent, at: number): HistoryEntry {
    return historyBundle.load().historyEntryOf(e, historySettings.keepLabels, at);
  }

  /** "Make "execute" auto_allow for <agent>?" and its evidence, for a recommendation. */
  texts(r: Recommendation): { label: string; evidence: string } {
    const m = historyBundle.load();
    return { label: m.recommendationLabel(r), evidence: m.recommendationEvidence(r) };
  }

  /** True for an element this view created (commands refuse anything else); nothing was issued before it loaded. */
  isIssued(arg: unknown): arg is HistoryElement {
    return this._impl?.isIssued(arg) ?? false;
  }

  /** The decision an element this view created shows; undefined for anything else (Make This Ask acts on it). */
  decidedEntryOf(arg: unknown): DecidedEntry | undefined {
    return this.isIssued(arg) && arg.kind === 'decided' ? arg.entry : undefined;
  }

  /**
   * Shows "Decided without you" in the History view, expanded, with the newest decision of `session` selected (a
   * session row's click).
   */
  async showDecided(session?: string): Promise<void> {
    const impl = this.impl();
    await vscode.commands.executeCommand('fountain.history.focus');
    if (this.decided.latest().length === 0) {
      return; // no group to show (the view shows its answers, or its welcome content)
    }
    await this.view.reveal(impl.decidedGroup, { expand: true, focus: true, select: true });
    const newest = session !== undefined ? impl.newestOf(session) : undefined;
    if (newest) {
      await this.view.reveal(newest, { focus: true, select: true });
    }
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

  getChildren(element?: HistoryElement): HistoryElement[] {
    return this.impl().getChildren(element);
  }

  getTreeItem(element: HistoryElement): vscode.TreeItem {
    return this.impl().getTreeItem(element);
  }

  getParent(element: HistoryElement): HistoryElement | undefined {
    return this.impl().getParent(element);
  }
}
