/** Builders for domain objects in tests: valid defaults, override only what a test cares about. */
import type { FeedEvent, PermissionOption, RequestDetails, RequestKey } from '../../../src/domain/model';

export const SERVER = 'http://127.0.0.1:4123';

export const OPTIONS: readonly PermissionOption[] = [
  { optionId: 'allow', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

export function key(requestId = 'r1', conversationId = 'c1', server = SERVER): RequestKey {
  return { server, conversationId, requestId };
}

export function request(over: Partial<RequestDetails> & { key?: RequestKey } = {}): RequestDetails {
  return {
    key: key(),
    name: 'Bash',
    title: 'Bash',
    kind: 'execute',
    textContent: [],
    diffs: [],
    locations: [],
    options: OPTIONS,
    detached: false,
    ...over,
  };
}

export function opened(over: Partial<RequestDetails> = {}, source: 'live' | 'backfill' = 'live'): FeedEvent {
  return { type: 'requestOpened', request: request(over), source };
}

export function resolved(k: RequestKey, optionId: string | null, at: number, outcome = 'answered'): FeedEvent {
  return { type: 'requestResolved', key: k, outcome, optionId, detached: false, at };
}

export { FakeClock } from '../../support/fakeClock';
