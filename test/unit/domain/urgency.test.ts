import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import { TreeModel } from '../../../src/domain/treeModel';
import { byUrgencyGroups, nextWaiting, urgentFirst } from '../../../src/domain/urgency';
import { key, opened } from './builders';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const NOW = 10 * DAY;

/** An inbox at NOW with: a detached request due in 3 days (oldest), an in-turn one due in 2 minutes, and a detached
 * one with no deadline (older than both), in three conversations. */
function threeRequests(): Inbox {
  const inbox = new Inbox({ now: () => NOW });
  inbox.apply(opened({ key: key('none', 'c-none'), askedAt: NOW - 2 * DAY, detached: true, deadline: undefined }));
  inbox.apply(opened({ key: key('days', 'c-days'), askedAt: NOW - DAY, detached: true, deadline: NOW + 3 * DAY }));
  // In turn: the deadline is askedAt + 5 min, i.e. 2 minutes from now.
  inbox.apply(opened({ key: key('minutes', 'c-minutes'), askedAt: NOW - 3 * MIN }));
  return inbox;
}

describe('domain/urgency: nearest deadline first', () => {
  it('the queue lists the 2-minute request before the 3-day one, and the one without a deadline last', () => {
    const inbox = threeRequests();
    assert.deepEqual(
      inbox.open().map((i) => i.key.requestId),
      ['none', 'days', 'minutes'],
      'the inbox itself is oldest first',
    );
    assert.deepEqual(
      urgentFirst(inbox.open()).map((i) => i.key.requestId),
      ['minutes', 'days', 'none'],
    );
  });

  it('equal deadlines and no deadlines go oldest first; requests being answered are not in the queue', () => {
    const inbox = new Inbox({ now: () => NOW });
    inbox.apply(opened({ key: key('b'), askedAt: NOW - 2 * MIN, detached: true, deadline: NOW + DAY }));
    inbox.apply(opened({ key: key('a'), askedAt: NOW - 3 * MIN, detached: true, deadline: NOW + DAY }));
    inbox.apply(opened({ key: key('y'), askedAt: NOW - MIN, detached: true }));
    inbox.apply(opened({ key: key('x'), askedAt: NOW - 4 * MIN, detached: true }));
    assert.deepEqual(
      urgentFirst(inbox.open()).map((i) => i.key.requestId),
      ['a', 'b', 'x', 'y'],
    );
    assert.ok(inbox.beginAnswer(key('a'), 'allow').ok);
    assert.deepEqual(
      urgentFirst(inbox.open()).map((i) => i.key.requestId),
      ['b', 'x', 'y'],
    );
  });

  it('the next waiting request after an answer is the most urgent other one', () => {
    const inbox = threeRequests();
    assert.equal(nextWaiting(inbox.open())?.key.requestId, 'minutes');
    const minutes = inbox.get(key('minutes', 'c-minutes'))!;
    assert.equal(nextWaiting(inbox.open(), new Set([minutes.id]))?.key.requestId, 'days');
    assert.equal(nextWaiting([]), undefined);
  });

  it('the tree orders conversations by their most urgent waiting request; closed rows after the waiting ones', () => {
    const inbox = threeRequests();
    const model = new TreeModel(inbox);
    assert.deepEqual(
      model.groups().map((g) => g.conversationId),
      ['c-minutes', 'c-days', 'c-none'],
    );
    // One conversation with a closed request (oldest), a far one and a near one.
    inbox.apply(opened({ key: key('closed', 'c-days'), askedAt: NOW - 5 * DAY, detached: true, deadline: NOW + MIN }));
    inbox.apply(opened({ key: key('near', 'c-days'), askedAt: NOW - 10, detached: true, deadline: NOW + 30_000 }));
    inbox.apply({
      type: 'requestResolved',
      key: key('closed', 'c-days'),
      outcome: 'answered',
      optionId: 'reject',
      detached: true,
      at: NOW,
    });
    const groups = model.groups();
    assert.deepEqual(
      groups.map((g) => g.conversationId),
      ['c-days', 'c-minutes', 'c-none'],
      'c-days now holds the most urgent waiting request',
    );
    assert.deepEqual(
      groups[0].items.map((i) => i.key.requestId),
      ['near', 'days', 'closed'],
    );
    model.dispose();
  });

  it('conversations with nothing waiting come after those with something, in the order given', () => {
    const inbox = new Inbox({ now: () => NOW });
    inbox.apply(opened({ key: key('old', 'c1'), askedAt: NOW - 2 * MIN }));
    inbox.apply(opened({ key: key('new', 'c2'), askedAt: NOW - MIN }));
    inbox.apply(opened({ key: key('mid', 'c3'), askedAt: NOW - 90_000 }));
    inbox.apply({ type: 'turnEnded', server: key().server, conversationId: 'c1', at: NOW });
    assert.deepEqual(
      byUrgencyGroups(inbox.byConversation()).map((g) => g.conversationId),
      ['c3', 'c2', 'c1'],
    );
  });
});
