/**
 * The dry run of an "always" rule before anything is kept: which past answers (the approval history) it would have
 * allowed without asking, in how many conversations, how many of those the user rejected, and which entries could
 * not be checked (their label was not kept). Pure; the matching is the gate's (./dryRunMatch.ts).
 */
import type { HistoryEntry } from './history';
import { ruleCovers, subjectOfLabel, type MatchSubject } from './dryRunMatch';
import type { GatePattern } from '../policy';

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
  /** Entries of the rule's kind (or any, for a kindless rule) without a label: they cannot be checked. */
  readonly unchecked: number;
  /** Entries looked at. */
  readonly checked: number;
}

export interface DryRunScope {
  /** Only entries of these sources (e.g. local sessions for a local rule); every entry when absent. */
  readonly source?: (server: string) => boolean;
  readonly roots: readonly string[];
}

/** Replays `rule` over `entries` (any order; the hits come newest first). */
export function dryRun(rule: GatePattern, entries: readonly HistoryEntry[], scope: DryRunScope): DryRun {
  const hits: DryRunHit[] = [];
  let unchecked = 0;
  let checked = 0;
  for (const e of entries) {
    if (scope.source && !scope.source(e.server)) {
      continue;
    }
    if (rule.kind !== undefined && e.kind !== rule.kind) {
      continue;
    }
    checked++;
    if (e.label === undefined || e.label === '') {
      unchecked++;
      continue;
    }
    if (ruleCovers(rule, subjectOfLabel(e.kind, e.label), scope.roots)) {
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

/** A waiting request, as the covering check reads it. */
export interface WaitingRequest<T> {
  readonly value: T;
  readonly subject: MatchSubject;
}

/** The waiting requests `rule` covers now. */
export function coveredNow<T>(rule: GatePattern, waiting: readonly WaitingRequest<T>[], roots: readonly string[]): T[] {
  return waiting.filter((w) => ruleCovers(rule, w.subject, roots)).map((w) => w.value);
}
