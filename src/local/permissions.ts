/**
 * What answers a local agent's `session/request_permission`: the agent's local policy (title → kind → default, the
 * seed-000 lookup in src/policy), and for `ask` the inbox, within the ask timeout. Only an option id the agent
 * offered is ever sent, and each request is answered once.
 *
 * - `auto_allow`: allow_always, else allow_once, else the first option (src/policy `autoOutcome`).
 * - `auto_deny`: the first `reject_once`, else the first `reject_always`, else `cancelled` (src/policy `denyOutcome`).
 * - `ask`: a {@link PendingAsk} goes to the inbox; the user's answer is sent; no answer within the ask timeout sends
 *   the first `reject_once` (its first reject option only when it offers no `reject_once`; `cancelled` only when it
 *   offers none, since claude-agent-acp aborts the tool on `cancelled`).
 * - Cancel Turn / Stop: every open ask is answered `cancelled` (ACP requires it) before `session/cancel`.
 * - The agent exited, or withdrew the request (`$/cancel_request`): the ask closes and nothing is sent.
 */
import { autoOutcome, denyOutcome, parseTimeoutSec, verdictOf, ASK_TIMEOUT_KEY, IN_TURN_CEILING_SEC } from '../policy';
import type { GateDecision, Verdict } from '../policy';
import { Emitter, type Event } from '../domain/events';

export interface LocalOption {
  readonly optionId: string;
  readonly name: string;
  readonly kind: string;
}

/** The tool call a request is about: the request's fields merged over the earlier `tool_call` with that id. */
export interface LocalToolCall {
  readonly toolCallId: string;
  readonly title?: string;
  readonly kind?: string;
  readonly status?: string;
  readonly content?: readonly unknown[];
  readonly locations?: readonly unknown[];
  readonly rawInput?: unknown;
}

export interface LocalPermissionRequest {
  readonly sessionId: string;
  readonly toolCall: LocalToolCall;
  readonly options: readonly LocalOption[];
  readonly meta?: unknown;
}

/** The answer sent to the agent. */
export type LocalOutcome =
  { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };

/** Why an ask closed. Only `answered`, `timeout` and `cancelled` sent something to the agent. */
export type AskClose =
  | { readonly reason: 'answered'; readonly sent: LocalOutcome }
  | { readonly reason: 'timeout'; readonly sent: LocalOutcome }
  | { readonly reason: 'cancelled'; readonly sent: LocalOutcome }
  | { readonly reason: 'agent_exited' }
  | { readonly reason: 'withdrawn' };

export type AnswerResult = 'sent' | 'not_offered' | 'closed';

/** One request waiting for the user. The inbox shows it and calls {@link answer} on a user gesture only. */
export interface PendingAsk {
  /** Unique among this process's asks. */
  readonly id: string;
  readonly agentName: string;
  readonly request: LocalPermissionRequest;
  /** The policy key that said `ask` (the title, the kind or `default`), for provenance. */
  readonly policyKey: string | null;
  readonly matchedBy: PolicyMatch;
  readonly askedAt: number;
  /** Epoch ms at which the timeout answer is sent. */
  readonly deadline: number;
  /** Sends `optionId` if it was offered and nothing was sent yet. */
  answer(optionId: string): AnswerResult;
  readonly isOpen: boolean;
  /** Resolves once, when the ask closes for any reason. */
  readonly closed: Promise<AskClose>;
  /** Why the local gate asked (its rule, reason and pattern), when a gate decides this session. */
  readonly gate?: GateDecision;
  /** Set on a network ask (src/local/network/decider.ts): the host and port it is about, and its narrowest pattern. */
  readonly network?: { readonly host: string; readonly port: number; readonly pattern: string };
}

/** The inbox side: receives each ask. It must not answer by itself. */
export type AskInbox = (ask: PendingAsk) => void;

/**
 * The local gate's answer for one request: `sent` when it decided by itself (always an offered option id or
 * `cancelled`), absent when the request goes to the inbox (the ask timeout and every other rule still apply).
 */
export interface GateAnswer {
  readonly decision: GateDecision;
  readonly sent?: LocalOutcome;
}

/** A gate that decides a session's requests before the inbox (see src/local/gate.ts). */
export interface SessionGate {
  decide(request: LocalPermissionRequest): GateAnswer;
  /** Every `session/update` of the session (a `plan` update records the plan). */
  sessionUpdate?(update: unknown): void;
  /** Every decision once it is closed (an allowed `switch_mode` records the plan). */
  decided?(decision: PermissionDecision): void;
}

/** Which part of the request the deciding policy key matched. */
export type PolicyMatch = 'title' | 'kind' | 'default' | 'none';

/** A decision made for one request, for history and provenance ("asked by kind "execute" in the local policy"). */
export interface PermissionDecision {
  readonly request: LocalPermissionRequest;
  readonly verdict: Verdict;
  readonly policyKey: string | null;
  readonly matchedBy: PolicyMatch;
  /** How it ended; `sent` is absent when nothing was sent (agent exited, request withdrawn). */
  readonly close: AskClose | { readonly reason: 'policy' | 'gate'; readonly sent: LocalOutcome };
  /** The local gate's decision (rule, reason, pattern), when a gate decides this session. */
  readonly gate?: GateDecision;
}

let nextAskId = 1;

class Ask implements PendingAsk {
  readonly id = `local-ask-${nextAskId++}`;
  readonly askedAt = Date.now();
  readonly deadline: number;
  readonly closed: Promise<AskClose>;
  private resolveClosed!: (c: AskClose) => void;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private done: AskClose | undefined;

  constructor(
    readonly agentName: string,
    readonly request: LocalPermissionRequest,
    readonly policyKey: string | null,
    readonly matchedBy: PolicyMatch,
    timeoutMs: number,
    readonly gate?: GateDecision,
  ) {
    this.deadline = this.askedAt + timeoutMs;
    this.closed = new Promise((r) => (this.resolveClosed = r));
    this.timer = setTimeout(() => this.close({ reason: 'timeout', sent: denyOutcome(request.options) }), timeoutMs);
  }

  get isOpen(): boolean {
    return this.done === undefined;
  }

  close(c: AskClose): boolean {
    if (this.done) {
      return false;
    }
    this.done = c;
    clearTimeout(this.timer);
    this.resolveClosed(c);
    return true;
  }

  answer(optionId: string): AnswerResult {
    if (this.done) {
      return 'closed';
    }
    if (typeof optionId !== 'string' || !this.request.options.some((o) => o.optionId === optionId)) {
      return 'not_offered';
    }
    this.close({ reason: 'answered', sent: { outcome: 'selected', optionId } });
    return 'sent';
  }
}

export interface PermissionBrokerOptions {
  readonly agentName: string;
  readonly policy: Readonly<Record<string, unknown>>;
  readonly ask: AskInbox;
  /** Overrides the policy's `ask_timeout` (tests); seconds. */
  readonly askTimeoutSec?: number;
  /** Replaces the policy lookup with the local gate; its asks go to the inbox. */
  readonly gate?: SessionGate;
}

function matchOf(request: LocalPermissionRequest, key: string | null): PolicyMatch {
  if (key === null) {
    return 'none';
  }
  return key === request.toolCall.title ? 'title' : key === request.toolCall.kind ? 'kind' : 'default';
}

/** The ask timeout a local policy gives: its `ask_timeout` when valid, else 300 s. */
export function localAskTimeoutSec(policy: Readonly<Record<string, unknown>>): number {
  const own = Object.hasOwn(policy, ASK_TIMEOUT_KEY) ? policy[ASK_TIMEOUT_KEY] : undefined;
  return parseTimeoutSec(own) ?? IN_TURN_CEILING_SEC;
}

/** Decides every request of one session; owns its open asks. */
export class PermissionBroker {
  private readonly open = new Set<Ask>();
  private readonly _onDidDecide = new Emitter<PermissionDecision>();
  readonly onDidDecide: Event<PermissionDecision> = this._onDidDecide.event;
  private readonly _onDidChangeOpen = new Emitter<number>();
  /** Fires with the number of open asks whenever it changes. */
  readonly onDidChangeOpen: Event<number> = this._onDidChangeOpen.event;
  private closedFor: 'agent_exited' | undefined;

  constructor(private readonly opts: PermissionBrokerOptions) {}

  get openAsks(): PendingAsk[] {
    return [...this.open];
  }

  /**
   * The answer to send for `request`, or undefined when nothing may be sent (the agent exited or withdrew it).
   * `signal` aborts when the agent withdraws the request or the connection closes.
   */
  async decide(
    request: LocalPermissionRequest,
    signal?: AbortSignal,
    onAsk?: (ask: PendingAsk) => void,
  ): Promise<LocalOutcome | undefined> {
    if (this.opts.gate) {
      let gated: GateAnswer | undefined;
      try {
        gated = this.opts.gate.decide(request);
      } catch {
        // A gate that cannot decide never lets the policy answer in its place: a human is asked.
        return this.ask(request, 'ask', null, 'none', signal, onAsk);
      }
      return this.decideGated(request, gated, signal, onAsk);
    }
    const { verdict, key } = verdictOf(this.opts.policy, {
      title: request.toolCall.title,
      kind: request.toolCall.kind,
    });
    const matchedBy = matchOf(request, key);
    if (verdict === 'auto_allow' || verdict === 'auto_deny') {
      const sent = verdict === 'auto_deny' ? denyOutcome(request.options) : autoOutcome(verdict, request.options);
      this._onDidDecide.fire({ request, verdict, policyKey: key, matchedBy, close: { reason: 'policy', sent } });
      return sent;
    }
    return this.ask(request, verdict, key, matchedBy, signal, onAsk);
  }

  private decideGated(
    request: LocalPermissionRequest,
    gated: GateAnswer,
    signal: AbortSignal | undefined,
    onAsk: ((ask: PendingAsk) => void) | undefined,
  ): Promise<LocalOutcome | undefined> {
    const gate = gated.decision;
    if (gated.sent) {
      const verdict = gate.verdict === 'allow' ? 'auto_allow' : 'auto_deny';
      const d: PermissionDecision = {
        request,
        verdict,
        policyKey: null,
        matchedBy: 'none',
        close: { reason: 'gate', sent: gated.sent },
        gate,
      };
      this._onDidDecide.fire(d);
      this.opts.gate?.decided?.(d);
      return Promise.resolve(gated.sent);
    }
    // Asked by the mode: the policy key said `ask` first (provenance names it); any other rule asked by itself.
    const key =
      gate.rule === 'mode'
        ? verdictOf(this.opts.policy, { title: request.toolCall.title, kind: request.toolCall.kind }).key
        : null;
    return this.ask(request, 'ask', key, matchOf(request, key), signal, onAsk, gate);
  }

  private async ask(
    request: LocalPermissionRequest,
    verdict: Verdict,
    key: string | null,
    matchedBy: PolicyMatch,
    signal: AbortSignal | undefined,
    onAsk: ((ask: PendingAsk) => void) | undefined,
    gate?: GateDecision,
  ): Promise<LocalOutcome | undefined> {
    const timeoutSec = this.opts.askTimeoutSec ?? localAskTimeoutSec(this.opts.policy);
    const ask = new Ask(this.opts.agentName, request, key, matchedBy, timeoutSec * 1000, gate);
    if (this.closedFor) {
      ask.close({ reason: this.closedFor });
    } else if (signal?.aborted) {
      ask.close({ reason: 'withdrawn' });
    } else {
      this.open.add(ask);
      this._onDidChangeOpen.fire(this.open.size);
      signal?.addEventListener('abort', () => ask.close({ reason: 'withdrawn' }), { once: true });
      onAsk?.(ask);
      try {
        this.opts.ask(ask);
      } catch {
        // A broken inbox must not leave the agent hanging: the timeout still answers.
      }
    }
    const close = await ask.closed;
    if (this.open.delete(ask)) {
      this._onDidChangeOpen.fire(this.open.size);
    }
    const d: PermissionDecision = { request, verdict, policyKey: key, matchedBy, close, ...(gate ? { gate } : {}) };
    this._onDidDecide.fire(d);
    this.opts.gate?.decided?.(d);
    return 'sent' in close ? close.sent : undefined;
  }

  /** Cancel Turn / Stop: answers every open ask `cancelled`. Returns how many were open. */
  cancelAll(): number {
    let n = 0;
    for (const ask of [...this.open]) {
      if (ask.close({ reason: 'cancelled', sent: { outcome: 'cancelled' } })) {
        n++;
      }
    }
    return n;
  }

  /** The agent is gone: every open ask closes as "agent exited", and later requests too; nothing is sent. */
  agentExited(): void {
    this.closedFor = 'agent_exited';
    for (const ask of [...this.open]) {
      ask.close({ reason: 'agent_exited' });
    }
  }

  dispose(): void {
    this.agentExited();
    this._onDidDecide.dispose();
    this._onDidChangeOpen.dispose();
  }
}
