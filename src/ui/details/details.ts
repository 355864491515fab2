import * as vscode from 'vscode';
import { Emitter } from '../../domain/events';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { Disposable } from '../../util/lifecycle';
import { inertLine } from '../display';
import type { LazyEvidence } from '../evidence/lazyEvidence';
import { lazyBundle } from '../lazyBundle';
import type { ProvenanceText } from '../tree/pendingTree';
import { DETAILS_SCHEME, DIFF_SCHEME, itemIdOf, requestIdOf } from './requestEditors';
import { DetailStrings } from '../strings';

/** What the details read of the evidence (src/ui/evidence/lazyEvidence.ts, which loads dist/evidence.js on first use). */
type Evidence = Pick<LazyEvidence, 'onDidChange' | 'load' | 'lines' | 'currentFile' | 'forget'>;

export const detailsBundle = lazyBundle<typeof import('./detailsDocument')>('details.js');

/**
 * Read-only plain-text documents that show everything about one request: the whole command or title (never cut),
 * summary, paths, pretty-printed raw input, every option with name, kind and id, the deadline and, once resolved,
 * who answered. Agent text is inert: no markdown, no links (the document's language turns editor links off), and
 * control/bidi characters appear as visible escapes. One document per request, reused.
 */
export class RequestDetailsView extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this._register(new Emitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly _open = new Map<string, vscode.Uri>();
  private _provenance: ProvenanceText | undefined;
  private _evidence: Evidence | undefined;
  /** Open Diff's left sides read from the sandbox or the disk, by `itemId&index`. */
  private readonly _current = new Map<string, string>();

  constructor(
    private readonly inbox: Inbox,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, this));
    this._register(
      vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, new DiffContent(inbox, this._current)),
    );
    this._register(
      inbox.onDidChangeItems((change) => {
        for (const id of change.ids) {
          const uri = this._open.get(id);
          if (uri) {
            this._onDidChange.fire(uri);
          }
        }
      }),
    );
    // Setting the document's language closes and reopens it (VS Code fires both events): the reopened document,
    // like one restored with its tab, is kept up to date too.
    this._register(
      vscode.workspace.onDidOpenTextDocument((doc) => {
        const id = itemIdOf(doc.uri);
        if (id !== undefined) {
          this._open.set(id, doc.uri);
        }
      }),
    );
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === DETAILS_SCHEME) {
          this._open.delete(itemIdOf(doc.uri) ?? '');
        }
      }),
    );
  }

  /** Adds the "Why asked" line (which policy key asked) and refreshes open documents when it changes. */
  showProvenance(source: ProvenanceText): void {
    this._provenance = source;
    this._register(
      source.onDidChange(() => {
        for (const uri of this._open.values()) {
          this._onDidChange.fire(uri);
        }
      }),
    );
  }

  /** Adds the evidence (sandbox or disk) to edits' details and Open Diff; refreshes open documents as it arrives. */
  showEvidence(evidence: Evidence): void {
    this._evidence = evidence;
    this._register(
      evidence.onDidChange((id) => {
        // Also while its document is being reopened (setting its language closes it for a moment).
        const item = this.inbox.get(id);
        const uri = this._open.get(id) ?? (item ? this.uriFor(item) : undefined);
        if (uri) {
          this._onDidChange.fire(uri);
        }
      }),
    );
    this._register(
      this.inbox.onDidChangeItems((change) => {
        for (const id of change.ids) {
          if (!this.inbox.get(id)) {
            evidence.forget(id);
          }
        }
      }),
    );
  }

  uriFor(item: InboxItem): vscode.Uri {
    // The tab shows the request id only; agent text never reaches a tab title.
    const name = `Approval ${item.key.requestId.replace(/[^\w.-]/g, '_')}`;
    return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${name}`, query: encodeURIComponent(item.id) });
  }

  /** Opens (or reveals) the request's details. From the tree, focus stays in the tree so keyboard triage goes on. */
  async show(item: InboxItem, opts: { preserveFocus?: boolean } = {}): Promise<void> {
    const uri = this.uriFor(item);
    this._open.set(item.id, uri);
    let doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'fountain-request') {
      // Setting the language closes the document and opens it again: show the one it returns.
      doc = await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: opts.preserveFocus ?? false });
    // Read lazily, once the document is on screen: the sandbox's git status starts now, never before (the toast is
    // already up), and each change of it refreshes the open document.
    this._evidence?.load(item);
  }

  /** Opens VS Code's diff editor on the request's first (or chosen) diff: old vs proposed text, both read-only. */
  async openDiff(item: InboxItem, index = 0): Promise<boolean> {
    const diff = item.request.diffs[index];
    if (!diff) {
      return false;
    }
    const base = encodeURIComponent(item.id);
    const safePath = diff.path.replace(/[^\w./-]/g, '_');
    // The left side is what is there now (the sandbox's file, or the disk's for a local agent) when it can be
    // read; else the agent's own old text, and the details say why.
    const current = await this._evidence?.currentFile(item, index);
    const side = current ? 'current' : 'old';
    if (current) {
      this._current.set(`${item.id}&${index}`, current.text);
    }
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: safePath, query: `${base}&${index}&${side}` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: safePath, query: `${base}&${index}&new` });
    const title = current?.title ?? DetailStrings.diffTitle(inertLine(diff.path));
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
    return true;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = itemIdOf(uri);
    const item = id ? this.inbox.get(id) : undefined;
    return item ? this.render(item) : DetailStrings.gone;
  }

  /** The document's text (built by dist/details.js, loaded on the first details shown). */
  render(item: InboxItem): string {
    return detailsBundle.load().renderDetails(item, this._provenance, this.now(), this._evidence?.lines(item));
  }
}

/** Serves the old and new sides of a request's diffs. */
class DiffContent implements vscode.TextDocumentContentProvider {
  constructor(
    private readonly inbox: Inbox,
    private readonly current: ReadonlyMap<string, string>,
  ) {}
  provideTextDocumentContent(uri: vscode.Uri): string {
    const [, index, side] = uri.query.split('&');
    const id = requestIdOf(uri);
    const item = id ? this.inbox.get(id) : undefined;
    const diff = item?.request.diffs[Number(index)];
    if (!diff) {
      return '';
    }
    if (side === 'current') {
      return this.current.get(`${id}&${index}`) ?? diff.oldText ?? '';
    }
    return side === 'old' ? (diff.oldText ?? '') : diff.newText;
  }
}
