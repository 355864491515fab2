/**
 * The verdict on one connection of a sandboxed agent (issue 28), decided on the addresses its host resolved to at
 * connect time. In this order, the first that applies decides:
 *
 * 1. Nothing resolved: refused (`unresolved`).
 * 2. Deny wins: an address that is loopback, unspecified, private (RFC 1918, CGNAT, unique-local), link-local,
 *    multicast/reserved (./networkAddress.ts), also inside an IPv6 address, is refused, unless an allowHosts entry or
 *    the preset's base-URL variable names that exact host and port (no `*`, the port written out). A cloud metadata
 *    address is refused even then. One such address among several refuses the connection.
 * 3. The agent's own model (the preset's hosts and its base URL): allowed, in every mode (an agent in plan mode
 *    still needs its model).
 * 4. The gate's mode: `plan` refuses the rest; `yolo` allows the rest.
 * 5. An allowHosts entry, then a session grant: allowed.
 * 6. Otherwise asked, and refused when nobody can be asked (not interactive) or the mode is `allow` (which refuses
 *    whatever is not allowed by a rule).
 *
 * Every verdict names its rule (for the 403, the transcript and History) and a plain reason sentence.
 */
import { ADDRESS_CLASS_WORDS, addressClass } from './networkAddress';
import { hostPort, patternCoversHost, patternNamesExactly, type HostPattern } from './networkHosts';
import type { ModelHost } from './networkPresets';
import type { GateMode } from './gateTypes';

export const ALLOW_HOSTS_SETTING = 'fountain.local.allowHosts';

/** The parts of a proxy's ConnectAttempt (src/local/network/contract.ts) the verdict reads. */
export interface HostAttempt {
  /** Lower-case, without IPv6 brackets or a trailing dot. */
  readonly host: string;
  readonly port: number;
  /** What the host resolved to at this connect (the literal itself for an IP). */
  readonly addresses: readonly string[];
}

export interface NetworkInput {
  readonly attempt: HostAttempt;
  readonly mode: GateMode;
  /** `fountain.local.allowHosts`, compiled (./networkHosts.ts). */
  readonly allowHosts: readonly HostPattern[];
  /** The preset's model hosts and base URLs (./networkPresets.ts). */
  readonly model: readonly ModelHost[];
  /** The session's host grants. */
  readonly grants: readonly HostPattern[];
  /** False when nobody can be asked: what would ask is refused. Default true. */
  readonly interactive?: boolean;
}

export type NetworkVerdict =
  | { readonly verdict: 'allow'; readonly rule: string; readonly reason: string; readonly address: string }
  | { readonly verdict: 'deny'; readonly rule: string; readonly reason: string }
  | { readonly verdict: 'ask'; readonly rule: string; readonly reason: string; readonly address: string };

/** The first exact entry (allowHosts, then a base URL) naming this host and port; the model's first. */
function exactLift(input: NetworkInput): string | undefined {
  const { host, port } = input.attempt;
  const model = input.model.find((m) => m.exact && patternNamesExactly(m.pattern, host, port));
  if (model) {
    return `baseUrl: ${model.source}`;
  }
  const entry = input.allowHosts.find((p) => patternNamesExactly(p, host, port));
  return entry ? `allowHosts: ${entry.text}` : undefined;
}

function denyByAddress(input: NetworkInput): NetworkVerdict | undefined {
  const { attempt } = input;
  const where = hostPort(attempt.host, attempt.port);
  for (const a of attempt.addresses) {
    const cls = addressClass(a);
    if (cls === undefined) {
      continue;
    }
    const shown = a === attempt.host ? where : `${where} (${a})`;
    if (cls === 'metadata') {
      return {
        verdict: 'deny',
        rule: 'deny: metadata',
        reason: `${shown} is ${ADDRESS_CLASS_WORDS.metadata}, never reachable`,
      };
    }
    if (exactLift(input) === undefined) {
      return {
        verdict: 'deny',
        rule: `deny: ${cls}`,
        reason: `${shown} is ${ADDRESS_CLASS_WORDS[cls]}; only an allowHosts entry naming exactly ${where} reaches it`,
      };
    }
  }
  return undefined;
}

/** The verdict on `input.attempt` (pure: the caller asks, holds and records). */
export function decideConnection(input: NetworkInput): NetworkVerdict {
  const { attempt, mode } = input;
  const where = hostPort(attempt.host, attempt.port);
  const address = attempt.addresses[0];
  if (address === undefined) {
    return { verdict: 'deny', rule: 'unresolved', reason: `${attempt.host} did not resolve to any address` };
  }
  const denied = denyByAddress(input);
  if (denied) {
    return denied;
  }
  const lifted = exactLift(input);
  if (lifted?.startsWith('baseUrl: ')) {
    return { verdict: 'allow', rule: lifted, reason: `${where} is the agent's model (its base URL)`, address };
  }
  const model = input.model.find((m) => patternCoversHost(m.pattern, attempt.host, attempt.port));
  if (model) {
    return {
      verdict: 'allow',
      rule: model.exact ? `baseUrl: ${model.source}` : model.source,
      reason: `${where} is where the agent's model is`,
      address,
    };
  }
  if (mode === 'plan') {
    return { verdict: 'deny', rule: 'mode: plan', reason: `plan mode refuses every host but the agent's model` };
  }
  if (mode === 'yolo') {
    return { verdict: 'allow', rule: 'mode: yolo', reason: 'yolo mode allows every host no deny covers', address };
  }
  const entry = input.allowHosts.find((p) => patternCoversHost(p, attempt.host, attempt.port));
  if (entry) {
    return {
      verdict: 'allow',
      rule: `allowHosts: ${entry.text}`,
      reason: `${ALLOW_HOSTS_SETTING} has ${entry.text}`,
      address,
    };
  }
  const grant = input.grants.find((p) => patternCoversHost(p, attempt.host, attempt.port));
  if (grant) {
    return {
      verdict: 'allow',
      rule: `grant: ${grant.text}`,
      reason: `allowed for this session (${grant.text})`,
      address,
    };
  }
  if (mode === 'allow') {
    return {
      verdict: 'deny',
      rule: 'mode: allow',
      reason: `not in ${ALLOW_HOSTS_SETTING}; allow mode refuses what no rule allows`,
    };
  }
  if (input.interactive === false) {
    return {
      verdict: 'deny',
      rule: 'not interactive',
      reason: `not in ${ALLOW_HOSTS_SETTING}, and nobody can be asked`,
    };
  }
  return { verdict: 'ask', rule: 'ask', reason: `not in ${ALLOW_HOSTS_SETTING}`, address };
}
