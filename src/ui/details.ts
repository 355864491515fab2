import * as vscode from 'vscode';
import { Emitter } from '../domain/events';
import type { Inbox, InboxItem } from '../domain/inbox';
import { Time } from './time';
import { AGENT_EXITED } from '../domain/model';
import { Disposable } from '../util/lifecycle';
import { inertBlock, inertFull, inertLine } from './display';
import type { ProvenanceText } from './pendingTree';
import { DetailStrings, PolicyStrings } from './strings';

export const DETAILS_SCHEME = 'fountain-request';
export const DIFF_SCHEME = 'fountain-diff';

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

  constructor(
    private readonly inbox: Inbox,
    private readonly now: () => number = Date.now,
  ) {
    super();
    this._register(vscode.workspace.registerTextDocumentContentProvider(DETAILS_SCHEME, this));
    this._register(vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, new DiffContent(inbox)));
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

  uriFor(item: InboxItem): vscode.Uri {
    // The tab shows the request id only; agent text never reaches a tab title.
    const name = `Approval ${item.key.requestId.replace(/[^\w.-]/g, '_')}`;
    return vscode.Uri.from({ scheme: DETAILS_SCHEME, path: `/${name}`, query: encodeURIComponent(item.id) });
  }

  /** Opens (or reveals) the request's details. From the tree, focus stays in the tree so keyboard triage goes on. */
  async show(item: InboxItem, opts: { preserveFocus?: boolean } = {}): Promise<void> {
    const uri = this.uriFor(item);
    this._open.set(item.id, uri);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (doc.languageId !== 'fountain-request') {
      await vscode.languages.setTextDocumentLanguage(doc, 'fountain-request');
    }
    await vscode.window.showTextDocument(doc, { preview: true, preserveFocus: opts.preserveFocus ?? false });
  }

  /** Opens VS Code's diff editor on the request's first (or chosen) diff: old vs proposed text, both read-only. */
  async openDiff(item: InboxItem, index = 0): Promise<boolean> {
    const diff = item.request.diffs[index];
    if (!diff) {
      return false;
    }
    const base = encodeURIComponent(item.id);
    const safePath = diff.path.replace(/[^\w./-]/g, '_');
    const left = vscode.Uri.from({ scheme: DIFF_SCHEME, path: safePath, query: `${base}&${index}&old` });
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: safePath, query: `${base}&${index}&new` });
    await vscode.commands.executeCommand('vscode.diff', left, right, DetailStrings.diffTitle(inertLine(diff.path)), {
      preview: true,
    });
    return true;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const id = itemIdOf(uri);
    const item = id ? this.inbox.get(id) : undefined;
    return item ? this.render(item) : DetailStrings.gone;
  }

  render(item: InboxItem): string {
    const r = item.request;
    const c = item.conversation;
    const out: string[] = [];
    const field = (name: string, value: string) => out.push(`${(name + ':').padEnd(15)} ${value}`);
    const section = (title: string) => out.push('', title, '-'.repeat(title.length));
    out.push(DetailStrings.heading, '='.repeat(DetailStrings.heading.length));
    field(DetailStrings.status, this.status(item));
    field(DetailStrings.conversation, `${inertFull(c.title || '—')} (${c.id})`);
    field(DetailStrings.server, c.server);
    field(
      DetailStrings.agent,
      c.agentName || c.agentId ? `${inertFull(c.agentName ?? '')} (${inertFull(c.agentId ?? '—')})` : '—',
    );
    field(DetailStrings.runtime, c.runtime ? inertFull(c.runtime) : '—');
    field(DetailStrings.kind, r.kind ? inertFull(r.kind) : '—');
    if (this._provenance) {
      field(PolicyStrings.whyAsked, this._provenance.describe(item));
    }
    field(DetailStrings.askedAt, Time.dateTime(item.askedAt));
    if (item.deadline !== undefined) {
      field(
        DetailStrings.deadline,
        `${Time.dateTime(item.deadline)} (${item.detached ? DetailStrings.detached : DetailStrings.inTurn})`,
      );
    }
    if (r.metaTimeoutSec !== undefined) {
      field(DetailStrings.agentTimeout, `${r.metaTimeoutSec} s`);
    }
    field(DetailStrings.requestId, inertFull(r.key.requestId));
    section(DetailStrings.tool);
    out.push(inertBlock(item.label));
    if (r.title && r.title !== item.label) {
      out.push('', DetailStrings.titleLine(''), inertBlock(r.title));
    }
    if (r.summary) {
      section(DetailStrings.summary);
      out.push(inertBlock(r.summary));
    }
    const cwd = cwdOf(r.rawInput);
    if (cwd || r.locations.length) {
      section(DetailStrings.paths);
      if (cwd) {
        out.push(DetailStrings.cwd(inertFull(cwd)));
      }
      for (const l of r.locations) {
        out.push(`- ${inertFull(l.path)}${l.line !== undefined ? `:${l.line}` : ''}`);
      }
      out.push(DetailStrings.sandboxPaths);
    }
    section(DetailStrings.options);
    r.options.forEach((o, i) =>
      out.push(
        `${i + 1}. ${inertFull(o.name)}  —  ${DetailStrings.optionKind(inertFull(o.kind))}, id ${inertFull(o.optionId)}`,
      ),
    );
    if (r.rawInput !== undefined) {
      section(DetailStrings.rawInput);
      out.push(inertBlock(JSON.stringify(r.rawInput, null, 2) ?? 'null'));
    }
    if (r.textContent.length) {
      section(DetailStrings.content);
      out.push(...r.textContent.map((t) => inertBlock(t)));
    }
    if (this._provenance) {
      out.push('', PolicyStrings.changePolicyHint);
    }
    if (r.diffs.length) {
      section(DetailStrings.diffs);
      for (const d of r.diffs) {
        out.push(`- ${inertFull(d.path)} (${d.oldText === null ? DetailStrings.newFile : DetailStrings.modified})`);
      }
      out.push(DetailStrings.openDiffHint);
    }
    return out.join('\n') + '\n';
  }

  private status(item: InboxItem): string {
    const s = item.state;
    const at = (ms: number) => Time.dateTime(ms);
    switch (s.kind) {
      case 'open':
        return item.deadline !== undefined
          ? DetailStrings.waitingLeft(Time.left(item.deadline - this.now()))
          : DetailStrings.waiting;
      case 'answering':
        return DetailStrings.answering(inertFull(s.optionId));
      case 'leftOpen':
        return DetailStrings.leftOpen(s.reason, s.message ? inertFull(s.message) : '');
      case 'answeredByYou':
        return DetailStrings.answeredByYou(inertFull(s.optionId), at(s.at));
      case 'resolvedElsewhere':
        return DetailStrings.answeredElsewhere(
          s.optionId ? inertFull(s.optionId) : '?',
          s.outcome ?? 'answered',
          at(s.at),
        );
      case 'expired':
        return DetailStrings.expired(at(s.at));
      case 'turnEnded':
        return DetailStrings.turnEnded(at(s.at));
      case 'conversationEnded':
        return s.reason === AGENT_EXITED
          ? DetailStrings.agentExited(at(s.at))
          : DetailStrings.conversationEnded(inertFull(s.reason), at(s.at));
      case 'noLongerWaiting':
        return s.cause === 'withdrawn' ? DetailStrings.withdrawn(at(s.at)) : DetailStrings.noLongerWaiting(at(s.at));
    }
  }
}

/** Serves the old and new sides of a request's diffs. */
class DiffContent implements vscode.TextDocumentContentProvider {
  constructor(private readonly inbox: Inbox) {}
  provideTextDocumentContent(uri: vscode.Uri): string {
    const [id, index, side] = uri.query.split('&');
    const item = this.inbox.get(decodeURIComponent(id ?? ''));
    const diff = item?.request.diffs[Number(index)];
    if (!diff) {
      return '';
    }
    return side === 'old' ? (diff.oldText ?? '') : diff.newText;
  }
}

export function itemIdOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== DETAILS_SCHEME) {
    return undefined;
  }
  try {
    return decodeURIComponent(uri.query);
  } catch {
    return undefined;
  }
}

function cwdOf(rawInput: unknown): string | undefined {
  if (rawInput && typeof rawInput === 'object' && !Array.isArray(rawInput)) {
    const cwd = (rawInput as Record<string, unknown>).cwd;
    return typeof cwd === 'string' ? cwd : undefined;
  }
  return undefined;
}
