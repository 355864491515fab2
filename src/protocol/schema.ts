/**
 * Every wire shape the client reads, as zod 4 schemas (house style §8.3: parse at the boundary), written with
 * `zod/mini`, whose functions tree-shake (the classic API pulls all of zod into the bundle).
 * Objects are loose: unknown fields pass through so a newer server does not break us, and options stay verbatim.
 * Lists are validated item by item by the callers, so one bad entry never hides its neighbours.
 */
import * as z from 'zod/mini';
import type { Logger } from './env';

const str = z.string();
const optStr = z.nullish(z.string());
const nonEmpty = () => z.string().check(z.minLength(1));
/** A JSON object with any keys (`z.record` would pull in another schema class for the same check). */
const anyObject = () => z.looseObject({});

// ---------- conversations (§2, §3) ----------

/** One option exactly as the agent offered it; only `optionId` is required to be usable. */
export const PermissionOptionSchema = z.looseObject({
  optionId: nonEmpty(),
  name: z.optional(z.string()),
  kind: z.optional(z.string()),
});
export type WirePermissionOption = z.infer<typeof PermissionOptionSchema>;

export const PendingRequestSchema = z.looseObject({
  request_id: nonEmpty(),
  tool: optStr,
  options: z.array(z.unknown()),
  asked_at: optStr,
  deadline: optStr,
  turn_id: optStr,
});
export type WirePendingRequest = z.infer<typeof PendingRequestSchema>;

export const ConversationSchema = z.looseObject({
  id: nonEmpty(),
  title: optStr,
  // No agent name: ConversationJSON carries only agent_id; src/session/agentNames.ts reads the agent's name.
  agent_id: optStr,
  runtime: optStr,
  status: optStr,
  permission_policy: z.nullish(anyObject()),
  pending_requests: z.nullish(z.array(z.unknown())),
  updated_at: optStr,
});
export type WireConversation = z.infer<typeof ConversationSchema>;

/** `{data: [...]}`: items are checked one by one with ConversationSchema. */
export const ConversationListSchema = z.looseObject({ data: z.array(z.unknown()) });
export const ConversationEnvelopeSchema = z.looseObject({ data: z.unknown() });

/** Fountain's AgentJSON: the fields the client reads (the rest passes through). */
export const AgentSchema = z.looseObject({
  id: nonEmpty(),
  name: optStr,
  permission_policy: z.nullish(anyObject()),
  runtime: optStr,
  sandbox_provider: optStr,
  sandbox_mode: optStr,
  conversation_count: z.nullish(z.number()),
  updated_at: optStr,
});
export type WireAgent = z.infer<typeof AgentSchema>;
export const AgentEnvelopeSchema = z.looseObject({ data: AgentSchema });
/** `GET /api/agents`: `{data: [...]}`, items checked one by one with AgentSchema. */
export const AgentListSchema = z.looseObject({ data: z.array(z.unknown()) });

// ---------- stream payloads (§4) ----------

/** `event: output` data. On the account-wide stream `conversation_id` is present; /events rows carry `id`. */
export const OutputPayloadSchema = z.looseObject({
  kind: optStr,
  stream: optStr,
  data: optStr,
  turn_id: optStr,
  ts: optStr,
  conversation_id: optStr,
  blocks: z.nullish(z.array(z.unknown())),
  id: z.nullish(z.union([z.number(), z.string()])),
});
export type WireOutputPayload = z.infer<typeof OutputPayloadSchema>;

/** `event: stage` data; its own `data` is a JSON-encoded string (an object is accepted too, for /events rows). */
export const StagePayloadSchema = z.looseObject({
  kind: optStr,
  stage: str,
  state: str,
  data: z.nullish(z.union([z.string(), anyObject()])),
  turn_id: optStr,
  ts: optStr,
  conversation_id: optStr,
  id: z.nullish(z.union([z.number(), z.string()])),
});
export type WireStagePayload = z.infer<typeof StagePayloadSchema>;

/** `request` stage data: `started` announces a held request, `done` resolves it. */
export const RequestStageDataSchema = z.looseObject({
  request_id: nonEmpty(),
  outcome: optStr,
  option_id: optStr,
  detached: z.nullish(z.boolean()),
  timeout_ms: z.nullish(z.number()),
  detached_timeout_ms: z.nullish(z.number()),
  tool: optStr,
  options: z.nullish(z.array(z.unknown())),
});
export type WireRequestStageData = z.infer<typeof RequestStageDataSchema>;

export const TurnStageDataSchema = z.looseObject({
  turn_id: optStr,
  turn_number: z.nullish(z.number()),
  stop_reason: optStr,
  waiting: z.nullish(z.boolean()),
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
  request_id: nonEmpty(),
  name: optStr,
  summary: optStr,
  body: optStr,
  options: z.nullish(z.array(z.unknown())),
});
export type WirePermissionRequestBlock = z.infer<typeof PermissionRequestBlockSchema>;

export const DiffContentSchema = z.looseObject({
  type: z.literal('diff'),
  path: str,
  oldText: z.nullish(z.string()),
  newText: str,
});
export const TextContentSchema = z.looseObject({
  type: z.literal('content'),
  content: z.looseObject({ type: z.literal('text'), text: str }),
});
export const LocationSchema = z.looseObject({
  path: str,
  line: z.nullish(z.number().check(z.refine(Number.isSafeInteger))),
});

export const ToolCallSchema = z.looseObject({
  toolCallId: optStr,
  title: optStr,
  kind: optStr,
  status: optStr,
  rawInput: z.optional(z.unknown()),
  content: z.nullish(z.array(z.unknown())),
  locations: z.nullish(z.array(z.unknown())),
  _meta: z.nullish(anyObject()),
});

export const RequestPermissionParamsSchema = z.looseObject({
  sessionId: optStr,
  toolCall: ToolCallSchema,
  options: z.array(z.unknown()),
  _meta: z.nullish(
    z.looseObject({
      fountain: z.nullish(z.looseObject({ timeout: z.optional(z.unknown()) })),
      'fountain.sandboxLocations': z.nullish(z.array(z.unknown())),
    }),
  ),
});
export type WireRequestPermissionParams = z.infer<typeof RequestPermissionParamsSchema>;

/** The stored `session/request_permission` line, with the id Fountain minted (`7.1f0c…`). */
export const RequestPermissionLineSchema = z.looseObject({
  jsonrpc: optStr,
  id: z.union([nonEmpty(), z.number()]),
  method: z.literal('session/request_permission'),
  params: RequestPermissionParamsSchema,
});

// ---------- REST responses ----------

export const AnswerOkSchema = z.looseObject({ ok: z.literal(true) });

/** `GET /api/auth/me` (unenveloped, §1): who the key belongs to. */
export const AuthMeSchema = z.looseObject({
  id: nonEmpty(),
  email: optStr,
  role: optStr,
  email_verified: z.nullish(z.boolean()),
});
export type WireAuthMe = z.infer<typeof AuthMeSchema>;

export const ErrorBodySchema = z.looseObject({
  error: optStr,
  reason: optStr,
  message: optStr,
  errors: z.optional(z.unknown()),
  upgrade_url: optStr,
});
export type WireErrorBody = z.infer<typeof ErrorBodySchema>;

export const EventsPageSchema = z.looseObject({
  data: z.array(z.unknown()),
  meta: z.nullish(
    z.looseObject({ has_more: z.nullish(z.boolean()), next_cursor: z.nullish(z.union([z.number(), z.string()])) }),
  ),
});

// ---------- helpers ----------

/** safeParse that logs what was wrong (without the payload) and returns undefined. */
export function parseOrLog<T>(schema: z.ZodMiniType<T>, value: unknown, what: string, logger: Logger): T | undefined {
  const r = schema.safeParse(value);
  if (r.success) {
    return r.data;
  }
  logger.warn(`Skipped ${what}: ${describeIssues(r.error)}`);
  return undefined;
}

/** `path: what was wrong` for the first five issues (zod/mini loads no locale, so the words are ours). */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${issueText(i)}`)
    .join('; ');
}

function issueText(i: z.core.$ZodIssue): string {
  switch (i.code) {
    case 'invalid_type':
      return `expected ${i.expected}`;
    case 'too_small':
      return `too small (minimum ${String(i.minimum)})`;
    case 'invalid_value':
      return `expected one of ${i.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    default:
      return i.message;
  }
}

/** JSON.parse without throwing. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) };
  }
}
