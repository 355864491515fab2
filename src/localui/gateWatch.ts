/**
 * Each local session's gate, watched from the lazily loaded UI (sessions exist only after Start Local Agent loaded
 * it): every mode and grant change is logged and redraws the tree, and every ask you answer is kept in the
 * session's approval log, which Recommend Local Allow Patterns… reads.
 */
import type { PendingAsk } from '../local';
import type { ApprovalEntry } from '../policy';
import { toInertText } from '../domain/inertText';
import { Disposable } from '../util/lifecycle';
import type { LocalSessionManager, ManagedSession } from './manager';

/** How many answered asks a session's approval log keeps. */
const APPROVALS_KEPT = 500;

export class GateWatch extends Disposable {
  private readonly logs = new WeakMap<ManagedSession, ApprovalEntry[]>();
  private readonly watched = new WeakSet<ManagedSession>();

  constructor(
    private readonly manager: LocalSessionManager,
    private readonly log: { info(m: string): void },
  ) {
    super();
    this._register(manager.onDidAsk(({ session, ask }) => this.noteAsk(session, ask)));
    this._register(manager.onDidChangeSessions(() => this.watchAll()));
    this.watchAll();
  }

  /** The asks of `s` you answered (allow or reject), oldest first. */
  approvals(s: ManagedSession): ApprovalEntry[] {
    return [...(this.logs.get(s) ?? [])];
  }

  private watchAll(): void {
    for (const s of this.manager.sessions) {
      if (this.watched.has(s)) {
        continue;
      }
      this.watched.add(s);
      // The gate's emitters end with the session (Stop disposes the gate), and these subscriptions with them.
      const line = (m: string) => this.log.info(`[${s.agentName}] ${toInertText(m, { singleLine: true })}`);
      s.gate.onDidChangeMode((mode) => {
        line(`gate mode: ${mode}`);
        this.manager.changed();
      });
      s.gate.onDidChangeGrants((grants) => {
        line(`gate grants: ${JSON.stringify(grants)}`);
        this.manager.changed();
      });
    }
  }

  /** Keeps `ask` once you answered it; a timeout, Cancel Turn or an exit is not an answer. */
  private noteAsk(s: ManagedSession, ask: PendingAsk): void {
    void ask.closed.then((close) => {
      const sent = close.reason === 'answered' ? close.sent : undefined;
      const option =
        sent?.outcome === 'selected' ? ask.request.options.find((o) => o.optionId === sent.optionId) : undefined;
      const answer = option?.kind.startsWith('allow')
        ? 'allow'
        : option?.kind.startsWith('reject')
          ? 'reject'
          : undefined;
      if (!answer) {
        return;
      }
      const r = s.gate.gateRequestOf(ask.request);
      const log = this.logs.get(s) ?? [];
      this.logs.set(s, log);
      log.push({
        kind: r.kind ?? 'other',
        answer,
        ...(r.command !== undefined ? { command: r.command } : {}),
        ...(r.paths !== undefined ? { paths: r.paths.map((p) => p.path) } : {}),
        ...(r.url !== undefined ? { url: r.url } : {}),
      });
      log.splice(0, Math.max(0, log.length - APPROVALS_KEPT));
    });
  }
}
