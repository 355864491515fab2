/**
 * The hub's facts as JSON (src/session/windowSync.ts sends them): feed events, and what a follower's answer path
 * reports for a leader's refusal.
 */
import type { AnswerRefusal } from '../domain/inbox';
import type { AnswerResult, FeedEvent, PermissionOption, RequestKey } from '../domain/model';
import type { Json } from '../hub/windowHub';

const FEED_TYPES = new Set([
  'conversation',
  'requestOpened',
  'requestResolved',
  'turnEndedWaiting',
  'turnEnded',
  'conversationEnded',
  'backfillComplete',
]);

export const REFUSALS = new Set<unknown>(['unknown', 'notOffered', 'busyAnswering', 'stale']);

/** The leader's refusal of a dangerous allow whose danger modal was not confirmed in the leader's window. */
export const NOT_CONFIRMED = 'notConfirmed';

/** Rejecting never asks; every other kind (allow_once, allow_always, or one we do not know) does (src/ui/danger/danger.ts). */
export function allowNeedsConfirmation(option: PermissionOption): boolean {
  return option.kind !== 'reject_once' && option.kind !== 'reject_always';
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A FeedEvent as JSON: the backfill's sets become arrays. */
export function eventToJson(e: FeedEvent): Json {
  const plain =
    e.type === 'backfillComplete'
      ? {
          ...e,
          openKeys: [...e.openKeys],
          conversationIds: [...e.conversationIds],
          ...(e.inTurnRead ? { inTurnRead: [...e.inTurnRead] } : {}),
        }
      : e;
  return JSON.parse(JSON.stringify(plain)) as Json;
}

/** The inverse of eventToJson; undefined for anything that is not a fact. */
export function eventFromJson(j: Json): FeedEvent | undefined {
  if (!isObject(j) || typeof j.type !== 'string' || !FEED_TYPES.has(j.type)) {
    return undefined;
  }
  if (j.type === 'backfillComplete') {
    const set = (v: unknown) => new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return {
      ...(j as unknown as FeedEvent & { type: 'backfillComplete' }),
      openKeys: set(j.openKeys),
      conversationIds: set(j.conversationIds),
      ...(j.inTurnRead !== undefined ? { inTurnRead: set(j.inTurnRead) } : {}),
    };
  }
  return j as unknown as FeedEvent;
}

/** What a follower's answer path reports for the leader's refusal (its own inbox already checked the same). */
export function refusalResult(kind: AnswerRefusal['kind'] | 'malformed' | typeof NOT_CONFIRMED): AnswerResult {
  switch (kind) {
    case NOT_CONFIRMED:
      return {
        kind: 'network',
        message: 'the allow of this dangerous request was not confirmed in the window holding the Fountain connection',
      };
    case 'stale':
      return { kind: 'resolvedElsewhere' };
    case 'notOffered':
      return { kind: 'optionNotOffered', code: 'unknown_option', message: 'not an option of this request' };
    case 'busyAnswering':
      return { kind: 'network', message: 'another window is answering this request' };
    default:
      return { kind: 'network', message: 'the window holding the Fountain connection does not know this request yet' };
  }
}

/** A request key from JSON (only its three strings), or undefined. */
export function keyOf(v: unknown): RequestKey | undefined {
  if (!isObject(v)) {
    return undefined;
  }
  const { server, conversationId, requestId } = v;
  return typeof server === 'string' && typeof conversationId === 'string' && typeof requestId === 'string'
    ? { server, conversationId, requestId }
    : undefined;
}
