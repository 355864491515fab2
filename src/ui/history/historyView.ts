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
import type { Logger } from '../../platform/log';

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
    /** Where "Decided without you" is kept, and the log its storage errors go to. */
    private readonly store: { readonly dir: string; readonly log: Logger },
  ) {
    super();
    this.view = this._register(vscode.window.createTreeView('fountain.history', { treeDataProvider: this }));
    this._register(history.onDidChange(() => this.refresh()));
    // A session row's click opens "Decided without you".
    this._register(
      vscode.commands.registerCommand('fountain.history.showDecided', (s?: unknown) =>
        this.impl().showDecided(this.view, s),
      ),
    );
    this._register(provenance.onDidChange(() => this.refresh()));
    this._register({ dispose: () => this.timer && clearTimeout(this.timer) });
  }

  private impl(): HistoryTreeImpl {
    if (!this._impl) {
      const decided = this.decided();
      // Redrawn as decisions arrive (the log exists from here on, or from a local session's first decision).
      this._impl = this._register(
        new (historyBundle.load().HistoryTreeImpl)(this.history, this.provenance, historySettings, decided),
      );
      this._register(decided.onDidChange(() => this.refresh()));
    }
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

  private _decided: DecidedLog | undefined;

  /**
   * The local gates' decisions made without you (recorded by dist/localui.js, shown here), built in dist/history.js
   * and read from disk when first needed: this view's rows, or a local session's first decision.
   */
  decided(): DecidedLog {
    return (this._decided ??= this._register(historyBundle.load().decidedLog(this.store.dir, this.store.log)));
  }

  /** The decision a row this view created shows; undefined for anything else (Make This Ask acts only on those). */
  decidedEntryOf(arg: unknown): DecidedEntry | undefined {
    return this._impl?.decidedEntryOf(arg);
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
