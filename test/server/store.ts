/**
 * The server's state: users and keys, agents, conversations, turns, held requests and the event log.
 * In memory, mirrored as an append-only list of snapshot records (and, with a state file, as JSONL on disk) so a
 * restart rebuilds the same state: same event ids, same open detached requests.
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Block } from './blocks';

export interface KeyRec {
  key: string;
  user_id: string;
  /** `full` or `sprite:<conversation id>`. */
  scope: string;
  revoked?: boolean;
  /** Epoch ms. */
  expires_at?: number | null;
}

export interface UserRec {
  id: string;
  email: string;
  role: string;
  /** 401 account_unavailable on every request. */
  unavailable?: boolean;
  /** Resume gate: 403 account_suspended for detached answers. */
  suspended?: boolean;
  /** Resume gate: 402 insufficient_credits for detached answers. */
  no_credits?: boolean;
}

export interface AgentRec {
  id: string;
  name: string;
  runtime: string;
  description?: string;
  permission_policy: Record<string, unknown>;
  inserted_at: string;
  updated_at: string;
}

export type ConvStatus = 'pending' | 'running' | 'idle' | 'failed' | 'terminated';

export interface ConversationRec {
  id: string;
  user_id: string;
  agent_id: string;
  title: string | null;
  first_prompt: string | null;
  status: ConvStatus;
  runtime: string;
  permission_policy: Record<string, unknown> | null;
  labels: Record<string, string>;
  source: 'ui' | 'api' | 'agent';
  channel_id: string | null;
  sandbox_id: string;
  runtime_session_id: string | null;
  turn_count: number;
  cwd: string;
  inserted_at: string;
  updated_at: string;
  /** For ordering ties: updated_at in ms. */
  updated_ms: number;
  /** Server-wide change counter: breaks updated_at ties (a frozen test clock) by recency, not by id. */
  update_seq: number;
  last_active_at: string | null;
}

export interface TurnRec {
  id: string;
  conversation_id: string;
  turn_number: number;
  prompt: string;
  status: 'running' | 'done' | 'failed' | 'interrupted';
  client_request_id: string | null;
  origin: 'user' | 'autonomous';
  waiting: boolean;
  stop_reason: string | null;
  exit_code: number | null;
  limit_reason: string | null;
  permission_deadline: string | null;
  started_at: string | null;
  ended_at: string | null;
  inserted_at: string;
}

export interface RequestRec {
  conversation_id: string;
  request_id: string;
  /** The turn that asked (for a detached request: the turn that ended waiting). */
  turn_id: string;
  jsonrpc_id: string | number;
  tool: string;
  options: Record<string, unknown>[];
  params: Record<string, unknown>;
  /** `_meta.fountain.timeout` as sent, if any. */
  meta_timeout: unknown;
  asked_at: number;
  /** Epoch ms (seconds precision for detached). */
  deadline: number | null;
  state: 'held' | 'detached' | 'resolved';
  outcome?: string;
  option_id?: string | null;
}

export interface EventRec {
  id: number;
  conversation_id: string;
  user_id: string;
  kind: 'output' | 'stage';
  stream: string;
  data: string;
  stage: string | null;
  state: string | null;
  turn_id: string | null;
  ts: string;
  duration_ms: number | null;
  blocks?: Block[];
}

type Rec =
  | { t: 'user'; v: UserRec }
  | { t: 'key'; v: KeyRec }
  | { t: 'agent'; v: AgentRec }
  | { t: 'conv'; v: ConversationRec }
  | { t: 'turn'; v: TurnRec }
  | { t: 'req'; v: RequestRec }
  | { t: 'ev'; v: EventRec };

export const newKey = (prefix = 'ftn_live_') => prefix + randomBytes(18).toString('hex');

export class Store {
  readonly users = new Map<string, UserRec>();
  readonly keys = new Map<string, KeyRec>();
  readonly agents = new Map<string, AgentRec>();
  readonly conversations = new Map<string, ConversationRec>();
  readonly turns = new Map<string, TurnRec>();
  readonly requests = new Map<string, RequestRec>();
  readonly events: EventRec[] = [];
  lastEventId = 0;
  private updateSeq = 0;
  /** Every record since the beginning (the in-memory twin of the state file). */
  private readonly records: Rec[];

  constructor(
    private readonly file: string | undefined,
    records?: Rec[],
  ) {
    this.records = records ?? [];
    if (!records && file && existsSync(file)) {
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (!line.trim()) {
          continue;
        }
        try {
          this.records.push(JSON.parse(line) as Rec);
        } catch {
          console.error('[test-server] skipped a malformed state line');
        }
      }
    }
    for (const r of this.records) {
      this.apply(r);
    }
  }

  /** A fresh store rebuilt from the same records (a restart). */
  reload(): Store {
    return new Store(this.file, this.records);
  }

  get isEmpty(): boolean {
    return this.records.length === 0;
  }

  private apply(r: Rec): void {
    switch (r.t) {
      case 'user':
        this.users.set(r.v.id, r.v);
        break;
      case 'key':
        this.keys.set(r.v.key, r.v);
        break;
      case 'agent':
        this.agents.set(r.v.id, r.v);
        break;
      case 'conv':
        this.conversations.set(r.v.id, r.v);
        this.updateSeq = Math.max(this.updateSeq, r.v.update_seq ?? 0);
        break;
      case 'turn':
        this.turns.set(r.v.id, r.v);
        break;
      case 'req':
        this.requests.set(reqKey(r.v.conversation_id, r.v.request_id), r.v);
        break;
      case 'ev':
        this.events.push(r.v);
        this.lastEventId = Math.max(this.lastEventId, r.v.id);
        break;
    }
  }

  /** Record a (new or changed) object. Objects are snapshotted, so later in-memory changes need another save. */
  save(r: Rec): void {
    const snap = { t: r.t, v: structuredClone(r.v) } as Rec;
    this.records.push(snap);
    this.apply(r);
    if (this.file) {
      appendFileSync(this.file, JSON.stringify(snap) + '\n');
    }
  }

  saveUser(v: UserRec) {
    this.save({ t: 'user', v });
  }
  saveKey(v: KeyRec) {
    this.save({ t: 'key', v });
  }
  saveAgent(v: AgentRec) {
    this.save({ t: 'agent', v });
  }
  saveConv(v: ConversationRec) {
    this.save({ t: 'conv', v });
  }
  saveTurn(v: TurnRec) {
    this.save({ t: 'turn', v });
  }
  saveReq(v: RequestRec) {
    this.save({ t: 'req', v });
  }

  appendEvent(e: Omit<EventRec, 'id'>): EventRec {
    const ev: EventRec = { id: this.lastEventId + 1, ...e };
    this.save({ t: 'ev', v: ev });
    return ev;
  }

  nextUpdateSeq(): number {
    return ++this.updateSeq;
  }

  turnsOf(conversationId: string): TurnRec[] {
    return [...this.turns.values()]
      .filter((t) => t.conversation_id === conversationId)
      .sort((a, b) => a.turn_number - b.turn_number);
  }

  request(conversationId: string, requestId: string): RequestRec | undefined {
    return this.requests.get(reqKey(conversationId, requestId));
  }

  /** Events after `after` (exclusive) matching `pred`, in id order. Events are appended in id order. */
  eventsAfter(after: number, pred: (e: EventRec) => boolean, limit = Infinity): EventRec[] {
    const out: EventRec[] = [];
    // binary search for the first id > after
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.events[mid].id <= after) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    for (let i = lo; i < this.events.length && out.length < limit; i++) {
      const e = this.events[i];
      if (pred(e)) {
        out.push(e);
      }
    }
    return out;
  }
}

export const reqKey = (c: string, r: string) => `${c}\u0000${r}`;
