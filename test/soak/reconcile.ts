/**
 * The soak's reconciliation: the requests the server held (its own store, sampled through the run) against what the
 * extension showed (the scripted user's reports from each window's inbox) and sent (the proxy's record of the wire).
 */
import type { WireEntry } from './proxy';

export interface HeldRequest {
  readonly requestId: string;
  readonly conversationId: string;
  readonly options: string[];
  readonly detached: boolean;
  readonly plan: string;
  readonly heldAt: number;
  /** The server's deadline for it (epoch ms; a detached request's is set when its turn ends), as last sampled. */
  deadline?: number | null;
  outcome?: string;
  optionId?: string | null;
}

export interface Recovery {
  readonly kind: string;
  readonly at: number;
  /** When the next stream after the fault got its 200; undefined if none did. */
  readonly recoveredAt?: number;
}

export interface SoakResult {
  readonly rows: [string, string][];
  readonly held: number;
  readonly shown: number;
  readonly lost: number;
  readonly duplicates: number;
  readonly problems: string[];
}

const ANSWER_PATH = /^\/api\/conversations\/([^/?]+)\/requests\/([^/?]+)$/;
const retryable = (s: number | undefined) => s === undefined || s === 429 || s >= 500;
const accepted = (s: number | undefined) => s !== undefined && s >= 200 && s < 300;

/** The extension's answer POSTs by request id, in arrival order. */
export function answerPosts(wire: readonly WireEntry[]): Map<string, WireEntry[]> {
  const out = new Map<string, WireEntry[]>();
  for (const e of wire) {
    const m = e.method === 'POST' ? ANSWER_PATH.exec(e.path.split('?')[0]) : null;
    if (m) {
      const id = decodeURIComponent(m[2]);
      out.set(id, [...(out.get(id) ?? []), e]);
    }
  }
  return out;
}

/**
 * POSTs for one request beyond the first that the extension should not have sent: every one except those sent after
 * the previous one came back retryable (429, 5xx, no answer at all). Two at once (a double click) is a duplicate.
 */
export function duplicatesOf(posts: readonly WireEntry[]): number {
  let dup = 0;
  for (let i = 1; i < posts.length; i++) {
    const prev = posts[i - 1];
    const done = prev.endedAt ?? prev.headersAt;
    if (!(retryable(prev.status) && done !== undefined && done <= posts[i].arrivedAt)) {
      dup++;
    }
  }
  return dup;
}

export function reconcile(o: {
  held: ReadonlyMap<string, HeldRequest>;
  shown: ReadonlyMap<string, { firstSeenAt: number; hosts: Set<string> }>;
  wire: readonly WireEntry[];
  elsewhere: ReadonlySet<string>;
  recoveries: readonly Recovery[];
  heap: { host: string; atMinute?: number; atEnd?: number }[];
}): SoakResult {
  const posts = answerPosts(o.wire);
  const problems: string[] = [];
  let shown = 0;
  let lost = 0;
  let duplicates = 0;
  let byUs = 0;
  let byUsOk = 0;
  let byUsUnseen = 0;
  let elsewhere = 0;
  let expired = 0;
  let turnEnded = 0;
  let open = 0;
  let retries = 0;
  let detached = 0;
  for (const h of o.held.values()) {
    if (h.detached) {
      detached++;
    }
    if (o.shown.has(h.requestId)) {
      shown++;
    } else {
      lost++;
      problems.push(
        `lost: ${h.requestId} (${h.plan}, held at ${new Date(h.heldAt).toISOString()}, ${h.outcome ?? 'open'})`,
      );
    }
    const mine = posts.get(h.requestId) ?? [];
    const d = duplicatesOf(mine);
    duplicates += d;
    if (d) {
      problems.push(`duplicate: ${h.requestId}: ${mine.map((p) => `${p.status ?? 'none'}@${p.arrivedAt}`).join(', ')}`);
    }
    retries += mine.filter((p) => retryable(p.status)).length;
    const ok = mine.filter((p) => accepted(p.status));
    for (const p of mine) {
      const opt = (p.body as { option_id?: unknown } | undefined)?.option_id;
      if (typeof opt !== 'string' || !h.options.includes(opt)) {
        problems.push(`not an offered option: ${h.requestId} got ${JSON.stringify(opt)}`);
      }
    }
    if (h.outcome === 'answered' && ok.length) {
      byUs++;
      if (ok.length === 1) {
        byUsOk++;
      }
    } else if (
      h.outcome === 'answered' &&
      !o.elsewhere.has(h.requestId) &&
      mine.some((p) => p.status === undefined && (p.body as { option_id?: unknown })?.option_id === h.optionId)
    ) {
      // Our POST reached the server, which recorded it, but its response never came back (the window that sent it
      // closed mid-request); the retry then got a 409. Answered by us, once.
      byUsUnseen++;
    } else if (h.outcome === 'answered') {
      elsewhere++;
      if (!o.elsewhere.has(h.requestId)) {
        problems.push(`answered, but neither by the extension nor by the second client: ${h.requestId}`);
      }
    } else if (h.outcome === 'timeout') {
      expired++;
    } else if (h.outcome) {
      turnEnded++;
    } else {
      open++;
    }
  }
  const worst = o.recoveries.reduce<Recovery | undefined>(
    (w, r) => (r.recoveredAt === undefined ? w : !w || r.recoveredAt - r.at > w.recoveredAt! - w.at ? r : w),
    undefined,
  );
  const unrecovered = o.recoveries.filter((r) => r.recoveredAt === undefined);
  for (const r of unrecovered) {
    problems.push(`no stream after the ${r.kind} at ${new Date(r.at).toISOString()}`);
  }
  const mb = (b?: number) => (b === undefined ? '–' : `${(b / 1048576).toFixed(1)} MB`);
  const rows: [string, string][] = [
    ['requests held by the server', `${o.held.size} (${detached} detached)`],
    ['shown by the extension', String(shown)],
    ['answered by us (exactly one accepted POST, an offered option)', `${byUs} (${byUsOk} with one)`],
    ['answered by us, the POST recorded but its response lost (then a 409)', String(byUsUnseen)],
    ['answered elsewhere (a second client first)', String(elsewhere)],
    ['expired', String(expired)],
    ['closed by a turn end (server restarts)', String(turnEnded)],
    ['still open at the end (shown)', String(open)],
    ['answer POSTs refused 429/5xx or unanswered, then retried', String(retries)],
    ['lost (held, never shown)', String(lost)],
    ['duplicate POSTs', String(duplicates)],
    [
      'longest fault → recovered stream',
      worst
        ? `${((worst.recoveredAt! - worst.at) / 1000).toFixed(1)} s (${worst.kind}; ${o.recoveries.length} faults${unrecovered.length ? `, ${unrecovered.length} never recovered` : ''})`
        : '–',
    ],
    ...o.heap.map((h): [string, string] => [
      `extension host heap, window ${h.host}`,
      `${mb(h.atMinute)} at 1 min, ${mb(h.atEnd)} at the end`,
    ]),
  ];
  return { rows, held: o.held.size, shown, lost, duplicates, problems };
}

export function table(rows: readonly [string, string][]): string {
  const w = Math.max(...rows.map(([k]) => k.length));
  const v = Math.max(...rows.map(([, x]) => x.length));
  return [
    `| ${'Soak'.padEnd(w)} | ${'Result'.padEnd(v)} |`,
    `| ${'-'.repeat(w)} | ${'-'.repeat(v)} |`,
    ...rows.map(([k, x]) => `| ${k.padEnd(w)} | ${x.padEnd(v)} |`),
  ].join('\n');
}
