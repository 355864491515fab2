/**
 * A session's transcript as plain text: `session/update` notifications folded into entries (the user's prompts,
 * agent messages, thoughts, tool calls with their status, the plan), rendered with every control, bidi and
 * invisible character escaped. Pure: no vscode, no SDK; the UI shows {@link Transcript.render} in a read-only
 * document. Nothing is cut: a 1 MB message renders whole.
 */
import { toInertText } from '../domain/inertText';

export interface TranscriptToolCall {
  readonly toolCallId: string;
  title?: string;
  kind?: string;
  status?: string;
  content?: unknown[];
  locations?: unknown[];
  rawInput?: unknown;
}

type Entry =
  | { readonly type: 'user' | 'agent' | 'thought' | 'note'; text: string }
  | { readonly type: 'tool'; readonly call: TranscriptToolCall }
  | { readonly type: 'plan'; entries: { content: string; status: string; priority: string }[] };

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The text of one ACP content block (text, or a placeholder naming what is not text). */
export function contentBlockText(block: unknown): string {
  if (!isObj(block)) {
    return '';
  }
  switch (block.type) {
    case 'text':
      return str(block.text) ?? '';
    case 'resource_link':
      return `[link ${str(block.uri) ?? ''}]`;
    case 'resource': {
      const r = isObj(block.resource) ? block.resource : {};
      return str(r.text) ?? `[resource ${str(r.uri) ?? ''}]`;
    }
    case 'image':
    case 'audio':
      return `[${block.type}]`;
    default:
      return '';
  }
}

/** The text of a tool call's content items: text blocks, diffs (path and new text), terminals. */
function toolContentText(items: readonly unknown[]): string[] {
  const out: string[] = [];
  for (const item of items) {
    if (!isObj(item)) {
      continue;
    }
    if (item.type === 'content') {
      const t = contentBlockText(item.content);
      if (t) {
        out.push(t);
      }
    } else if (item.type === 'diff') {
      out.push(`diff ${str(item.path) ?? ''}${item.oldText == null ? ' (new file)' : ''}`);
    } else if (item.type === 'terminal') {
      out.push(`terminal ${str(item.terminalId) ?? ''}`);
    }
  }
  return out;
}

export class Transcript {
  private readonly entries: Entry[] = [];
  private readonly calls = new Map<string, TranscriptToolCall>();
  private plan: Extract<Entry, { type: 'plan' }> | undefined;
  private mode: string | undefined;

  /** The tool call announced under `id`, if any (a permission request merges over it). */
  toolCall(id: string): Readonly<TranscriptToolCall> | undefined {
    return this.calls.get(id);
  }

  get currentMode(): string | undefined {
    return this.mode;
  }

  addUserPrompt(text: string): void {
    this.entries.push({ type: 'user', text });
  }

  /** A line of our own (a permission decision, an exit), shown between the agent's entries. */
  addNote(text: string): void {
    this.entries.push({ type: 'note', text });
  }

  /** Folds one `session/update` payload (the notification's `update` field). Unknown kinds are ignored. */
  apply(update: unknown): void {
    if (!isObj(update)) {
      return;
    }
    switch (update.sessionUpdate) {
      case 'user_message_chunk':
        this.appendText('user', contentBlockText(update.content));
        break;
      case 'agent_message_chunk':
        this.appendText('agent', contentBlockText(update.content));
        break;
      case 'agent_thought_chunk':
        this.appendText('thought', contentBlockText(update.content));
        break;
      case 'tool_call':
      case 'tool_call_update':
        this.mergeToolCall(update);
        break;
      case 'plan':
        this.applyPlan(update.entries);
        break;
      case 'current_mode_update':
        this.mode = str(update.currentModeId) ?? this.mode;
        break;
      default:
        break;
    }
  }

  /** Merges a tool call's fields (from `tool_call`, `tool_call_update` or a permission request) by id. */
  mergeToolCall(fields: Json): TranscriptToolCall | undefined {
    const id = str(fields.toolCallId);
    if (!id) {
      return undefined;
    }
    let call = this.calls.get(id);
    if (!call) {
      call = { toolCallId: id };
      this.calls.set(id, call);
      this.entries.push({ type: 'tool', call });
    }
    if (typeof fields.title === 'string') {
      call.title = fields.title;
    }
    if (typeof fields.kind === 'string') {
      call.kind = fields.kind;
    }
    if (typeof fields.status === 'string') {
      call.status = fields.status;
    }
    if (Array.isArray(fields.content)) {
      call.content = fields.content as unknown[];
    }
    if (Array.isArray(fields.locations)) {
      call.locations = fields.locations as unknown[];
    }
    if (fields.rawInput !== undefined) {
      call.rawInput = fields.rawInput;
    }
    return call;
  }

  private appendText(type: 'user' | 'agent' | 'thought', text: string): void {
    if (!text) {
      return;
    }
    const last = this.entries[this.entries.length - 1];
    if (last && last.type === type) {
      last.text += text;
    } else {
      this.entries.push({ type, text });
    }
  }

  private applyPlan(raw: unknown): void {
    const entries = (Array.isArray(raw) ? raw : []).filter(isObj).map((e) => ({
      content: str(e.content) ?? '',
      status: str(e.status) ?? 'pending',
      priority: str(e.priority) ?? '',
    }));
    // A plan update replaces the whole plan; it is shown where it last changed.
    if (this.plan) {
      this.entries.splice(this.entries.indexOf(this.plan), 1);
    }
    this.plan = { type: 'plan', entries };
    this.entries.push(this.plan);
  }

  /** The whole transcript as inert plain text. */
  render(): string {
    const inert = (s: string) => toInertText(s);
    const oneLine = (s: string) => toInertText(s, { singleLine: true });
    const indent = (s: string) => inert(s).replace(/\n/g, '\n    ');
    const blocks: string[] = [];
    for (const e of this.entries) {
      switch (e.type) {
        case 'user':
          blocks.push(`> You\n${indent(e.text).replace(/^/, '    ')}`);
          break;
        case 'agent':
          blocks.push(inert(e.text));
          break;
        case 'thought':
          blocks.push(`(thinking) ${indent(e.text)}`);
          break;
        case 'note':
          blocks.push(`-- ${oneLine(e.text)}`);
          break;
        case 'tool': {
          const c = e.call;
          const head = `[tool ${oneLine(c.status ?? 'pending')}] ${oneLine(c.title ?? c.kind ?? c.toolCallId)}${
            c.kind ? ` (${oneLine(c.kind)})` : ''
          }`;
          const body = toolContentText(c.content ?? []).map((t) => `    ${indent(t)}`);
          blocks.push([head, ...body].join('\n'));
          break;
        }
        case 'plan':
          blocks.push(['Plan:', ...e.entries.map((p) => `  [${oneLine(p.status)}] ${oneLine(p.content)}`)].join('\n'));
          break;
      }
    }
    return blocks.join('\n\n') + (blocks.length ? '\n' : '');
  }
}
