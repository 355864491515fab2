/**
 * Wire → domain. Pure builders turn validated wire objects into RequestDetails / ConversationInfo, and
 * RequestTracker is the small state machine that pairs the three sightings of one request (the `permission_request`
 * block, the raw `session/request_permission` line and the `request`/`started` stage event), dedupes replays, and
 * never lets a request that was resolved (even out of order) come back.
 */
import {
  keyId,
  type ConversationInfo,
  type DiffContent,
  type FeedEvent,
  type PermissionOption,
  type RequestDetails,
  type RequestKey,
  type ToolLocation,
} from '../domain/model';
import type * as z from 'zod/mini';
import type { Logger } from './env';
import {
  ConversationSchema,
  ConversationsChangedSchema,
  DiffContentSchema,
  LocationSchema,
  NoticeStageDataSchema,
  OutputPayloadSchema,
  PendingRequestSchema,
  PermissionOptionSchema,
  PermissionRequestBlockSchema,
  RequestPermissionLineSchema,
  RequestStageDataSchema,
  StagePayloadSchema,
  TextContentSchema,
  TurnStageDataSchema,
  describeIssues,
  parseJson,
  parseOrLog,
  type WireConversation,
  type WireOutputPayload,
  type WirePendingRequest,
  type WirePermissionRequestBlock,
  type WireRequestPermissionParams,
  type WireRequestStageData,
  type WireStagePayload,
} from './schema';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** What one sighting contributes; merged into the request's details. */
export type PartialDetails = Partial<Mutable<Omit<RequestDetails, 'key'>>>;

const TERMINAL_CONVERSATION_STATUSES = new Set(['failed', 'terminated']);

// ---------- pure builders ----------

/** Epoch ms of an ISO timestamp, or undefined. */
export function parseTime(ts: string | null | undefined): number | undefined {
  if (!ts) {
    return undefined;
  }
  const t = Date.parse(ts);
  return Number.isFinite(t) ? t : undefined;
}

/**
 * The agent's options, verbatim and in order. An entry without a string `optionId` cannot be sent and is dropped
 * (logged); a missing `name` shows the id, a missing `kind` is ''. Extra fields are kept.
 */
export function toOptions(raw: readonly unknown[] | null | undefined, logger: Logger): PermissionOption[] {
  const out: PermissionOption[] = [];
  for (const item of raw ?? []) {
    const r = PermissionOptionSchema.safeParse(item);
    if (!r.success) {
      logger.warn(`Dropped a permission option without a usable optionId: ${describeIssues(r.error)}`);
      continue;
    }
    const o = r.data;
    out.push(
      o.name !== undefined && o.kind !== undefined
        ? (o as PermissionOption)
        : { ...o, name: o.name ?? o.optionId, kind: o.kind ?? '' },
    );
  }
  return out;
}

/** From a `permission_request` block (§4.4.2). */
export function detailsFromBlock(block: WirePermissionRequestBlock, logger: Logger): PartialDetails {
  const d: PartialDetails = { options: toOptions(block.options, logger) };
  if (block.name) {
    d.name = block.name;
  }
  const summary = block.summary ?? block.body;
  if (summary) {
    d.summary = summary;
  }
  return d;
}

/** From the raw `session/request_permission` params (acp.md §1.1, §5.3). */
export function detailsFromParams(params: WireRequestPermissionParams, logger: Logger): PartialDetails {
  const tc = params.toolCall;
  const textContent: string[] = [];
  const diffs: DiffContent[] = [];
  for (const item of tc.content ?? []) {
    const type = (item as { type?: unknown } | null)?.type;
    if (type === 'diff') {
      const r = DiffContentSchema.safeParse(item);
      if (r.success) {
        diffs.push({ path: r.data.path, oldText: r.data.oldText ?? null, newText: r.data.newText });
      } else {
        logger.debug(`Ignored a malformed diff item: ${describeIssues(r.error)}`);
      }
    } else if (type === 'content') {
      const r = TextContentSchema.safeParse(item);
      if (r.success) {
        textContent.push(r.data.content.text);
      }
    }
  }
  const locations: ToolLocation[] = [];
  const sandboxLocations = [
    ...(tc.locations ?? []),
    ...asArray(tc._meta?.['fountain.sandboxLocations']),
    ...(params._meta?.['fountain.sandboxLocations'] ?? []),
  ];
  const seen = new Set<string>();
  for (const loc of sandboxLocations) {
    const r = LocationSchema.safeParse(loc);
    if (r.success) {
      const k = `${r.data.path}:${r.data.line ?? ''}`;
      if (!seen.has(k)) {
        seen.add(k);
        locations.push(r.data.line != null ? { path: r.data.path, line: r.data.line } : { path: r.data.path });
      }
    }
  }
  const d: PartialDetails = {
    options: toOptions(params.options, logger),
    textContent,
    diffs,
    locations,
    rawParams: params,
  };
  if (tc.toolCallId) {
    d.toolCallId = tc.toolCallId;
  }
  if (tc.title) {
    d.title = tc.title;
  }
  if (tc.kind) {
    d.kind = tc.kind;
  }
  if (tc.rawInput !== undefined) {
    d.rawInput = tc.rawInput;
  }
  const timeout = params._meta?.fountain?.timeout;
  if (typeof timeout === 'number' && Number.isFinite(timeout) && timeout > 0) {
    d.metaTimeoutSec = timeout;
  }
  return d;
}

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? (v as unknown[]) : [];
}

/** From `request`/`started` data (§4.3): in-turn ceiling, and tool/options when the server includes them. */
export function detailsFromRequestStarted(
  data: WireRequestStageData,
  at: number | undefined,
  logger: Logger,
): PartialDetails {
  const d: PartialDetails = {};
  if (data.options?.length) {
    d.options = toOptions(data.options, logger);
  }
  if (data.tool) {
    d.name = data.tool;
  }
  if (at !== undefined) {
    d.askedAt = at;
    if (typeof data.timeout_ms === 'number' && data.timeout_ms > 0) {
      d.deadline = at + data.timeout_ms;
    }
  }
  return d;
}

/** From a `pending_requests` entry (§3): a detached request. */
export function detailsFromPending(p: WirePendingRequest, logger: Logger): PartialDetails {
  const d: PartialDetails = { options: toOptions(p.options, logger), detached: true };
  if (p.tool) {
    d.name = p.tool;
  }
  const asked = parseTime(p.asked_at);
  if (asked !== undefined) {
    d.askedAt = asked;
  }
  const deadline = parseTime(p.deadline);
  if (deadline !== undefined) {
    d.deadline = deadline;
  }
  if (p.turn_id) {
    d.turnId = p.turn_id;
  }
  return d;
}

/** Conversation wire object → ConversationInfo. */
export function toConversationInfo(server: string, c: WireConversation): ConversationInfo {
  const info: Mutable<ConversationInfo> = { server, id: c.id };
  if (c.title) {
    info.title = c.title;
  }
  if (c.agent_id) {
    info.agentId = c.agent_id;
  }
  const agentName = c.agent_name ?? c.agent?.name;
  if (agentName) {
    info.agentName = agentName;
  }
  if (c.runtime) {
    info.runtime = c.runtime;
  }
  if (c.status) {
    info.status = c.status;
  }
  if (c.permission_policy !== undefined) {
    info.permissionPolicy = c.permission_policy;
  }
  return info;
}

/** Merges a sighting into what is known; earlier values win except where the newer one is more specific. */
export function mergeDetails(key: RequestKey, base: RequestDetails | undefined, p: PartialDetails): RequestDetails {
  const b: Mutable<RequestDetails> = base
    ? { ...base }
    : { key, textContent: [], diffs: [], locations: [], options: [], detached: false };
  for (const f of [
    'name',
    'summary',
    'toolCallId',
    'title',
    'kind',
    'askedAt',
    'metaTimeoutSec',
    'turnId',
    'eventId',
  ] as const) {
    if (b[f] === undefined && p[f] !== undefined) {
      (b as Record<string, unknown>)[f] = p[f];
    }
  }
  if (b.rawInput === undefined && p.rawInput !== undefined) {
    b.rawInput = p.rawInput;
  }
  if (b.rawParams === undefined && p.rawParams !== undefined) {
    b.rawParams = p.rawParams;
  }
  if (!b.options.length && p.options?.length) {
    b.options = p.options;
  }
  if (!b.textContent.length && p.textContent?.length) {
    b.textContent = p.textContent;
  }
  if (!b.diffs.length && p.diffs?.length) {
    b.diffs = p.diffs;
  }
  if (!b.locations.length && p.locations?.length) {
    b.locations = p.locations;
  }
  if (p.detached) {
    b.detached = true;
  }
  // A detached deadline replaces the in-turn one; otherwise the first known deadline stays.
  if (p.deadline !== undefined && (b.deadline === undefined || p.detached)) {
    b.deadline = p.deadline;
  }
  return b;
}

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

// ---------- the tracker ----------

/** A message as the SSE parser delivers it. */
export interface SseMessage {
  readonly id?: string | undefined;
  readonly event?: string | undefined;
  readonly data: string;
}

export interface TrackResult {
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
  conversationId: string;
  emitted: string | undefined;
}

export interface RequestTrackerOptions {
  /** How many closed request keys and processed event ids to remember (oldest forgotten first). */
  readonly memory?: number;
  readonly now?: () => number;
}

/**
 * Per-server request state. Feed it stream messages (handleSse), /events rows (handleLogRow), backfilled
 * pending requests (openDetached) and conversations (applyConversation); it returns the FeedEvents to emit.
 */
export class RequestTracker {
  private readonly open = new Map<string, Entry>();
  private readonly closed = new Set<string>();
  private readonly seenIds = new Set<string>();
  private readonly endedConversations = new Set<string>();
  private readonly memory: number;
  private readonly now: () => number;
  private readonly seenRing: { values: Array<string | undefined>; next: number } = { values: [], next: 0 };
  private readonly closedRing: { values: Array<string | undefined>; next: number } = { values: [], next: 0 };

  constructor(
    readonly server: string,
    private readonly logger: Logger,
    opts: RequestTrackerOptions = {},
  ) {
    this.memory = opts.memory ?? 20_000;
    this.now = opts.now ?? Date.now;
  }

  key(conversationId: string, requestId: string): RequestKey {
    return { server: this.server, conversationId, requestId };
  }

  /** Details of an open request that can be answered (has options), else undefined. */
  get(key: RequestKey): RequestDetails | undefined {
    const e = this.open.get(keyId(key));
    return e?.emitted !== undefined ? e.details : undefined;
  }

  isClosed(key: RequestKey): boolean {
    return this.closed.has(keyId(key));
  }

  /** Every open, emitted request (optionally of one conversation). */
  openRequests(conversationId?: string): RequestDetails[] {
    const out: RequestDetails[] = [];
    for (const e of this.open.values()) {
      if (e.emitted !== undefined && (conversationId === undefined || e.conversationId === conversationId)) {
        out.push(e.details);
      }
    }
    return out;
  }

  get openCount(): number {
    return this.open.size;
  }

  /** One message from the account-wide SSE stream. */
  handleSse(msg: SseMessage): TrackResult {
    // Output events are only read when they can carry a permission request: ordinary tool output (the bulk of
    // the stream) is neither parsed nor validated nor remembered, which keeps the pipeline near the parser's speed.
    if (msg.event === 'output' && !mayCarryPermission(msg.data)) {
      // Still say so when a frame is plainly not a JSON object (cut off, garbage): skipped and logged, never silent.
      if (!looksLikeJsonObject(msg.data)) {
        this.logger.warn(`Skipped a malformed output event (id ${msg.id ?? 'none'}): not a JSON object`);
      }
      return { events: [] };
    }
    if (msg.id !== undefined) {
      if (this.seenIds.has(msg.id)) {
        return { events: [], duplicate: true };
      }
      this.remember(this.seenIds, msg.id);
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
  handleLogRow(row: unknown, conversationId: string): TrackResult {
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
    const sightings = new Map<string, PartialDetails[]>();
    const add = (rid: string, d: PartialDetails) => {
      const list = sightings.get(rid) ?? [];
      list.push(d);
      sightings.set(rid, list);
    };
    for (const b of p.blocks ?? []) {
      if ((b as { kind?: unknown } | null)?.kind !== 'permission_request') {
        continue;
      }
      const block = parseOrLog(PermissionRequestBlockSchema, b, 'a malformed permission_request block', this.logger);
      if (block) {
        add(block.request_id, detailsFromBlock(block, this.logger));
      }
    }
    if (line) {
      const json = parseJson(line);
      const req = json.ok ? RequestPermissionLineSchema.safeParse(json.value) : undefined;
      if (req?.success) {
        add(String(req.data.id), detailsFromParams(req.data.params, this.logger));
      } else if (json.ok && (json.value as { method?: unknown } | null)?.method === 'session/request_permission') {
        this.logger.warn(
          `Skipped a malformed session/request_permission line: ${req ? describeIssues(req.error) : ''}`,
        );
      }
    }
    const at = parseTime(p.ts);
    const out: FeedEvent[] = [];
    for (const [rid, parts] of sightings) {
      let merged: PartialDetails = { eventId, turnId: p.turn_id ?? undefined, askedAt: at };
      for (const part of parts) {
        merged = mergePartial(merged, part);
      }
      out.push(...this.upsert(this.key(conv, rid), merged, 'live'));
    }
    return out;
  }

  private handleStageValue(
    value: unknown,
    conversationId: string | undefined,
    eventId: number | undefined,
  ): TrackResult {
    const s = parseOrLog(StagePayloadSchema, value, `a malformed stage event (id ${eventId ?? 'none'})`, this.logger);
    if (!s) {
      return { events: [] };
    }
    if (s.stage === 'server') {
      const n = this.stageData(s, NoticeStageDataSchema);
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
        const d = this.stageData(s, RequestStageDataSchema);
        if (!d) {
          return { events: [] };
        }
        const key = this.key(conv, d.request_id);
        if (s.state === 'started') {
          return { events: this.upsert(key, { ...detailsFromRequestStarted(d, at, this.logger), eventId }, 'live') };
        }
        if (s.state === 'done') {
          return { events: this.resolve(key, d, at) };
        }
        return { events: [] };
      }
      case 'turn':
        return { events: this.handleTurn(conv, s, at) };
      case 'terminate':
        return s.state === 'done' ? { events: this.endConversation(conv, 'terminated', at) } : { events: [] };
      case 'sandbox':
        this.logger.debug(`Sandbox ${s.state} for conversation ${conv}`);
        return { events: [] };
      default:
        return { events: [] };
    }
  }

  private stageData<T>(s: WireStagePayload, schema: z.ZodMiniType<T>): T | undefined {
    let raw: unknown = s.data ?? {};
    if (typeof raw === 'string') {
      const j = parseJson(raw);
      if (!j.ok) {
        this.logger.warn(`Skipped a ${s.stage}/${s.state} stage event whose data is not JSON: ${j.error}`);
        return undefined;
      }
      raw = j.value;
    }
    const r = schema.safeParse(raw);
    if (!r.success) {
      this.logger.warn(`Skipped a ${s.stage}/${s.state} stage event: ${describeIssues(r.error)}`);
      return undefined;
    }
    return r.data;
  }

  private handleTurn(conv: string, s: WireStagePayload, at: number): FeedEvent[] {
    if (s.state === 'started') {
      return [];
    }
    if (s.state !== 'done' && s.state !== 'failed' && s.state !== 'interrupted') {
      return [];
    }
    const d = this.stageData(s, TurnStageDataSchema);
    if (!d) {
      return [];
    }
    const turnId = d.turn_id ?? s.turn_id ?? undefined;
    if (s.state === 'done' && d.waiting && d.waiting_request_id) {
      const key = this.key(conv, d.waiting_request_id);
      if (this.closed.has(keyId(key))) {
        return [];
      }
      const deadline = parseTime(d.waiting_deadline);
      const e = this.open.get(keyId(key));
      const partial: PartialDetails = { detached: true, deadline, turnId };
      if (e) {
        e.details = mergeDetails(key, e.details, partial);
      } else {
        this.open.set(keyId(key), {
          details: mergeDetails(key, undefined, partial),
          conversationId: conv,
          emitted: undefined,
        });
      }
      return [{ type: 'turnEndedWaiting', key, deadline, turnId }];
    }
    // A terminal turn ends every in-turn request of that turn (requests' own turn id is often unknown).
    for (const [k, e] of this.open) {
      if (
        e.conversationId === conv &&
        !e.details.detached &&
        (!turnId || !e.details.turnId || e.details.turnId === turnId)
      ) {
        this.close(k);
      }
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

  private resolve(key: RequestKey, d: WireRequestStageData, at: number): FeedEvent[] {
    const k = keyId(key);
    if (this.closed.has(k)) {
      return [];
    }
    this.close(k);
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

  /** A conversation read from the list or one GET; emits `conversation`, and `conversationEnded` once if terminal. */
  applyConversation(c: WireConversation): FeedEvent[] {
    const out: FeedEvent[] = [{ type: 'conversation', conversation: toConversationInfo(this.server, c) }];
    if (c.status && TERMINAL_CONVERSATION_STATUSES.has(c.status)) {
      out.push(...this.endConversation(c.id, c.status, this.now()));
    } else {
      this.endedConversations.delete(c.id);
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
        const key = this.key(c.id, p.request_id);
        out.push(mergeDetails(key, undefined, detailsFromPending(p, this.logger)));
      }
    }
    return out;
  }

  /** Opens (or enriches) a request found by backfill, unless it is already known to be closed. */
  openFromBackfill(details: RequestDetails): FeedEvent[] {
    const { key, ...rest } = details;
    return this.upsert(key, rest, 'backfill');
  }

  /**
   * After a backfill read `conversationIds` completely: any open request of those conversations that is not in
   * `openKeys` is over. Returns nothing to emit; the inbox learns it from `backfillComplete`.
   */
  closeAbsent(conversationIds: ReadonlySet<string>, openKeys: ReadonlySet<string>): void {
    for (const [k, e] of this.open) {
      if (conversationIds.has(e.conversationId) && !openKeys.has(k)) {
        this.close(k);
      }
    }
  }

  /** Marks a key closed after our own answer took or the server said it is resolved. */
  markClosed(key: RequestKey): void {
    this.close(keyId(key));
  }

  private endConversation(conv: string, reason: string, at: number): FeedEvent[] {
    for (const [k, e] of this.open) {
      if (e.conversationId === conv) {
        this.close(k);
      }
    }
    if (this.endedConversations.has(conv)) {
      return [];
    }
    this.endedConversations.add(conv);
    return [{ type: 'conversationEnded', server: this.server, conversationId: conv, reason, at }];
  }

  private upsert(key: RequestKey, partial: PartialDetails, source: 'live' | 'backfill'): FeedEvent[] {
    const k = keyId(key);
    if (this.closed.has(k)) {
      this.logger.debug(`Ignored a sighting of already-resolved request ${key.requestId} in ${key.conversationId}`);
      return [];
    }
    let e = this.open.get(k);
    if (!e) {
      e = { details: mergeDetails(key, undefined, partial), conversationId: key.conversationId, emitted: undefined };
      this.open.set(k, e);
    } else {
      e.details = mergeDetails(key, e.details, partial);
    }
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

  private close(k: string): void {
    this.open.delete(k);
    this.remember(this.closed, k);
  }

  /** Adds to a bounded set; the oldest entry is forgotten first (ring buffer: O(1), no Set iteration). */
  private remember(set: Set<string>, v: string): void {
    if (set.has(v)) {
      return;
    }
    set.add(v);
    const ring = set === this.closed ? this.closedRing : this.seenRing;
    const evicted = ring.values[ring.next];
    if (evicted !== undefined) {
      set.delete(evicted);
    }
    ring.values[ring.next] = v;
    ring.next = (ring.next + 1) % this.memory;
  }
}

/** Cheap structural check (no parse): a payload must start with `{` and end with `}`. */
export function looksLikeJsonObject(data: string): boolean {
  const t = data.trim();
  return t.startsWith('{') && t.endsWith('}');
}

/** Cheap pre-check on an output event's raw text: a permission block or a raw request line must be named in it. */
export function mayCarryPermission(data: string): boolean {
  // Both `permission_request` (block kind) and `session/request_permission` (raw line) contain this word.
  return data.includes('permission');
}

/** Fields of `a` win; `b` fills what `a` lacks (undefined values, empty arrays). */
function mergePartial(a: PartialDetails, b: PartialDetails): PartialDetails {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cur = out[k];
    if (cur === undefined || (Array.isArray(cur) && cur.length === 0)) {
      out[k] = v;
    }
  }
  return out;
}
