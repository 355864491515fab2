/**
 * The ACP client side of each conversation's agent (SDK 2.4 app API): launch it, initialize, open its session, pass
 * every line it writes to the engine, and route its `session/request_permission` calls to the engine's ask flow.
 */
import * as acp from '@agentclientprotocol/sdk';
import { mkdirSync } from 'node:fs';
import type { AgentDefinition, AgentProcess } from './agents/types';
import type { ConversationRec } from './store';

export type PermissionResponse = { outcome: { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } };

export interface Session {
  proc: AgentProcess;
  conn: acp.ClientConnection;
  sessionId: string;
}

export interface SessionHooks {
  /** A permission request from the agent; the promise is the answer it gets. */
  onPermission(
    conv: ConversationRec,
    params: Record<string, unknown>,
    jsonrpcId: string | number,
  ): Promise<PermissionResponse>;
  /** Every complete line the agent wrote, before the SDK reads it. */
  onLine(conv: ConversationRec, line: string): void;
  /** The conversation's runtime_session_id changed. */
  onSessionId(conv: ConversationRec): void;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class AgentSessions {
  private readonly sessions = new Map<string, Promise<Session>>();

  constructor(
    private readonly agents: Map<string, AgentDefinition>,
    private readonly log: (msg: string) => void,
    private readonly hooks: SessionHooks,
  ) {}

  /** The live (or launching) session of a conversation, if any. */
  get(conversationId: string): Promise<Session> | undefined {
    return this.sessions.get(conversationId);
  }

  /** The conversation's session, launching its agent when it has none (or its last one went away). */
  ensure(conv: ConversationRec): Promise<Session> {
    let s = this.sessions.get(conv.id);
    if (!s) {
      s = this.launch(conv);
      this.sessions.set(conv.id, s);
      s.catch((err: unknown) => {
        this.sessions.delete(conv.id);
        this.log(`agent ${conv.agent_id} for ${conv.id} failed to start: ${(err as Error)?.message ?? String(err)}`);
      });
    }
    return s;
  }

  private async launch(conv: ConversationRec): Promise<Session> {
    const def = this.agents.get(conv.agent_id);
    if (!def) {
      throw new Error(`no launcher for agent ${conv.agent_id}`);
    }
    mkdirSync(conv.cwd, { recursive: true });
    const proc = await def.launch({ conversationId: conv.id, cwd: conv.cwd, env: {} });
    const tap = new LineTap((line) => this.hooks.onLine(conv, line));
    const app = acp
      .client({ name: 'fountain-test-server' })
      .onRequest(
        'session/request_permission',
        (raw: unknown) => raw,
        (ctx) => this.hooks.onPermission(conv, isObj(ctx.params) ? ctx.params : {}, ctx.requestId ?? 'null'),
      )
      .onNotification('session/update', () => undefined);
    const conn = app.connect(acp.ndJsonStream(proc.input, proc.output.pipeThrough(tap)));
    void conn.closed.then(
      () => this.onAgentGone(conv),
      () => this.onAgentGone(conv),
    );
    await conn.agent.request('initialize', {
      protocolVersion: acp.PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'fountain-test-server', version: '1.0.0' },
    });
    const ns = await conn.agent.request('session/new', { cwd: conv.cwd, mcpServers: [] });
    if (conv.runtime_session_id !== ns.sessionId) {
      conv.runtime_session_id = ns.sessionId;
      this.hooks.onSessionId(conv);
    }
    return { proc, conn, sessionId: ns.sessionId };
  }

  private onAgentGone(conv: ConversationRec): void {
    this.sessions.delete(conv.id);
  }

  /** Closes every connection and ends every agent. */
  async disposeAll(): Promise<void> {
    const sessions = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(
      sessions.map(async (p) => {
        try {
          const s = await p;
          s.conn.close();
          await s.proc.dispose();
        } catch {
          // already gone
        }
      }),
    );
  }
}

/** Passes bytes through untouched and reports every complete line it saw. */
class LineTap extends TransformStream<Uint8Array, Uint8Array> {
  constructor(onLine: (line: string) => void) {
    const decoder = new TextDecoder();
    let buf = '';
    super({
      transform(chunk, ctl) {
        buf += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl).replace(/\r$/, '');
          buf = buf.slice(nl + 1);
          if (line.trim()) {
            try {
              onLine(line);
            } catch (err) {
              console.error('[test-server] line tap failed:', err);
            }
          }
        }
        ctl.enqueue(chunk);
      },
    });
  }
}
