/**
 * The Fountain source's assembler: turns stream messages and /events rows into facts (FeedEvents). It pairs the
 * three sightings of one request (the `permission_request` block, the raw `session/request_permission` line and the
 * `request`/`started` stage event) into one `requestOpened`, re-emits it only when a sighting added something, and
 * drops replays (an event id already processed, a resolution already reported). It decides no state: what closes a
 * request, and that a resolved request never comes back, is the inbox's rule (src/domain/inbox.ts).
 */
import { BoundedMap } from '../domain/boundedMap';
import { keyId, type FeedEvent, type RequestDetails, type RequestKey } from '../domain/model';
import { mergeDetails, type PartialDetails } from '../domain/requestMerge';
import type { Logger } from './env';
import {
  ConversationSchema,
  ConversationsChangedSchema,
  NoticeStageDataSchema,
  OutputPayloadSchema,
  PendingRequestSchema,
  RequestStageDataSchema,
  StagePayloadSchema,
  TurnStageDataSchema,
  parseJson,
  parseOrLog,
  type WireConversation,
  type WireOutputPayload,
  type WireRequestStageData,
  type WireStagePayload,
} from './schema';
import {
  detailsFromPending,
  detailsFromRequestStarted,
  parseTime,
  permissionSightings,
  stageData,
  toConversationInfo,
  triageOutput,
} from './wireToDomain';

const TERMINAL_CONVERSATION_STATUSES = new Set(['failed', 'terminated']);

/** A cheap fingerprint of what a renderer shows, to re-emit a request only when a sighting added something. */
function signature(d: RequestDetails): string {
  return [
    d.options.length,
    d.name,
    d.summary,
    d.title,
    d.kind,
    d.toolCallId,
    d.textContent.length,
    d.diffs.length,
    d.locations.length,
    d.detached,
    d.deadline,
    d.rawParams !== undefined,
  ].join('\u0001');
}

/** A message as the SSE parser delivers it. */
export interface SseMessage {
  readonly id?: string | undefined;
  readonly event?: string | undefined;
  readonly data: string;
}

export interface AssembleResult {
  readonly events: FeedEvent[];
  /** The synthetic `server` stage event: the stream is about to close, reconnect. */
  readonly reconnect?: boolean;
  /** A `conversations` event: the list changed. */
  readonly conversationsChanged?: boolean;
  /** The message was a replay of an event id already processed. */
  readonly duplicate?: boolean;
}

interface Entry {
  details: RequestDetails;
  /** Signature of the last `requestOpened` emitted; undefined while the request has no options yet. */
  emitted: string | undefined;
  /** Its resolution was reported; a replayed `request`/`done` is dropped. */
  resolved: boolean;
}

export interface RequestAssemblerOptions {
  /** How many requests and processed event ids to remember (oldest forgotten first). */
  readonly memory?: number;
  readonly now?: () => number;
}

/**
 * Per-server assembly of sightings. Feed it stream messages (handleSse), /events rows (handleLogRow), backfilled
 * pending requests (openFromBackfill) and conversations (applyConversation); it returns the facts to emit.
 */
export class RequestAssembler {
  private readonly entries: BoundedMap<string, Entry>;
  private readonly seenIds = new Set<string>();
  private readonly seenRing: Array<string | undefined> = [];
  private seenNext = 0;
  /** Conversations whose end was reported, so a terminal status read again is not reported again. */
  private readonly endedReported = new Set<string>();
  private readonly memory: number;
  private readonly now: () => number;

  constructor(
    readonly server: string,
    private readonly logger: Logger,
    opts: RequestAssemblerOptions = {},
  ) {
    this.memory = opts.memory ?? 20_000;
    this.now = opts.now ?? Date.now;
    this.entries = new BoundedMap(this.memory);
  }

  key(conversationId: string, requestId: string): RequestKey {
    return { server: this.server, conversationId, requestId };
  }

  /** Requests assembled so far (with or without options). */
  get openCount(): number {
    return this.entries.size;
  }

  /** One message from the account-wide SSE stream. */
  handleSse(msg: SseMessage): AssembleResult {
    // Output events are only read when they can carry a permission request: ordinary tool output (the bulk of
    // the stream) is neither parsed nor validated nor remembered, which keeps the pipeline near the parser's speed.
    // One pre-check call per frame: this runs on every event of the stream.
    const triage = msg.event === 'output' ? triageOutput(msg.data) : 'read';
    if (triage !== 'read') {
      // Still say so when a frame is plainly not a JSON object (cut off, garbage): skipped and logged, never silent.
      if (triage === 'malformed') {
        this.logger.warn(`Skipped a malformed output event (id ${msg.id ?? 'none'}): not a JSON object`);
      }
      return { events: [] };
    }
    if (msg.id !== undefined) {
      if (this.seenIds.has(msg.id)) {
        return { events: [], duplicate: true };
      }
      this.rememberId(msg.id);
    }
    const eventId = msg.id !== undefined && /^\d+$/.test(msg.id) ? Number(msg.id) : undefined;
    switch (msg.event) {
      case 'output':
      case 'stage': {
        const json = parseJson(msg.data);
        if (!json.ok) {
          this.logger.warn(`Skipped a malformed ${msg.event} event (id ${msg.id ?? 'none'}): ${json.error}`);
          return { events: [] };
        }
        return msg.event === 'output'
          ? { events: this.handleOutputValue(json.value, undefined, eventId) }
          : this.handleStageValue(json.value, undefined, eventId);
      }
      case 'conversations': {
        const json = parseJson(msg.data);
        if (json.ok) {
          parseOrLog(ConversationsChangedSchema, json.value, 'a malformed conversations event', this.logger);
        }
        return { events: [], conversationsChanged: true };
      }
      default:
        this.logger.trace(`Ignored stream event type ${JSON.stringify(msg.event ?? 'message')}`);
        return { events: [] };
    }
  }

  /** One row of `GET /api/conversations/{id}/events` (the JSON read model). */
  handleLogRow(row: unknown, conversationId: string): AssembleResult {
    const kind = (row as { kind?: unknown } | null)?.kind;
    const id = (row as { id?: unknown } | null)?.id;
    const eventId = typeof id === 'number' ? id : typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : undefined;
    if (kind === 'output') {
      return { events: this.handleOutputValue(row, conversationId, eventId) };
    }
    if (kind === 'stage') {
      return this.handleStageValue(row, conversationId, eventId);
    }
    return { events: [] };
  }

  /** A conversation read from the list or one GET; emits `conversation`, and `conversationEnded` once if terminal. */
  applyConversation(c: WireConversation): FeedEvent[] {
    const out: FeedEvent[] = [{ type: 'conversation', conversation: toConversationInfo(this.server, c) }];
    if (c.status && TERMINAL_CONVERSATION_STATUSES.has(c.status)) {
      out.push(...this.conversationEnded(c.id, c.status, this.now()));
    } else {
      this.endedReported.delete(c.id);
    }
    return out;
  }

  /** Validates one raw conversation item (from a list or a GET). */
  parseConversation(raw: unknown): WireConversation | undefined {
    return parseOrLog(ConversationSchema, raw, 'a malformed conversation', this.logger);
  }

  /** Detached requests of one conversation as GET /api/conversations/{id} lists them. */
  pendingFromConversation(c: WireConversation): RequestDetails[] {
    const out: RequestDetails[] = [];
    for (const raw of c.pending_requests ?? []) {
      const p = parseOrLog(PendingRequestSchema, raw, `a malformed pending request of ${c.id}`, this.logger);
      if (p) {
        out.push(mergeDetails(this.key(c.id, p.request_id), undefined, detailsFromPending(p, this.logger)));
      }
    }
    return out;
  }

  /** A request found by backfill: merged like any sighting. */
  openFromBackfill(details: RequestDetails): FeedEvent[] {
    const { key, ...rest } = details;
    return this.upsert(key, rest, 'backfill');
  }

  private handleOutputValue(
    value: unknown,
    conversationId: string | undefined,
    eventId: number | undefined,
  ): FeedEvent[] {
    const p = parseOrLog(OutputPayloadSchema, value, `a malformed output event (id ${eventId ?? 'none'})`, this.logger);
    if (!p) {
      return [];
    }
    const conv = conversationId ?? p.conversation_id;
    // Fast path: ordinary tool output carries neither a permission block nor a permission request line.
    const line = p.data && p.data.includes('session/request_permission') ? p.data : undefined;
    const hasBlock = !!p.blocks?.some((b) => (b as { kind?: unknown } | null)?.kind === 'permission_request');
    if (!line && !hasBlock) {
      return [];
    }
    if (!conv) {
      this.logger.warn(`Skipped a permission request without conversation_id (event ${eventId ?? 'none'})`);
      return [];
    }
    return this.handlePermissionOutput(p, conv, line, eventId);
  }

  private handlePermissionOutput(
    p: WireOutputPayload,
    conv: string,
    line: string | undefined,
    eventId: number | undefined,
  ): FeedEvent[] {
    const at = parseTime(p.ts);
    const out: FeedEvent[] = [];
    for (const [rid, parts] of permissionSightings(p, line, this.logger)) {
      const key = this.key(conv, rid);
      let merged = mergeDetails(key, undefined, { eventId, turnId: p.turn_id ?? undefined, askedAt: at });
      for (const part of parts) {
        merged = mergeDetails(key, merged, part);
      }
      const { key: _k, ...partial } = merged;
      out.push(...this.upsert(key, partial, 'live'));
    }
    return out;
  }

  private handleStageValue(
    value: unknown,
    conversationId: string | undefined,
    eventId: number | undefined,
  ): AssembleResult {
    const s = parseOrLog(StagePayloadSchema, value, `a malformed stage event (id ${eventId ?? 'none'})`, this.logger);
    if (!s) {
      return { events: [] };
    }
    if (s.stage === 'server') {
      const n = stageData(s, NoticeStageDataSchema, this.logger);
      this.logger.info(
        `The server reported its stream is ending (${s.state}${n?.reason ? `: ${n.reason}` : ''}); reconnecting.`,
      );
      return { events: [], reconnect: true };
    }
    const conv = conversationId ?? s.conversation_id;
    if (!conv) {
      this.logger.debug(`Ignored a ${s.stage}/${s.state} stage event without conversation_id`);
      return { events: [] };
    }
    const at = parseTime(s.ts) ?? this.now();
    switch (s.stage) {
      case 'request': {
        const d = stageData(s, RequestStageDataSchema, this.logger);
        if (!d) {
          return { events: [] };
        }
        const key = this.key(conv, d.request_id);
        if (s.state === 'started') {
          return { events: this.upsert(key, { ...detailsFromRequestStarted(d, at, this.logger), eventId }, 'live') };
        }
        if (s.state === 'done') {
          return { events: this.resolved(key, d, at) };
        }
        return { events: [] };
      }
      case 'turn':
        return { events: this.turnEnded(conv, s, at) };
      case 'terminate':
        return s.state === 'done' ? { events: this.conversationEnded(conv, 'terminated', at) } : { events: [] };
      case 'sandbox':
        this.logger.debug(`Sandbox ${s.state} for conversation ${conv}`);
        return { events: [] };
      default:
        return { events: [] };
    }
  }

  /** A terminal turn: `turnEndedWaiting` for the request it left waiting, else `turnEnded`. */
  private turnEnded(conv: string, s: WireStagePayload, at: number): FeedEvent[] {
    if (s.state !== 'done' && s.state !== 'failed' && s.state !== 'interrupted') {
      return [];
    }
    const d = stageData(s, TurnStageDataSchema, this.logger);
    if (!d) {
      return [];
    }
    const turnId = d.turn_id ?? s.turn_id ?? undefined;
    if (s.state === 'done' && d.waiting && d.waiting_request_id) {
      const key = this.key(conv, d.waiting_request_id);
      const deadline = parseTime(d.waiting_deadline);
      const e = this.entry(key);
      e.details = mergeDetails(key, e.details, { detached: true, deadline, turnId });
      return [{ type: 'turnEndedWaiting', key, deadline, turnId }];
    }
    return [
      {
        type: 'turnEnded',
        server: this.server,
        conversationId: conv,
        turnId,
        stopReason: d.stop_reason ?? undefined,
        at,
      },
    ];
  }

  private resolved(key: RequestKey, d: WireRequestStageData, at: number): FeedEvent[] {
    const e = this.entry(key);
    if (e.resolved) {
      return []; // a replay of a resolution already reported
    }
    e.resolved = true;
    return [
      {
        type: 'requestResolved',
        key,
        outcome: d.outcome ?? 'resolved',
        optionId: d.option_id ?? null,
        detached: !!d.detached,
        at,
      },
    ];
  }

  private conversationEnded(conv: string, reason: string, at: number): FeedEvent[] {
    if (this.endedReported.has(conv)) {
      return [];
    }
    this.endedReported.add(conv);
    return [{ type: 'conversationEnded', server: this.server, conversationId: conv, reason, at }];
  }

  private entry(key: RequestKey): Entry {
    const k = keyId(key);
    let e = this.entries.get(k);
    if (!e) {
      e = { details: mergeDetails(key, undefined, {}), emitted: undefined, resolved: false };
      this.entries.set(k, e);
    }
    return e;
  }

  private upsert(key: RequestKey, partial: PartialDetails, source: 'live' | 'backfill'): FeedEvent[] {
    const e = this.entry(key);
    e.details = mergeDetails(key, e.details, partial);
    if (!e.details.options.length) {
      // Nothing to answer with yet; wait for the block, the raw line or the pending entry.
      return [];
    }
    const sig = signature(e.details);
    if (sig === e.emitted) {
      return [];
    }
    e.emitted = sig;
    return [{ type: 'requestOpened', request: e.details, source }];
  }

  /** Remembers a processed event id; the oldest is forgotten first (ring buffer: O(1), no Set iteration). */
  private rememberId(v: string): void {
    this.seenIds.add(v);
    const evicted = this.seenRing[this.seenNext];
    if (evicted !== undefined) {
      this.seenIds.delete(evicted);
    }
    this.seenRing[this.seenNext] = v;
    this.seenNext = (this.seenNext + 1) % this.memory;
  }
}
