import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import { keyId, type RequestKey } from '../../../src/domain/model';
import {
  InboxNotifier,
  NotificationPolicy,
  type NotificationCandidate,
  type NotificationDecision,
} from '../../../src/domain/notificationPolicy';
import { FakeClock, key, opened, resolved } from './builders';

const item = (id: string, over: Partial<NotificationCandidate> = {}): NotificationCandidate => ({
  key: key(id),
  isRisky: true,
  source: 'live',
  ...over,
});
const ids = (keys: readonly RequestKey[]) => keys.map((k) => k.requestId);

describe('NotificationPolicy', () => {
  it('a single new item gives one per-item notice when its window closes, not before', () => {
    const p = new NotificationPolicy();
    p.offer(item('a'), 1000);
    assert.equal(p.dueAt(), 2500);
    assert.deepEqual(p.flush(2499), []);
    assert.deepEqual(p.flush(2500), [{ type: 'single', key: key('a') }]);
    assert.deepEqual(p.flush(9999), [], 'nothing twice');
    assert.equal(p.dueAt(), undefined);
  });

  it('a burst within the window is merged into one notice, in arrival order', () => {
    const p = new NotificationPolicy({ burstWindowMs: 1500 });
    p.offer(item('a'), 0);
    p.offer(item('b'), 700);
    p.offer(item('c'), 1499);
    const d = p.flush(1500);
    assert.equal(d.length, 1);
    assert.ok(d[0].type === 'merged');
    assert.deepEqual(ids(d[0].keys), ['a', 'b', 'c']);
  });

  it('an item after the window closed starts a new notice', () => {
    const p = new NotificationPolicy();
    p.offer(item('a'), 0);
    assert.equal(p.flush(1500).length, 1);
    p.offer(item('b'), 1600);
    assert.deepEqual(p.flush(3100), [{ type: 'single', key: key('b') }]);
  });

  it('never re-notifies an item, even when re-delivered after a reconnect or re-backfill', () => {
    const p = new NotificationPolicy();
    p.offer(item('a'), 0);
    p.flush(1500);
    p.offer(item('a'), 5000);
    p.offer(item('a', { source: 'backfill' }), 6000);
    assert.equal(p.dueAt(), undefined);
    assert.deepEqual(p.flush(99_999), []);
  });

  it('an item withdrawn (resolved) inside the window is dropped; an empty window yields nothing', () => {
    const p = new NotificationPolicy();
    p.offer(item('a'), 0);
    p.offer(item('b'), 10);
    p.withdraw(key('a'));
    assert.deepEqual(p.flush(1500), [{ type: 'single', key: key('b') }]);
    p.offer(item('c'), 2000);
    p.withdraw(keyId(key('c')));
    assert.equal(p.dueAt(), undefined);
    assert.deepEqual(p.flush(9999), []);
  });

  it('riskyOnly notifies risky items only; skipped ones stay skipped after switching to all', () => {
    const p = new NotificationPolicy({ mode: 'riskyOnly' });
    p.offer(item('safe', { isRisky: false }), 0);
    p.offer(item('risky'), 0);
    assert.deepEqual(p.flush(1500), [{ type: 'single', key: key('risky') }]);
    p.mode = 'all';
    p.offer(item('safe', { isRisky: false }), 2000);
    assert.deepEqual(p.flush(9999), []);
  });

  it('off notifies nothing, and switching modes filters what is already queued', () => {
    const p = new NotificationPolicy({ mode: 'off' });
    p.offer(item('a'), 0);
    assert.equal(p.dueAt(), undefined);
    assert.deepEqual(p.flush(9999), []);
    p.mode = 'all';
    p.offer(item('b', { isRisky: false }), 10_000);
    p.offer(item('c'), 10_000);
    p.mode = 'riskyOnly';
    assert.deepEqual(p.flush(11_500), [{ type: 'single', key: key('c') }]);
    p.offer(item('d'), 20_000);
    p.mode = 'off';
    assert.equal(p.dueAt(), undefined);
  });

  it('startup backfill items wait for the backfill (or its longer window) and share one merged notice', () => {
    const p = new NotificationPolicy({ backfillWindowMs: 5000 });
    p.offer(item('a', { source: 'backfill' }), 0);
    p.offer(item('b', { source: 'backfill' }), 2000);
    assert.deepEqual(p.flush(1500), [], 'a backfill item does not use the short live window');
    p.endBackfill(3000);
    const d = p.flush(3000);
    assert.ok(d.length === 1 && d[0].type === 'merged');
    assert.deepEqual(ids(d[0].keys), ['a', 'b']);
  });

  it('backfill items not closed by endBackfill go out when the backfill window closes', () => {
    const p = new NotificationPolicy({ backfillWindowMs: 5000 });
    p.offer(item('a', { source: 'backfill' }), 0);
    assert.deepEqual(p.flush(4999), []);
    assert.deepEqual(p.flush(5000), [{ type: 'single', key: key('a') }]);
  });

  it('the seen memory is bounded', () => {
    const p = new NotificationPolicy({ memorySize: 2 });
    for (const id of ['a', 'b', 'c']) {
      p.offer(item(id), 0);
    }
    p.flush(1500);
    p.offer(item('a'), 2000);
    assert.deepEqual(p.flush(3500), [{ type: 'single', key: key('a') }], 'a was forgotten');
  });
});

describe('InboxNotifier', () => {
  function setup(policy = new NotificationPolicy()) {
    const clock = new FakeClock(0);
    const timers = clock; // the fake clock's timers fire as it advances
    const inbox = new Inbox({ now: clock.now });
    const notifier = new InboxNotifier(inbox, policy, clock.now, timers);
    const decisions: NotificationDecision[] = [];
    notifier.onDidDecide((d) => decisions.push(d));
    return { clock, timers, inbox, notifier, decisions };
  }

  it('toasts a new inbox item once, after the burst window', () => {
    const { timers, inbox, decisions } = setup();
    inbox.apply(opened({ key: key('a') }));
    timers.advance(1499);
    assert.deepEqual(decisions, []);
    timers.advance(1);
    assert.deepEqual(decisions, [{ type: 'single', key: key('a') }]);
    inbox.apply(opened({ key: key('a') }));
    timers.advance(10_000);
    assert.equal(decisions.length, 1);
  });

  it('merges a burst of inbox items and leaves out one resolved before the notice', () => {
    const { timers, inbox, decisions } = setup();
    inbox.apply(opened({ key: key('a') }));
    timers.advance(500);
    inbox.apply(opened({ key: key('b') }));
    inbox.apply(opened({ key: key('c') }));
    inbox.apply(resolved(key('b'), 'allow', 0));
    timers.advance(1000);
    assert.equal(decisions.length, 1);
    assert.ok(decisions[0].type === 'merged');
    assert.deepEqual(ids(decisions[0].keys), ['a', 'c']);
  });

  it('an item resolved before its notice gives no notice at all', () => {
    const { timers, inbox, decisions } = setup();
    inbox.apply(opened({ key: key('a') }));
    inbox.apply(resolved(key('a'), 'allow', 0));
    timers.advance(10_000);
    assert.deepEqual(decisions, []);
    assert.equal(timers.pending, 0);
  });

  it('riskyOnly through the inbox: a read is not toasted, an execute is', () => {
    const { timers, inbox, decisions } = setup(new NotificationPolicy({ mode: 'riskyOnly' }));
    inbox.apply(opened({ key: key('r'), kind: 'read' }));
    inbox.apply(opened({ key: key('x'), kind: 'execute' }));
    timers.advance(2000);
    assert.deepEqual(decisions, [{ type: 'single', key: key('x') }]);
  });

  it('startup backfill: one merged notice on endBackfill; a later re-backfill stays quiet', () => {
    const { timers, inbox, notifier, decisions } = setup();
    inbox.apply(opened({ key: key('a') }, 'backfill'));
    inbox.apply(opened({ key: key('b') }, 'backfill'));
    timers.advance(100);
    notifier.endBackfill();
    timers.advance(0);
    assert.equal(decisions.length, 1);
    assert.ok(decisions[0].type === 'merged' && decisions[0].keys.length === 2);
    inbox.apply(opened({ key: key('a') }, 'backfill'));
    notifier.endBackfill();
    timers.advance(60_000);
    assert.equal(decisions.length, 1);
  });

  it('dispose stops listening and cancels the timer', () => {
    const { timers, inbox, notifier, decisions } = setup();
    inbox.apply(opened({ key: key('a') }));
    notifier.dispose();
    assert.equal(timers.pending, 0);
    inbox.apply(opened({ key: key('b') }));
    timers.advance(10_000);
    assert.deepEqual(decisions, []);
  });
});
