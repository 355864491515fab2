/**
 * Agent × launch policy: the key-wise clamp the server runs every turn (`Managoat.ACP.Permissions.effective/2`,
 * `check_narrows/2`, `Fountain.PermissionPolicy.effective_ask_timeout_seconds/2`, `check_narrows/3`), and an
 * explanation of which rule decided a request.
 *
 * The clamp is per *key*, not per request: for a key only one side names, the other side contributes what its
 * own `default` (else `auto_allow`) says, never what its kind keys say. Because a title outranks a kind at lookup,
 * a title key named by one side can therefore beat a stricter kind key of the other side. That is the server's
 * behaviour and is reproduced here on purpose; {@link explainVerdict} reports it (`loosened`).
 */
import { parseConfiguredTimeoutSec, parseTimeoutSec } from './timeout';
import {
  ASK_TIMEOUT_KEY,
  DEFAULT_KEY,
  PolicyMap,
  ToolRequest,
  Verdict,
  isPlainObject,
  strictness,
  stricter,
  toolKeys,
  verdictForKey,
  verdictOf,
} from './verdicts';

/** Every tool key either side names, agent's first, each side in the server's map order; `default` excluded. */
function unionKeys(agent: PolicyMap | null | undefined, launch: PolicyMap | null | undefined): string[] {
  const keys = toolKeys(agent);
  for (const k of toolKeys(launch)) {
    if (!keys.includes(k)) {
      keys.push(k);
    }
  }
  return keys;
}

function askTimeoutOf(policy: PolicyMap | null | undefined): number | undefined {
  return isPlainObject(policy) && Object.hasOwn(policy, ASK_TIMEOUT_KEY)
    ? parseTimeoutSec(policy[ASK_TIMEOUT_KEY])
    : undefined;
}

/** The `ask_timeout` in force for a conversation: the shorter of the two readable ones, or undefined. */
export function mergeAskTimeouts(
  agent: PolicyMap | null | undefined,
  launch: PolicyMap | null | undefined,
): number | undefined {
  const a = askTimeoutOf(agent);
  const l = askTimeoutOf(launch);
  return a !== undefined && l !== undefined ? Math.min(a, l) : (a ?? l);
}

/**
 * The effective policy: for every tool key either side names, and for `default`, the stricter of what each side
 * gives that key on its own (its value, else its `default`, else `auto_allow`); `ask_timeout` is the shorter
 * readable one, omitted when neither is. Values in the result are always verdicts. Non-object inputs are empty.
 */
export function mergePolicies(
  agent: PolicyMap | null | undefined,
  launch: PolicyMap | null | undefined,
): Record<string, unknown> {
  const entries: [string, unknown][] = unionKeys(agent, launch).map((k) => [
    k,
    stricter(verdictForKey(agent, k).verdict, verdictForKey(launch, k).verdict),
  ]);
  entries.push([
    DEFAULT_KEY,
    stricter(verdictForKey(agent, DEFAULT_KEY).verdict, verdictForKey(launch, DEFAULT_KEY).verdict),
  ]);
  const timeout = mergeAskTimeouts(agent, launch);
  if (timeout !== undefined) {
    entries.push([ASK_TIMEOUT_KEY, timeout]);
  }
  // fromEntries defines own properties, so a `__proto__` key stays a key.
  return Object.fromEntries(entries);
}

/**
 * Whether a launch policy only narrows the agent's, as the server checks it before starting a conversation.
 * Fails naming the first key the launch would loosen: over the union of tool keys (agent's first), then
 * `default`, then `ask_timeout` when the launch asks for a longer wait than the agent's, or than the ceiling
 * (default 300 s) when the agent names none.
 */
export function checkNarrows(
  agent: PolicyMap | null | undefined,
  launch: PolicyMap | null | undefined,
  opts?: { ceilingSec?: unknown },
): { ok: true } | { ok: false; key: string } {
  for (const k of [...unionKeys(agent, launch), DEFAULT_KEY]) {
    if (strictness(verdictForKey(launch, k).verdict) < strictness(verdictForKey(agent, k).verdict)) {
      return { ok: false, key: k };
    }
  }
  const agentLimit = askTimeoutOf(agent) ?? parseConfiguredTimeoutSec(opts?.ceilingSec);
  const launchTimeout = askTimeoutOf(launch);
  if (launchTimeout !== undefined && launchTimeout > agentLimit) {
    return { ok: false, key: ASK_TIMEOUT_KEY };
  }
  return { ok: true };
}

export type VerdictSource = 'agent' | 'launch' | 'builtin';

export interface VerdictExplanation {
  /** What the server does with the request: the effective (merged) policy's verdict. */
  verdict: Verdict;
  /** The rule in the source policy that supplied it (a title, a kind, or `default`); null for the built-in. */
  key: string | null;
  /** Which policy that rule is in. On equal strictness the agent's is named. */
  source: 'agent' | 'launch' | 'builtin';
  /** The key of the effective policy the request matched (title, kind or `default`). */
  matchedKey: string;
  /** What each policy alone would give this request. */
  alone: { agent: Verdict; launch: Verdict };
  /**
   * True when the effective verdict is looser than one of the policies alone would give: the per-key clamp let
   * a title key named by one side outrank the other side's stricter kind key. The server does answer this way.
   */
  loosened: boolean;
}

/**
 * Why the server gives a request its verdict: the effective verdict, the rule that decided it and the policy it
 * came from (`agent`, `launch`, or `builtin` when neither policy had anything to say).
 */
export function explainVerdict(
  agent: PolicyMap | null | undefined,
  launch: PolicyMap | null | undefined,
  req: ToolRequest,
): VerdictExplanation {
  const merged = mergePolicies(agent, launch);
  const effective = verdictOf(merged, req);
  // The merged map always holds `default`, so something matched.
  const matchedKey = effective.key ?? DEFAULT_KEY;
  const a = verdictForKey(agent, matchedKey);
  const l = verdictForKey(launch, matchedKey);
  let pick: { verdict: Verdict; key: string | null; source: VerdictSource };
  const diff = strictness(a.verdict) - strictness(l.verdict);
  if (diff > 0 || (diff === 0 && a.key !== null)) {
    pick = { ...a, source: 'agent' };
  } else if (diff < 0 || l.key !== null) {
    pick = { ...l, source: 'launch' };
  } else {
    pick = { verdict: a.verdict, key: null, source: 'builtin' };
  }
  const alone = { agent: verdictOf(agent, req).verdict, launch: verdictOf(launch, req).verdict };
  const loosened = strictness(effective.verdict) < Math.max(strictness(alone.agent), strictness(alone.launch));
  return { verdict: effective.verdict, key: pick.key, source: pick.source, matchedKey, alone, loosened };
}
