/**
 * "Always", honest, for a remote policy change (issue 20): before the PATCH, what the proposed agent policy would
 * have allowed without asking among that agent's past requests (the approval history; the ones the user rejected
 * named), and the agent's waiting requests it would allow now, which the confirmation answers, each with its own
 * allow-once through the inbox's guard. "Allowed" means newly auto_allow: the proposed policy (merged with the
 * conversation's launch policy when known) says auto_allow where the current one did not. Requests marked dangerous
 * are never listed; nothing is answered before the PATCH succeeded.
 */
import { dryRun, type DryRun } from '../../domain/dryRun';
import type { HistoryEntry } from '../../domain/history';
import type { InboxItem } from '../../domain/inbox';
import { explainVerdict, type PolicyMap, type ToolRequest } from '../../policy';
import { waitingInfo, type WaitingInfo } from './alwaysContext';
import { coveredLines, dryRunLines } from './alwaysModal';

export interface PolicyReview {
  readonly run: DryRun;
  readonly covered: readonly WaitingInfo[];
  /** The dry run and the covered requests, as the confirmation's lines. */
  readonly lines: readonly string[];
}

const newlyAllowed = (before: PolicyMap, after: PolicyMap, launch: PolicyMap | null | undefined, r: ToolRequest) =>
  explainVerdict(after, launch, r).verdict === 'auto_allow' &&
  explainVerdict(before, launch, r).verdict !== 'auto_allow';

/** The review of a change of `agentId`'s policy on `server` from `before` to `after`. */
export function reviewPolicyChange(o: {
  readonly server: string;
  readonly agentId: string;
  readonly before: PolicyMap;
  readonly after: PolicyMap;
  readonly history: readonly HistoryEntry[];
  readonly open: readonly InboxItem[];
}): PolicyReview {
  const run = dryRun(
    o.history,
    (e) =>
      e.kind === undefined
        ? undefined
        : newlyAllowed(o.before, o.after, undefined, { kind: e.kind, title: e.label ?? null }),
    { source: (e) => e.server === o.server && e.agentId === o.agentId },
  );
  const covered = o.open
    .filter(
      (i) =>
        i.answerable &&
        i.key.server === o.server &&
        i.conversation.agentId === o.agentId &&
        newlyAllowed(o.before, o.after, i.conversation.permissionPolicy, {
          kind: i.request.kind ?? null,
          title: i.request.title ?? null,
        }),
    )
    .map(waitingInfo)
    .filter((w) => w.allowOnce !== undefined && !w.dangerous);
  const listed = coveredLines(covered, false);
  return { run, covered, lines: [...dryRunLines(run), ...(listed.length ? ['', ...listed] : [])] };
}
