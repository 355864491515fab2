import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import { retryAt, retryCheck, rowStatus } from '../../../src/domain/rowStatus';
import { key, opened, resolved } from './builders';

let now = 1_000_000;
const K = key('r1');

function inboxWithOne(): Inbox {
  const inbox = new Inbox({ now: () => now });
  inbox.apply(opened({ key: K, askedAt: now }));
  return inbox;
}

describe('domain/rowStatus: what a tree row says', () => {
  beforeEach(() => {
    now = 1_000_000;
  });

  it('answered elsewhere: the winning option by the name the runtime offered, and how long ago', () => {
    const inbox = inboxWithOne();
    inbox.apply(resolved(K, 'reject', now - 12_000));
    assert.deepEqual(rowStatus(inbox.get(K)!, now), { kind: 'resolvedElsewhere', option: 'Reject', agoMs: 12_000 });
    assert.deepEqual(rowStatus(inbox.get(K)!, now + 3_000), {
      kind: 'resolvedElsewhere',
      option: 'Reject',
      agoMs: 15_000,
    });
  });

  it('answered elsewhere with an option it did not offer shows the id; with none, no option', () => {
    const a = inboxWithOne();
    a.apply(resolved(K, 'made_up', now));
    assert.deepEqual(rowStatus(a.get(K)!, now), { kind: 'resolvedElsewhere', option: 'made_up', agoMs: 0 });
    const b = inboxWithOne();
    b.completeAnswer(okTicket(b), { kind: 'resolvedElsewhere' }); // a 409 alone: the server did not say which
    assert.deepEqual(rowStatus(b.get(K)!, now), { kind: 'resolvedElsewhere', option: undefined, agoMs: 0 });
  });

  it('a waiting row counts down; an answer by you names the option', () => {
    const inbox = inboxWithOne();
    assert.deepEqual(rowStatus(inbox.get(K)!, now + 1_000), { kind: 'open', leftMs: 299_000 });
    inbox.completeAnswer(okTicket(inbox, 'allow'), { kind: 'answered' });
    assert.deepEqual(rowStatus(inbox.get(K)!, now), { kind: 'answeredByYou', option: 'Allow once' });
  });

  it('left open keeps its countdown, says why, and names the option Retry sends again after Retry-After', () => {
    const inbox = inboxWithOne();
    inbox.completeAnswer(okTicket(inbox, 'allow'), { kind: 'leftOpen', reason: 'busy', retryAfterSec: 7 });
    const item = inbox.get(K)!;
    assert.ok(item.answerable);
    assert.deepEqual(rowStatus(item, now + 1_000), {
      kind: 'leftOpen',
      reason: 'busy',
      option: 'Allow once',
      leftMs: 299_000,
      retryAt: now + 7_000,
    });
    assert.equal(retryAt(item), now + 7_000);
    assert.deepEqual(retryCheck(item, now + 6_999), { kind: 'wait', at: now + 7_000 });
    assert.deepEqual(retryCheck(item, now + 7_000), { kind: 'send', optionId: 'allow' });
  });

  it('left open without Retry-After may be retried at once, with the same option; other states are not retried', () => {
    const inbox = inboxWithOne();
    inbox.completeAnswer(okTicket(inbox, 'reject'), { kind: 'leftOpen', reason: 'credits' });
    const item = inbox.get(K)!;
    assert.equal(retryAt(item), undefined);
    assert.deepEqual(retryCheck(item, now), { kind: 'send', optionId: 'reject' });
    assert.deepEqual(retryCheck(inboxWithOne().get(K)!, now), { kind: 'notLeftOpen' });
  });

  it('other closures carry their own state (expired, turn ended, …)', () => {
    const inbox = inboxWithOne();
    inbox.apply({ type: 'turnEnded', server: K.server, conversationId: K.conversationId, at: now });
    assert.equal(rowStatus(inbox.get(K)!, now).kind, 'turnEnded');
  });
});

function okTicket(inbox: Inbox, optionId = 'allow') {
  const begun = inbox.beginAnswer(K, optionId);
  assert.ok(begun.ok);
  return begun.ticket;
}
