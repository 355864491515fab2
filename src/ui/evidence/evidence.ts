/**
 * Evidence before the click (issue 20): for an edit, write, delete or move, what is really there and what the agent
 * has already changed. A Fountain request reads its sandbox (src/protocol/sandboxFiles.ts): git status when its
 * details open, the current file when Open Diff opens, the full diff on demand; a local request reads the file on
 * disk. Nothing here runs before a toast or delays one: every read starts from the details or the diff editor, and
 * every failure is a plain sentence in the details. Server and agent text is rendered inert.
 */
import * as vscode from 'vscode';
import { Emitter } from '../../domain/events';
import type { InboxItem } from '../../domain/inbox';
import type { GitStatus, SandboxFilesClient } from '../../protocol/sandboxFiles';
import { isLocalSource } from '../../session/localKey';
import { Disposable } from '../../util/lifecycle';
import { inertBlock, inertLine } from '../display';
import { EvidenceStrings as S, failureSentence } from './evidenceStrings';

/** The kinds whose requests change files. */
const EDIT_KINDS = new Set(['edit', 'delete', 'move']);

/** How to reach a server's sandboxes: its read client and the sandbox a conversation runs in. */
export interface SandboxAccess {
  readonly files: SandboxFilesClient;
  sandboxOf(conversationId: string): Promise<string | undefined>;
}

type GitState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'read'; readonly status: GitStatus; readonly snapshotAt?: string }
  | { readonly kind: 'failed'; readonly sentence: string };

/** The left side of Open Diff: the text and how the title names it, plus a sentence for the details if any. */
export interface CurrentFile {
  readonly text: string;
  readonly title: string;
  readonly note?: string;
}

export const changesFiles = (item: InboxItem): boolean =>
  item.request.diffs.length > 0 || EDIT_KINDS.has(item.request.kind ?? '');

const MAX_LISTED = 50;

export class SandboxEvidence extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<string>());
  /** The id of an item whose evidence changed (its details re-render). */
  readonly onDidChange = this._onDidChange.event;
  private readonly git = new Map<string, GitState>();
  private readonly notes = new Map<string, Map<string, string>>();

  constructor(
    private readonly access: (server: string) => Promise<SandboxAccess | string>,
    private readonly readDisk: (path: string) => Promise<string | undefined> = readDiskFile,
  ) {
    super();
  }

  /** Starts reading the sandbox's git status for a Fountain edit (details just opened); no-op otherwise. */
  load(item: InboxItem): void {
    if (isLocalSource(item.key.server) || !changesFiles(item) || this.git.get(item.id)?.kind === 'loading') {
      return;
    }
    this.git.set(item.id, { kind: 'loading' });
    this._onDidChange.fire(item.id);
    void this.readStatus(item).then((state) => {
      this.git.set(item.id, state);
      this._onDidChange.fire(item.id);
    });
  }

  /** The evidence lines of the details document (already inert), or none for a request that changes no file. */
  lines(item: InboxItem): string[] {
    if (!changesFiles(item)) {
      return [];
    }
    const out: string[] = [];
    if (item.request.diffs.length === 0 && item.request.kind === 'edit') {
      out.push(S.noDiff);
    }
    const local = isLocalSource(item.key.server);
    if (item.request.diffs.length > 0) {
      out.push(local ? S.openDiffLocal : S.openDiffRemote);
    }
    for (const [path, note] of this.notes.get(item.id) ?? []) {
      out.push(S.fileNote(inertLine(path, 200), note));
    }
    if (local) {
      return out;
    }
    out.push('', S.section, '-'.repeat(S.section.length));
    const g = this.git.get(item.id) ?? { kind: 'loading' };
    if (g.kind === 'loading') {
      out.push(S.loading);
    } else if (g.kind === 'failed') {
      out.push(g.sentence);
    } else {
      out.push(...statusLines(g.status));
      if (g.snapshotAt !== undefined) {
        out.push(S.snapshot(inertLine(g.snapshotAt, 40)));
      }
      if (g.status.entries.length > 0) {
        out.push(S.diffHint);
      }
    }
    return out;
  }

  /** The current file for Open Diff's left side: the sandbox's (Fountain) or the disk's (local). */
  async currentFile(item: InboxItem, index: number): Promise<CurrentFile> {
    const diff = item.request.diffs[index];
    const path = diff?.path ?? '';
    const shown = inertLine(path, 200);
    const agentOld = diff?.oldText ?? '';
    if (isLocalSource(item.key.server)) {
      const disk = await this.readDisk(path).catch((e: unknown) => ({ error: String(e) }));
      if (typeof disk === 'string') {
        return this.noted(item, path, { text: disk, title: S.diffTitleDisk(shown) });
      }
      const note = disk === undefined ? S.notOnDisk : S.diskUnreadable(inertLine(disk.error, 120));
      return this.noted(item, path, { text: '', title: S.diffTitleNotOnDisk(shown), note });
    }
    const failed = (sentence: string): CurrentFile =>
      this.noted(item, path, {
        text: agentOld,
        title: S.diffTitleAgentOld(shown),
        note: `${sentence} ${S.usedAgentOld}`,
      });
    const a = await this.access(item.key.server);
    if (typeof a === 'string') {
      return failed(a);
    }
    const sandbox = await a.sandboxOf(item.key.conversationId).catch(() => undefined);
    if (sandbox === undefined) {
      return failed(S.noSandbox);
    }
    const r = await a.files.file(sandbox, path);
    if (!r.ok) {
      if (r.failure.kind === 'notFound') {
        return this.noted(item, path, {
          text: '',
          title: S.diffTitleSandbox(shown),
          note: failureSentence(r.failure, 'file'),
        });
      }
      return failed(failureSentence(r.failure, 'file'));
    }
    if (r.snapshotAt !== undefined) {
      return this.noted(item, path, {
        text: r.value.content,
        title: S.diffTitleSnapshot(shown),
        note: S.snapshot(inertLine(r.snapshotAt, 40)),
      });
    }
    return this.noted(item, path, { text: r.value.content, title: S.diffTitleSandbox(shown) });
  }

  /** The text of the on-demand diff document: what the agent changed so far in the request's sandbox. */
  async diffText(item: InboxItem): Promise<string> {
    const a = await this.access(item.key.server);
    if (typeof a === 'string') {
      return a;
    }
    const sandbox = await a.sandboxOf(item.key.conversationId).catch(() => undefined);
    if (sandbox === undefined) {
      return S.noSandbox;
    }
    const r = await a.files.diff(sandbox);
    if (!r.ok) {
      return failureSentence(r.failure, 'status');
    }
    const head = [S.diffDocTitle, ...(r.snapshotAt !== undefined ? [S.snapshot(inertLine(r.snapshotAt, 40))] : []), ''];
    const body = r.value.diff === '' ? S.diffDocEmpty : inertBlock(r.value.diff);
    return [...head, body, ...(r.value.truncated ? ['', S.diffDocTruncated] : [])].join('\n');
  }

  /** Forgets what was read for items no longer in the inbox. */
  forget(id: string): void {
    this.git.delete(id);
    this.notes.delete(id);
  }

  private noted(item: InboxItem, path: string, f: CurrentFile): CurrentFile {
    const m = this.notes.get(item.id) ?? new Map<string, string>();
    if (f.note !== undefined) {
      m.set(path, f.note);
    } else {
      m.delete(path);
    }
    this.notes.set(item.id, m);
    this._onDidChange.fire(item.id);
    return f;
  }

  private async readStatus(item: InboxItem): Promise<GitState> {
    const a = await this.access(item.key.server);
    if (typeof a === 'string') {
      return { kind: 'failed', sentence: a };
    }
    const sandbox = await a.sandboxOf(item.key.conversationId).catch(() => undefined);
    if (sandbox === undefined) {
      return { kind: 'failed', sentence: S.noSandbox };
    }
    const r = await a.files.gitStatus(sandbox);
    return r.ok
      ? { kind: 'read', status: r.value, ...(r.snapshotAt !== undefined ? { snapshotAt: r.snapshotAt } : {}) }
      : { kind: 'failed', sentence: failureSentence(r.failure, 'status') };
  }
}

function statusLines(s: GitStatus): string[] {
  const branch = inertLine(s.branch ?? '?', 80);
  if (s.entries.length === 0) {
    return [S.clean(branch), ...(s.skipped ? [S.skipped(s.skipped)] : [])];
  }
  const out = [S.changes(s.entries.length, branch)];
  for (const e of s.entries.slice(0, MAX_LISTED)) {
    const extra = [
      ...(e.staged ? [S.staged] : []),
      ...(e.origPath !== undefined ? [S.renamedFrom(inertLine(e.origPath, 200))] : []),
    ];
    out.push(
      `  ${inertLine(e.status, 4).padEnd(3)} ${inertLine(e.path, 200)}${extra.length ? ` (${extra.join(', ')})` : ''}`,
    );
  }
  if (s.entries.length > MAX_LISTED) {
    out.push(S.more(s.entries.length - MAX_LISTED));
  }
  if (s.skipped) {
    out.push(S.skipped(s.skipped));
  }
  return out;
}

/** The file's text, undefined when it does not exist; throws on any other failure. */
async function readDiskFile(path: string): Promise<string | undefined> {
  if (!path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path)) {
    throw new Error('not an absolute path');
  }
  try {
    const bytes = await vscode.workspace.fs.readFile(vscode.Uri.file(path));
    return new TextDecoder('utf-8').decode(bytes.subarray(0, 2_000_000));
  } catch (e) {
    if (e instanceof vscode.FileSystemError && e.code === 'FileNotFound') {
      return undefined;
    }
    throw e;
  }
}
