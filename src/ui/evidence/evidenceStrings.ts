import * as vscode from 'vscode';
import type { SandboxFailure } from '../../protocol/sandboxFiles';
import { inertLine } from '../display';

/** Sentences of the evidence shown before an answer: the sandbox's (or disk's) current file and the agent's changes. */
export const EvidenceStrings = {
  section: vscode.l10n.t('What the agent has changed so far (the sandbox)'),
  localSection: vscode.l10n.t('Evidence'),
  loading: vscode.l10n.t("Reading the sandbox's git status…"),
  clean: (branch: string) => vscode.l10n.t('Nothing changed yet (branch {0}, clean).', branch),
  changes: (n: number, branch: string) =>
    n === 1
      ? vscode.l10n.t('1 file changed on branch {0}:', branch)
      : vscode.l10n.t('{0} files changed on branch {1}:', n, branch),
  staged: vscode.l10n.t('staged'),
  renamedFrom: (p: string) => vscode.l10n.t('from {0}', p),
  more: (n: number) => vscode.l10n.t('…and {0} more', n),
  skipped: (n: number) =>
    n === 1
      ? vscode.l10n.t('(1 entry the server sent could not be read)')
      : vscode.l10n.t('({0} entries the server sent could not be read)', n),
  snapshot: (at: string) =>
    vscode.l10n.t(
      'The sandbox is parked: this was answered from its snapshot of {0}, which may be older than what the agent sees.',
      at,
    ),
  diffHint: vscode.l10n.t('Use "Show Agent\'s Changes So Far" (Command Palette) to read the full diff.'),
  openDiffRemote: vscode.l10n.t('"Open Diff" compares the sandbox\'s current file with the proposed text.'),
  openDiffLocal: vscode.l10n.t('"Open Diff" compares the file on disk with the proposed text.'),
  noDiff: vscode.l10n.t(
    'This edit request carries no diff: the agent did not say what it will change. Allowing it allows an edit you cannot read here.',
  ),
  fileNote: (path: string, sentence: string) => vscode.l10n.t('Open Diff of {0}: {1}', path, sentence),
  usedAgentOld: vscode.l10n.t("The left side shows the agent's own old text instead."),
  diffTitleSandbox: (p: string) => vscode.l10n.t("{0}: sandbox's current file ↔ proposed", p),
  diffTitleSnapshot: (p: string) => vscode.l10n.t("{0}: sandbox's snapshot ↔ proposed", p),
  diffTitleAgentOld: (p: string) =>
    vscode.l10n.t("{0}: agent's old text ↔ proposed (the sandbox's file was not read)", p),
  diffTitleDisk: (p: string) => vscode.l10n.t('{0}: file on disk ↔ proposed', p),
  diffTitleNotOnDisk: (p: string) => vscode.l10n.t('{0}: not on disk yet ↔ proposed', p),
  notOnDisk: vscode.l10n.t('the file is not on disk yet.'),
  diskUnreadable: (why: string) => vscode.l10n.t('the file on disk could not be read ({0}).', why),
  noConnection: (server: string) => vscode.l10n.t('Not connected to {0}, so the sandbox cannot be read.', server),
  noSandbox: vscode.l10n.t('The server did not say which sandbox this conversation runs in, so it cannot be read.'),
  diffDocTitle: vscode.l10n.t("The agent's changes so far (git diff in the sandbox)"),
  diffDocEmpty: vscode.l10n.t('No unstaged changes.'),
  diffDocTruncated: vscode.l10n.t('(cut at the size limit)'),
  noRequest: vscode.l10n.t('Open the details of a Fountain request first.'),
};

/** The one plain sentence a failed sandbox read is shown as (in the details, never a blocked toast). */
export function failureSentence(f: SandboxFailure, what: 'file' | 'status'): string {
  switch (f.kind) {
    case 'notReady':
      return vscode.l10n.t('The sandbox is not ready yet, so it cannot be read; open the details again in a moment.');
    case 'unavailable':
      return f.retryAfterSec !== undefined
        ? vscode.l10n.t(
            'The sandbox is unavailable right now; the server says to try again in {0} seconds.',
            f.retryAfterSec,
          )
        : vscode.l10n.t('The sandbox is unavailable right now; try again later.');
    case 'outsideSandbox':
      return vscode.l10n.t('The path is outside the sandbox, so the server will not read it.');
    case 'notRepository':
      return vscode.l10n.t('The sandbox is not a git repository, so there is no record of what the agent changed.');
    case 'notFound':
      return what === 'file'
        ? vscode.l10n.t('The file is not in the sandbox yet (a new file).')
        : vscode.l10n.t('The server does not know this sandbox.');
    case 'refused':
      return vscode.l10n.t('The server refused to read the sandbox: that needs a full-scope API key.');
    case 'unexpected':
      return vscode.l10n.t("The server's answer about the sandbox could not be read ({0}).", inertLine(f.detail, 80));
    case 'network':
      return vscode.l10n.t('The sandbox could not be reached ({0}).', inertLine(f.detail, 120));
  }
}
