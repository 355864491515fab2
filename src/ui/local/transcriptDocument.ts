/**
 * Show Transcript: a read-only plain-text document per session (own scheme, the fountain-request language, so
 * editor links are off and invisible characters are highlighted). The text is Transcript.render(), which already
 * shows agent text inert. Open documents follow the session live, at most once per {@link DEBOUNCE_MS}; a
 * restarted row's document follows the new session, and a stopped session's document keeps its last text.
 */
import * as vscode from 'vscode';
import type { LocalAgentSession } from '../../local';
import { Disposable, type IDisposable } from '../../util/lifecycle';
import type { LocalSessionManager, ManagedSession } from './manager';

export const TRANSCRIPT_SCHEME = 'fountain-transcript';
const DEBOUNCE_MS = 200;

interface Watch {
  readonly managed: ManagedSession;
  readonly session: LocalAgentSession;
  readonly sub: IDisposable;
  timer?: NodeJS.Timeout;
}

export class TranscriptDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  // Every listed session is watched (a change event for a document that is not open costs nothing: the editor
  // ignores it, and rendering happens only when the editor asks). Not tied to document close events: changing a
  // document's language closes and reopens it.
  private readonly watched = new Map<string, Watch>();
  // The last text of each session that was shown and has left the list.
  private readonly last = new Map<string, string>();
  private readonly shown = new Set<string>();

  constructor(private readonly manager: LocalSessionManager) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, this));
    this._register(manager.onDidChangeSessions(() => this.sync()));
  }

  uriFor(s: ManagedSession): vscode.Uri {
    // The tab shows the session id and the folder name (the user's own), never agent text.
    const name = `Transcript ${s.id} ${s.folder.name.replace(/[^\w.-]/g, '_')}`;
    return vscode.Uri.from({ scheme: TRANSCRIPT_SCHEME, path: `/${name}`, query: s.id });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const s = this.manager.get(uri.query);
    return s ? s.session.transcript.render() : (this.last.get(uri.query) ?? '');
  }

  async show(s: ManagedSession): Promise<vscode.TextEditor> {
    this.shown.add(s.id);
    this.sync();
    const doc = await vscode.workspace.openTextDocument(this.uriFor(s));
    if (doc.languageId !== 'fountain-request') {
      await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    return vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
  }

  /** Follows the manager's list: new and restarted sessions are watched, gone ones keep their last text. */
  private sync(): void {
    const live = new Set<string>();
    for (const m of this.manager.sessions) {
      live.add(m.id);
      const w = this.watched.get(m.id);
      if (w?.session !== m.session) {
        this.unwatch(m.id);
        this.watch(m);
      }
      this.fire(m);
    }
    for (const [id, w] of [...this.watched]) {
      if (!live.has(id)) {
        if (this.shown.has(id)) {
          this.last.set(id, w.session.transcript.render());
        }
        this.unwatch(id);
        this.fire(w.managed);
      }
    }
  }

  private watch(m: ManagedSession): void {
    const w: Watch = {
      managed: m,
      session: m.session,
      sub: m.session.onDidChangeTranscript(() => {
        w.timer ??= setTimeout(() => {
          w.timer = undefined;
          this.fire(m);
        }, DEBOUNCE_MS);
      }),
    };
    this.watched.set(m.id, w);
  }

  private fire(m: ManagedSession): void {
    if (this.shown.has(m.id)) {
      this._onDidChange.fire(this.uriFor(m));
    }
  }

  private unwatch(id: string): void {
    const w = this.watched.get(id);
    if (w) {
      clearTimeout(w.timer);
      w.sub.dispose();
      this.watched.delete(id);
    }
  }

  override dispose(): void {
    for (const id of [...this.watched.keys()]) {
      this.unwatch(id);
    }
    super.dispose();
  }
}
