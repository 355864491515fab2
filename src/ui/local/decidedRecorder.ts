/**
 * Records every decision a local session's gate made by itself (allowed or refused, not asked) in "Decided without
 * you" (src/domain/decidedLog.ts, kept by the main bundle and shown in the History view), with the rules that made
 * it (src/domain/decidedRules.ts). The command, paths and URL are kept only while `fountain.history.keepLabels` is
 * on, as for the History's answers. Each session gets a key of its own, unique across windows and restarts.
 */
import { randomUUID } from 'node:crypto';
import type { DecidedEntry, DecidedLog } from '../../domain/decidedLog';
import { decidingRules } from '../../domain/decidedRules';
import type { GateDecisionEvent } from '../../local';
import type { ManagedSession } from './manager';

export class DecidedRecorder {
  private readonly keys = new WeakMap<ManagedSession, string>();

  constructor(
    private readonly logOf: () => DecidedLog,
    private readonly keepLabels: () => boolean,
  ) {}

  /** The log (read from disk on first use). */
  get log(): DecidedLog {
    return this.logOf();
  }

  /** The session's key in the log. */
  keyOf(s: ManagedSession): string {
    let key = this.keys.get(s);
    if (key === undefined) {
      key = randomUUID();
      this.keys.set(s, key);
    }
    return key;
  }

  /** How many of the log's decisions are this session's. */
  count(s: ManagedSession): number {
    return this.log.countOf(this.keyOf(s));
  }

  /** Records `e` when the gate answered it itself (an ask is the user's, and goes to the History's answers). */
  record(s: ManagedSession, e: GateDecisionEvent): void {
    const d = e.decision;
    if (!e.sent || d.verdict === 'ask') {
      return;
    }
    // The event fires synchronously inside the gate's decide: its snapshot now is the one it decided with.
    const by = decidingRules(d, e.gateRequest, { ...s.gate.snapshot(), mode: e.mode });
    const r = e.gateRequest;
    const keep = this.keepLabels();
    const entry: DecidedEntry = {
      at: Date.now(),
      session: this.keyOf(s),
      sessionId: s.id,
      agentName: s.agentName,
      folder: s.folder.fsPath,
      verdict: d.verdict,
      ...(r.kind !== undefined ? { kind: r.kind } : {}),
      ...(keep && r.command !== undefined ? { command: r.command } : {}),
      ...(keep && r.paths !== undefined && r.paths.length > 0 ? { paths: r.paths.map((p) => p.path) } : {}),
      ...(keep && r.url !== undefined ? { url: r.url } : {}),
      ...(keep && r.title !== undefined ? { title: r.title } : {}),
      mode: e.mode,
      rule: d.rule,
      reason: d.reason,
      ...(d.pattern !== undefined ? { pattern: d.pattern } : {}),
      sent: e.sent.outcome === 'selected' ? e.sent.optionId : 'cancelled',
      by,
    };
    void this.log.record(entry);
  }
}
