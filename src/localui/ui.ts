/**
 * The local agents' commands, pickers, prompt drafts and transcripts: built as their own bundle (dist/localui.js,
 * esbuild.mjs) and loaded by {@link LocalAgents} on the first `fountain.local.*` command, so dist/extension.js and
 * activation do not carry them. The session manager stays in the main bundle (the tree and the inbox read it).
 */
import type * as vscode from 'vscode';
import { LocalCommands } from './commands';
import { grantPicks } from './grantPicks';
import type { LocalSessionManager } from './manager';
import { TranscriptDocuments } from './transcriptDocument';

export interface LocalUi extends vscode.Disposable {
  readonly commands: LocalCommands;
  readonly transcripts: TranscriptDocuments;
  /** The local gate's grant choices for Answer… (src/localui/grantPicks.ts). */
  readonly grantPicks: typeof grantPicks;
}

export function createLocalUi(manager: LocalSessionManager, log: vscode.LogOutputChannel): LocalUi {
  const transcripts = new TranscriptDocuments(manager);
  const commands = new LocalCommands(manager, transcripts, log);
  return {
    commands,
    transcripts,
    grantPicks,
    dispose: () => {
      commands.dispose();
      transcripts.dispose();
    },
  };
}
