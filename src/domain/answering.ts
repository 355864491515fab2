/**
 * The one answer path: the inbox's guard, then the source's sender, then the inbox records the result. Every
 * caller (the toast/tree/keyboard flow in src/ui/answer/answerFlow.ts, the conformance runner) answers through
 * `answerThroughInbox`, so "only an offered option", "one answer in flight" and "never after a final result" are
 * decided by the inbox alone; a sender only delivers.
 */
import type { AnswerRefusal, Inbox, InboxItem } from './inbox';
import type { AnswerResult, RequestKey } from './model';

/** Delivers one answer to the source that owns the request (a Fountain server now, a local agent next). */
export interface AnswerSender {
  /**
   * Sends `optionId` once and reports what the source made of it. Never retries and never refuses on its own
   * knowledge of the request: a source that cannot reach the request now answers a retryable `network` result.
   */
  send(key: RequestKey, optionId: string): Promise<AnswerResult>;
}

export type AnswerAttempt =
  | { readonly kind: 'sent'; readonly item: InboxItem; readonly result: AnswerResult }
  | { readonly kind: 'refused'; readonly item: InboxItem | undefined; readonly refusal: AnswerRefusal };

/** Answers through the inbox's guard; the sender is called only when the inbox hands out a ticket. */
export async function answerThroughInbox(
  inbox: Inbox,
  sender: AnswerSender,
  key: RequestKey,
  optionId: string,
): Promise<AnswerAttempt> {
  const item = inbox.get(key);
  const begin = inbox.beginAnswer(key, optionId);
  if (!begin.ok) {
    return { kind: 'refused', item, refusal: begin.refusal };
  }
  let result: AnswerResult;
  try {
    result = await sender.send(key, optionId);
  } catch (err) {
    result = { kind: 'network', message: err instanceof Error ? err.message : String(err) };
  }
  inbox.completeAnswer(begin.ticket, result);
  return { kind: 'sent', item: item!, result };
}
