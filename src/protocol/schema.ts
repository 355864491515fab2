/**
 * Every wire shape the client reads, as zod 4 schemas (house style §8.3: parse at the boundary).
 * Objects are loose: unknown fields pass through so a newer server does not break us, and options stay verbatim.
 * Lists are validated item by item by the callers, so one bad entry never hides its neighbours.
 */
import { z } from 'zod';
import type { Logger } from './env';

const str = z.string();
const optStr = z.string().nullish();

// ---------- conversations (§2, §3) ----------

/** One option exactly as the agent offered it; only `optionId` is required to be usable. */
export const PermissionOptionSchema = z.looseObject({
  optionId: z.string().min(1),
  name: z.string().optional(),
  kind: z.string().optional(),
});
export type WirePermissionOption = z.infer<typeof PermissionOptionSchema>;

export const PendingRequestSchema = z.looseObject({
  request_id: z.string().min(1),
  tool: optStr,
  options: z.array(z.unknown()),
  asked_at: optStr,
  deadline: optStr,
  turn_id: optStr,
});
export type WirePendingRequest = z.infer<typeof PendingRequestSchema>;

export const ConversationSchema = z.looseObject({
  id: z.string().min(1),
  title: optStr,
  agent_id: optStr,
  agent_name: optStr,
  agent: z.looseObject({ name: optStr }).nullish(),
  runtime: optStr,
  status: optStr,
  permission_policy: z.record(z.string(), z.unknown()).nullish(),
  pending_requests: z.array(z.unknown()).nullish(),
  updated_at: optStr,
});
export type WireConversation = z.infer<typeof ConversationSchema>;

/** `{data: [...]}`: items are checked one by one with ConversationSchema. */
export const ConversationListSchema = z.looseObject({ data: z.array(z.unknown()) });
export const ConversationEnvelopeSchema = z.looseObject({ data: z.unknown() });

export const AgentSchema = z.looseObject({
  id: z.string().min(1),
  name: optStr,
  permission_policy: z.record(z.string(), z.unknown()).nullish(),
});
export type WireAgent = z.infer<typeof AgentSchema>;
export const AgentEnvelopeSchema = z.looseObject({ data: AgentSchema });

// ---------- stream payloads (§4) ----------

/** `event: output` data. On the account-wide stream `conversation_id` is present; /events rows carry `id`. */
export const OutputPayloadSchema = z.looseObject({
  kind: optStr,
  stream: optStr,
  data: optStr,
  turn_id: optStr,
  ts: optStr,
  conversation_id: optStr,
  blocks: z.array(z.unknown()).nullish(),
  id: z.union([z.number(), z.string()]).nullish(),
});
export type WireOutputPayload = z.infer<typeof OutputPayloadSchema>;

/** `event: stage` data; its own `data` is a JSON-encoded string (an object is accepted too, for /events rows). */
export const StagePayloadSchema = z.looseObject({
  kind: optStr,
  stage: str,
  state: str,
  data: z.union([z.string(), z.record(z.string(), z.unknown())]).nullish(),
  turn_id: optStr,
  ts: optStr,
  conversation_id: optStr,
  id: z.union([z.number(), z.string()]).nullish(),
});
export type WireStagePayload = z.infer<typeof StagePayloadSchema>;

/** `request` stage data: `started` announces a held request, `done` resolves it. */
export const RequestStageDataSchema = z.looseObject({
  request_id: z.string().min(1),
  outcome: optStr,
  option_id: optStr,
  detached: z.boolean().nullish(),
  timeout_ms: z.number().nullish(),
  detached_timeout_ms: z.number().nullish(),
  tool: optStr,
  options: z.array(z.unknown()).nullish(),
});
export type WireRequestStageData = z.infer<typeof RequestStageDataSchema>;

export const TurnStageDataSchema = z.looseObject({
  turn_id: optStr,
  turn_number: z.number().nullish(),
  stop_reason: optStr,
  waiting: z.boolean().nullish(),
  waiting_request_id: optStr,
  waiting_deadline: optStr,
});
export type WireTurnStageData = z.infer<typeof TurnStageDataSchema>;

/** terminate / sandbox / server stage data. */
export const NoticeStageDataSchema = z.looseObject({ reason: optStr, message: optStr });

/** `event: conversations` data: the list changed. */
export const ConversationsChangedSchema = z.looseObject({ reason: optStr });

// ---------- permission requests (§4.4, acp.md §1) ----------

export const PermissionRequestBlockSchema = z.looseObject({
  kind: z.literal('permission_request'),
  request_id: z.string().min(1),
  name: optStr,
  summary: optStr,
  body: optStr,
  options: z.array(z.unknown()).nullish(),
});
export type WirePermissionRequestBlock = z.infer<typeof PermissionRequestBlockSchema>;

export const DiffContentSchema = z.looseObject({
  type: z.literal('diff'),
  path: str,
  oldText: z.string().nullish(),
  newText: str,
});
export const TextContentSchema = z.looseObject({
  type: z.literal('content'),
  content: z.looseObject({ type: z.literal('text'), text: str }),
});
export const LocationSchema = z.looseObject({ path: str, line: z.number().int().nullish() });

export const ToolCallSchema = z.looseObject({
  toolCallId: optStr,
  title: optStr,
  kind: optStr,
  status: optStr,
  rawInput: z.unknown().optional(),
  content: z.array(z.unknown()).nullish(),
  locations: z.array(z.unknown()).nullish(),
  _meta: z.record(z.string(), z.unknown()).nullish(),
});

export const RequestPermissionParamsSchema = z.looseObject({
  sessionId: optStr,
  toolCall: ToolCallSchema,
  options: z.array(z.unknown()),
  _meta: z
    .looseObject({
      fountain: z.looseObject({ timeout: z.unknown().optional() }).nullish(),
      'fountain.sandboxLocations': z.array(z.unknown()).nullish(),
    })
    .nullish(),
});
export type WireRequestPermissionParams = z.infer<typeof RequestPermissionParamsSchema>;

/** The stored `session/request_permission` line, with the id Fountain minted (`7.1f0c…`). */
export const RequestPermissionLineSchema = z.looseObject({
  jsonrpc: optStr,
  id: z.union([z.string().min(1), z.number()]),
  method: z.literal('session/request_permission'),
  params: RequestPermissionParamsSchema,
});

// ---------- REST responses ----------

export const AnswerOkSchema = z.looseObject({ ok: z.literal(true) });

export const ErrorBodySchema = z.looseObject({
  error: optStr,
  reason: optStr,
  message: optStr,
  errors: z.unknown().optional(),
  upgrade_url: optStr,
});
export type WireErrorBody = z.infer<typeof ErrorBodySchema>;

export const EventsPageSchema = z.looseObject({
  data: z.array(z.unknown()),
  meta: z
    .looseObject({ has_more: z.boolean().nullish(), next_cursor: z.union([z.number(), z.string()]).nullish() })
    .nullish(),
});

/** `{kind, ...}` of a /events row, enough to route it to the output or stage schema. */
export const LogEventHeadSchema = z.looseObject({ id: z.union([z.number(), z.string()]), kind: optStr });

// ---------- helpers ----------

/** safeParse that logs what was wrong (without the payload) and returns undefined. */
export function parseOrLog<T>(schema: z.ZodType<T>, value: unknown, what: string, logger: Logger): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) {
    return r.data;
  }
  logger.warn(`Skipped ${what}: ${describeIssues(r.error)}`);
  return undefined;
}

export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`)
    .join('; ');
}

/** JSON.parse without throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
