/**
 * The domain's vocabulary: what the protocol layer hands to the inbox, and what the inbox hands to the UI.
 * Wire shapes stay in src/protocol/schema.ts; src/protocol/wireToDomain.ts and requestAssembler.ts turn them into
 * these facts.
 * Every string here that came from an agent is untrusted text (see src/domain/inertText.ts for display).
 */

/** The ten ACP tool kinds; anything else an agent sends is kept as a plain string. */
export type ToolKind =
  'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'think' | 'fetch' | 'switch_mode' | 'other';

/** ACP option kinds. */
export const OPTION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;
export type OptionKind = (typeof OPTION_KINDS)[number];

/**
 * One option exactly as the runtime offered it (camelCase `optionId`, extra fields kept).
 * `kind` is a string because a non-conforming agent may send something else; treat unknown kinds as neither allow nor reject.
 */
export interface PermissionOption {
  readonly optionId: string;
  readonly name: string;
  readonly kind: string;
  readonly [extra: string]: unknown;
}

/**
 * Identity of a request across sources: (source, conversation id, request id). Nothing in the domain reads the
 * source id's shape: a Fountain server uses its normalised base URL, a local agent source its own id.
 */
export interface RequestKey {
  /** The source id: for a Fountain server its normalised base URL, e.g. `http://127.0.0.1:4123`. */
  readonly server: string;
  readonly conversationId: string;
  readonly requestId: string;
}

/** Stable string form of a RequestKey, usable as a Map key. */
export function keyId(key: RequestKey): string {
  return JSON.stringify([key.server, key.conversationId, key.requestId]);
}

/** The server and conversation of a `keyId` string (the id of a request that may be gone). */
export function conversationOfId(id: string): { readonly server: string; readonly conversationId: string } {
  const [server, conversationId] = JSON.parse(id) as [string, string, string];
  return { server, conversationId };
}

export interface DiffContent {
  readonly path: string;
  readonly oldText: string | null;
  readonly newText: string;
}

export interface ToolLocation {
  readonly path: string;
  readonly line?: number;
}

/** What is known about the conversation a request belongs to. */
export interface ConversationInfo {
  readonly server: string;
  readonly id: string;
  readonly title?: string;
  readonly agentId?: string;
  /** The agent's display name when known (else show agentId). */
  readonly agentName?: string;
  /** claude | codex | gemini | opencode | acp | … */
  readonly runtime?: string;
  /** pending | running | idle | failed | terminated */
  readonly status?: string;
  /** The launch policy override on the conversation, verbatim (issue 6 uses it). */
  readonly permissionPolicy?: Record<string, unknown> | null;
}

/** Everything needed to render and answer one request. Merged from sightings by src/domain/requestMerge.ts. */
export interface RequestDetails {
  readonly key: RequestKey;
  /** The `permission_request` block's `name` (title, else kind, else "tool") or pending_requests' `tool`. */
  readonly name?: string;
  /** The block's `summary` (first location or a `k=v` preview); absent for backfilled detached requests. */
  readonly summary?: string;
  readonly toolCallId?: string;
  readonly title?: string;
  readonly kind?: string;
  readonly rawInput?: unknown;
  /** Text content items of the tool call, in order. */
  readonly textContent: readonly string[];
  readonly diffs: readonly DiffContent[];
  readonly locations: readonly ToolLocation[];
  /** The runtime's options, verbatim and in its order. */
  readonly options: readonly PermissionOption[];
  /** Epoch ms when the request was asked (event ts or asked_at); undefined if unknown. */
  readonly askedAt?: number;
  /** Epoch ms after which the server will expire it: detached deadline, or asked + in-turn timeout. */
  readonly deadline?: number;
  /** True when the turn ended `waiting` and the request lives on as a detached one. */
  readonly detached: boolean;
  /** `_meta.fountain.timeout` in seconds, if the agent set one (display hint). */
  readonly metaTimeoutSec?: number;
  readonly turnId?: string;
  /** The stream event id the request was seen at, if any. */
  readonly eventId?: number;
  /** The raw `session/request_permission` params when known, for the details view. */
  readonly rawParams?: unknown;
}

/**
 * Outcome of a resolution as the source reports it; any other value reads as "resolved". A local agent source also
 * reports `agent_exited` (its process ended: the request closes as its conversation ended, never as answered) and
 * `withdrawn` (the agent took the request back).
 */
export type ResolutionOutcome = 'answered' | 'timeout' | 'turn_ended' | 'agent_exited' | 'withdrawn' | (string & {});

/** The outcome, and the conversation-end reason, of a request whose local agent process ended. */
export const AGENT_EXITED = 'agent_exited';

/**
 * Facts a source reports (a Fountain server's stream and backfill; a local agent next), in the order they should be
 * applied. Only the inbox turns them into state changes.
 */
export type FeedEvent =
  | { readonly type: 'conversation'; readonly conversation: ConversationInfo }
  | { readonly type: 'requestOpened'; readonly request: RequestDetails; readonly source: 'live' | 'backfill' }
  | {
      readonly type: 'requestResolved';
      readonly key: RequestKey;
      readonly outcome: ResolutionOutcome;
      readonly optionId: string | null;
      readonly detached: boolean;
      /** Epoch ms of the event. */
      readonly at: number;
    }
  | {
      /** A turn ended with stop reason `waiting`: the request stays open as a detached one. */
      readonly type: 'turnEndedWaiting';
      readonly key: RequestKey;
      readonly deadline?: number;
      readonly turnId?: string;
    }
  | {
      /** A turn ended without waiting: every in-turn request of it is over (`turn_ended`). */
      readonly type: 'turnEnded';
      readonly server: string;
      readonly conversationId: string;
      readonly turnId?: string;
      readonly stopReason?: string;
      readonly at: number;
    }
  | {
      /** terminate/done, or status failed/terminated: every request of the conversation is over. */
      readonly type: 'conversationEnded';
      readonly server: string;
      readonly conversationId: string;
      readonly reason: string;
      readonly at: number;
    }
  | {
      /** Backfill finished for a server: requests of that server not in `openKeys` are no longer waiting. */
      readonly type: 'backfillComplete';
      readonly server: string;
      /** keyId()s of every request the backfill found open, covering the conversations it read. */
      readonly openKeys: ReadonlySet<string>;
      /** Conversation ids the backfill read completely; only their requests may be closed by absence. */
      readonly conversationIds: ReadonlySet<string>;
      /**
       * Of those, the ones whose in-turn requests were read too (a running conversation's /events feed). In-turn
       * requests of the others are not closed by absence. Absent: every in-turn request was read.
       */
      readonly inTurnRead?: ReadonlySet<string>;
      readonly at: number;
      /**
       * Epoch ms (local clock) when this backfill started reading. Optional; when set, requests first seen after it
       * (e.g. opened live while the backfill ran) are not closed by their absence from `openKeys`.
       */
      readonly startedAt?: number;
    };

/** Connection state of one server's stream. */
export type ConnectionState =
  | { readonly kind: 'unconfigured'; readonly reason: 'noServer' | 'noKey' }
  | { readonly kind: 'connecting'; readonly attempt: number }
  | { readonly kind: 'connected'; readonly since: number }
  | { readonly kind: 'backoff'; readonly retryAt: number; readonly reason: string; readonly attempt: number }
  | { readonly kind: 'authFailed'; readonly status: number; readonly reason?: string; readonly message: string }
  | { readonly kind: 'refused'; readonly message: string }
  | { readonly kind: 'stopped' };

/** Typed result of one answer POST (fountain-protocol.md §5). Built by src/protocol/apiClient.ts. */
export type AnswerResult =
  | { readonly kind: 'answered' }
  /** 409 permission_request_resolved: someone else (or a timeout, or turn end) got there first. */
  | { readonly kind: 'resolvedElsewhere' }
  /** 409 permission_answer_not_delivered: recorded, but the resume turn could not open. */
  | { readonly kind: 'notDelivered'; readonly message?: string }
  /** 400 conversation_busy, 402 insufficient_credits, 403 account_suspended, 503: still open, answerable later. */
  | {
      readonly kind: 'leftOpen';
      readonly reason: 'busy' | 'credits' | 'suspended' | 'unavailable';
      readonly message?: string;
      readonly retryAfterSec?: number;
    }
  /** 422 unknown_option / option_id_required / validation_failed. */
  | { readonly kind: 'optionNotOffered'; readonly code: string; readonly message?: string }
  /** 403 sprite_may_not_answer: the key is a sandbox token. */
  | { readonly kind: 'spriteToken' }
  /** 401 (or 403 email_unverified). */
  | { readonly kind: 'auth'; readonly status: number; readonly reason?: string; readonly message?: string }
  | { readonly kind: 'rateLimited'; readonly retryAfterSec?: number }
  | { readonly kind: 'notFound' }
  /** The POST's fate is unknown (connection lost); the client re-read state and still could not tell. */
  | { readonly kind: 'network'; readonly message: string }
  | { readonly kind: 'unexpected'; readonly status: number; readonly message?: string };
