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
  /** When the inbox closed it. */
  closedAt?: number;
}

/** A closing that says the agent exited (the inbox's `conversationEnded: agent_exited`). */
const EXITED = /agent_exited/;

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
  /** The user's answers by tool call id (the options clicked, when, and what the extension made of each). */
  clicked: ReadonlyMap<string, { optionId: string; at: number; result?: string }[]>;
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
  let crashRace = 0;
  // When the extension knew each agent had gone: the first of its requests the inbox closed as "agent exited".
  const sawExit = new Map<number, number>();
  for (const r of o.requests) {
    const s = o.shown.get(r.toolCallId);
    if (s?.closedAt !== undefined && EXITED.test(s.closedAs ?? '')) {
      sawExit.set(r.agent, Math.min(sawExit.get(r.agent) ?? Infinity, s.closedAt));
    }
  }
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
        // Its agent is gone: the inbox must close it as such, and accept no answer once it knows (it knows when it
        // closes the agent's requests "agent exited"). An answer accepted after the agent's own exit but before the
        // extension read it (its pipe still held unread lines) is the crash race: counted, and the agent never read it.
        const knew = sawExit.get(r.agent) ?? Infinity;
        const accepted = (o.clicked.get(r.toolCallId) ?? []).filter((c) => c.result === 'answered');
        const late = accepted.filter((c) => c.at > knew);
        if (!s.closedAs) {
          problems.push(`local: ${r.toolCallId} still shown open after its agent crashed`);
        } else if (/withdrawn/.test(s.closedAs)) {
          // The agent did not withdraw it: it crashed, and the inbox must say so.
          problems.push(`local: ${r.toolCallId} closed as ${s.closedAs} after its agent crashed`);
        } else if (late.length) {
          problems.push(
            `local: ${r.toolCallId} answered ${late.length} time(s) after the extension saw its agent exit`,
          );
        } else if (accepted.some((c) => c.at > (r.exitAt ?? Infinity))) {
          crashRace++;
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
    ['local: … answered after the agent exited, before the extension read its exit', String(crashRace)],
    ['local: still open at the end (shown)', String(open)],
    ['local: lost (sent, never shown nor answered)', String(lost)],
    ['local: duplicate responses', String(duplicates)],
  ];
  return { rows, sent: o.requests.length, shown, lost, duplicates, problems };
}
