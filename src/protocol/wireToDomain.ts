/**
 * Wire → domain: pure builders that turn validated Fountain wire objects into the partial request details and
 * conversation info the domain merges (src/domain/requestMerge.ts), plus cheap pre-checks on raw frames.
 */
import type { ConversationInfo, DiffContent, PermissionOption, ToolLocation } from '../domain/model';
import type { PartialDetails } from '../domain/requestMerge';
import type * as z from 'zod/mini';
import type { Logger } from './env';
import {
  DiffContentSchema,
  LocationSchema,
  PermissionOptionSchema,
  PermissionRequestBlockSchema,
  RequestPermissionLineSchema,
  TextContentSchema,
  describeIssues,
  parseJson,
  parseOrLog,
  type WireOutputPayload,
  type WireStagePayload,
  type WireConversation,
  type WirePendingRequest,
  type WirePermissionRequestBlock,
  type WireRequestPermissionParams,
  type WireRequestStageData,
} from './schema';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

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

/** The sightings of permission requests in one output event: its `permission_request` blocks and its raw line. */
export function permissionSightings(
  p: WireOutputPayload,
  line: string | undefined,
  logger: Logger,
): Map<string, PartialDetails[]> {
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
    const block = parseOrLog(PermissionRequestBlockSchema, b, 'a malformed permission_request block', logger);
    if (block) {
      add(block.request_id, detailsFromBlock(block, logger));
    }
  }
  if (line) {
    const json = parseJson(line);
    const req = json.ok ? RequestPermissionLineSchema.safeParse(json.value) : undefined;
    if (req?.success) {
      add(String(req.data.id), detailsFromParams(req.data.params, logger));
    } else if (json.ok && (json.value as { method?: unknown } | null)?.method === 'session/request_permission') {
      logger.warn(`Skipped a malformed session/request_permission line: ${req ? describeIssues(req.error) : ''}`);
    }
  }
  return sightings;
}

/** The JSON `data` of a stage event, validated; undefined (logged) when it is not. */
export function stageData<T>(s: WireStagePayload, schema: z.ZodMiniType<T>, logger: Logger): T | undefined {
  let raw: unknown = s.data ?? {};
  if (typeof raw === 'string') {
    const j = parseJson(raw);
    if (!j.ok) {
      logger.warn(`Skipped a ${s.stage}/${s.state} stage event whose data is not JSON: ${j.error}`);
      return undefined;
    }
    raw = j.value;
  }
  const r = schema.safeParse(raw);
  if (!r.success) {
    logger.warn(`Skipped a ${s.stage}/${s.state} stage event: ${describeIssues(r.error)}`);
    return undefined;
  }
  return r.data;
}

/** Cheap structural check (no parse): a payload must start with `{` and end with `}` (surrounding space allowed). */
export function looksLikeJsonObject(data: string): boolean {
  const n = data.length;
  // The usual frame has no surrounding space: two char reads, no trimmed copy.
  if (n > 1 && data.charCodeAt(0) === 0x7b && data.charCodeAt(n - 1) === 0x7d) {
    return true;
  }
  const t = data.trim();
  return t.startsWith('{') && t.endsWith('}');
}

/** Cheap pre-check on an output event's raw text: a permission block or a raw request line must be named in it. */
export function mayCarryPermission(data: string): boolean {
  // Both `permission_request` (block kind) and `session/request_permission` (raw line) contain this word.
  return data.includes('permission');
}

/**
 * Both pre-checks of an output event's raw text in one call (it runs on every frame of the stream): `read` when it
 * may carry a permission request, `skip` for ordinary output, `malformed` when it is plainly not a JSON object.
 */
export function triageOutput(data: string): 'read' | 'skip' | 'malformed' {
  if (mayCarryPermission(data)) {
    return 'read';
  }
  return looksLikeJsonObject(data) ? 'skip' : 'malformed';
}
