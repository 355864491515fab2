/**
 * Server-parsed `blocks` for `acp` output lines, as Fountain's `Managoat.ACP.Blocks` derives them (the documented
 * parts: the `permission_request` block; simple `text`, `thinking` and `tool` blocks for session/update lines).
 */

export type Block = Record<string, unknown> & { kind: string };

const SUMMARY_MAX_BYTES = 120;

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Cut a string to at most `max` UTF-8 bytes without splitting a character. */
export function truncateBytes(s: string, max: number): string {
  if (Buffer.byteLength(s, 'utf8') <= max) {
    return s;
  }
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const b = Buffer.byteLength(ch, 'utf8');
    if (bytes + b > max) {
      break;
    }
    out += ch;
    bytes += b;
  }
  return out;
}

/** The tool name Fountain shows: title, else kind, else "tool". */
export function toolName(toolCall: unknown): string {
  const tc = isObj(toolCall) ? toolCall : {};
  if (typeof tc.title === 'string' && tc.title !== '') {
    return tc.title;
  }
  if (typeof tc.kind === 'string' && tc.kind !== '') {
    return tc.kind;
  }
  return 'tool';
}

/** First location path, else a `k=v ...` preview of rawInput, at most 120 bytes. */
export function requestSummary(toolCall: unknown): string {
  const tc = isObj(toolCall) ? toolCall : {};
  if (Array.isArray(tc.locations)) {
    const first = tc.locations[0] as unknown;
    if (isObj(first) && typeof first.path === 'string' && first.path !== '') {
      return truncateBytes(first.path, SUMMARY_MAX_BYTES);
    }
  }
  const raw = tc.rawInput;
  let preview = '';
  if (isObj(raw)) {
    preview = Object.entries(raw)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
      .join(' ');
  } else if (typeof raw === 'string') {
    preview = raw;
  } else if (raw !== undefined && raw !== null) {
    preview = JSON.stringify(raw);
  }
  return truncateBytes(preview, SUMMARY_MAX_BYTES);
}

export function permissionRequestBlock(requestId: string, params: Record<string, unknown>): Block {
  const options = Array.isArray(params.options) ? params.options.filter(isObj) : [];
  return {
    kind: 'permission_request',
    request_id: requestId,
    name: toolName(params.toolCall),
    summary: requestSummary(params.toolCall),
    options,
  };
}

/** Blocks for an agent→client `session/update` line; [] for anything else. */
export function blocksForUpdate(msg: unknown): Block[] {
  if (!isObj(msg) || msg.method !== 'session/update' || !isObj(msg.params) || !isObj(msg.params.update)) {
    return [];
  }
  const u = msg.params.update;
  const content = isObj(u.content) ? u.content : undefined;
  switch (u.sessionUpdate) {
    case 'agent_message_chunk':
      return content && typeof content.text === 'string' && content.text !== ''
        ? [{ kind: 'text', body: content.text }]
        : [];
    case 'agent_thought_chunk':
      return content && typeof content.text === 'string' && content.text !== ''
        ? [{ kind: 'thinking', body: content.text }]
        : [];
    case 'tool_call':
    case 'tool_call_update': {
      const b: Block = { kind: 'tool', tool_call_id: u.toolCallId ?? null };
      if (typeof u.title === 'string') {
        b.name = u.title;
      }
      if (typeof u.kind === 'string') {
        b.tool_kind = u.kind;
      }
      if (typeof u.status === 'string') {
        b.status = u.status;
      }
      return [b];
    }
    default:
      return [];
  }
}
