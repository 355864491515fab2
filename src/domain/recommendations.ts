/**
 * Policy suggestions mined from the approval history, keyed by ACP kind and meant for the agent's policy on the
 * server (never applied here: the editor previews and confirms every change).
 *
 * Rules:
 * - only answers the server took count (outcome `answered`), and only for a known agent and an ACP kind;
 * - `auto_allow` for a kind the user always allowed, at least `minAnswers` times across at least
 *   `minConversations` conversations; one reject (or an option of unknown kind) rules it out;
 * - `auto_deny` for a kind the user always rejected, with the same thresholds;
 * - loosening a risky kind (`execute`, `delete`) is flagged `risky`: the UI must make the user expand a warning
 *   that states the risk before it goes on;
 * - nothing is suggested that the agent's policy already says.
 */
import { TOOL_KINDS, type Verdict } from '../policy/verdicts';
import type { HistoryEntry } from './history';

/** Kinds whose loosening needs an explicit, expanded warning. */
export const RISKY_KINDS: readonly string[] = Object.freeze(['execute', 'delete']);

export interface RecommendationOptions {
  /** Answers needed. Default 5. */
  readonly minAnswers?: number;
  /** Distinct conversations needed. Default 2. */
  readonly minConversations?: number;
}

export interface Recommendation {
  readonly server: string;
  readonly agentId: string;
  /** The most recent name seen for the agent (untrusted). */
  readonly agentName?: string;
  readonly kind: string;
  readonly verdict: Extract<Verdict, 'auto_allow' | 'auto_deny'>;
  /** Answers that support it. */
  readonly count: number;
  readonly conversations: number;
  /** A loosening of `execute` or `delete`: show the risk and ask twice. */
  readonly risky: boolean;
}

/** What the agent's policy currently gives a kind, when known. */
export type CurrentVerdict = (server: string, agentId: string, kind: string) => Verdict | undefined;

const ALLOW = new Set(['allow_once', 'allow_always']);
const REJECT = new Set(['reject_once', 'reject_always']);

export const DEFAULT_MIN_ANSWERS = 5;
export const DEFAULT_MIN_CONVERSATIONS = 2;

interface Tally {
  server: string;
  agentId: string;
  agentName?: string;
  kind: string;
  allows: number;
  rejects: number;
  others: number;
  conversations: Set<string>;
}

/** Suggestions from `entries` (any order), strongest first. */
export function recommend(
  entries: readonly HistoryEntry[],
  opts: RecommendationOptions = {},
  current?: CurrentVerdict,
): Recommendation[] {
  const minAnswers = atLeastOne(opts.minAnswers, DEFAULT_MIN_ANSWERS);
  const minConversations = atLeastOne(opts.minConversations, DEFAULT_MIN_CONVERSATIONS);
  const tallies = new Map<string, Tally>();
  // Oldest first, so the latest agent name wins.
  for (const e of [...entries].sort((a, b) => a.at - b.at)) {
    if (e.outcome !== 'answered' || !e.agentId || !e.kind || !TOOL_KINDS.includes(e.kind)) {
      continue;
    }
    const k = JSON.stringify([e.server, e.agentId, e.kind]);
    let t = tallies.get(k);
    if (!t) {
      t = {
        server: e.server,
        agentId: e.agentId,
        kind: e.kind,
        allows: 0,
        rejects: 0,
        others: 0,
        conversations: new Set(),
      };
      tallies.set(k, t);
    }
    if (e.agentName) {
      t.agentName = e.agentName;
    }
    t.conversations.add(e.conversationId);
    if (e.optionKind && ALLOW.has(e.optionKind)) {
      t.allows++;
    } else if (e.optionKind && REJECT.has(e.optionKind)) {
      t.rejects++;
    } else {
      t.others++;
    }
  }
  const out: Recommendation[] = [];
  for (const t of tallies.values()) {
    const total = t.allows + t.rejects + t.others;
    if (total < minAnswers || t.conversations.size < minConversations) {
      continue;
    }
    let verdict: Recommendation['verdict'];
    if (t.allows === total) {
      verdict = 'auto_allow';
    } else if (t.rejects === total) {
      verdict = 'auto_deny';
    } else {
      continue;
    }
    if (current?.(t.server, t.agentId, t.kind) === verdict) {
      continue;
    }
    out.push({
      server: t.server,
      agentId: t.agentId,
      ...(t.agentName !== undefined ? { agentName: t.agentName } : {}),
      kind: t.kind,
      verdict,
      count: total,
      conversations: t.conversations.size,
      risky: verdict === 'auto_allow' && RISKY_KINDS.includes(t.kind),
    });
  }
  return out.sort((a, b) => b.count - a.count || a.agentId.localeCompare(b.agentId) || a.kind.localeCompare(b.kind));
}

function atLeastOne(v: number | undefined, dflt: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= 1 ? Math.floor(v) : dflt;
}
