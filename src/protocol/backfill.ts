/**
 * Startup backfill (fountain-protocol.md §12.2): the stream without a cursor shows nothing historical, so open
 * requests are rebuilt from REST. Detached requests come from `pending_requests` of each idle/running conversation;
 * in-turn requests of running conversations from their `/events` feed. At most `concurrency` (≤ 4) calls in flight.
 */
import { keyId, type FeedEvent } from '../domain/model';
import type { ApiClient } from './apiClient';
import type { Logger } from './env';
import { RequestTracker } from './mapping';
import type { WireConversation } from './schema';
import { errorMessage } from './sseClient';

export interface BackfillOptions {
  readonly api: ApiClient;
  readonly tracker: RequestTracker;
  readonly logger: Logger;
  readonly emit: (e: FeedEvent) => void;
  readonly now: () => number;
  /** Calls in flight at once; clamped to 1..4. Default 4. */
  readonly concurrency?: number;
  /** Upper bound on /events pages per running conversation. Default 50 (50,000 events). */
  readonly maxEventPages?: number;
}

export type BackfillMode = 'full' | 'changed';

/** Runs `fn` over `items` with at most `limit` promises pending. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export class Backfiller {
  /** Per conversation, what the last listing said (status and updated_at), to re-read only what changed. */
  private readonly lastSeen = new Map<string, string>();
  private running: Promise<void> | undefined;
  private queued: BackfillMode | undefined;
  private readonly concurrency: number;

  constructor(private readonly opts: BackfillOptions) {
    this.concurrency = Math.max(1, Math.min(4, opts.concurrency ?? 4));
  }

  /** Runs a backfill now, or once after the current one (a queued 'full' wins over 'changed'). */
  request(mode: BackfillMode, signal?: AbortSignal): Promise<void> {
    if (this.running) {
      this.queued = this.queued === 'full' || mode === 'full' ? 'full' : 'changed';
      return this.running;
    }
    this.running = (async () => {
      let m: BackfillMode | undefined = mode;
      while (m && !signal?.aborted) {
        this.queued = undefined;
        try {
          await this.run(m, signal);
        } catch (e) {
          if (!signal?.aborted) {
            this.opts.logger.warn(`Backfill (${m}) failed: ${errorMessage(e)}`);
          }
        }
        m = this.queued;
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async run(mode: BackfillMode, signal?: AbortSignal): Promise<void> {
    const { api, tracker, logger, emit, now } = this.opts;
    const started = now();
    const before = new Set(tracker.openRequests().map((r) => keyId(r.key)));
    // Requests opened while we read (from the live stream) must not be closed by our snapshot.
    const liveOpened = new Set<string>();
    const list = await api.listConversations({ status: 'idle,running' }, signal);
    const listed = new Map(list.map((c) => [c.id, c]));
    const candidates: WireConversation[] = [];
    for (const c of list) {
      const sig = `${c.status ?? ''}|${c.updated_at ?? ''}`;
      const changed = this.lastSeen.get(c.id) !== sig;
      this.lastSeen.set(c.id, sig);
      if (mode === 'full' || changed) {
        for (const e of tracker.applyConversation(c)) {
          emit(e);
        }
        candidates.push(c);
      }
    }
    // Conversations we hold open requests for that left the idle/running list: read them to learn why.
    const missing = new Set<string>();
    for (const r of tracker.openRequests()) {
      if (before.has(keyId(r.key)) && !listed.has(r.key.conversationId)) {
        missing.add(r.key.conversationId);
      }
    }
    for (const id of this.lastSeen.keys()) {
      if (!listed.has(id)) {
        this.lastSeen.delete(id);
      }
    }

    const found = new Set<string>();
    const readInTurn = new Set<string>();
    const complete = new Set<string>();
    const tasks: Array<() => Promise<void>> = [];
    for (const c of candidates) {
      tasks.push(async () => {
        const full = await api.getConversation(c.id, signal);
        for (const d of tracker.pendingFromConversation(full)) {
          found.add(keyId(d.key));
          const evs = tracker.openFromBackfill(d);
          evs.forEach(emit);
        }
        if (full.status === 'running') {
          await this.readInTurn(full.id, found, signal);
          readInTurn.add(full.id);
        }
        complete.add(full.id);
      });
    }
    for (const id of missing) {
      tasks.push(async () => {
        try {
          const full = await api.getConversation(id, signal);
          for (const e of tracker.applyConversation(full)) {
            emit(e);
          }
        } catch (e) {
          logger.debug(`Conversation ${id} could not be re-read: ${errorMessage(e)}`);
        }
      });
    }
    const failures: string[] = [];
    await mapLimit(tasks, this.concurrency, async (t) => {
      if (signal?.aborted) {
        return;
      }
      try {
        await t();
      } catch (e) {
        failures.push(errorMessage(e));
      }
    });
    if (signal?.aborted) {
      return;
    }
    if (failures.length) {
      logger.warn(`Backfill could not read ${failures.length} conversation(s); first error: ${failures[0]}`);
    }
    for (const r of tracker.openRequests()) {
      const k = keyId(r.key);
      if (!before.has(k)) {
        liveOpened.add(k);
      }
    }
    const openKeys = new Set<string>();
    for (const r of tracker.openRequests()) {
      const k = keyId(r.key);
      const conv = r.key.conversationId;
      if (!complete.has(conv)) {
        continue;
      }
      // Keep: found now; opened live meanwhile; in-turn ones of conversations whose feed we did not read.
      if (found.has(k) || liveOpened.has(k) || (!r.detached && !readInTurn.has(conv))) {
        openKeys.add(k);
      }
    }
    tracker.closeAbsent(complete, openKeys);
    emit({
      type: 'backfillComplete',
      server: tracker.server,
      openKeys,
      conversationIds: complete,
      at: now(),
      startedAt: started,
    });
    logger.info(
      `Backfill (${mode}) read ${complete.size} conversation(s) in ${now() - started} ms; ${openKeys.size} request(s) open.`,
    );
  }

  /** Rebuilds the open in-turn requests of a running conversation from its /events feed. */
  private async readInTurn(conversationId: string, found: Set<string>, signal?: AbortSignal): Promise<void> {
    const { api, tracker, logger } = this.opts;
    const scratch = new RequestTracker(tracker.server, logger, { now: this.opts.now });
    let after: number | string = 0;
    const maxPages = this.opts.maxEventPages ?? 50;
    for (let page = 0; page < maxPages; page++) {
      const p = await api.getEvents(conversationId, { after, limit: 1000, streams: 'acp,stage', blocks: true }, signal);
      for (const row of p.rows) {
        scratch.handleLogRow(row, conversationId);
      }
      if (!p.hasMore || p.nextCursor === undefined) {
        break;
      }
      if (page === maxPages - 1) {
        logger.warn(`Stopped reading the history of ${conversationId} after ${maxPages} pages.`);
      }
      after = p.nextCursor;
    }
    for (const d of scratch.openRequests(conversationId)) {
      found.add(keyId(d.key));
      tracker.openFromBackfill(d).forEach(this.opts.emit);
    }
  }
}
