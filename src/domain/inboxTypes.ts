/**
 * The inbox's vocabulary: item states, closures, answer tickets and refusals, change events. The store that moves
 * items between these states is src/domain/inbox.ts.
 */
import type {
  AnswerResult,
  ConversationInfo,
  PermissionOption,
  RequestDetails,
  RequestKey,
  ResolutionOutcome,
} from './model';
import type { DangerCheck, DangerMark } from './danger';
import type { Severity } from './requestLabel';

/** The server's in-turn ceiling for a held request (fountain-protocol.md §4.3, `timeout_ms` default). */
export const IN_TURN_TIMEOUT_MS = 300_000;
export const DEFAULT_LINGER_MS = 30_000;
/** How many closed keys, early resolutions and ended conversations are remembered. */
export const DEFAULT_MEMORY_SIZE = 5_000;

export type LeftOpenReason = 'busy' | 'credits' | 'suspended' | 'unavailable';

/** What closed an item. Shared by item states, stale refusals and click checks. `at` is epoch ms. */
export type Closure =
  | {
      readonly kind: 'answeredByYou';
      readonly optionId: string;
      readonly at: number;
      /** The answer was recorded but the conversation did not wake (409 not delivered): prompt it to wake it. */
      readonly promptToWake?: boolean;
      readonly message?: string;
    }
  | {
      readonly kind: 'resolvedElsewhere';
      /** The option that won; null when the server did not say (e.g. only a 409 was seen so far). */
      readonly optionId: string | null;
      /** The server's outcome (`answered` or another value); undefined when only a 409 was seen. */
      readonly outcome?: ResolutionOutcome;
      readonly at: number;
    }
  | {
      readonly kind: 'expired';
      readonly at: number;
      /** `server`: a `timeout` resolution (optionId is the agent's reject option for a detached expiry, else null). */
      readonly source: 'server' | 'clock';
      readonly optionId?: string | null;
    }
  | { readonly kind: 'turnEnded'; readonly at: number; readonly stopReason?: string }
  | { readonly kind: 'conversationEnded'; readonly at: number; readonly reason: string }
  | {
      /**
       * Absent from a complete backfill of its conversation, the server answered 404 for it, or the agent withdrew
       * it (a local agent's `$/cancel_request`).
       */
      readonly kind: 'noLongerWaiting';
      readonly at: number;
      readonly cause: 'backfill' | 'notFound' | 'withdrawn';
    };

/** The last answer attempt that failed in a way that leaves the request answerable. */
export interface AnswerError {
  readonly optionId: string;
  readonly at: number;
  readonly result: Extract<
    AnswerResult,
    { kind: 'optionNotOffered' | 'spriteToken' | 'auth' | 'rateLimited' | 'network' | 'unexpected' }
  >;
}

export type ItemState =
  | { readonly kind: 'open' }
  | { readonly kind: 'answering'; readonly optionId: string; readonly since: number }
  | {
      /** The server kept the request open (busy, credits, suspended, unavailable): answerable again later. */
      readonly kind: 'leftOpen';
      readonly reason: LeftOpenReason;
      readonly optionId: string;
      readonly at: number;
      readonly message?: string;
      readonly retryAfterSec?: number;
    }
  | Closure;

/** An immutable snapshot of one request; a new object is made whenever anything about it changes. */
export interface InboxItem {
  /** keyId(key). */
  readonly id: string;
  readonly key: RequestKey;
  readonly request: RequestDetails;
  readonly conversation: ConversationInfo;
  readonly state: ItemState;
  /** open, answering or leftOpen: still waiting on the user (counts in `openCount`). */
  readonly pending: boolean;
  /** open or leftOpen: an answer may be started now. */
  readonly answerable: boolean;
  /** Untrusted one-line tool label (see `labelOf`); render through inertText. */
  readonly label: string;
  readonly severity: Severity;
  readonly isRisky: boolean;
  /** Its command (else title) is on the built-in denylist: marked dangerous, and allowing it asks first. */
  readonly danger?: DangerMark;
  /** Epoch ms: the request's askedAt, else when this inbox first saw it. */
  readonly askedAt: number;
  /** Epoch ms when it expires: the detached deadline, else askedAt + 5 min for in-turn requests. */
  readonly deadline?: number;
  readonly detached: boolean;
  readonly lastError?: AnswerError;
  /** How the item was first seen. */
  readonly source: 'live' | 'backfill';
  readonly firstSeenAt: number;
  /** Epoch ms (local clock) when it closed; it leaves the inbox `linger` ms later. */
  readonly closedAt?: number;
}

/** Proof that an answer may be POSTed; pass it back to `completeAnswer` with the result. */
export interface AnswerTicket {
  readonly key: RequestKey;
  readonly id: string;
  readonly optionId: string;
  /** Distinguishes attempts on the same request. */
  readonly attempt: number;
}

/** Why an answer may not start (or why a click would do nothing). */
export type AnswerRefusal =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'notOffered'; readonly optionId: string }
  | { readonly kind: 'busyAnswering'; readonly optionId: string }
  | {
      readonly kind: 'stale';
      readonly closure: Closure;
      /** Name of the option the closure names (who answered with what), when it was offered. Untrusted text. */
      readonly optionName?: string;
    };

export type BeginAnswerResult =
  { readonly ok: true; readonly ticket: AnswerTicket } | { readonly ok: false; readonly refusal: AnswerRefusal };

/** What a toast or tree click should do: answer (with the offered option), or show why not. */
export type ClickCheck =
  { readonly kind: 'answerable'; readonly item: InboxItem; readonly option: PermissionOption } | AnswerRefusal;

export interface InboxChange {
  /** Every id whose item was added, changed or removed. */
  readonly ids: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export interface ConversationGroup {
  readonly server: string;
  readonly conversationId: string;
  readonly conversation: ConversationInfo;
  /** Oldest first. */
  readonly items: readonly InboxItem[];
}

export interface InboxOptions {
  /** Epoch ms now; default Date.now. Used to stamp local transitions and as tick()'s default. */
  readonly now?: () => number;
  /** How long closed items stay visible; default 30 s. */
  readonly lingerMs?: number;
  /** Bound on remembered closed keys / early resolutions; default 5000. */
  readonly memorySize?: number;
  /** Marks requests whose command (else title) is denylisted (`InboxItem.danger`); none without it. */
  readonly danger?: DangerCheck;
}
