/**
 * The local agents' commands, pickers, prompt drafts and transcripts: built as their own bundle (dist/localui.js,
 * esbuild.mjs) and loaded by {@link LocalAgents} on the first `fountain.local.*` command, so dist/extension.js and
 * activation do not carry them. The session manager is here too (src/ui/local/feature.ts builds it on the first local
 * command; the tree and the inbox read its sessions through LocalAgents).
 */
import * as vscode from 'vscode';
import type { LocalCommandId } from './commandIds';
import { LocalCommands } from './commands';
import { GateCommands, type IssuedElement } from './gateCommands';
import { GateWatch } from './gateWatch';
import { LocalSessionManager, type ManagedSession } from './manager';
import { sessionExtras } from './treeExtras';
import { DecidedRecorder } from './decidedRecorder';
import { makeThisAsk, type MakeAskResult } from './makeThisAsk';
import type { LocalAgentsOptions } from './managerDeps';
import type { LocalGroupExtras } from '../tree/sessionRows';
import type { WaitingRequests } from '../always/alwaysContext';
import type { ExtraAnswerChoice } from '../answer/answerChoices';
import { grantPicks, type FlowAnswer } from './grantPicks';
import { networkPicks } from './networkPicks';
import { NETWORK_WORDS } from './networkStrings';
import { NetworkRecorder } from './networkRecorder';
import type { LocalModule } from './loader';
import type { PendingAsk } from '../../local';
import { sessionGates } from './alwaysLocal';
import { TranscriptDocuments } from './transcriptDocument';
import { YoloWarning } from './yoloWarning';
import { SandboxStatus } from './sandboxStatus';

// The session manager's deps and gate refreshes, built with it (src/ui/local/feature.ts), so not in dist/extension.js.
export { createLocalSource, managerDeps, refreshGatesOnChange, sessionInfo } from './managerDeps';

export interface LocalUi extends vscode.Disposable {
  readonly commands: LocalCommands;
  readonly gate: GateCommands;
  readonly yolo: YoloWarning;
  readonly unsandboxed: SandboxStatus;
  readonly transcripts: TranscriptDocuments;
  readonly watch: GateWatch;
  /** A session's gate mode, its "N decided without you" and its grants, for its tree group. */
  treeExtras(s: ManagedSession): LocalGroupExtras;
  /** Make This Ask on a row of the History's "Decided without you" (src/ui/local/makeThisAsk.ts). */
  makeThisAsk(row: unknown): Promise<MakeAskResult>;
  /** Every `fountain.local.*` command's handler. */
  handlers(): Record<LocalCommandId, (...args: never[]) => unknown>;
  /** The local gate's grant choices for Answer… (src/ui/local/grantPicks.ts). */
  grantPicks(...a: Parameters<typeof grantPicks> extends [unknown, ...infer R] ? R : never): ExtraAnswerChoice[];
  /** Always… beside a network ask's own options (src/ui/local/networkPicks.ts). */
  networkPicks(local: LocalModule, ask: PendingAsk, answer: FlowAnswer): ExtraAnswerChoice[];
}

export function createLocalUi(
  manager: LocalSessionManager,
  log: vscode.LogOutputChannel,
  waiting: WaitingRequests,
  history: LocalAgentsOptions['history'],
  issued: IssuedElement = () => undefined,
): LocalUi {
  const transcripts = new TranscriptDocuments(manager);
  const commands = new LocalCommands(manager, transcripts, log);
  // Commands, paths and URLs are kept in "Decided without you" only while the History keeps labels.
  const recorder = new DecidedRecorder(history.decided.bind(history), () =>
    vscode.workspace.getConfiguration('fountain.history').get<boolean>('keepLabels', true),
  );
  const watch = new GateWatch(manager, log, recorder);
  const network = new NetworkRecorder(manager, recorder, log, () =>
    vscode.workspace.getConfiguration('fountain.history').get<boolean>('keepLabels', true),
  );
  const gate = new GateCommands(manager, log, issued, (s) => watch.approvals(s), waiting);
  const yolo = new YoloWarning(manager);
  const unsandboxed = new SandboxStatus(manager);
  const makeThisAskOf = (row: unknown): Promise<MakeAskResult> => {
    const entry = history.decidedEntryOf(row);
    if (!entry) {
      log.warn('refused Make This Ask whose argument was not a row of the History view');
      return Promise.resolve({ kind: 'cancelled' });
    }
    return makeThisAsk({ manager, recorder, log }, entry);
  };
  return {
    commands,
    gate,
    yolo,
    unsandboxed,
    transcripts,
    watch,
    treeExtras: (s) => sessionExtras(s, recorder),
    makeThisAsk: makeThisAskOf,
    handlers: () => ({
      ...commands.handlers(),
      ...gate.handlers(),
      'fountain.local.makeThisAsk': (row?: unknown) => makeThisAskOf(row),
    }),
    grantPicks: (...a) => grantPicks({ waiting, gateOf: sessionGates(manager) }, ...a),
    networkPicks: (local, ask, answer) => networkPicks(waiting, local, ask, answer, (hp) => NETWORK_WORDS.title(hp)),
    dispose: () => {
      network.dispose();
      yolo.dispose();
      unsandboxed.dispose();
      watch.dispose();
      commands.dispose();
      transcripts.dispose();
    },
  };
}

export { LocalSessionManager };
