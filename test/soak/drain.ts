/**
 * The soak's drain, after its load: what is still open, each with its reason. The drain ends when this list is empty
 * or at its stated time; whatever is still on it then is named in the log (and a request never shown is lost).
 */
import type { WireEntry } from './proxy';
import type { HeldRequest } from './reconcile';
import type { AgentRequest, LocalShown } from './reconcileLocal';

const at = (ms: number) => new Date(ms).toISOString().slice(11, 23);

/**
 * Open items: a request the server holds that no window showed; one shown and not answered nor closed whose deadline
 * falls before the drain's end (one with a later deadline, a detached request waiting days, cannot close in the
 * drain: it must be shown, and is left open); an answer POST in flight; a local agent's request with no response
 * whose agent still runs.
 */
export function drainPending(o: {
  held: ReadonlyMap<string, HeldRequest>;
  shown: ReadonlyMap<string, unknown>;
  wire: readonly WireEntry[];
  local: readonly AgentRequest[];
  localShown: ReadonlyMap<string, LocalShown>;
  /** When the drain gives up (epoch ms). */
  endsAt: number;
}): string[] {
  const out: string[] = [];
  for (const h of o.held.values()) {
    const what = `${h.requestId} (${h.plan}${h.detached ? ', detached' : ''}, held at ${at(h.heldAt)})`;
    if (!o.shown.has(h.requestId)) {
      out.push(`${what}: held by the server, not shown by any window`);
    } else if (!h.outcome && (h.deadline === undefined || h.deadline === null || h.deadline <= o.endsAt)) {
      out.push(`${what}: shown, not answered nor closed yet${h.deadline ? ` (deadline ${at(h.deadline)})` : ''}`);
    }
  }
  for (const e of o.wire) {
    if (e.endedAt === undefined && !e.path.startsWith('/api/events/stream')) {
      out.push(`${e.method} ${e.path}: in flight since ${at(e.arrivedAt)}`);
    }
  }
  for (const q of o.local) {
    if (!q.responses.length && !q.exitedAs) {
      const shown = o.localShown.has(q.toolCallId);
      out.push(
        `local ${q.toolCallId} (${q.plan}, sent at ${at(q.at)}): ${shown ? 'shown, no response yet' : 'sent by its agent, not shown'}`,
      );
    }
  }
  return out;
}

/** Requests shown and open when the count ended that the drain did not wait for: their deadline is after its end. */
export function openAfterDrain(
  held: ReadonlyMap<string, HeldRequest>,
  shown: ReadonlyMap<string, unknown>,
  endsAt: number,
): string[] {
  return [...held.values()]
    .filter((h) => !h.outcome && shown.has(h.requestId) && !!h.deadline && h.deadline > endsAt)
    .map(
      (h) =>
        `${h.requestId} (${h.plan}${h.detached ? ', detached' : ''}, held at ${at(h.heldAt)}): open, its deadline ${new Date(h.deadline!).toISOString()} is after the drain`,
    );
}
