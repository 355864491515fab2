/**
 * One scripted in-process ACP agent: speaks ND-JSON JSON-RPC, runs the prompt DSL (./dsl) with its runtime's request
 * shapes (./styles). A detached ask is remembered in `<cwd>/.fountain-agent-waits.json` (by the JSON-RPC id in front
 * of the dot of request_id), so a resume prompt finds it even after a relaunch. Every prompt received is appended to
 * `<cwd>/.fountain-agent-prompts.jsonl`.
 */
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { NdJsonPeer, RpcFailure, type JsonRpcId } from '../ndjson';
import type { AgentLaunchContext, AgentProcess } from '../types';
import {
  DEFAULT_DETACHED_TIMEOUT_SEC,
  parseResume,
  parseScript,
  performStep,
  safePath,
  type ResumeAnswer,
  type Step,
} from './dsl';
import { CLAUDE_PLAN_OPTIONS, hex, type Ask, type Option, type Style, type ToolCall } from './styles';

interface WaitRecord {
  step: Step;
  options: Option[];
  toolCallId: string;
}

class ScriptedAgent {
  private readonly peer: NdJsonPeer;
  private nextId = 0;
  private sessionId = '';
  private cancelled = false;
  private readonly waitsFile: string;
  private readonly promptsFile: string;

  constructor(
    private readonly style: Style,
    private readonly ctx: AgentLaunchContext,
    input: ReadableStream<Uint8Array>,
    output: WritableStream<Uint8Array>,
  ) {
    this.waitsFile = path.join(ctx.cwd, '.fountain-agent-waits.json');
    this.promptsFile = path.join(ctx.cwd, '.fountain-agent-prompts.jsonl');
    // Keep numbering past ids still remembered as detached waits, so a relaunched agent never reuses one.
    for (const k of Object.keys(this.loadWaits())) {
      const n = Number(k);
      if (Number.isInteger(n) && n >= this.nextId) {
        this.nextId = n + 1;
      }
    }
    this.peer = new NdJsonPeer(input, output, {
      request: (method, params) => this.onRequest(method, params),
      notification: (method) => {
        if (method === 'session/cancel') {
          this.cancelled = true;
        }
      },
    });
  }

  close(): void {
    this.peer.close();
  }

  private mintId(): JsonRpcId {
    return this.style.ids === 'uuid' ? randomUUID() : this.nextId++;
  }

  private async onRequest(method: string, params: unknown): Promise<unknown> {
    const p = (params ?? {}) as Record<string, unknown>;
    switch (method) {
      case 'initialize':
        return {
          protocolVersion: 1,
          agentCapabilities: { loadSession: false, promptCapabilities: { image: false, embeddedContext: true } },
          agentInfo: { name: `scripted-${this.style.id}`, title: this.style.name, version: '1.0.0' },
          authMethods: [],
        };
      case 'session/new':
        this.sessionId = `sess_${hex(8)}`;
        return { sessionId: this.sessionId };
      case 'session/prompt':
        return this.prompt(p);
      default:
        throw new RpcFailure(-32601, `Method not found: ${method}`);
    }
  }

  private update(update: Record<string, unknown>): void {
    this.peer.notify('session/update', { sessionId: this.sessionId, update });
  }

  private say(text: string): void {
    this.update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
  }

  private async prompt(p: Record<string, unknown>): Promise<unknown> {
    this.cancelled = false;
    const blocks = Array.isArray(p.prompt) ? (p.prompt as Record<string, unknown>[]) : [];
    const text = blocks
      .filter((b) => b && b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n');
    try {
      appendFileSync(this.promptsFile, JSON.stringify({ text }) + '\n');
    } catch {
      // the cwd may be gone after dispose
    }
    const resume = parseResume(text);
    if (resume) {
      return this.resume(resume);
    }
    const steps = parseScript(text, this.style.detachByDefault);
    if (!steps) {
      this.say(`Received: ${text.slice(0, 80)}`);
      return { stopReason: 'end_turn' };
    }
    for (const step of steps) {
      if (this.cancelled) {
        return { stopReason: 'cancelled' };
      }
      switch (step.op) {
        case 'say':
          this.say(step.text);
          break;
        case 'think':
          this.update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: step.text } });
          break;
        case 'sleep':
          await new Promise((r) => setTimeout(r, step.ms));
          break;
        case 'fail':
          throw new RpcFailure(-32603, step.message);
        case 'stop':
          return { stopReason: step.reason };
        default: {
          const ask = this.askFor(step);
          const wait = this.waitOf(step);
          const r = await this.ask(step, ask, wait);
          if (r === 'waiting') {
            return { stopReason: 'waiting' };
          }
          if (r === 'cancelled' && this.cancelled) {
            return { stopReason: 'cancelled' };
          }
        }
      }
    }
    return { stopReason: 'end_turn' };
  }

  private waitOf(step: Step): number | null | undefined {
    if (step.op === 'run' || step.op === 'edit' || step.op === 'fetch') {
      return step.wait;
    }
    if (step.op === 'ask') {
      const w = step.spec.wait;
      return w === true ? DEFAULT_DETACHED_TIMEOUT_SEC : typeof w === 'number' ? w : w === null ? null : undefined;
    }
    return undefined;
  }

  private askFor(step: Step): Ask {
    const cwd = this.ctx.cwd;
    switch (step.op) {
      case 'run':
        return this.style.execute(step.command, cwd);
      case 'edit': {
        let old: string | null = null;
        const p = safePath(step.file, cwd);
        if (p && existsSync(p)) {
          old = readFileSync(p, 'utf8');
        }
        return this.style.edit(step.file, old, step.newText, cwd);
      }
      case 'fetch':
        return this.style.fetch(step.url);
      case 'plan':
        return {
          before: [],
          toolCall: {
            toolCallId: `toolu_${hex(12)}`,
            title: 'Ready to code?',
            kind: 'switch_mode',
            rawInput: { plan: step.plan },
            content: [{ type: 'content', content: { type: 'text', text: step.plan } }],
          },
          options: CLAUDE_PLAN_OPTIONS,
        };
      case 'ask': {
        const spec = step.spec;
        const tc = (spec.toolCall && typeof spec.toolCall === 'object' ? spec.toolCall : {}) as Record<string, unknown>;
        const raw = (tc.rawInput ?? {}) as Record<string, unknown>;
        const base = this.style.execute(typeof raw.command === 'string' ? raw.command : 'true', cwd);
        const toolCall = { ...base.toolCall, ...tc } as ToolCall;
        for (const [k, v] of Object.entries(tc)) {
          if (v === null) {
            delete toolCall[k]; // `"title": null` removes the field (e.g. a codex-like request with no title)
          }
        }
        return {
          toolCall,
          options: Array.isArray(spec.options) ? (spec.options as Option[]) : base.options,
          meta: spec.meta && typeof spec.meta === 'object' ? (spec.meta as Record<string, unknown>) : base.meta,
        };
      }
      default:
        throw new Error('not an ask step');
    }
  }

  /** Send one session/request_permission. Returns how it ended for the script. */
  private async ask(
    step: Step,
    a: Ask,
    wait: number | null | undefined,
  ): Promise<'ran' | 'refused' | 'cancelled' | 'waiting'> {
    for (const u of a.before ?? []) {
      this.update(u);
    }
    const meta: Record<string, unknown> = { ...(a.meta ?? {}) };
    if (typeof wait === 'number') {
      meta.fountain = { ...(meta.fountain ?? {}), timeout: wait };
    }
    const params: Record<string, unknown> = { sessionId: this.sessionId, toolCall: a.toolCall, options: a.options };
    if (Object.keys(meta).length) {
      params._meta = meta;
    }
    const id = this.mintId();
    const reply = this.peer.request('session/request_permission', params, id);
    if (wait !== undefined) {
      // Detached: remember what was asked (in the cwd, which outlives this process), stop waiting for the reply.
      reply.catch(() => undefined);
      this.saveWait(String(id), { step, options: a.options, toolCallId: a.toolCall.toolCallId });
      this.say('Waiting for a human to answer; ending the turn.');
      return 'waiting';
    }
    let outcome: Record<string, unknown> | undefined;
    try {
      const r = (await reply) as Record<string, unknown> | null;
      outcome = (r?.outcome ?? undefined) as Record<string, unknown> | undefined;
    } catch (err) {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: a.toolCall.toolCallId, status: 'failed' });
      this.say(`Tool permission request failed: ${(err as Error).message}`);
      return 'refused';
    }
    if (!outcome || outcome.outcome === 'cancelled') {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: a.toolCall.toolCallId, status: 'failed' });
      return 'cancelled';
    }
    const chosen = a.options.find((o) => o.optionId === outcome.optionId);
    if (!chosen || !String(chosen.kind).startsWith('allow')) {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: a.toolCall.toolCallId, status: 'failed' });
      this.say('User refused permission to run tool');
      return 'refused';
    }
    this.perform(step, a.toolCall.toolCallId);
    return 'ran';
  }

  private perform(step: Step, toolCallId: string): void {
    let out: string;
    try {
      out = performStep(step, this.ctx.cwd);
      this.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'completed', rawOutput: out });
    } catch (err) {
      out = (err as Error).message;
      this.update({ sessionUpdate: 'tool_call_update', toolCallId, status: 'failed', rawOutput: out });
    }
    this.say(`Done: ${out}`);
  }

  private async resume(answer: ResumeAnswer): Promise<unknown> {
    const jsonrpcId = answer.request_id.slice(0, Math.max(0, answer.request_id.lastIndexOf('.')));
    const waits = this.loadWaits();
    const rec = waits[jsonrpcId];
    if (!rec) {
      this.say(`Permission answer for an unknown request ${answer.request_id}; nothing to do.`);
      return { stopReason: 'end_turn' };
    }
    delete waits[jsonrpcId];
    this.storeWaits(waits);
    const chosen = rec.options.find((o) => o.optionId === answer.option_id);
    if (answer.outcome === 'answered' && chosen && String(chosen.kind).startsWith('allow')) {
      this.perform(rec.step, rec.toolCallId);
    } else {
      this.update({ sessionUpdate: 'tool_call_update', toolCallId: rec.toolCallId, status: 'failed' });
      this.say(`Not running it (${answer.outcome}, ${String(answer.option_id)}).`);
    }
    return { stopReason: 'end_turn' };
  }

  private loadWaits(): Record<string, WaitRecord> {
    try {
      return JSON.parse(readFileSync(this.waitsFile, 'utf8')) as Record<string, WaitRecord>;
    } catch {
      return {};
    }
  }

  private storeWaits(w: Record<string, WaitRecord>): void {
    writeFileSync(this.waitsFile, JSON.stringify(w));
  }

  private saveWait(id: string, rec: WaitRecord): void {
    const w = this.loadWaits();
    w[id] = rec;
    this.storeWaits(w);
  }
}

export async function launchScripted(style: Style, ctx: AgentLaunchContext): Promise<AgentProcess> {
  const toAgent = new TransformStream<Uint8Array, Uint8Array>();
  const fromAgent = new TransformStream<Uint8Array, Uint8Array>();
  const agent = new ScriptedAgent(style, ctx, toAgent.readable, fromAgent.writable);
  let disposed = false;
  return {
    input: toAgent.writable,
    output: fromAgent.readable,
    dispose: async () => {
      if (disposed) {
        return;
      }
      disposed = true;
      agent.close();
    },
  };
}
