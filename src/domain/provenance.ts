/**
 * Why a request reached a human: the agent's policy (read from the server, cached per agent) and the conversation's
 * launch policy, combined the way the server combines them (src/policy `explainVerdict`). The client never decides
 * anything from this: it only explains. When the agent's policy cannot be read, it says so instead of guessing.
 */
// The policy modules it uses, not the index: the index brings the local gate's tables into dist/extension.js.
import { explainVerdict } from '../policy/merge';
import { DEFAULT_KEY, type Verdict } from '../policy/verdicts';
import { BoundedMap } from './boundedMap';
import { Emitter, type Event } from './events';
import type { ConversationInfo, RequestDetails } from './model';

/** What the server says about an agent, as far as policy goes. */
export interface AgentRecord {
  readonly id: string;
  readonly name?: string;
  readonly runtime?: string;
  /** The stored policy (`{}` when the agent has none). */
  readonly policy: Record<string, unknown>;
  /** A version marker (`updated_at`), to tell when a re-read found a change. */
  readonly version?: string;
}

/** Reads one agent; throws with a short reason (scope, network, not found) when it cannot. */
export type AgentFetcher = (server: string, agentId: string, signal?: AbortSignal) => Promise<AgentRecord>;

export type AgentPolicyState =
  | { readonly kind: 'loading' }
  | { readonly kind: 'known'; readonly agent: AgentRecord; readonly readAt: number }
  | { readonly kind: 'unreadable'; readonly reason: string; readonly readAt: number };

/** Which kind of key decided: the tool card's exact title, its ACP kind, or `default`. */
export type KeyType = 'title' | 'kind' | 'default';

export type Provenance =
  /** Not known yet: the conversation (agent, launch policy) or the agent's policy is still being read. */
  | { readonly kind: 'pending'; readonly waitingFor: 'conversation' | 'agentPolicy' }
  /** The agent's policy could not be read: nothing is guessed. */
  | { readonly kind: 'unreadable'; readonly reason: string }
  | {
      readonly kind: 'explained';
      /** The effective verdict the server applies (normally `ask` for a request that reached us). */
      readonly verdict: Verdict;
      /** The deciding key, verbatim (untrusted when it is a title); null when neither policy named anything. */
      readonly key: string | null;
      readonly keyType: KeyType | null;
      readonly source: 'agent' | 'launch' | 'builtin';
      /** True when a conversation launch policy exists. */
      readonly hasLaunchPolicy: boolean;
      /** The per-key clamp let a title key beat a stricter kind key (the server's behaviour). */
      readonly loosened: boolean;
    };

/** Explains one request from what is known about its conversation and its agent's policy. */
export function provenanceOf(
  conversation: ConversationInfo,
  request: Pick<RequestDetails, 'title' | 'kind'>,
  agent: AgentPolicyState | undefined,
): Provenance {
  if (!conversation.agentId) {
    return { kind: 'pending', waitingFor: 'conversation' };
  }
  if (!agent || agent.kind === 'loading') {
    return { kind: 'pending', waitingFor: 'agentPolicy' };
  }
  if (agent.kind === 'unreadable') {
    return { kind: 'unreadable', reason: agent.reason };
  }
  const launch = conversation.permissionPolicy ?? undefined;
  const req = { title: request.title ?? null, kind: request.kind ?? null };
  const e = explainVerdict(agent.agent.policy, launch, req);
  return {
    kind: 'explained',
    verdict: e.verdict,
    key: e.key,
    keyType: e.key === null ? null : keyTypeOf(e.key, req),
    source: e.source,
    hasLaunchPolicy: !!launch && Object.keys(launch).length > 0,
    loosened: e.loosened,
  };
}

function keyTypeOf(key: string, req: { title: string | null; kind: string | null }): KeyType {
  // Lookup order is title, kind, default: name the first one the key equals.
  if (req.title && key === req.title) {
    return 'title';
  }
  if (req.kind && key === req.kind) {
    return 'kind';
  }
  return key === DEFAULT_KEY ? 'default' : 'kind';
}

export interface AgentPolicyCacheOptions {
  readonly now?: () => number;
  /** An entry older than this is re-read on the next use. Default 60 s. */
  readonly maxAgeMs?: number;
  /** Agents remembered. Default 200. */
  readonly maxEntries?: number;
  /** Conversations remembered per cache, to notice a new conversation of a known agent. Default 2000. */
  readonly maxConversations?: number;
}

/**
 * Agent policies per (server, agent id), read on first use and re-read when they may have changed: after a PATCH
 * from this extension (`set`), when a new conversation of the agent shows up, and when older than `maxAgeMs`.
 * Concurrent reads of one agent share one request.
 */
export class AgentPolicyCache {
  private readonly _onDidChange = new Emitter<{ readonly server: string; readonly agentId: string }>();
  readonly onDidChange: Event<{ readonly server: string; readonly agentId: string }> = this._onDidChange.event;
  private readonly entries: BoundedMap<string, AgentPolicyState>;
  private readonly inFlight = new Map<string, Promise<AgentPolicyState>>();
  private readonly seenConversations: BoundedMap<string, true>;
  private readonly now: () => number;
  private readonly maxAgeMs: number;
  private disposed = false;

  constructor(
    private readonly fetcher: AgentFetcher,
    opts: AgentPolicyCacheOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.maxAgeMs = opts.maxAgeMs ?? 60_000;
    this.entries = new BoundedMap(opts.maxEntries ?? 200);
    this.seenConversations = new BoundedMap(opts.maxConversations ?? 2000);
  }

  /** What is known now; starts a read when nothing is, or when what is known is old. Never blocks. */
  get(server: string, agentId: string): AgentPolicyState | undefined {
    const state = this.entries.get(cacheKey(server, agentId));
    if (!state || (state.kind !== 'loading' && this.now() - state.readAt > this.maxAgeMs)) {
      void this.refresh(server, agentId);
    }
    return state ?? this.entries.get(cacheKey(server, agentId));
  }

  /** Reads the agent now (joining a read in flight) and returns the new state. */
  refresh(server: string, agentId: string): Promise<AgentPolicyState> {
    const k = cacheKey(server, agentId);
    const running = this.inFlight.get(k);
    if (running) {
      return running;
    }
    if (!this.entries.get(k)) {
      this.entries.set(k, { kind: 'loading' });
    }
    const p = this.fetcher(server, agentId)
      .then(
        (agent): AgentPolicyState => ({ kind: 'known', agent, readAt: this.now() }),
        (err: unknown): AgentPolicyState => ({ kind: 'unreadable', reason: reasonOf(err), readAt: this.now() }),
      )
      .then((state) => {
        this.inFlight.delete(k);
        this.store(server, agentId, state);
        return state;
      });
    this.inFlight.set(k, p);
    return p;
  }

  /** Records what a successful PATCH returned: the server's word, no re-read needed. */
  set(server: string, agent: AgentRecord): void {
    this.store(server, agent.id, { kind: 'known', agent, readAt: this.now() });
  }

  /** Re-reads the agent of a conversation seen for the first time (its policy may have changed since). */
  noteConversation(info: ConversationInfo): void {
    if (!info.agentId) {
      return;
    }
    const ck = cacheKey(info.server, info.id);
    if (this.seenConversations.has(ck)) {
      return;
    }
    this.seenConversations.set(ck, true);
    const state = this.entries.get(cacheKey(info.server, info.agentId));
    if (state && state.kind !== 'loading') {
      void this.refresh(info.server, info.agentId);
    }
  }

  dispose(): void {
    this.disposed = true;
    this._onDidChange.dispose();
  }

  private store(server: string, agentId: string, state: AgentPolicyState): void {
    const k = cacheKey(server, agentId);
    const before = this.entries.get(k);
    this.entries.set(k, state);
    if (!this.disposed && !sameState(before, state)) {
      this._onDidChange.fire({ server, agentId });
    }
  }
}

function sameState(a: AgentPolicyState | undefined, b: AgentPolicyState): boolean {
  if (!a || a.kind !== b.kind) {
    return false;
  }
  if (a.kind === 'known' && b.kind === 'known') {
    return (
      a.agent.version === b.agent.version &&
      JSON.stringify(a.agent.policy) === JSON.stringify(b.agent.policy) &&
      a.agent.runtime === b.agent.runtime &&
      a.agent.name === b.agent.name
    );
  }
  return a.kind === 'unreadable' && b.kind === 'unreadable' ? a.reason === b.reason : a.kind === 'loading';
}

function cacheKey(server: string, id: string): string {
  return JSON.stringify([server, id]);
}

function reasonOf(err: unknown): string {
  const m = err instanceof Error ? err.message : String(err);
  return m.length > 200 ? m.slice(0, 199) + '…' : m;
}
