/**
 * Startup backfill (fountain-protocol.md §12.2): the stream without a cursor shows nothing historical, so open
 * requests are rebuilt from REST. Detached requests come from `pending_requests` of each idle/running conversation;
 * in-turn requests of running conversations from their `/events` feed. At most `concurrency` (≤ 4) calls in flight.
 * It reports facts only (`requestOpened`, `conversation`, `backfillComplete` naming what it read completely); the
 * inbox decides what its absence closes. A history longer than `maxEventPages` is not read completely.
 */
import { Inbox } from '../domain/inbox';
import { keyId, type FeedEvent } from '../domain/model';
import type { ApiClient } from './apiClient';
import type { Logger } from './env';
import { RequestAssembler } from './requestAssembler';
import type { WireConversation } from './schema';
import { errorMessage } from './sseClient';

export interface BackfillOptions {
  readonly api: ApiClient;
  readonly assembler: RequestAssembler;
  /** Conversations of this server that hold requests still waiting in the inbox (re-read when they leave the list). */
  readonly openConversations: () => ReadonlySet<string>;
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
    const { api, assembler, logger, emit, now } = this.opts;
    const started = now();
    const held = this.opts.openConversations();
    const list = await api.listConversations({ status: 'idle,running' }, signal);
    const listed = new Map(list.map((c) => [c.id, c]));
    const candidates: WireConversation[] = [];
    for (const c of list) {
      const sig = `${c.status ?? ''}|${c.updated_at ?? ''}`;
      const changed = this.lastSeen.get(c.id) !== sig;
      this.lastSeen.set(c.id, sig);
      if (mode === 'full' || changed) {
        for (const e of assembler.applyConversation(c)) {
          emit(e);
        }
        candidates.push(c);
      }
    }
    // Conversations we hold open requests for that left the idle/running list: read them to learn why.
    const missing = [...held].filter((id) => !listed.has(id));
    for (const id of this.lastSeen.keys()) {
      if (!listed.has(id)) {
        this.lastSeen.delete(id);
      }
    }

    const found = new Set<string>();
    const inTurnRead = new Set<string>();
    const complete = new Set<string>();
    const tasks: Array<() => Promise<void>> = [];
    for (const c of candidates) {
      tasks.push(async () => {
        const full = await api.getConversation(c.id, signal);
        for (const d of assembler.pendingFromConversation(full)) {
          found.add(keyId(d.key));
          assembler.openFromBackfill(d).forEach(emit);
        }
        if (full.status === 'running') {
          if (!(await this.readInTurn(full.id, found, signal))) {
            return; // not read completely: nothing of it may be closed by its absence
          }
          inTurnRead.add(full.id);
        }
        complete.add(full.id);
      });
    }
    for (const id of missing) {
      tasks.push(async () => {
        try {
          const full = await api.getConversation(id, signal);
          for (const e of assembler.applyConversation(full)) {
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
    emit({
      type: 'backfillComplete',
      server: assembler.server,
      openKeys: found,
      conversationIds: complete,
      inTurnRead,
      at: now(),
      startedAt: started,
    });
    logger.info(
      `Backfill (${mode}) read ${complete.size} conversation(s) in ${now() - started} ms; ${found.size} request(s) open.`,
    );
  }

  /**
   * Rebuilds the open in-turn requests of a running conversation from its /events feed: the rows become facts, and
   * a scratch inbox (the same lifecycle rules) says which requests are still waiting at the end. Returns false when
   * the history is longer than the pages read (then its absent requests must not be closed).
   */
  private async readInTurn(conversationId: string, found: Set<string>, signal?: AbortSignal): Promise<boolean> {
    const { api, assembler, logger } = this.opts;
    const scratch = new RequestAssembler(assembler.server, logger, { now: this.opts.now });
    const replay = new Inbox({ now: this.opts.now });
    let after: number | string = 0;
    let completeRead = false;
    const maxPages = this.opts.maxEventPages ?? 50;
    try {
      for (let page = 0; page < maxPages; page++) {
        const p = await api.getEvents(
          conversationId,
          { after, limit: 1000, streams: 'acp,stage', blocks: true },
          signal,
        );
        for (const row of p.rows) {
          for (const e of scratch.handleLogRow(row, conversationId).events) {
            replay.apply(e);
          }
        }
        if (!p.hasMore || p.nextCursor === undefined) {
          completeRead = true;
          break;
        }
        after = p.nextCursor;
      }
      if (!completeRead) {
        logger.warn(
          `Stopped reading the history of ${conversationId} after ${maxPages} pages; its requests are not closed by absence.`,
        );
      }
      for (const item of replay.open()) {
        found.add(item.id);
        assembler.openFromBackfill(item.request).forEach(this.opts.emit);
      }
    } finally {
      replay.dispose();
    }
    return completeRead;
  }
}
