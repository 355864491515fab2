// Scripted fake model API on 127.0.0.1 for the real ACP agents (claude-agent-acp, gemini-cli; codex-acp, opencode
// and qwen-code through ./openaiModel).
//
// It speaks only what those two agents need:
//   Anthropic Messages: POST /v1/messages (SSE or JSON), POST /v1/messages/count_tokens
//   Gemini:             POST /v1beta/models/<m>:streamGenerateContent?alt=sse, :generateContent, :countTokens
// Everything else gets a 404 (claude probes `HEAD /` at start-up; a 404 is fine).
//
// The script, decided statelessly from the request (so retries get the same answer): a main-loop request (one that
// carries tools) whose last message is a tool result gets the final text; any other main-loop request asks for ONE
// shell command derived from the text of its last (user) message. So each prompt of a session asks once, and the
// model never loops. turnIndex (assistant/model messages so far) is only logged.
// Requests without tools are side queries (title generation, gemini's router classifier) and get a short reply.
//
// Prompt convention (see `parseFileDirective`): the prompt contains
//   create file <name> containing <text>
// where <name> matches [A-Za-z0-9._-]+ and <text> matches [A-Za-z0-9 ._,-]* (up to the first other character or
// the first ". "; trailing dots are dropped). The model then runs `printf '%s\n' '<text>' > <name>` in the session cwd.
// The character classes keep the command free of shell metacharacters whatever the test passes.
import * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import { openaiChat, openaiResponses } from './openaiModel';

/** What Claude Code reads (from its environment or its settings' env) to send nothing beyond the loopback model. */
export const QUIET_CLAUDE_ENV = {
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_ERROR_REPORTING: '1',
  DISABLE_BUG_COMMAND: '1',
};

export interface FileDirective {
  readonly fileName: string;
  readonly content: string;
}

/** The shell command the fake model asks for when the prompt says `create file <name> containing <text>`. */
export function commandFor(d: FileDirective): string {
  return `printf '%s\\n' '${d.content}' > ${d.fileName}`;
}

const DIRECTIVE = /create file ([A-Za-z0-9._-]+) containing ([A-Za-z0-9 ._,-]*)/;

/** Finds the directive in arbitrary text (a prompt, or the JSON of a request's user messages). */
export function parseFileDirective(text: string): FileDirective | undefined {
  const m = DIRECTIVE.exec(text);
  if (!m) {
    return undefined;
  }
  const fileName = m[1];
  if (fileName === '.' || fileName === '..' || fileName.startsWith('-')) {
    return undefined;
  }
  // The content ends at the first sentence end (". ") and loses trailing dots and spaces.
  const content = m[2]
    .split(/\.\s/)[0]
    .replace(/[.\s]+$/, '')
    .trim();
  return { fileName, content };
}

export interface FakeModelRequest {
  readonly method: string;
  readonly path: string;
  /** main: a turn of the agent loop; side: a request without tools; count_tokens; unhandled: 404. */
  readonly kind: 'main' | 'side' | 'count_tokens' | 'unhandled' | 'error';
  readonly turnIndex?: number;
  /** The tool the model asked for in this reply, if any. */
  readonly toolCall?: { readonly name: string; readonly input: Record<string, unknown> };
  /** For main turns that follow a tool call: the tool result the agent sent back (clipped), e.g. a refusal. */
  readonly lastMessage?: string;
}

export interface FakeModelOptions {
  /**
   * The loopback address to listen on (default 127.0.0.1). A sandboxed agent's own loopback is not the host's: its
   * model is then given as 127.0.0.2, which the agent sends to the proxy (its NO_PROXY names only its own loopback).
   */
  readonly host?: string;
  /** Override how the shell command is derived from the request's user text. Default: `parseFileDirective`. */
  /** Gets the JSON text of the request's last message (the prompt, plus whatever the agent wraps around it). */
  readonly deriveCommand?: (userText: string) => { command: string; description: string } | undefined;
  /** Text of the final answer after the tool ran (or was refused). */
  readonly finalText?: string;
  /**
   * Asked first, with the tool names the agent offers and the same user text: any one tool call (for example
   * claude's `Write`); undefined falls back to the shell command.
   */
  readonly deriveToolCall?: (
    toolNames: readonly string[],
    userText: string,
  ) => { name: string; input: Record<string, unknown> } | undefined;
}

export interface FakeModel {
  readonly baseUrl: string;
  readonly requests: readonly FakeModelRequest[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
export interface Turn {
  readonly text?: string;
  readonly toolCall?: { readonly name: string; readonly input: Record<string, unknown> };
}

// claude, gemini and qwen, opencode, codex.
const SHELL_TOOLS = ['Bash', 'run_shell_command', 'bash', 'exec_command'];
const shortId = () => randomUUID().replace(/-/g, '').slice(0, 24);
const clip = (s: string, n = 600) => (s.length > n ? `${s.slice(0, n)}…(+${s.length - n})` : s);

function asArray(v: unknown): Json[] {
  return Array.isArray(v) ? (v as Json[]) : [];
}

/** Request bodies are JSON; anything else is treated as an empty body (and then gets a side reply or a 404). */
function parseBody(raw: string): Json {
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Json) : {};
  } catch {
    return {};
  }
}

function defaultDerive(userText: string): { command: string; description: string } | undefined {
  const d = parseFileDirective(userText);
  return d && { command: commandFor(d), description: `Create ${d.fileName}` };
}

/** The reply for a main-loop request: after a tool result, the final text; after a prompt, the shell call. */
export type MainTurn = (toolNames: string[], userText: string, afterToolResult: boolean) => Turn;

/** The main-loop reply picker for one fake model (how it derives the command, what it says at the end). */
function mainTurnOf(
  derive: NonNullable<FakeModelOptions['deriveCommand']>,
  finalText: string,
  deriveToolCall?: FakeModelOptions['deriveToolCall'],
): MainTurn {
  return (toolNames, userText, afterToolResult) => {
    if (afterToolResult) {
      return { text: finalText };
    }
    const other = deriveToolCall?.(toolNames, userText);
    if (other && toolNames.includes(other.name)) {
      return { toolCall: other };
    }
    const tool = SHELL_TOOLS.find((t) => toolNames.includes(t));
    const cmd = derive(userText);
    if (!tool || !cmd) {
      return { text: `(fake model) no shell tool or no "create file <name> containing <text>" in the prompt` };
    }
    const input =
      tool === 'exec_command' ? { cmd: cmd.command } : { command: cmd.command, description: cmd.description };
    return { toolCall: { name: tool, input } };
  };
}

function anthropic(
  mainTurn: MainTurn,
  res: http.ServerResponse,
  body: Json,
): Omit<FakeModelRequest, 'method' | 'path'> {
  const tools = asArray(body.tools).map((t) => String(t.name ?? t.type));
  const messages = asArray(body.messages);
  const turnIndex = messages.filter((m) => m.role === 'assistant').length;
  const last = messages[messages.length - 1];
  const lastText = JSON.stringify(last?.content ?? '');
  const afterTool = asArray(last?.content).some((b) => b.type === 'tool_result');
  const main = tools.length > 0;
  const turn: Turn = main ? mainTurn(tools, lastText, afterTool) : { text: 'none' };
  const blocks: Json[] = [];
  if (turn.text) {
    blocks.push({ type: 'text', text: turn.text });
  }
  if (turn.toolCall) {
    blocks.push({ type: 'tool_use', id: `toolu_${shortId()}`, name: turn.toolCall.name, input: turn.toolCall.input });
  }
  const stopReason = turn.toolCall ? 'tool_use' : 'end_turn';
  const model = typeof body.model === 'string' ? body.model : 'claude-fake';
  const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const id = `msg_${shortId()}`;
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': `req_${shortId()}` });
    res.end(
      JSON.stringify({
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      }),
    );
  } else {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const ev = (type: string, data: Json) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev('message_start', {
      message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage },
    });
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        ev('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
      } else {
        ev('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        ev('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
        });
      }
      ev('content_block_stop', { index });
    });
    ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 20 } });
    ev('message_stop', {});
    res.end();
  }
  return {
    kind: main ? 'main' : 'side',
    ...(main ? { turnIndex } : {}),
    ...(turn.toolCall ? { toolCall: turn.toolCall } : {}),
    ...(main && afterTool ? { lastMessage: clip(lastText) } : {}),
  };
}

function gemini(
  mainTurn: MainTurn,
  res: http.ServerResponse,
  body: Json,
  stream: boolean,
): Omit<FakeModelRequest, 'method' | 'path'> {
  const tools = asArray(body.tools).flatMap((t) => asArray(t.functionDeclarations).map((f) => String(f.name)));
  const contents = asArray(body.contents);
  const turnIndex = contents.filter((c) => c.role === 'model').length;
  const last = contents[contents.length - 1];
  const lastText = JSON.stringify(last?.parts ?? '');
  const afterTool = asArray(last?.parts).some((part) => part.functionResponse !== undefined);
  const main = tools.length > 0;
  const config = (body.generationConfig ?? {}) as Json;
  let parts: Json[];
  let turn: Turn | undefined;
  if (main) {
    turn = mainTurn(tools, lastText, afterTool);
    parts = [];
    if (turn.text) {
      parts.push({ text: turn.text });
    }
    if (turn.toolCall) {
      parts.push({ functionCall: { name: turn.toolCall.name, args: turn.toolCall.input, id: `call_${shortId()}` } });
    }
  } else if (config.responseMimeType === 'application/json') {
    // gemini-cli's model router asks for {complexity_reasoning, complexity_score} before each turn.
    parts = [{ text: JSON.stringify({ complexity_reasoning: 'single shell command', complexity_score: 5 }) }];
  } else {
    parts = [{ text: 'none' }];
  }
  const chunk = {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 },
    modelVersion: 'gemini-fake',
    responseId: shortId(),
  };
  if (stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
  } else {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(chunk));
  }
  return {
    kind: main ? 'main' : 'side',
    ...(main ? { turnIndex } : {}),
    ...(turn?.toolCall ? { toolCall: turn.toolCall } : {}),
    ...(main && afterTool ? { lastMessage: clip(lastText) } : {}),
  };
}

export async function startFakeModel(opts: FakeModelOptions = {}): Promise<FakeModel> {
  const requests: FakeModelRequest[] = [];
  const mainTurn = mainTurnOf(opts.deriveCommand ?? defaultDerive, opts.finalText ?? 'Done.', opts.deriveToolCall);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const p = url.pathname;
      const method = req.method ?? 'GET';
      const body = parseBody(Buffer.concat(chunks).toString('utf8'));
      let entry: Omit<FakeModelRequest, 'method' | 'path'>;
      try {
        if (method === 'POST' && /\/v1\/messages\/count_tokens$/.test(p)) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ input_tokens: 100 }));
          entry = { kind: 'count_tokens' };
        } else if (method === 'POST' && /\/v1\/messages$/.test(p)) {
          entry = anthropic(mainTurn, res, body);
        } else if (method === 'POST' && /:streamGenerateContent$/.test(p)) {
          entry = gemini(mainTurn, res, body, true);
        } else if (method === 'POST' && /:generateContent$/.test(p)) {
          entry = gemini(mainTurn, res, body, false);
        } else if (method === 'POST' && /\/chat\/completions$/.test(p)) {
          entry = openaiChat(mainTurn, res, body);
        } else if (method === 'POST' && /\/responses$/.test(p)) {
          entry = openaiResponses(mainTurn, res, body);
        } else if (method === 'POST' && /:countTokens$/.test(p)) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ totalTokens: 100 }));
          entry = { kind: 'count_tokens' };
        } else {
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(
            JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `no route ${method} ${p}` } }),
          );
          entry = { kind: 'unhandled' };
        }
      } catch (e) {
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json' });
        }
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(e) } }));
        entry = { kind: 'error' };
      }
      requests.push({ method, path: p, ...entry });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (!address || typeof address === 'string') {
    throw new Error('fake model server: no TCP address');
  }
  return {
    baseUrl: `http://${opts.host ?? '127.0.0.1'}:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
