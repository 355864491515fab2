/** The wire shapes of the server's records, as Fountain's REST API shows them. */
import type { AgentRec, ConversationRec, EventRec, Store, TurnRec } from './store';

const iso = (ms: number) => new Date(ms).toISOString();

/** Detached, unresolved requests, ordered by the turn number of the turn that ended waiting. */
export function pendingRequestsJson(store: Store, c: ConversationRec): Record<string, unknown>[] {
  const turnNo = (id: string) => store.turns.get(id)?.turn_number ?? 0;
  return [...store.requests.values()]
    .filter((r) => r.conversation_id === c.id && r.state === 'detached')
    .sort((a, b) => turnNo(a.turn_id) - turnNo(b.turn_id))
    .map((r) => ({
      request_id: r.request_id,
      tool: r.tool,
      options: r.options,
      asked_at: iso(r.asked_at),
      deadline: r.deadline === null ? null : iso(r.deadline),
      turn_id: r.turn_id,
    }));
}

function sandboxJson(c: ConversationRec): Record<string, unknown> {
  return {
    id: c.sandbox_id,
    sprite_name: `sprite-${c.sandbox_id.slice(0, 8)}`,
    status: c.status === 'terminated' ? 'terminated' : 'running',
    provider: 'local',
    agent_id: c.agent_id,
    environment_id: null,
    vault_id: null,
    mode: 'persistent',
    url: null,
    checkpoint: null,
    runner: 'test-server',
  };
}

/** A conversation; `withPending` adds its detached requests (the list route shows none). */
export function conversationJson(store: Store, c: ConversationRec, withPending: boolean): Record<string, unknown> {
  // Fountain's ConversationJSON names the agent by id only (no agent_name): a client reads GET /api/agents/{id}.
  return {
    id: c.id,
    title: c.title,
    first_prompt: c.first_prompt,
    sandbox_id: c.sandbox_id,
    sandbox: sandboxJson(c),
    agent_id: c.agent_id,
    agent_version_id: null,
    agent_version: null,
    vault_id: null,
    environment_id: null,
    sandbox_api_access: 'owner',
    permission_policy: c.permission_policy,
    runtime: c.runtime,
    acp: true,
    status: c.status,
    runtime_session_id: c.runtime_session_id,
    source: c.source,
    parent_conversation_id: null,
    channel_id: c.channel_id,
    labels: c.labels,
    turn_count: c.turn_count,
    last_active_at: c.last_active_at,
    last_read_at: null,
    unread: false,
    usage_total: { input: 0, output: 0 },
    pending_requests: withPending ? pendingRequestsJson(store, c) : [],
    inserted_at: c.inserted_at,
    updated_at: c.updated_at,
  };
}

export function turnJson(t: TurnRec): Record<string, unknown> {
  return {
    id: t.id,
    turn_number: t.turn_number,
    prompt: t.prompt,
    status: t.status,
    client_request_id: t.client_request_id,
    origin: t.origin,
    waiting: t.waiting,
    stop_reason: t.stop_reason,
    exit_code: t.exit_code,
    limit_reason: t.limit_reason,
    started_at: t.started_at,
    ended_at: t.ended_at,
    inserted_at: t.inserted_at,
    image_count: 0,
    model_selection: null,
    usage: { input: 0, output: 0 },
  };
}

export function agentJson(a: AgentRec): Record<string, unknown> {
  return {
    id: a.id,
    name: a.name,
    runtime: a.runtime,
    description: a.description ?? null,
    permission_policy: a.permission_policy,
    inserted_at: a.inserted_at,
    updated_at: a.updated_at,
  };
}

/** One event of `GET …/events`; `blocks` adds its parsed blocks. */
export function logEventJson(e: EventRec, blocks: boolean): Record<string, unknown> {
  return {
    id: e.id,
    kind: e.kind,
    stream: e.stream,
    data: e.data,
    stage: e.stage,
    state: e.state,
    duration_ms: e.duration_ms,
    turn_id: e.turn_id,
    ts: e.ts,
    ...(blocks ? { blocks: e.blocks ?? [] } : {}),
  };
}
