/**
 * The network decider's verdicts in History and the log (issue 28). Asked connections are requests in the inbox,
 * so History records the user's answer like any other; every verdict made without the user (deny, the mode,
 * allowHosts, a session grant, the model's host) goes to "Decided without you" (src/domain/decidedLog.ts) with its
 * rule and reason. The agent's own model is recorded once per session and host:port (it is connected to for every
 * turn, and would push everything else out of the bounded log); the transcript has each connection
 * (src/ui/local/manager.ts networkNote). Host and port are kept only while `fountain.history.keepLabels` is on.
 */
import type * as vscode from 'vscode';
import type { DecidedEntry } from '../../domain/decidedLog';
import type { NetworkDecided } from '../../local';
import { Disposable } from '../../util/lifecycle';
import type { DecidedRecorder } from './decidedRecorder';
import { networkNote, type LocalSessionManager, type ManagedSession } from './manager';
import { NETWORK_WORDS } from './networkStrings';

const MODEL_RULE = /^(preset: |baseUrl: )/;

export class NetworkRecorder extends Disposable {
  private readonly modelSeen = new WeakMap<ManagedSession, Set<string>>();

  constructor(
    manager: LocalSessionManager,
    private readonly recorder: DecidedRecorder,
    log: vscode.LogOutputChannel,
    private readonly keepLabels: () => boolean = () => true,
  ) {
    super();
    this._register(
      manager.onDidNetwork(({ session, event }) => {
        log.info(`[${session.agentName}] ${networkNote(event)}`);
        if (event.type === 'decided' && !event.asked) {
          this.record(session, event);
        }
      }),
    );
  }

  private record(s: ManagedSession, e: NetworkDecided): void {
    const v = e.verdict;
    const where = `${e.attempt.host}:${e.attempt.port}`;
    if (v.allow && MODEL_RULE.test(v.rule)) {
      const seen = this.modelSeen.get(s) ?? new Set<string>();
      this.modelSeen.set(s, seen);
      if (seen.has(where)) {
        return;
      }
      seen.add(where);
    }
    const keep = this.keepLabels();
    const entry: DecidedEntry = {
      at: e.at,
      session: this.recorder.keyOf(s),
      sessionId: s.id,
      agentName: s.agentName,
      folder: s.folder.fsPath,
      verdict: v.allow ? 'allow' : 'deny',
      kind: 'fetch',
      ...(keep ? { url: where, title: NETWORK_WORDS.title(where) } : {}),
      mode: e.mode,
      rule: v.rule,
      reason: v.allow ? `allowed by ${v.rule}` : v.reason,
      sent: v.allow ? 'connect' : 'refused',
      by: [],
    };
    void this.recorder.log.record(entry);
  }
}
