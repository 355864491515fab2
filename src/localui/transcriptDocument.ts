/**
 * Show Transcript: a read-only plain-text document per session (own scheme, the fountain-request language, so
 * editor links are off and invisible characters are highlighted). The text is Transcript.render(), which already
 * shows agent text inert. Open documents follow the session live, at most once per {@link DEBOUNCE_MS}.
 */
import * as vscode from 'vscode';
import { Disposable, type IDisposable } from '../util/lifecycle';
import type { LocalSessionManager, ManagedSession } from './manager';

export const TRANSCRIPT_SCHEME = 'fountain-transcript';
const DEBOUNCE_MS = 200;

export class TranscriptDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly _onDidChange = this._register(new vscode.EventEmitter<vscode.Uri>());
  readonly onDidChange = this._onDidChange.event;
  private readonly watched = new Map<string, { uri: vscode.Uri; sub: IDisposable; timer?: NodeJS.Timeout }>();
  // The last text of a session that left the manager's list (a stopped session's transcript stays readable).
  private readonly last = new Map<string, string>();

  constructor(private readonly manager: LocalSessionManager) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(TRANSCRIPT_SCHEME, this));
    this._register(manager.onDidChangeSessions(() => this.rebind()));
    this._register(
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === TRANSCRIPT_SCHEME) {
          this.unwatch(doc.uri.query);
        }
      }),
    );
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
    const uri = this.uriFor(s);
    this.watch(s, uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'fountain-request') {
      await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    return vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
  }

  private watch(s: ManagedSession, uri: vscode.Uri): void {
    this.unwatch(s.id);
    const entry: { uri: vscode.Uri; sub: IDisposable; timer?: NodeJS.Timeout } = {
      uri,
      sub: s.session.onDidChangeTranscript(() => {
        entry.timer ??= setTimeout(() => {
          entry.timer = undefined;
          this.last.set(s.id, s.session.transcript.render());
          this._onDidChange.fire(uri);
        }, DEBOUNCE_MS);
      }),
    };
    this.watched.set(s.id, entry);
  }

  /** After a restart the row has a new session: follow it. A session that left the list keeps its last text. */
  private rebind(): void {
    for (const [id, entry] of [...this.watched]) {
      const s = this.manager.get(id);
      if (s) {
        this.last.set(id, s.session.transcript.render());
        this.watch(s, entry.uri);
      }
      this._onDidChange.fire(entry.uri);
    }
  }

  private unwatch(id: string): void {
    const entry = this.watched.get(id);
    if (entry) {
      clearTimeout(entry.timer);
      entry.sub.dispose();
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
