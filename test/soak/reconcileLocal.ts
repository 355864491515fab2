/**
 * The soak's reconciliation for local agents: every `session/request_permission` the scripted agents sent (their own
 * wire logs, test/soak/scriptedAgent.mjs) against what each window's inbox showed (the scripted user's reports) and
 * what came back to the agent. A request must have been shown and answered exactly once with an offered option, or
 * closed for a stated reason (its agent exited: a crash, its window closed, or Stop at the end). Lost: sent, never
 * shown, never answered, while its agent lived on. Duplicate: a second response to one request.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

interface LogLine {
  readonly t: number;
  readonly agent: number;
  readonly kind: string;
  readonly rpcId?: string | number;
  readonly toolCallId?: string;
  readonly plan?: string;
  readonly options?: string[];
  readonly result?: { outcome?: { outcome?: string; optionId?: string } };
  readonly error?: unknown;
  readonly reason?: string;
}

export interface LocalShown {
  readonly host: string;
  readonly firstSeenAt: number;
  closedAs?: string;
}

export interface AgentRequest {
  readonly agent: number;
  readonly rpcId: string | number;
  readonly toolCallId: string;
  readonly plan: string;
  readonly options: string[];
  readonly at: number;
  readonly responses: LogLine[];
  /** Why its agent went, when it went before answering it ('crash', 'input closed', 'SIGTERM'), and when. */
  exitedAs?: string;
  exitAt?: number;
}

/** Reads every agent's log in `dir`: the requests with their responses, and how each agent ended. */
export function readAgentLogs(dir: string): { requests: AgentRequest[]; agents: number; crashes: number } {
  const requests: AgentRequest[] = [];
  let agents = 0;
  let crashes = 0;
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
  for (const f of files) {
    agents++;
    const byId = new Map<string, AgentRequest>();
    let exit: LogLine | undefined;
    for (const raw of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (!raw.trim()) {
        continue;
      }
      const l = JSON.parse(raw) as LogLine;
      const key = JSON.stringify(l.rpcId);
      if (l.kind === 'request' && l.toolCallId) {
        const req: AgentRequest = {
          agent: l.agent,
          rpcId: l.rpcId!,
          toolCallId: l.toolCallId,
          plan: l.plan ?? '?',
          options: l.options ?? [],
          at: l.t,
          responses: [],
        };
        byId.set(key, req);
        requests.push(req);
      } else if (l.kind === 'response') {
        byId.get(key)?.responses.push(l);
      } else if (l.kind === 'exit') {
        exit = l;
      }
    }
    if (exit?.reason === 'crash') {
      crashes++;
    }
    for (const r of byId.values()) {
      if (!r.responses.length) {
        r.exitedAs = exit?.reason ?? 'gone without a trace';
        r.exitAt = exit?.t;
      }
    }
  }
  return { requests, agents, crashes };
}

export function reconcileLocal(o: {
  requests: readonly AgentRequest[];
  agents: number;
  crashes: number;
  restarts: number;
  shown: ReadonlyMap<string, LocalShown>;
  /** The user's answers by tool call id (the options clicked, and when). */
  clicked: ReadonlyMap<string, { optionId: string; at: number }[]>;
}): { rows: [string, string][]; sent: number; shown: number; lost: number; duplicates: number; problems: string[] } {
  const problems: string[] = [];
  let shown = 0;
  let lost = 0;
  let duplicates = 0;
  let byUs = 0;
  let gate = 0;
  const cancelled = new Map<string, number>();
  let open = 0;
  const exited = new Map<string, number>();
  let exitedUnshown = 0;
  for (const r of o.requests) {
    const s = o.shown.get(r.toolCallId);
    if (s) {
      shown++;
    }
    if (r.responses.length > 1) {
      duplicates += r.responses.length - 1;
      problems.push(`local duplicate: ${r.toolCallId} answered ${r.responses.length} times`);
    }
    const first = r.responses[0];
    if (first) {
      const outcome = first.result?.outcome;
      if (outcome?.outcome === 'selected') {
        if (!outcome.optionId || !r.options.includes(outcome.optionId)) {
          problems.push(`local: ${r.toolCallId} answered with ${JSON.stringify(outcome.optionId)}, not offered`);
        }
        if (!s) {
          gate++;
        } else if (o.clicked.get(r.toolCallId)?.some((c) => c.optionId === outcome.optionId)) {
          byUs++;
        } else {
          problems.push(`local: ${r.toolCallId} shown, answered ${outcome.optionId} without the user choosing it`);
        }
      } else if (outcome?.outcome === 'cancelled') {
        // Why the extension cancelled it: how the inbox closed the item (e.g. Stop at the end), or never shown.
        const why = s ? (s.closedAs ?? 'shown, still open') : 'never shown';
        cancelled.set(why, (cancelled.get(why) ?? 0) + 1);
      } else {
        problems.push(`local: ${r.toolCallId} got ${JSON.stringify(first.result ?? first.error)}`);
      }
    } else if (r.exitedAs) {
      exited.set(r.exitedAs, (exited.get(r.exitedAs) ?? 0) + 1);
      if (!s) {
        exitedUnshown++;
      } else if (r.exitedAs === 'crash') {
        // Its agent is gone: the inbox must close it as such, and nothing may be answered after the exit (an answer
        // clicked just before the crash, that the agent did not read, is not one).
        const late = (o.clicked.get(r.toolCallId) ?? []).filter((c) => c.at > (r.exitAt ?? Infinity) + 500);
        if (!s.closedAs) {
          problems.push(`local: ${r.toolCallId} still shown open after its agent crashed`);
        } else if (/withdrawn/.test(s.closedAs)) {
          // The agent did not withdraw it: it crashed, and the inbox must say so.
          problems.push(`local: ${r.toolCallId} closed as ${s.closedAs} after its agent crashed`);
        } else if (late.length) {
          problems.push(`local: ${r.toolCallId} answered ${late.length} time(s) after its agent crashed`);
        }
      }
    } else if (s) {
      open++;
    } else {
      lost++;
      problems.push(`local lost: ${r.toolCallId} (${r.plan}, sent at ${new Date(r.at).toISOString()})`);
    }
  }
  const exitText =
    [...exited]
      .map(
        ([why, n]) =>
          `${n} ${why === 'crash' ? 'crash' : why === 'SIGTERM' ? 'stopped (Stop at the end or window closed)' : why}`,
      )
      .join(', ') || '0';
  const rows: [string, string][] = [
    [
      'local: agents started (crashed, restarted)',
      `${o.agents} (${o.crashes} crashed, ${o.restarts} restarted by Restart Local Agent)`,
    ],
    ['local: session/request_permission sent by the agents', String(o.requests.length)],
    ['local: shown by the extension', String(shown)],
    ['local: answered by us (one response, the option clicked)', String(byUs)],
    ['local: decided by the local gate (never shown)', String(gate)],
    [
      'local: answered cancelled (how the inbox closed it)',
      `${[...cancelled.values()].reduce((a, b) => a + b, 0)} (${[...cancelled].map(([w, n]) => `${n} ${w}`).join(', ') || '–'})`,
    ],
    ['local: closed by its agent exiting', `${[...exited.values()].reduce((a, b) => a + b, 0)} (${exitText})`],
    ['local: … of which the agent exited before it was shown', String(exitedUnshown)],
    ['local: still open at the end (shown)', String(open)],
    ['local: lost (sent, never shown nor answered)', String(lost)],
    ['local: duplicate responses', String(duplicates)],
  ];
  return { rows, sent: o.requests.length, shown, lost, duplicates, problems };
}
