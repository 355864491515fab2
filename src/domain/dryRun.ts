/**
 * The dry run of an "always" rule before anything is kept: which past answers (the approval history) it would have
 * allowed without asking, in how many conversations, how many of those the user rejected, and which entries could
 * not be checked (their label was not kept). Pure; what "covers" means is the caller's: the local gate's own
 * decision for a local allow pattern (./dryRunMatch.ts), the merged agent policy for a remote policy change.
 */
import type { HistoryEntry } from './history';

export interface DryRunHit {
  readonly entry: HistoryEntry;
  /** The user rejected it then (the chosen option's kind was a reject_*). */
  readonly rejected: boolean;
}

export interface DryRun {
  /** Newest first. */
  readonly hits: readonly DryRunHit[];
  readonly conversations: number;
  readonly rejected: number;
  /** Entries in scope whose text was not kept: they cannot be checked. */
  readonly unchecked: number;
  /** Entries looked at. */
  readonly checked: number;
}

/**
 * Whether the rule would have allowed a past request without asking; undefined when it cannot tell (the entry's
 * label was not kept, or it is too vague to read).
 */
export type EntryCovers = (entry: HistoryEntry) => boolean | undefined;

export interface DryRunScope {
  /** Only entries of these sources (local sessions for a local rule, one agent's for a policy); all when absent. */
  readonly source?: (entry: HistoryEntry) => boolean;
  /** Only entries of this kind (a rule for one kind); every kind when absent. */
  readonly kind?: string;
}

/** Replays a rule over `entries` (any order; the hits come newest first). */
export function dryRun(entries: readonly HistoryEntry[], covers: EntryCovers, scope: DryRunScope = {}): DryRun {
  const hits: DryRunHit[] = [];
  let unchecked = 0;
  let checked = 0;
  for (const e of entries) {
    if ((scope.source && !scope.source(e)) || (scope.kind !== undefined && e.kind !== scope.kind)) {
      continue;
    }
    checked++;
    const c = covers(e);
    if (c === undefined) {
      unchecked++;
    } else if (c) {
      hits.push({ entry: e, rejected: (e.optionKind ?? '').startsWith('reject') });
    }
  }
  hits.sort((a, b) => b.entry.at - a.entry.at);
  return {
    hits,
    conversations: new Set(hits.map((h) => `${h.entry.server}\u0000${h.entry.conversationId}`)).size,
    rejected: hits.filter((h) => h.rejected).length,
    unchecked,
    checked,
  };
}
