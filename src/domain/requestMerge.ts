/**
 * The one merge of request details. Every sighting of a request (the `permission_request` block, the raw
 * `session/request_permission` line, `request`/`started`, a `pending_requests` entry, a turn that ended waiting)
 * contributes a partial; the source's assembler and the inbox both merge with `mergeDetails`.
 */
import type { RequestDetails, RequestKey } from './model';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What one sighting contributes; merged into the request's details. */
export type PartialDetails = Partial<Mutable<Omit<RequestDetails, 'key'>>>;

const isEmpty = (v: unknown) => v === undefined || (Array.isArray(v) && v.length === 0);

/**
 * Merges `next` into `base` (or into an empty request of `key`): what is known first stays and `next` fills gaps
 * (undefined fields, empty lists). A detached view wins over an in-turn one: it carries the real deadline (an
 * undefined one when the server gave none), and a later detached deadline replaces an earlier one.
 * Returns `base` itself when nothing changed.
 */
export function mergeDetails(key: RequestKey, base: RequestDetails | undefined, next: PartialDetails): RequestDetails {
  const prev: RequestDetails = base ?? { key, textContent: [], diffs: [], locations: [], options: [], detached: false };
  const out: Record<string, unknown> = { ...prev };
  let changed = base === undefined;
  for (const [k, v] of Object.entries(next)) {
    if (k === 'detached' || k === 'deadline' || k === 'key') {
      continue;
    }
    if (isEmpty(out[k]) && !isEmpty(v)) {
      out[k] = v;
      changed = true;
    }
  }
  if (next.detached && !prev.detached) {
    out.detached = true;
    out.deadline = next.deadline;
    out.turnId = next.turnId ?? prev.turnId;
    changed = true;
  } else if (next.detached && next.deadline !== undefined && next.deadline !== prev.deadline) {
    out.deadline = next.deadline;
    changed = true;
  } else if (prev.deadline === undefined && next.deadline !== undefined) {
    out.deadline = next.deadline;
    changed = true;
  }
  return changed ? (out as unknown as RequestDetails) : prev;
}
