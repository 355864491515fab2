/**
 * Each local session's gate, watched from the lazily loaded UI (sessions exist only after Start Local Agent loaded
 * it): every gate decision (verdict, rule, reason, what was sent) and every mode and grant change is logged to the
 * Fountain Approvals output channel (and each one the gate made by itself kept in "Decided without you"), a mode or
 * grant change redraws the tree, and every ask you answer is kept in
 * the session's approval log, which Recommend Local Allow Patterns… reads. Settings the gate cannot honour are
 * shown once per change (a warning with Open Settings): the gates then allow nothing automatically and ask instead.
 */
import * as vscode from 'vscode';
import type { GateDecisionEvent, PendingAsk } from '../../local';
import type { ApprovalEntry } from '../../policy';
import { toInertText } from '../../domain/inertText';
import { inertLine } from '../display';
import { Disposable } from '../../util/lifecycle';
import type { LocalSessionManager, ManagedSession } from './manager';
import type { DecidedRecorder } from './decidedRecorder';

/** How many answered asks a session's approval log keeps. */
const APPROVALS_KEPT = 500;
/** How many of its latest log lines the watch keeps (tests read them; the output channel has them all). */
const LINES_KEPT = 200;

export class GateWatch extends Disposable {
  private readonly logs = new WeakMap<ManagedSession, ApprovalEntry[]>();
  private readonly watched = new WeakSet<ManagedSession>();
  private readonly _lines: string[] = [];
  private shownProblems = '';

  constructor(
    private readonly manager: LocalSessionManager,
    private readonly log: { info(m: string): void; warn(m: string): void },
    private readonly decided: DecidedRecorder,
  ) {
    super();
    // The tree's "N decided without you" rows follow the log.
    this._register(decided.log.onDidChange(() => this.manager.changed()));
    this._register(manager.onDidAsk(({ session, ask }) => this.noteAsk(session, ask)));
    this._register(manager.onDidChangeSessions(() => this.watchAll()));
    this.watchAll();
  }

  /** The latest lines this watch logged, oldest first. */
  get lines(): readonly string[] {
    return [...this._lines];
  }

  /** The settings problems last shown (empty when there are none). */
  get problems(): string {
    return this.shownProblems;
  }

  /** The asks of `s` you answered (allow or reject), oldest first. */
  approvals(s: ManagedSession): ApprovalEntry[] {
    return [...(this.logs.get(s) ?? [])];
  }

  private watchAll(): void {
    this.checkSettings();
    for (const s of this.manager.sessions) {
      if (this.watched.has(s)) {
        continue;
      }
      this.watched.add(s);
      // The gate's emitters end with the session (Stop disposes the gate), and these subscriptions with them.
      const line = (m: string) => this.info(`[${s.agentName}] ${toInertText(m, { singleLine: true })}`);
      // Every decision: sessions are listed before their first prompt, so none is missed.
      s.gate.onDidDecide((e) => {
        this.info(`[${s.agentName}] ${gateLogLine(e)}`);
        this.decided.record(s, e);
      });
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

  /** Every gate reads the same settings: the first session's gate says whether they can be honoured. */
  private checkSettings(): void {
    const first = this.manager.sessions[0];
    const problems = first ? first.gate.configProblems().join('; ') : this.shownProblems;
    if (problems === this.shownProblems) {
      return;
    }
    this.shownProblems = problems;
    if (!problems) {
      return;
    }
    this.log.warn(`fountain.local settings: ${toInertText(problems, { singleLine: true })}`);
    const open = vscode.l10n.t('Open Settings');
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t(
          'The fountain.local settings have problems, so local agents are allowed nothing automatically and you are asked instead: {0}',
          inertLine(problems),
        ),
        open,
      )
      .then((b) =>
        b === open ? vscode.commands.executeCommand('workbench.action.openSettings', 'fountain.local') : undefined,
      );
  }

  private info(line: string): void {
    this.log.info(line);
    this._lines.push(line);
    this._lines.splice(0, Math.max(0, this._lines.length - LINES_KEPT));
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

/** One log line per gate decision: its verdict, rule and reason (agent text made inert: one line, escapes). */
function gateLogLine(e: GateDecisionEvent): string {
  const d = e.decision;
  const pattern = d.pattern !== undefined ? ` [${toInertText(d.pattern, { singleLine: true })}]` : '';
  const sent = e.sent
    ? e.sent.outcome === 'selected'
      ? `, sent ${toInertText(e.sent.optionId, { singleLine: true })}`
      : ', sent cancelled'
    : '';
  return `gate (${e.mode}): ${d.verdict} by ${d.rule}${pattern}: ${toInertText(d.reason, { singleLine: true })}${sent}`;
}
