/**
 * A `session/request_permission`'s params read leniently (zod/mini): the SDK's strict schema would refuse an
 * agent whose option kind is off-list with -32602, and the user would never see the request. Options without a
 * string id are dropped (they cannot be answered); everything else is kept as the agent sent it.
 */
import * as z from 'zod/mini';
import type { LocalOption, LocalPermissionRequest, LocalToolCall } from './permissions';
import type { TranscriptToolCall } from './transcript';

const OptionSchema = z.looseObject({
  optionId: z.string().check(z.minLength(1)),
  name: z.optional(z.unknown()),
  kind: z.optional(z.unknown()),
});

const ParamsSchema = z.looseObject({
  sessionId: z.string(),
  toolCall: z.looseObject({ toolCallId: z.string().check(z.minLength(1)) }),
  options: z.array(z.unknown()),
  _meta: z.optional(z.unknown()),
});

const optStr = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * The request, with its tool call merged over `earlier(toolCallId)` (the `tool_call` the agent announced before,
 * which is where Gemini-less agents put the title), or undefined when it has no tool call id or no options list.
 */
export function normalizePermissionRequest(
  raw: unknown,
  earlier: (toolCallId: string) => Readonly<TranscriptToolCall> | undefined,
): LocalPermissionRequest | undefined {
  const parsed = ParamsSchema.safeParse(raw);
  if (!parsed.success) {
    return undefined;
  }
  const p = parsed.data;
  const options: LocalOption[] = [];
  for (const o of p.options) {
    const r = OptionSchema.safeParse(o);
    if (r.success && !options.some((x) => x.optionId === r.data.optionId)) {
      options.push({
        optionId: r.data.optionId,
        name: optStr(r.data.name) ?? r.data.optionId,
        kind: optStr(r.data.kind) ?? '',
      });
    }
  }
  const tc = p.toolCall as Record<string, unknown> & { toolCallId: string };
  const before = earlier(tc.toolCallId);
  const pick = <K extends keyof TranscriptToolCall>(k: K): TranscriptToolCall[K] | undefined =>
    tc[k] !== undefined && tc[k] !== null ? tc[k] : before?.[k];
  const title = optStr(pick('title'));
  const kind = optStr(pick('kind'));
  const status = optStr(pick('status'));
  const content = pick('content');
  const locations = pick('locations');
  const rawInput = pick('rawInput');
  const toolCall: LocalToolCall = {
    toolCallId: tc.toolCallId,
    // The title chain of acp.md §4.4: the title, else rawInput.command (codex-acp 1.x sends no title).
    ...(title !== undefined && title !== ''
      ? { title }
      : typeof (rawInput as { command?: unknown } | undefined)?.command === 'string'
        ? { title: (rawInput as { command: string }).command }
        : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(status !== undefined ? { status } : {}),
    ...(Array.isArray(content) ? { content } : {}),
    ...(Array.isArray(locations) ? { locations } : {}),
    ...(rawInput !== undefined ? { rawInput } : {}),
  };
  return {
    sessionId: p.sessionId,
    toolCall,
    options,
    ...(p._meta !== undefined ? { meta: p._meta } : {}),
  };
}
