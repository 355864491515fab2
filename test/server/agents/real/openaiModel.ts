// The OpenAI wire APIs of the scripted model (./fakeModel): chat completions (opencode, qwen-code) and Responses
// (codex-acp, with its freeform `apply_patch` tool). Same script as the Anthropic and Gemini routes: after a tool
// result the final text, else the one tool call derived from the last user message; a request without tools (a side
// query: titles, summaries, qwen's memory agent when it carries none) gets a short text.
import type * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { FakeModelRequest, MainTurn, Turn } from './fakeModel';

type Json = Record<string, unknown>;
type Entry = Omit<FakeModelRequest, 'method' | 'path'>;

const shortId = () => randomUUID().replace(/-/g, '').slice(0, 24);
const asArray = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);
const clip = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}…(+${s.length - n})` : s);

/** A tool call's arguments: codex's freeform tools take the raw text (`input.raw`), the others JSON. */
function argumentsOf(call: NonNullable<Turn['toolCall']>): string {
  return typeof call.input.raw === 'string' ? call.input.raw : JSON.stringify(call.input);
}

export function openaiChat(mainTurn: MainTurn, res: http.ServerResponse, body: Json): Entry {
  const tools = asArray(body.tools).map((t) => String((t.function as Json | undefined)?.name ?? t.name));
  const messages = asArray(body.messages);
  const last = messages[messages.length - 1];
  const lastText = JSON.stringify(last?.content ?? '');
  const afterTool = last?.role === 'tool';
  // qwen-code's memory agent runs after each turn with tools of its own: it is a side query here.
  const side = tools.length === 0 || JSON.stringify(messages[0] ?? '').includes('Managed memory');
  const turn: Turn = side ? { text: 'none' } : mainTurn(tools, lastText, afterTool);
  const id = `chatcmpl-${shortId()}`;
  const created = Math.floor(Date.now() / 1000);
  const model = typeof body.model === 'string' ? body.model : 'gpt-fake';
  const calls = turn.toolCall
    ? [
        {
          index: 0,
          id: `call_${shortId()}`,
          type: 'function',
          function: { name: turn.toolCall.name, arguments: argumentsOf(turn.toolCall) },
        },
      ]
    : [];
  const finish = calls.length ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const message = { role: 'assistant', content: turn.text ?? null, ...(calls.length ? { tool_calls: calls } : {}) };
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
  } else {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Json, reason: string | null = null) =>
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, finish_reason: reason }] })}\n\n`,
      );
    send({ role: 'assistant', content: '' });
    if (turn.text) {
      send({ content: turn.text });
    }
    for (const c of calls) {
      send({ tool_calls: [c] });
    }
    send({}, finish);
    if ((body.stream_options as Json | undefined)?.include_usage) {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
      );
    }
    res.end('data: [DONE]\n\n');
  }
  return {
    kind: side ? 'side' : 'main',
    ...(turn.toolCall ? { toolCall: turn.toolCall } : {}),
    ...(!side && afterTool ? { lastMessage: clip(lastText) } : {}),
  };
}

export function openaiResponses(mainTurn: MainTurn, res: http.ServerResponse, body: Json): Entry {
  const toolList = asArray(body.tools);
  const tools = toolList.map((t) => String(t.name ?? t.type));
  const custom = new Set(toolList.filter((t) => t.type === 'custom').map((t) => String(t.name)));
  const input = asArray(body.input);
  const last = input[input.length - 1];
  const afterTool = last?.type === 'function_call_output' || last?.type === 'custom_tool_call_output';
  const lastText = JSON.stringify(last?.content ?? last?.output ?? '');
  const side = tools.length === 0;
  const turn: Turn = side ? { text: 'none' } : mainTurn(tools, lastText, afterTool);
  const output: Json[] = [];
  if (turn.text) {
    output.push({
      type: 'message',
      id: `msg_${shortId()}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: turn.text, annotations: [] }],
    });
  }
  const call = turn.toolCall;
  if (call) {
    const ids = { id: `fc_${shortId()}`, call_id: `call_${shortId()}`, name: call.name, status: 'completed' };
    output.push(
      custom.has(call.name)
        ? { type: 'custom_tool_call', ...ids, input: argumentsOf(call) }
        : { type: 'function_call', ...ids, arguments: argumentsOf(call) },
    );
  }
  const usage = {
    input_tokens: 100,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 20,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 120,
  };
  const base = {
    id: `resp_${shortId()}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model: body.model ?? 'gpt-fake',
    status: 'in_progress',
    output: [],
  };
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let seq = 0;
  const ev = (type: string, data: Json) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  ev('response.created', { response: base });
  output.forEach((item, output_index) => {
    ev('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
    ev('response.output_item.done', { output_index, item });
  });
  ev('response.completed', { response: { ...base, status: 'completed', output, usage } });
  res.end();
  return {
    kind: side ? 'side' : 'main',
    ...(call ? { toolCall: call } : {}),
    ...(!side && afterTool ? { lastMessage: clip(lastText) } : {}),
  };
}
