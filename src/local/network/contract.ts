/**
 * The one interface between a sandboxed agent's network proxy (proxy.ts: it parses, resolves, connects and relays)
 * and the session that decides each connection (decider.ts: allowHosts, the preset's model hosts, grants, the gate's
 * mode, the inbox). The proxy never decides on its own account: every connection it makes was allowed by a
 * {@link HostDecider}, and it connects to an address that decider saw (no second resolution: DNS rebinding).
 */

/** One connection a sandboxed agent asked the proxy for. */
export interface ConnectAttempt {
  /** As the agent named it: lower-cased, without IPv6 brackets or a trailing dot. An IP literal stays a literal. */
  readonly host: string;
  readonly port: number;
  /** `connect`: an HTTP CONNECT tunnel (TLS the proxy cannot read); `http`: a plain HTTP request it forwards. */
  readonly via: 'connect' | 'http';
  /** What `host` resolved to at this connect (the literal itself for an IP); empty when resolving failed. */
  readonly addresses: readonly string[];
}

/** What the decider says of one attempt. `rule` names what decided, for the 403, the transcript and History. */
export type HostVerdict =
  | {
      readonly allow: true;
      /** E.g. `allowHosts: *.googleapis.com`, `preset: claude`, `grant: pypi.org`, `user: Allow Once`. */
      readonly rule: string;
      /** The address to connect to, one of the attempt's `addresses`. */
      readonly address: string;
    }
  | {
      readonly allow: false;
      readonly rule: string;
      /** One plain sentence for the agent and the user, e.g. "not an allowed host; the user was asked and rejected". */
      readonly reason: string;
    };

/**
 * Decides an attempt, asking the user when needed; the proxy holds the connection until it resolves. `signal` aborts
 * when the agent gave up on the connection (the decider then closes its ask without an answer).
 */
export type HostDecider = (attempt: ConnectAttempt, signal: AbortSignal) => Promise<HostVerdict>;

/** One connection as it ended: what the session transcript and History record. */
export interface ConnectionRecord {
  readonly attempt: ConnectAttempt;
  readonly verdict: HostVerdict;
  /** Bytes from the agent and to it (0 for a refused one). */
  readonly bytesOut: number;
  readonly bytesIn: number;
  readonly startedAt: number;
  readonly endedAt: number;
}

/** The header a refusal carries (with a JSON body `{ blockedBy, host, port, rule, reason }`). */
export const BLOCKED_HEADER = 'X-Fountain-Blocked';
