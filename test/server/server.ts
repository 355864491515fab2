/**
 * The local Fountain-compatible server: `node:http` on 127.0.0.1, the documented routes and statuses, SSE, and a
 * control API (`/_control/*`, guarded by a control token) for fault knobs. See ./README.md for the reference.
 *
 * This file composes the parts: ./lifecycle (state file, listener), ./router, ./routes (the API by family),
 * ./control (faults, request log, clock, latency), ./engine (conversations, turns, the ask flow) and ./views.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IN_TURN_CEILING_SEC } from '../../src/policy';
import { agentRegistry } from './agents/registry';
import type { AgentDefinition } from './agents/types';
import { ServerClock } from './clock';
import { userByName, keyOf, type ServerContext } from './context';
import { controlRoutes } from './control';
import { FaultKnobs, type FailRule } from './control/faults';
import { LatencyKnob } from './control/latency';
import { RequestLog } from './control/requestLog';
import { Engine, type EngineOptions } from './engine';
import { invalid, notFound, type HttpResult } from './http';
import { HttpListener, openState } from './lifecycle';
import { createRouter } from './router';
import { apiRoutes } from './routes';
import { createdHttp } from './routes/results';
import { runScenario } from './scenarios';
import { SandboxKnobs } from './sandboxes';
import { SseHub } from './sse';
import type { Store } from './store';

export type { FailRule } from './control/faults';
export type { HttpResult } from './http';

export interface ServerOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** `real` (default) or `manual`, or a clock you made. */
  clock?: 'real' | 'manual' | ServerClock;
  /** Start time (epoch ms) for the clock. */
  now?: number;
  scenario?: string;
  /** Append-only JSONL state file; an existing file is loaded (a restart keeps event ids and open requests). */
  stateFile?: string;
  /** Root of the conversations' working directories (default: a fresh temp dir, removed on close). */
  workDir?: string;
  /** Heartbeat comment period in ms (default 15 000). */
  heartbeatMs?: number;
  /** In-turn ceiling in seconds (default 300). */
  ceilingSec?: number;
  /** Detached sweep period in clock ms (default 60 000). */
  sweepMs?: number;
  /** Debounce of `event: conversations` in ms (default 50). */
  debounceMs?: number;
  /** Load real agents from ./agents/real when present (default true). */
  real?: boolean;
  /** Extra agents (tests). */
  agents?: AgentDefinition[];
  /** Fixed keys instead of random ones. */
  keys?: { alice?: string; bob?: string };
  log?: (msg: string) => void;
  /** Wall-clock delay in ms before every API response (not SSE streams, not the control API). Default 0. */
  latencyMs?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly apiKey: string;
  readonly apiKey2: string;
  readonly revokedKey: string;
  readonly expiredKey: string;
  readonly controlUrl: string;
  readonly controlToken: string;
  readonly clock: ServerClock;
  readonly engine: Engine;
  readonly store: Store;
  readonly hub: SseHub;
  /** The ready line's object. */
  info(): Record<string, unknown>;
  spriteKey(conversationId: string): string | undefined;
  cwdOf(conversationId: string): string | undefined;
  /** Prompts the conversation's scripted agent received, in order. */
  agentPrompts(conversationId: string): string[];
  // fault knobs, also on the control API
  advance(ms: number): number;
  abortStreams(): number;
  stallStreams(stalled: boolean): void;
  dropStream(id?: number, how?: 'abort' | 'end'): number | null;
  failNext(rule: Partial<FailRule> & { status: number }): void;
  clearFailures(): void;
  restart(opts?: { mode?: 'soft' | 'hard'; downMs?: number }): Promise<void>;
  setAccount(user: string, flags: { suspended?: boolean; no_credits?: boolean; unavailable?: boolean }): void;
  failResumes(count: number): void;
  /** Delay (wall-clock ms) before every API response; SSE streams and the control API are not delayed. */
  readonly latencyMs: number;
  setLatency(ms: number): void;
  /** Sets a sandbox's knob (conversation id): the body of `POST /_control/sandboxes/{id}`; the problems, if any. */
  setSandbox(conversationId: string, body: Record<string, unknown>): string[];
  /** API requests in flight now and the most at once since start or the last reset (SSE streams and control excluded). */
  inFlight(): { max: number; current: number };
  /** Restarts the maximum from the requests in flight now. */
  resetInFlight(): void;
  /** Create a conversation (and send its prompt) as another client would. */
  createConversation(body: Record<string, unknown>, user?: string): HttpResult;
  sendPrompt(conversationId: string, prompt: string): HttpResult;
  /** Drops the prompts waiting behind running turns (the soak's load is over); how many. */
  dropQueuedPrompts(): number;
  userId(name: string): string | undefined;
  close(): Promise<void>;
}

interface Parts {
  clock: ServerClock;
  hub: SseHub;
  store: Store;
  engine: Engine;
  engineOpts: EngineOptions;
  workDir: string;
  ownWorkDir: boolean;
  log: (msg: string) => void;
}

/** The running server: its programmatic face (RunningServer) and what its routes read (ServerContext). */
class LocalFountainServer implements RunningServer, ServerContext {
  readonly faults = new FaultKnobs();
  readonly latency = new LatencyKnob();
  readonly sandboxes = new SandboxKnobs();
  readonly requestLog: RequestLog;
  readonly controlToken = 'ctl_' + randomBytes(16).toString('hex');
  readonly clock: ServerClock;
  readonly hub: SseHub;
  readonly log: (msg: string) => void;
  private currentStore: Store;
  private currentEngine: Engine;
  private readonly listener: HttpListener;

  constructor(
    private readonly parts: Parts,
    port: number,
  ) {
    this.clock = parts.clock;
    this.hub = parts.hub;
    this.log = parts.log;
    this.currentStore = parts.store;
    this.currentEngine = parts.engine;
    this.requestLog = new RequestLog(parts.clock);
    const router = createRouter(this, [...apiRoutes(this), ...controlRoutes(this)], this.controlToken);
    this.listener = new HttpListener(port, router, parts.log);
  }

  listen(): Promise<void> {
    return this.listener.listen();
  }

  get server(): RunningServer {
    return this;
  }
  get store(): Store {
    return this.currentStore;
  }
  get engine(): Engine {
    return this.currentEngine;
  }
  get port(): number {
    return this.listener.boundPort;
  }
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }
  get controlUrl(): string {
    return `${this.url}/_control`;
  }
  get apiKey(): string {
    return keyOf(this.store, 'user-alice', 'full');
  }
  get apiKey2(): string {
    return keyOf(this.store, 'user-bob', 'full');
  }
  get revokedKey(): string {
    return keyOf(this.store, 'user-alice', 'revoked');
  }
  get expiredKey(): string {
    return keyOf(this.store, 'user-alice', 'expired');
  }

  info(): Record<string, unknown> {
    const convs = [...this.store.conversations.values()].filter((c) => c.user_id === 'user-alice');
    const first = convs[0];
    return {
      url: this.url,
      apiKey: this.apiKey,
      apiKey2: this.apiKey2,
      revokedKey: this.revokedKey,
      expiredKey: this.expiredKey,
      controlUrl: this.controlUrl,
      controlToken: this.controlToken,
      agents: [...this.store.agents.keys()],
      conversations: convs.map((c) => c.id),
      ...(first ? { spriteKey: this.engine.spriteKeyOf(first.id), spriteConversationId: first.id } : {}),
      clock: this.clock.mode,
      workDir: this.parts.workDir,
    };
  }

  spriteKey(id: string): string | undefined {
    return this.engine.spriteKeyOf(id);
  }
  cwdOf(id: string): string | undefined {
    return this.store.conversations.get(id)?.cwd;
  }
  agentPrompts(id: string): string[] {
    const c = this.store.conversations.get(id);
    if (!c) {
      return [];
    }
    try {
      return readFileSync(path.join(c.cwd, '.fountain-agent-prompts.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { text: string }).text);
    } catch {
      return [];
    }
  }

  advance(ms: number): number {
    return this.clock.advance(ms);
  }
  abortStreams(): number {
    return this.hub.abortAll();
  }
  stallStreams(stalled: boolean): void {
    this.hub.setStalled(stalled);
  }
  dropStream(id?: number, how: 'abort' | 'end' = 'abort'): number | null {
    const conns = this.hub.list();
    const target = id !== undefined ? this.hub.find(id) : this.hub.find(conns[conns.length - 1]?.id ?? -1);
    if (!target) {
      return null;
    }
    if (how === 'end') {
      target.end();
    } else {
      target.abort();
    }
    return target.id;
  }
  failNext(rule: Partial<FailRule> & { status: number }): void {
    this.faults.failNext(rule);
  }
  clearFailures(): void {
    this.faults.clear();
  }

  async restart(o: { mode?: 'soft' | 'hard'; downMs?: number } = {}): Promise<void> {
    await this.closeHttp();
    this.hub.setStalled(false);
    if (o.mode === 'hard') {
      await this.engine.dispose();
      this.currentStore = this.store.reload();
      this.currentEngine = new Engine(this.currentStore, this.parts.engineOpts);
      this.currentEngine.recover();
    }
    if (o.downMs) {
      await new Promise((r) => setTimeout(r, o.downMs));
    }
    await this.listener.listen();
  }

  setAccount(user: string, flags: { suspended?: boolean; no_credits?: boolean; unavailable?: boolean }): void {
    const u = userByName(this.store, user);
    if (!u) {
      throw new Error(`no user ${user}`);
    }
    for (const [k, v] of Object.entries(flags)) {
      if (typeof v === 'boolean') {
        (u as unknown as Record<string, unknown>)[k] = v;
      }
    }
    this.store.saveUser(u);
  }
  failResumes(count: number): void {
    this.engine.resumeFailures = Math.max(0, Math.floor(count));
  }
  get latencyMs(): number {
    return this.latency.ms;
  }
  setSandbox(id: string, body: Record<string, unknown>): string[] {
    const c = this.store.conversations.get(id);
    return c ? this.sandboxes.set(c, body) : [`no conversation ${id}`];
  }

  setLatency(ms: number): void {
    this.latency.set(ms);
  }
  inFlight(): { max: number; current: number } {
    return this.latency.inFlight();
  }
  resetInFlight(): void {
    this.latency.resetInFlight();
  }

  createConversation(body: Record<string, unknown>, user?: string): HttpResult {
    const u = userByName(this.store, user);
    if (!u) {
      return { status: 404, body: { error: 'not_found' } };
    }
    return createdHttp(this.store, this.engine.createConversation(u, body, 'ui'));
  }
  sendPrompt(id: string, prompt: string): HttpResult {
    const c = this.store.conversations.get(id);
    if (!c) {
      return notFound;
    }
    if (!prompt) {
      return invalid('prompt', "can't be blank");
    }
    this.engine.enqueue(c, prompt, 'user', null);
    return { status: 202, body: { status: 'queued' } };
  }
  dropQueuedPrompts(): number {
    return this.engine.dropQueued();
  }
  userId(name: string): string | undefined {
    return userByName(this.store, name)?.id;
  }

  private async closeHttp(): Promise<void> {
    this.hub.closeAll();
    await this.listener.close();
  }

  async close(): Promise<void> {
    await this.closeHttp();
    await this.engine.dispose();
    this.clock.dispose();
    if (this.parts.ownWorkDir) {
      rmSync(this.parts.workDir, { recursive: true, force: true });
    }
  }
}

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const log = opts.log ?? ((m: string) => console.error(`[test-server] ${m}`));
  const clock =
    opts.clock instanceof ServerClock
      ? opts.clock
      : new ServerClock(opts.clock === 'manual' ? 'manual' : 'real', opts.now);
  const ownWorkDir = !opts.workDir;
  const workDir = opts.workDir ?? mkdtempSync(path.join(os.tmpdir(), 'fountain-test-server-'));
  mkdirSync(workDir, { recursive: true });
  const agents = await agentRegistry({ real: opts.real, log });
  for (const a of opts.agents ?? []) {
    agents.set(a.id, a);
  }
  const hub = new SseHub(opts.heartbeatMs ?? 15_000, opts.debounceMs ?? 50);
  const { store, fresh } = openState(opts.stateFile, clock.now(), opts.keys, agents.values());
  const engineOpts: EngineOptions = {
    clock,
    hub,
    agents,
    workDir,
    ceilingSec: opts.ceilingSec ?? IN_TURN_CEILING_SEC,
    sweepMs: opts.sweepMs ?? 60_000,
    log,
  };
  const engine = new Engine(store, engineOpts);
  if (!fresh) {
    engine.recover();
  }
  const server = new LocalFountainServer(
    { clock, hub, store, engine, engineOpts, workDir, ownWorkDir, log },
    opts.port ?? 0,
  );
  await server.listen();
  if (opts.latencyMs !== undefined) {
    server.setLatency(opts.latencyMs);
  }
  if (fresh && opts.scenario) {
    await runScenario(opts.scenario, server);
  }
  return server;
}
