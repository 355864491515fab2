/** Generated SSE input for the benchmark: ~300-byte tool-output events, one permission request per 1,000. */

const OPTS = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

export function toolOutputFrame(id: number, conv: string): string {
  const line = JSON.stringify({
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's1', update: { sessionUpdate: 'tool_call_update', toolCallId: `c${id % 97}` } },
  });
  const payload = {
    kind: 'output',
    stream: 'acp',
    data: line,
    turn_id: 'b6a1d7c0-1111-4222-8333-944445555666',
    ts: '2026-09-07T09:10:00Z',
    conversation_id: conv,
    blocks: [],
  };
  return `id: ${id}\nevent: output\ndata: ${JSON.stringify(payload)}\n\n`;
}

export function permissionFrame(
  id: number,
  conv: string,
  requestId: string,
  rawInput: Record<string, unknown> = {},
): string {
  const params = {
    sessionId: 's1',
    toolCall: {
      toolCallId: `toolu_${id}`,
      title: 'touch /tmp/work/ran-bash-marker && echo created',
      kind: 'execute',
      rawInput: {
        command: 'touch /tmp/work/ran-bash-marker && echo created',
        description: 'Create a marker file',
        ...rawInput,
      },
      content: [{ type: 'content', content: { type: 'text', text: 'Create a marker file' } }],
    },
    options: OPTS,
    _meta: { fountain: { timeout: 172800 } },
  };
  const payload = {
    kind: 'output',
    stream: 'acp',
    data: JSON.stringify({ jsonrpc: '2.0', id: requestId, method: 'session/request_permission', params }),
    turn_id: 'b6a1d7c0-1111-4222-8333-944445555666',
    ts: '2026-09-07T09:10:00.123Z',
    conversation_id: conv,
    blocks: [
      {
        kind: 'permission_request',
        request_id: requestId,
        name: params.toolCall.title,
        summary: 'command=touch …',
        options: OPTS,
      },
    ],
  };
  return `id: ${id}\nevent: output\ndata: ${JSON.stringify(payload)}\n\n`;
}

/** The whole stream as one string, plus its 16 KiB chunks (how reads arrive). */
export function generate(events: number): { text: string; chunks: string[]; permissions: number } {
  const parts: string[] = [];
  let permissions = 0;
  for (let i = 1; i <= events; i++) {
    if (i % 1000 === 500) {
      permissions++;
      parts.push(permissionFrame(i, `c${i % 50}`, `${i}.${(0x1f0c9a2b3c4d5e6fn + BigInt(i)).toString(16)}`));
    } else {
      parts.push(toolOutputFrame(i, `c${i % 50}`));
    }
  }
  const text = parts.join('');
  const chunks: string[] = [];
  for (let o = 0; o < text.length; o += 16_384) {
    chunks.push(text.slice(o, o + 16_384));
  }
  return { text, chunks, permissions };
}
