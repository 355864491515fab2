/**
 * The evidence before the click (issue 20) is its own bundle, dist/evidence.js (src/ui/evidence/sandboxEvidenceBundle.ts),
 * required when a request's details, Open Diff or "Show Agent's Changes So Far" first need it. Nothing of it runs
 * before a toast (the evidence only ever starts from the details or the diff editor), so dist/extension.js does not
 * carry it. Until then this stands in for it: the command and the document scheme are registered at activation, and
 * the first use of either swaps in the real ones.
 */
import * as vscode from 'vscode';
import { Emitter } from '../../domain/events';
import type { Inbox, InboxItem } from '../../domain/inbox';
import { Disposable, toDisposable, type IDisposable } from '../../util/lifecycle';
import type { CurrentFile, SandboxEvidence } from './evidence';
import type { AccessDeps, SandboxDiffDocuments } from './evidenceAccess';
import { lazyBundle } from '../lazyBundle';

export const evidenceBundle = lazyBundle<typeof import('./sandboxEvidenceBundle')>('evidence.js');

/** SandboxDiffDocuments' command and scheme (src/ui/evidence/evidenceAccess.ts; the type checks that the scheme is the same). */
const SHOW_DIFF = 'fountain.request.showSandboxDiff';
const SCHEME: typeof import('./evidenceAccess').SANDBOX_DIFF_SCHEME = 'fountain-sandbox-diff';

export class LazyEvidence extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<string>());
  /** The id of an item whose evidence changed (its details re-render). */
  readonly onDidChange = this._onDidChange.event;
  private real: { readonly evidence: SandboxEvidence; readonly docs: SandboxDiffDocuments } | undefined;
  /** The stand-in command and provider, until the real ones register. */
  private readonly stand: IDisposable;

  constructor(private readonly deps: AccessDeps & { readonly inbox: Inbox }) {
    super();
    const command = vscode.commands.registerCommand(SHOW_DIFF, () => this.loaded().docs.show());
    const provider = vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
      provideTextDocumentContent: (uri) => this.loaded().docs.provideTextDocumentContent(uri),
    });
    this.stand = this._register(
      toDisposable(() => {
        command.dispose();
        provider.dispose();
      }),
    );
  }

  load(item: InboxItem): void {
    this.loaded().evidence.load(item);
  }

  lines(item: InboxItem): string[] {
    return this.loaded().evidence.lines(item);
  }

  currentFile(item: InboxItem, index: number): Promise<CurrentFile> {
    return this.loaded().evidence.currentFile(item, index);
  }

  /** Forgets what was read for items no longer in the inbox (nothing was, before the bundle loaded). */
  forget(id: string): void {
    this.real?.evidence.forget(id);
  }

  /** Loads the bundle once: the real evidence and document provider replace the stand-ins (synchronously). */
  private loaded(): { readonly evidence: SandboxEvidence; readonly docs: SandboxDiffDocuments } {
    if (!this.real) {
      const b = evidenceBundle.load();
      const evidence = this._register(new b.SandboxEvidence(b.sandboxAccess(this.deps)));
      this._register(evidence.onDidChange((id) => this._onDidChange.fire(id)));
      this.stand.dispose();
      this.real = { evidence, docs: this._register(new b.SandboxDiffDocuments(this.deps.inbox, evidence)) };
    }
    return this.real;
  }
}
