/**
 * The session's {@link HostDecider} (issue 28): the verdict of src/policy/network.ts, and for an `ask` a request in
 * the same inbox as the gate's asks (a {@link PendingAsk} with our own three options: Allow Once, Allow <host> for
 * This Session, Reject; "Always…" is our UI's, beside them, see src/ui/local/networkPicks.ts).
 *
 * - The connection is held while its ask waits, up to the gate's ask timeout, then refused.
 * - Connections to one host:port while its ask is open share that ask: one request, one answer for all of them.
 * - An attempt whose agent gave up (its AbortSignal) stops waiting; the ask is withdrawn when nobody else waits.
 * - "for This Session" adds a session host grant (the narrowest pattern, ../../policy/networkHosts.ts `patternFor`):
 *   the next connection it covers is allowed unasked. A grant never lifts the address deny.
 * - Every verdict is reported to `record` (decided by a rule, or by the user), and so is every ended connection.
 * Nothing here answers for the user: an ask closes by the user's answer, its timeout (refused), the agent giving up
 * (withdrawn) or the session ending (refused).
 */
import {
  compileHostPatterns,
  parseHostPattern,
  patternFor,
  hostPort,
  type HostPattern,
} from '../../policy/networkHosts';
import { modelHosts } from '../../policy/networkPresets';
import { ALLOW_HOSTS_SETTING, decideConnection, type NetworkVerdict } from '../../policy/network';
import type { GateDecision, GateMode } from '../../policy';
import type { AnswerResult, AskClose, LocalOption, LocalPermissionRequest, PendingAsk } from '../permissions';
import type { ConnectAttempt, ConnectionRecord, HostDecider, HostVerdict } from './contract';

export const NET_ALLOW_ONCE = 'allow_once';
export const NET_ALLOW_SESSION = 'allow_session';
export const NET_REJECT = 'reject';

/** The words of a network ask (the VS Code layer passes localised ones; these are the English defaults). */
export interface NetworkWords {
  title(hostPort: string): string;
  allowOnce(): string;
  allowSession(pattern: string): string;
  /** What "for This Session" keeps, shown as its reach before the click. */
  sessionReach(pattern: string): string;
  reject(): string;
  /** Why it asks: the host is in no allow list. */
  notAllowed(): string;
}

export const ENGLISH_NETWORK_WORDS: NetworkWords = {
  title: (hp) => `Connect to ${hp}`,
  allowOnce: () => 'Allow Once',
  allowSession: (p) => `Allow ${p} for This Session`,
  sessionReach: (p) =>
    `This session then connects to ${p} without asking, until it stops (nothing is written to your settings)`,
  reject: () => 'Reject',
  notAllowed: () => `not in ${ALLOW_HOSTS_SETTING}`,
};

/** What a network ask is about (the inbox's UI tells a network ask by it). */
export interface NetworkAskInfo {
  readonly host: string;
  readonly port: number;
  /** The narrowest pattern covering it: the session grant "for This Session" adds, the rule "Always…" proposes. */
  readonly pattern: string;
}

/** One verdict, as History and the transcript record it. `asked`: the user (or the ask's end) decided. */
export interface NetworkDecided {
  readonly type: 'decided';
  readonly attempt: ConnectAttempt;
  readonly verdict: HostVerdict;
  readonly asked: boolean;
  readonly mode: GateMode;
  readonly at: number;
}

export type NetworkEvent = NetworkDecided | { readonly type: 'ended'; readonly record: ConnectionRecord };

export interface NetworkDeciderOptions {
  /** The session's agent name and folder name, for the ask's title. */
  readonly agentName: string;
  readonly folderName: string;
  /** The preset id the agent was started from (its model hosts); undefined for a custom command. */
  readonly runtime?: string;
  /** The environment the agent was given (its base-URL variables). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The gate's mode now. */
  readonly mode: () => GateMode;
  /** `fountain.local.allowHosts` now (as the setting holds it: problems leave entries out, never widen). */
  readonly allowHosts: () => unknown;
  /** The gate's ask timeout now, in seconds. */
  readonly askTimeoutSec: () => number;
  /** The inbox: receives each ask; must not answer by itself. */
  readonly ask: (ask: PendingAsk) => void;
  /** History and the transcript: every verdict and every ended connection. */
  readonly record?: (e: NetworkEvent) => void;
  /** False when nobody can be asked (what would ask is refused). Default: true. */
  readonly interactive?: () => boolean;
  readonly words?: NetworkWords;
  readonly now?: () => number;
}

let nextNetAsk = 1;

/** One open question about one host:port, shared by every attempt that waits on it. */
class NetworkAsk implements PendingAsk {
  readonly id = `local-net-${nextNetAsk++}`;
  readonly policyKey = null;
  readonly matchedBy = 'none' as const;
  readonly askedAt: number;
  readonly deadline: number;
  readonly closed: Promise<AskClose>;
  readonly request: LocalPermissionRequest;
  readonly gate: GateDecision;
  waiters = 0;
  private resolveClosed!: (c: AskClose) => void;
  private readonly timer: ReturnType<typeof setTimeout>;
  private done: AskClose | undefined;

  constructor(
    readonly agentName: string,
    readonly network: NetworkAskInfo,
    words: NetworkWords,
    why: string,
    now: number,
    timeoutMs: number,
  ) {
    this.askedAt = now;
    this.deadline = now + timeoutMs;
    this.gate = { verdict: 'ask', rule: 'network', reason: why };
    const where = hostPort(network.host, network.port);
    const session: LocalOption & { _meta: unknown } = {
      optionId: NET_ALLOW_SESSION,
      name: words.allowSession(network.pattern),
      kind: 'allow_always',
      _meta: {
        permission: {
          changes: [{ description: words.sessionReach(network.pattern) }],
          lifetime: { scope: 'session' },
        },
      },
    };
    this.request = {
      sessionId: `network:${this.id}`,
      toolCall: {
        toolCallId: this.id,
        title: words.title(where),
        kind: 'fetch',
        status: 'pending',
        rawInput: { network: { host: network.host, port: network.port } },
      },
      options: [
        { optionId: NET_ALLOW_ONCE, name: words.allowOnce(), kind: 'allow_once' },
        session,
        { optionId: NET_REJECT, name: words.reject(), kind: 'reject_once' },
      ],
    };
    this.closed = new Promise((r) => (this.resolveClosed = r));
    this.timer = setTimeout(
      () => this.close({ reason: 'timeout', sent: { outcome: 'selected', optionId: NET_REJECT } }),
      timeoutMs,
    );
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

/** The proxy's side: decide each attempt; the session's: its grants, its open asks, its end. */
export interface NetworkDecider {
  readonly decide: HostDecider;
  /** The proxy's record of a connection that ended (allowed or refused): History and the transcript. */
  connectionEnded(record: ConnectionRecord): void;
  /** The session's host grants, as patterns. */
  readonly grants: readonly string[];
  addGrant(pattern: string): boolean;
  revokeGrant(pattern: string): boolean;
  readonly openAsks: readonly PendingAsk[];
  /** The session ended: every open ask closes, later attempts are refused. */
  dispose(): void;
}

const REJECTED = 'not an allowed host; the user was asked and rejected';

/** The verdict an ask's end gives one waiting attempt. */
function verdictOfClose(close: AskClose, address: string, timeoutSec: number): HostVerdict {
  if (close.reason === 'answered' && close.sent.outcome === 'selected') {
    if (close.sent.optionId === NET_ALLOW_ONCE) {
      return { allow: true, rule: 'user: Allow Once', address };
    }
    if (close.sent.optionId === NET_ALLOW_SESSION) {
      return { allow: true, rule: 'user: Allow for This Session', address };
    }
    return { allow: false, rule: 'user: Reject', reason: REJECTED };
  }
  switch (close.reason) {
    case 'timeout':
      return { allow: false, rule: 'timeout', reason: `not an allowed host; nobody answered within ${timeoutSec} s` };
    case 'withdrawn':
      return {
        allow: false,
        rule: 'withdrawn',
        reason: 'not an allowed host; the connection was given up while asking',
      };
    default:
      return { allow: false, rule: 'session ended', reason: 'not an allowed host; the session ended while asking' };
  }
}

function hostVerdict(v: NetworkVerdict): HostVerdict {
  return v.verdict === 'allow'
    ? { allow: true, rule: v.rule, address: v.address }
    : { allow: false, rule: v.rule, reason: v.reason };
}

export function createNetworkDecider(o: NetworkDeciderOptions): NetworkDecider {
  const words = o.words ?? ENGLISH_NETWORK_WORDS;
  const now = o.now ?? Date.now;
  const model = modelHosts(o.runtime, o.env);
  const grants: HostPattern[] = [];
  const open = new Map<string, NetworkAsk>();
  let ended = false;

  const record = (attempt: ConnectAttempt, verdict: HostVerdict, asked: boolean, mode: GateMode) => {
    try {
      o.record?.({ type: 'decided', attempt, verdict, asked, mode, at: now() });
    } catch {
      // A broken record sink never changes a verdict.
    }
  };

  const askFor = (attempt: ConnectAttempt, why: string): NetworkAsk => {
    const key = hostPort(attempt.host, attempt.port);
    const existing = open.get(key);
    if (existing?.isOpen) {
      return existing;
    }
    const timeoutSec = o.askTimeoutSec();
    const info = { host: attempt.host, port: attempt.port, pattern: patternFor(attempt.host, attempt.port) };
    const ask = new NetworkAsk(o.agentName, info, words, why, now(), timeoutSec * 1000);
    open.set(key, ask);
    void ask.closed.then((close) => {
      if (open.get(key) === ask) {
        open.delete(key);
      }
      if (
        close.reason === 'answered' &&
        close.sent.outcome === 'selected' &&
        close.sent.optionId === NET_ALLOW_SESSION
      ) {
        addGrant(info.pattern);
      }
    });
    try {
      o.ask(ask);
    } catch {
      // A broken inbox must not hold the agent forever: the timeout still refuses.
    }
    return ask;
  };

  const addGrant = (pattern: string): boolean => {
    const r = parseHostPattern(pattern);
    if (!r.ok || grants.some((g) => g.text === r.pattern.text)) {
      return false;
    }
    grants.push(r.pattern);
    return true;
  };

  const decide: HostDecider = async (attempt, signal) => {
    const mode = o.mode();
    if (ended) {
      const v: HostVerdict = { allow: false, rule: 'session ended', reason: 'the agent session has ended' };
      record(attempt, v, false, mode);
      return v;
    }
    const verdict = decideConnection({
      attempt,
      mode,
      allowHosts: compileHostPatterns(o.allowHosts()).patterns,
      model,
      grants,
      interactive: o.interactive?.() ?? true,
    });
    if (verdict.verdict !== 'ask') {
      const v = hostVerdict(verdict);
      record(attempt, v, false, mode);
      return v;
    }
    if (signal.aborted) {
      const v: HostVerdict = { allow: false, rule: 'withdrawn', reason: 'the connection was given up' };
      record(attempt, v, false, mode);
      return v;
    }
    const timeoutSec = o.askTimeoutSec();
    const ask = askFor(attempt, words.notAllowed());
    ask.waiters++;
    const gaveUp = new Promise<AskClose>((resolve) =>
      signal.addEventListener('abort', () => resolve({ reason: 'withdrawn' }), { once: true }),
    );
    const close = await Promise.race([ask.closed, gaveUp]);
    ask.waiters--;
    if (close.reason === 'withdrawn' && ask.isOpen && ask.waiters === 0) {
      ask.close({ reason: 'withdrawn' });
    }
    const v = verdictOfClose(close, verdict.address, timeoutSec);
    record(attempt, v, true, mode);
    return v;
  };

  return {
    decide,
    connectionEnded: (r) => {
      try {
        o.record?.({ type: 'ended', record: r });
      } catch {
        // as above
      }
    },
    get grants() {
      return grants.map((g) => g.text);
    },
    addGrant,
    revokeGrant: (pattern) => {
      const i = grants.findIndex((g) => g.text === pattern);
      if (i < 0) {
        return false;
      }
      grants.splice(i, 1);
      return true;
    },
    get openAsks() {
      return [...open.values()].filter((a) => a.isOpen);
    },
    dispose: () => {
      ended = true;
      for (const a of [...open.values()]) {
        a.close({ reason: 'agent_exited' });
      }
    },
  };
}

/** The setting an "Always…" on a network ask extends. */
export { ALLOW_HOSTS_SETTING };
