/**
 * The server's brain: conversations, turns and the ask flow, as Fountain runs them. It returns records and results;
 * the routes turn them into HTTP (./routes, ./views).
 *
 * The server is the ACP *client* of each conversation's agent (./agentSessions). A `session/request_permission` gets
 * the effective verdict (agent policy clamped by the launch policy, computed live); `auto_*` is answered at once,
 * `ask` is held under a minted id `<jsonrpc id>.<16 hex>`, stored on the `acp` stream, announced by `request`/`started`,
 * and resolved by the first answer, the in-turn ceiling, or the end of the turn. A turn that ends `waiting` turns its
 * held request into a detached one with a deadline; answering (or the once-a-minute sweep) opens a resume turn whose
 * prompt is the one-line `fountain/permission_answer` JSON.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import * as path from 'node:path';
import {
  autoOutcome,
  checkNarrows,
  effectiveTimeoutSec,
  mergePolicies,
  toolLabel,
  validatePolicy,
  verdictOf,
} from '../../src/policy';
import { blocksForUpdate, permissionRequestBlock, type Block } from './blocks';
import type { Clock, TimerHandle } from './clock';
import type { AgentDefinition } from './agents/types';
import { AgentSessions, type PermissionResponse } from './agentSessions';
import type { SseHub } from './sse';
import {
  newKey,
  type AgentRec,
  type ConversationRec,
  type EventRec,
  type RequestRec,
  type Store,
  type TurnRec,
  type UserRec,
} from './store';

export interface EngineOptions {
  clock: Clock;
  hub: SseHub;
  agents: Map<string, AgentDefinition>;
  /** Root for conversation working directories. */
  workDir: string;
  /** In-turn ceiling, seconds (default 300). */
  ceilingSec: number;
  /** Detached sweep period, ms of clock time (default 60 000). */
  sweepMs: number;
  log: (msg: string) => void;
}

interface Held {
  rec: RequestRec;
  respond: (r: PermissionResponse) => void;
  timer?: TimerHandle;
}

interface Queued {
  prompt: string;
  origin: 'user' | 'autonomous';
  clientRequestId: string | null;
}

/** Why `createConversation` made no conversation. */
export type CreateRefusal =
  | { refused: 'agent_blank' | 'agent_unknown' | 'labels_invalid' | 'policy_unenforceable' }
  | { refused: 'policy_invalid'; errors: string[] }
  | { refused: 'policy_widens'; key: string };

/** How an answer ended: `answered` (delivered, or a resume turn opened) or why it was refused. */
export type AnswerResult =
  | 'answered'
  | 'sprite_may_not_answer'
  | 'not_found'
  | 'resolved'
  | 'option_id_required'
  | 'unknown_option'
  | 'conversation_busy'
  | 'account_suspended'
  | 'insufficient_credits'
  | 'not_delivered';

const iso = (ms: number) => new Date(ms).toISOString();
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class Engine {
  private readonly held = new Map<string, Held>();
  private readonly sessions: AgentSessions;
  private readonly queues = new Map<string, Queued[]>();
  private readonly running = new Set<string>();
  private readonly currentTurn = new Map<string, TurnRec>();
  private sweepTimer: TimerHandle | undefined;
  /** Knob: the next N resume turns fail to open (409 permission_answer_not_delivered). */
  resumeFailures = 0;
  private disposed = false;

  constructor(
    public store: Store,
    private readonly opts: EngineOptions,
  ) {
    this.sessions = new AgentSessions(opts.agents, opts.log, {
      onPermission: (conv, params, jsonrpcId) => this.onPermission(conv, params, jsonrpcId),
      onLine: (conv, line) => this.onAgentLine(conv, line),
      onSessionId: (conv) => this.store.saveConv(conv),
    });
    this.sweepTimer = opts.clock.every(opts.sweepMs, () => this.sweep());
  }

  get clock(): Clock {
    return this.opts.clock;
  }

  now(): number {
    return this.opts.clock.now();
  }

  // ---------------------------------------------------------------------------------------------- events

  emit(
    conv: ConversationRec,
    e: {
      kind: 'output' | 'stage';
      stream: string;
      data: string;
      stage?: string | null;
      state?: string | null;
      turn_id?: string | null;
      blocks?: Block[];
    },
  ): EventRec {
    const ev = this.store.appendEvent({
      conversation_id: conv.id,
      user_id: conv.user_id,
      kind: e.kind,
      stream: e.stream,
      data: e.data,
      stage: e.stage ?? null,
      state: e.state ?? null,
      turn_id: e.turn_id ?? null,
      ts: iso(this.now()),
      duration_ms: null,
      ...(e.blocks ? { blocks: e.blocks } : {}),
    });
    this.opts.hub.publish(ev);
    return ev;
  }

  stage(
    conv: ConversationRec,
    stage: string,
    state: string,
    data: Record<string, unknown>,
    turnId: string | null,
  ): EventRec {
    return this.emit(conv, {
      kind: 'stage',
      stream: 'stage',
      data: JSON.stringify(data),
      stage,
      state,
      turn_id: turnId,
    });
  }

  touch(conv: ConversationRec, changes: Partial<ConversationRec> = {}): void {
    Object.assign(conv, changes);
    const now = this.now();
    conv.updated_ms = now;
    conv.updated_at = iso(now);
    conv.update_seq = this.store.nextUpdateSeq();
    this.store.saveConv(conv);
    this.opts.hub.conversationsChanged(conv.user_id);
  }

  // ---------------------------------------------------------------------------------------------- conversations

  /** Why a launch policy or labels were refused, or the checked launch policy and labels. */
  private checkLaunch(
    agent: AgentRec,
    body: Record<string, unknown>,
  ): CreateRefusal | { launch: Record<string, unknown> | null; labels: Record<string, string> } {
    let launch: Record<string, unknown> | null = null;
    if (body.permission_policy !== undefined && body.permission_policy !== null) {
      const v = validatePolicy(body.permission_policy);
      if (!v.ok) {
        return { refused: 'policy_invalid', errors: v.errors };
      }
      launch = body.permission_policy as Record<string, unknown>;
      if (
        agent.runtime === 'opencode' &&
        Object.entries(launch).some(([k, val]) => k !== 'ask_timeout' && val !== 'auto_allow')
      ) {
        return { refused: 'policy_unenforceable' };
      }
      const n = checkNarrows(agent.permission_policy, launch, { ceilingSec: this.opts.ceilingSec });
      if (!n.ok) {
        return { refused: 'policy_widens', key: n.key };
      }
    }
    let labels: Record<string, string> = {};
    if (body.labels !== undefined && body.labels !== null) {
      if (!isObj(body.labels) || Object.values(body.labels).some((v) => typeof v !== 'string')) {
        return { refused: 'labels_invalid' };
      }
      labels = body.labels as Record<string, string>;
    }
    return { launch, labels };
  }

  /** POST /api/conversations (also the control API's "as another client"): the new conversation or why not. */
  createConversation(
    user: UserRec,
    body: Record<string, unknown>,
    source: 'api' | 'ui' = 'api',
  ): ConversationRec | CreateRefusal {
    const agentId = body.agent_id;
    if (typeof agentId !== 'string' || agentId === '') {
      return { refused: 'agent_blank' };
    }
    const agent = this.store.agents.get(agentId);
    const def = this.opts.agents.get(agentId);
    if (!agent || !def) {
      return { refused: 'agent_unknown' };
    }
    const checked = this.checkLaunch(agent, body);
    if ('refused' in checked) {
      return checked;
    }
    const { launch, labels } = checked;
    const prompt = typeof body.prompt === 'string' && body.prompt !== '' ? body.prompt : null;
    const id = randomUUID();
    const now = this.now();
    const cwd = path.join(this.opts.workDir, id);
    mkdirSync(cwd, { recursive: true });
    const conv: ConversationRec = {
      id,
      user_id: user.id,
      agent_id: agent.id,
      title: typeof body.title === 'string' ? body.title : prompt ? prompt.split('\n')[0].slice(0, 80) : null,
      first_prompt: prompt,
      status: 'pending',
      runtime: agent.runtime,
      permission_policy: launch,
      labels,
      source,
      channel_id: typeof body.channel_id === 'string' ? body.channel_id : null,
      sandbox_id: randomUUID(),
      runtime_session_id: null,
      turn_count: 0,
      cwd,
      inserted_at: iso(now),
      updated_at: iso(now),
      updated_ms: now,
      update_seq: this.store.nextUpdateSeq(),
      last_active_at: null,
    };
    this.store.saveConv(conv);
    this.store.saveKey({ key: newKey('ftn_sprite_'), user_id: user.id, scope: `sprite:${id}` });
    this.opts.hub.conversationsChanged(user.id);
    void this.sessions.ensure(conv).then(
      () => {
        if (conv.status === 'pending') {
          this.touch(conv, { status: 'idle' });
        }
      },
      () => undefined,
    );
    if (prompt) {
      this.enqueue(conv, prompt, 'user', typeof body.client_request_id === 'string' ? body.client_request_id : null);
    }
    return conv;
  }

  spriteKeyOf(conversationId: string): string | undefined {
    for (const k of this.store.keys.values()) {
      if (k.scope === `sprite:${conversationId}` && !k.revoked) {
        return k.key;
      }
    }
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------- prompts & turns

  /**
   * POST .../prompts: a prompt while a turn runs waits in the queue; either way the answer is `queued`. A
   * `client_request_id` the conversation already has (a turn carries it, or a prompt waiting with it) is a retry:
   * nothing new is queued and the answer is the same. False then.
   */
  enqueue(
    conv: ConversationRec,
    prompt: string,
    origin: 'user' | 'autonomous',
    clientRequestId: string | null,
  ): boolean {
    const q = this.queues.get(conv.id) ?? [];
    if (clientRequestId !== null && this.hasClientRequest(conv, q, clientRequestId)) {
      return false;
    }
    q.push({ prompt, origin, clientRequestId });
    this.queues.set(conv.id, q);
    this.pump(conv);
    return true;
  }

  /** Drops every prompt still waiting behind a running turn (running turns go on); how many were dropped. */
  dropQueued(): number {
    let n = 0;
    for (const q of this.queues.values()) {
      n += q.length;
    }
    this.queues.clear();
    return n;
  }

  private hasClientRequest(conv: ConversationRec, queued: readonly Queued[], clientRequestId: string): boolean {
    return (
      queued.some((x) => x.clientRequestId === clientRequestId) ||
      this.store.turnsOf(conv.id).some((t) => t.client_request_id === clientRequestId)
    );
  }

  isBusy(conv: ConversationRec): boolean {
    return this.running.has(conv.id) || conv.status === 'running';
  }

  private pump(conv: ConversationRec): void {
    if (this.disposed || this.running.has(conv.id)) {
      return;
    }
    const q = this.queues.get(conv.id);
    const next = q?.shift();
    if (!next) {
      return;
    }
    this.startTurn(conv, next);
  }

  /** Opens the turn synchronously (turn row, `turn`/`started`, status running) and runs it in the background. */
  private startTurn(conv: ConversationRec, q: Queued): TurnRec {
    this.running.add(conv.id);
    const now = this.now();
    const turn: TurnRec = {
      id: randomUUID(),
      conversation_id: conv.id,
      turn_number: conv.turn_count + 1,
      prompt: q.prompt,
      status: 'running',
      client_request_id: q.clientRequestId,
      origin: q.origin,
      waiting: false,
      stop_reason: null,
      exit_code: null,
      limit_reason: null,
      permission_deadline: null,
      started_at: iso(now),
      ended_at: null,
      inserted_at: iso(now),
    };
    this.store.saveTurn(turn);
    this.currentTurn.set(conv.id, turn);
    this.touch(conv, { status: 'running', turn_count: turn.turn_number, last_active_at: iso(now) });
    const data: Record<string, unknown> = { turn_number: turn.turn_number, turn_id: turn.id };
    if (q.clientRequestId) {
      data.client_request_id = q.clientRequestId;
    }
    this.stage(conv, 'turn', 'started', data, turn.id);
    void this.runTurn(conv, turn);
    return turn;
  }

  private async runTurn(conv: ConversationRec, turn: TurnRec): Promise<void> {
    let stop: string | undefined;
    let failure: string | undefined;
    try {
      const s = await this.sessions.ensure(conv);
      const r = await s.conn.agent.request<Record<string, unknown>>('session/prompt', {
        sessionId: s.sessionId,
        prompt: [{ type: 'text', text: turn.prompt }],
      });
      stop = typeof r?.stopReason === 'string' ? r.stopReason : 'end_turn';
    } catch (err) {
      failure = (err as Error)?.message ?? String(err);
    }
    // Let permission handlers for lines that arrived before the prompt's answer register their holds.
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setImmediate(r));
    }
    if (this.disposed || this.currentTurn.get(conv.id) !== turn) {
      return;
    }
    this.finishTurn(conv, turn, stop, failure);
  }

  private finishTurn(
    conv: ConversationRec,
    turn: TurnRec,
    stop: string | undefined,
    failure: string | undefined,
  ): void {
    const mine = [...this.held.values()].filter((h) => h.rec.conversation_id === conv.id && h.rec.turn_id === turn.id);
    let detached: Held | undefined;
    if (stop === 'waiting' && mine.length) {
      detached = mine[mine.length - 1];
    }
    for (const h of mine) {
      if (h !== detached) {
        this.resolveHeld(h, 'turn_ended', null, { outcome: { outcome: 'cancelled' } });
      }
    }
    const now = this.now();
    turn.ended_at = iso(now);
    const data: Record<string, unknown> = { turn_id: turn.id, turn_number: turn.turn_number };
    let state: string;
    if (failure !== undefined) {
      turn.status = 'failed';
      turn.exit_code = 1;
      data.stop_reason = null;
      data.error = failure;
      state = 'failed';
    } else if (stop === 'cancelled') {
      turn.status = 'interrupted';
      turn.stop_reason = 'cancelled';
      data.stop_reason = 'cancelled';
      state = 'interrupted';
    } else if (stop === 'refusal') {
      turn.status = 'failed';
      turn.stop_reason = 'refusal';
      data.stop_reason = 'refusal';
      state = 'failed';
    } else {
      turn.status = 'done';
      turn.stop_reason = stop ?? 'end_turn';
      turn.exit_code = 0;
      data.stop_reason = turn.stop_reason;
      state = 'done';
    }
    if (detached) {
      const rec = detached.rec;
      this.held.delete(this.heldKey(rec));
      this.opts.clock.cancel(detached.timer);
      const agent = this.store.agents.get(conv.agent_id);
      const policy = mergePolicies(agent?.permission_policy, conv.permission_policy);
      const sec = effectiveTimeoutSec({
        detached: true,
        metaTimeout: metaTimeout(rec.params),
        askTimeout: policy.ask_timeout,
        ceilingSec: this.opts.ceilingSec,
      });
      const deadline = Math.floor((now + sec * 1000) / 1000) * 1000;
      rec.state = 'detached';
      rec.deadline = deadline;
      rec.turn_id = turn.id;
      this.store.saveReq(rec);
      turn.waiting = true;
      turn.permission_deadline = iso(deadline);
      data.waiting = true;
      data.waiting_request_id = rec.request_id;
      data.waiting_deadline = iso(deadline);
    }
    this.store.saveTurn(turn);
    this.currentTurn.delete(conv.id);
    this.running.delete(conv.id);
    this.stage(conv, 'turn', state, data, turn.id);
    if (conv.status === 'running') {
      this.touch(conv, { status: 'idle', last_active_at: iso(now) });
    } else {
      this.touch(conv);
    }
    this.pump(conv);
  }

  // ---------------------------------------------------------------------------------------------- agent output

  /** Every agent→client `session/update` line is stored verbatim on the `acp` stream. */
  private onAgentLine(conv: ConversationRec, line: string): void {
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      this.emit(conv, {
        kind: 'output',
        stream: 'stderr',
        data: line.slice(0, 4000),
        turn_id: this.currentTurn.get(conv.id)?.id ?? null,
      });
      return;
    }
    if (isObj(msg) && msg.method === 'session/update') {
      this.emit(conv, {
        kind: 'output',
        stream: 'acp',
        data: line,
        turn_id: this.currentTurn.get(conv.id)?.id ?? null,
        blocks: blocksForUpdate(msg),
      });
    }
  }

  // ---------------------------------------------------------------------------------------------- the ask flow

  private heldKey(r: RequestRec): string {
    return `${r.conversation_id}\u0000${r.request_id}`;
  }

  private onPermission(
    conv: ConversationRec,
    params: Record<string, unknown>,
    jsonrpcId: string | number,
  ): Promise<PermissionResponse> {
    const turn = this.currentTurn.get(conv.id);
    const options = Array.isArray(params.options) ? params.options.filter(isObj) : [];
    const tc = isObj(params.toolCall) ? params.toolCall : {};
    const agent = this.store.agents.get(conv.agent_id);
    const policy = mergePolicies(agent?.permission_policy, conv.permission_policy);
    const title = typeof tc.title === 'string' ? tc.title : null;
    const kind = typeof tc.kind === 'string' ? tc.kind : null;
    const { verdict } = verdictOf(policy, { title, kind });
    const optionLikes = options.map((o) => ({ optionId: String(o.optionId), kind: String(o.kind) }));
    if (verdict !== 'ask' || !turn) {
      const v = verdict === 'ask' ? 'auto_deny' : verdict;
      return Promise.resolve({ outcome: autoOutcome(v, optionLikes) });
    }
    const requestId = `${String(jsonrpcId)}.${randomBytes(8).toString('hex')}`;
    const now = this.now();
    const rec: RequestRec = {
      conversation_id: conv.id,
      request_id: requestId,
      turn_id: turn.id,
      jsonrpc_id: jsonrpcId,
      tool: toolLabel({ title, kind }),
      options,
      params,
      meta_timeout: metaTimeout(params) ?? null,
      asked_at: now,
      deadline: now + this.opts.ceilingSec * 1000,
      state: 'held',
    };
    this.store.saveReq(rec);
    const line = JSON.stringify({ jsonrpc: '2.0', id: requestId, method: 'session/request_permission', params });
    this.emit(conv, {
      kind: 'output',
      stream: 'acp',
      data: line,
      turn_id: turn.id,
      blocks: [permissionRequestBlock(requestId, params)],
    });
    const policyForDetach = effectiveTimeoutSec({
      detached: true,
      metaTimeout: metaTimeout(params),
      askTimeout: policy.ask_timeout,
      ceilingSec: this.opts.ceilingSec,
    });
    this.stage(
      conv,
      'request',
      'started',
      {
        request_id: requestId,
        timeout_ms: this.opts.ceilingSec * 1000,
        detached_timeout_ms: policyForDetach * 1000,
        tool: rec.tool,
        options,
      },
      null,
    );
    return new Promise<PermissionResponse>((resolve) => {
      const h: Held = { rec, respond: resolve };
      h.timer = this.opts.clock.at(now + this.opts.ceilingSec * 1000, () => {
        if (this.held.get(this.heldKey(rec)) === h) {
          this.resolveHeld(h, 'timeout', null, {
            outcome: autoOutcome('auto_deny', optionLikes),
          });
        }
      });
      this.held.set(this.heldKey(rec), h);
    });
  }

  private resolveHeld(h: Held, outcome: string, optionId: string | null, response: PermissionResponse): void {
    const rec = h.rec;
    this.held.delete(this.heldKey(rec));
    this.opts.clock.cancel(h.timer);
    rec.state = 'resolved';
    rec.outcome = outcome;
    rec.option_id = optionId;
    this.store.saveReq(rec);
    const conv = this.store.conversations.get(rec.conversation_id);
    if (conv) {
      this.stage(conv, 'request', 'done', { request_id: rec.request_id, outcome, option_id: optionId }, null);
    }
    h.respond(response);
  }

  /**
   * POST /api/conversations/{id}/requests/{request_id}, after auth, 406 and the body cast.
   * Order: sprite → lookup (not_found) → status (resolved) → detached or in-turn branch.
   */
  answer(scope: string, user: UserRec, conversationId: string, requestId: string, optionId: unknown): AnswerResult {
    if (scope.startsWith('sprite:')) {
      return 'sprite_may_not_answer';
    }
    const conv = this.store.conversations.get(conversationId);
    if (!conv || conv.user_id !== user.id) {
      return 'not_found';
    }
    if (conv.status !== 'idle' && conv.status !== 'running') {
      return 'resolved';
    }
    const rec = this.store.request(conv.id, requestId);
    if (rec?.state === 'detached') {
      return this.answerDetached(conv, rec, user, optionId);
    }
    const h = rec ? this.held.get(this.heldKey(rec)) : undefined;
    if (!rec || !h) {
      return 'resolved';
    }
    const bad = optionError(rec, optionId);
    if (bad) {
      return bad;
    }
    this.resolveHeld(h, 'answered', optionId as string, {
      outcome: { outcome: 'selected', optionId: optionId as string },
    });
    return 'answered';
  }

  private answerDetached(conv: ConversationRec, rec: RequestRec, user: UserRec, optionId: unknown): AnswerResult {
    const bad = optionError(rec, optionId);
    if (bad) {
      return bad;
    }
    if (this.isBusy(conv)) {
      return 'conversation_busy';
    }
    if (user.suspended) {
      return 'account_suspended';
    }
    if (user.no_credits) {
      return 'insufficient_credits';
    }
    return this.resolveDetached(conv, rec, 'answered', optionId as string) ? 'answered' : 'not_delivered';
  }

  /** Resolve a detached request and open its resume turn. Returns false when the resume turn could not open. */
  private resolveDetached(
    conv: ConversationRec,
    rec: RequestRec,
    outcome: 'answered' | 'timeout',
    optionId: string | null,
  ): boolean {
    const at = this.now();
    rec.state = 'resolved';
    rec.outcome = outcome;
    rec.option_id = optionId;
    this.store.saveReq(rec);
    this.stage(
      conv,
      'request',
      'done',
      { request_id: rec.request_id, outcome, option_id: optionId, detached: true },
      null,
    );
    this.touch(conv);
    if (this.resumeFailures > 0) {
      this.resumeFailures--;
      return false;
    }
    const prompt = JSON.stringify({
      'fountain/permission_answer': {
        request_id: rec.request_id,
        tool: rec.tool,
        outcome,
        option_id: optionId,
        answered_at: iso(at),
      },
    });
    const q = this.queues.get(conv.id) ?? [];
    q.unshift({ prompt, origin: 'user', clientRequestId: null });
    this.queues.set(conv.id, q);
    this.pump(conv);
    return true;
  }

  /** The once-a-minute detached sweep: expire due requests with the agent's own reject option. */
  sweep(): void {
    const now = this.now();
    for (const rec of [...this.store.requests.values()]) {
      if (rec.state !== 'detached' || rec.deadline === null || rec.deadline > now) {
        continue;
      }
      const conv = this.store.conversations.get(rec.conversation_id);
      if (!conv) {
        continue;
      }
      if (conv.status === 'failed' || conv.status === 'terminated') {
        rec.state = 'resolved';
        rec.outcome = 'timeout';
        rec.option_id = null;
        this.store.saveReq(rec);
        continue;
      }
      const user = this.store.users.get(conv.user_id);
      if (this.isBusy(conv) || user?.suspended || user?.no_credits) {
        continue; // retried at the next sweep
      }
      const o = autoOutcome(
        'auto_deny',
        rec.options.map((x) => ({ optionId: String(x.optionId), kind: String(x.kind) })),
      );
      this.resolveDetached(conv, rec, 'timeout', o.outcome === 'selected' ? o.optionId : null);
    }
  }

  /** Interrupt the running turn: session/cancel, and every held request answered `cancelled` (ACP's rule). */
  async interrupt(conv: ConversationRec): Promise<boolean> {
    const turn = this.currentTurn.get(conv.id);
    const s = this.sessions.get(conv.id);
    if (!turn || !s) {
      return false;
    }
    const session = await s;
    await session.conn.agent.notify('session/cancel', { sessionId: session.sessionId });
    for (const h of [...this.held.values()]) {
      if (h.rec.conversation_id === conv.id && h.rec.turn_id === turn.id) {
        this.resolveHeld(h, 'turn_ended', null, { outcome: { outcome: 'cancelled' } });
      }
    }
    return true;
  }

  /** After a restart: turns that were running died with the old process; their held requests ended with them. */
  recover(): void {
    for (const turn of this.store.turns.values()) {
      if (turn.status !== 'running') {
        continue;
      }
      const conv = this.store.conversations.get(turn.conversation_id);
      if (!conv) {
        continue;
      }
      for (const rec of this.store.requests.values()) {
        if (rec.conversation_id === conv.id && rec.turn_id === turn.id && rec.state === 'held') {
          rec.state = 'resolved';
          rec.outcome = 'turn_ended';
          rec.option_id = null;
          this.store.saveReq(rec);
          this.stage(
            conv,
            'request',
            'done',
            { request_id: rec.request_id, outcome: 'turn_ended', option_id: null },
            null,
          );
        }
      }
      turn.status = 'failed';
      turn.ended_at = iso(this.now());
      this.store.saveTurn(turn);
      this.stage(
        conv,
        'turn',
        'failed',
        { turn_id: turn.id, turn_number: turn.turn_number, stop_reason: null, error: 'server restarted' },
        turn.id,
      );
    }
    for (const conv of this.store.conversations.values()) {
      if (conv.status === 'running' || conv.status === 'pending') {
        this.touch(conv, { status: 'idle' });
      }
    }
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.opts.clock.cancel(this.sweepTimer);
    for (const h of this.held.values()) {
      this.opts.clock.cancel(h.timer);
    }
    this.held.clear();
    await this.sessions.disposeAll();
  }

  /** For tests and the control API: is the request currently held in a live turn? */
  isHeld(conversationId: string, requestId: string): boolean {
    return this.held.has(`${conversationId}\u0000${requestId}`);
  }
}

function metaTimeout(params: Record<string, unknown>): unknown {
  const meta = params._meta;
  if (!isObj(meta) || !isObj(meta.fountain)) {
    return undefined;
  }
  return meta.fountain.timeout;
}

function optionError(rec: RequestRec, optionId: unknown): AnswerResult | undefined {
  if (typeof optionId !== 'string' || optionId === '') {
    return 'option_id_required';
  }
  if (!rec.options.some((o) => o.optionId === optionId)) {
    return 'unknown_option';
  }
  return undefined;
}
