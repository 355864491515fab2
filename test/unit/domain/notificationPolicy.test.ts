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
  /** Offers `id` at `t` and returns what is due right then. */
  const at = (p: NotificationPolicy, id: string, t: number, over: Partial<NotificationCandidate> = {}) => {
    p.offer(item(id, over), t);
    return p.flush(t);
  };

  it('a new request gets its own notice at once, and never a second one', () => {
    const p = new NotificationPolicy();
    p.offer(item('a'), 1000);
    assert.ok(p.dueAt()! <= 1000, 'due at once');
    assert.deepEqual(p.flush(1000), [{ type: 'single', key: key('a') }]);
    assert.equal(p.dueAt(), undefined);
    assert.deepEqual(p.flush(9999), [], 'nothing twice');
  });

  it('requests a few seconds apart each get their own notice at once', () => {
    const p = new NotificationPolicy();
    for (const [id, t] of [
      ['a', 0],
      ['b', 3000],
      ['c', 6500],
      ['d', 9000],
    ] as const) {
      assert.deepEqual(at(p, id, t), [{ type: 'single', key: key(id) }], id);
    }
  });

  it('a burst of five within a second: two notices of their own, then one "more" notice for the other three', () => {
    const p = new NotificationPolicy();
    assert.deepEqual(at(p, 'a', 0), [{ type: 'single', key: key('a') }]);
    assert.deepEqual(at(p, 'b', 200), [{ type: 'single', key: key('b') }]);
    assert.deepEqual(at(p, 'c', 400), []);
    assert.deepEqual(at(p, 'd', 600), []);
    assert.deepEqual(at(p, 'e', 800), []);
    assert.equal(p.dueAt(), 1300, 'half a second after the last extra');
    assert.deepEqual(p.flush(1299), []);
    const d = p.flush(1300);
    assert.equal(d.length, 1);
    assert.ok(d[0].type === 'more');
    assert.deepEqual(ids(d[0].keys), ['c', 'd', 'e']);
    assert.deepEqual(p.flush(99_999), []);
  });

  it('the third within two seconds of the first folds; a third just after that window does not', () => {
    const folds = new NotificationPolicy();
    at(folds, 'a', 0);
    at(folds, 'b', 1500);
    assert.deepEqual(at(folds, 'c', 1999), []);
    const apart = new NotificationPolicy();
    at(apart, 'a', 0);
    at(apart, 'b', 1500);
    assert.deepEqual(at(apart, 'c', 2000), [{ type: 'single', key: key('c') }]);
  });

  it('once a run folds, it keeps folding until a pause: one more notice at its end, then own notices again', () => {
    const p = new NotificationPolicy();
    at(p, 'a', 0);
    at(p, 'b', 100);
    at(p, 'c', 200);
    assert.deepEqual(
      p.flush(700).map((d) => d.type),
      ['more'],
    );
    // 1.95 s after the last arrival: the same run, although the first two toasts are out of the rate window.
    assert.deepEqual(at(p, 'f', 2150), []);
    assert.equal(p.dueAt(), 4150, 'at the end of the run');
    // Two seconds after the last arrival: a new run; the fold due by then goes out first.
    const d = at(p, 'g', 4200);
    assert.ok(d.length === 2 && d[0].type === 'more' && d[1].type === 'single');
    assert.deepEqual(ids(d[0].keys), ['f']);
    assert.deepEqual(d[1].key, key('g'));
  });

  it('a steady stream of extras gets its first "more" notice no later than two seconds after the first extra', () => {
    const p = new NotificationPolicy();
    at(p, 'a', 0);
    at(p, 'b', 100);
    for (const [id, t] of [
      ['c', 200],
      ['d', 600],
      ['e', 1000],
      ['f', 1400],
      ['g', 1800],
    ] as const) {
      assert.deepEqual(at(p, id, t), []);
    }
    assert.equal(p.dueAt(), 2200);
    const d = at(p, 'h', 2200);
    assert.ok(d.length === 1 && d[0].type === 'more');
    assert.deepEqual(ids(d[0].keys), ['c', 'd', 'e', 'f', 'g']);
    assert.equal(p.dueAt(), 4200, 'h waits for the end of the run');
  });

  it('never re-notifies an item, even when re-delivered after a reconnect or re-backfill', () => {
    const p = new NotificationPolicy();
    at(p, 'a', 0);
    at(p, 'a', 5000);
    p.offer(item('a', { source: 'backfill' }), 6000);
    p.endBackfill();
    assert.equal(p.dueAt(), undefined);
    assert.deepEqual(p.flush(99_999), []);
  });

  it('an item withdrawn (resolved) before the shared notice is dropped from it; an empty notice is not shown', () => {
    const p = new NotificationPolicy();
    at(p, 'a', 0);
    at(p, 'b', 10);
    at(p, 'c', 20);
    at(p, 'd', 30);
    p.withdraw(key('c'));
    const d = p.flush(530);
    assert.ok(d.length === 1 && d[0].type === 'more');
    assert.deepEqual(ids(d[0].keys), ['d']);
    at(p, 'e', 600);
    p.withdraw(keyId(key('e')));
    assert.equal(p.dueAt(), undefined);
    assert.deepEqual(p.flush(9999), []);
  });

  it('riskyOnly notifies risky items only, and they alone count toward the rate; skipped ones stay skipped', () => {
    const p = new NotificationPolicy({ mode: 'riskyOnly' });
    assert.deepEqual(at(p, 'safe1', 0, { isRisky: false }), []);
    assert.deepEqual(at(p, 'safe2', 0, { isRisky: false }), []);
    assert.deepEqual(at(p, 'risky', 0), [{ type: 'single', key: key('risky') }]);
    p.mode = 'all';
    assert.deepEqual(at(p, 'safe1', 5000, { isRisky: false }), []);
    assert.deepEqual(p.flush(99_999), []);
  });

  it('off notifies nothing, and switching modes filters what is already queued', () => {
    const p = new NotificationPolicy({ mode: 'off' });
    assert.deepEqual(at(p, 'a', 0), []);
    assert.equal(p.dueAt(), undefined);
    p.mode = 'all';
    at(p, 'b', 10_000);
    at(p, 'c', 10_000);
    at(p, 'd', 10_000, { isRisky: false });
    at(p, 'e', 10_000);
    p.mode = 'riskyOnly';
    const d = p.flush(11_000);
    assert.ok(d.length === 1 && d[0].type === 'more');
    assert.deepEqual(ids(d[0].keys), ['e'], 'the safe extra left the fold');
    at(p, 'f', 20_000, { source: 'backfill' });
    p.mode = 'off';
    assert.equal(p.dueAt(), undefined);
  });

  it('a request offered while the mode is off before its flush is not shown', () => {
    const p = new NotificationPolicy();
    p.offer(item('a'), 0);
    p.mode = 'off';
    assert.deepEqual(p.flush(0), []);
  });

  it('startup backfill items wait for the backfill (or its longer window) and share one merged notice', () => {
    const p = new NotificationPolicy({ backfillWindowMs: 5000 });
    p.offer(item('a', { source: 'backfill' }), 0);
    p.offer(item('b', { source: 'backfill' }), 2000);
    assert.deepEqual(p.flush(2000), [], 'a backfill item is not shown at once');
    p.endBackfill();
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

  it('a backfill that found nothing does not hurry the notice of a later one', () => {
    const p = new NotificationPolicy({ backfillWindowMs: 5000 });
    p.endBackfill();
    p.offer(item('a', { source: 'backfill' }), 1000);
    assert.equal(p.dueAt(), 6000);
    assert.deepEqual(p.flush(1000), []);
  });

  it('what a backfill found does not count toward the live rate', () => {
    const p = new NotificationPolicy();
    for (const id of ['x', 'y', 'z']) {
      p.offer(item(id, { source: 'backfill' }), 0);
    }
    assert.deepEqual(at(p, 'a', 10), [{ type: 'single', key: key('a') }]);
    assert.deepEqual(at(p, 'b', 20), [{ type: 'single', key: key('b') }]);
  });

  it('the seen memory is bounded', () => {
    const p = new NotificationPolicy({ memorySize: 2 });
    for (const id of ['a', 'b', 'c']) {
      at(p, id, 0);
    }
    p.flush(1000);
    assert.deepEqual(at(p, 'a', 5000), [{ type: 'single', key: key('a') }], 'a was forgotten');
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

  it('toasts a new inbox item in the same call that adds it, with no timer, and only once', () => {
    const { timers, inbox, decisions } = setup();
    inbox.apply(opened({ key: key('a') }));
    assert.deepEqual(decisions, [{ type: 'single', key: key('a') }]);
    assert.equal(timers.pending, 0, 'nothing waits for a window');
    inbox.apply(opened({ key: key('a') }));
    timers.advance(10_000);
    assert.equal(decisions.length, 1);
  });

  it('folds the extras of a burst into one "more" notice and leaves out one resolved before it', () => {
    const { timers, inbox, decisions } = setup();
    for (const id of ['a', 'b', 'c', 'd', 'e']) {
      inbox.apply(opened({ key: key(id) }));
      timers.advance(100);
    }
    inbox.apply(resolved(key('d'), 'allow', 0));
    assert.deepEqual(decisions, [
      { type: 'single', key: key('a') },
      { type: 'single', key: key('b') },
    ]);
    timers.advance(1000);
    assert.equal(decisions.length, 3);
    assert.ok(decisions[2].type === 'more');
    assert.deepEqual(ids(decisions[2].keys), ['c', 'e']);
  });

  it('a found item resolved before the backfill notice gives no notice at all', () => {
    const { timers, inbox, decisions } = setup();
    inbox.apply(opened({ key: key('a') }, 'backfill'));
    inbox.apply(resolved(key('a'), 'allow', 0));
    timers.advance(10_000);
    assert.deepEqual(decisions, []);
    assert.equal(timers.pending, 0);
  });

  it('riskyOnly through the inbox: a read is not toasted, an execute is', () => {
    const { inbox, decisions } = setup(new NotificationPolicy({ mode: 'riskyOnly' }));
    inbox.apply(opened({ key: key('r'), kind: 'read' }));
    inbox.apply(opened({ key: key('x'), kind: 'execute' }));
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
    inbox.apply(opened({ key: key('a') }, 'backfill'));
    assert.equal(timers.pending, 1);
    notifier.dispose();
    assert.equal(timers.pending, 0);
    inbox.apply(opened({ key: key('b') }));
    timers.advance(10_000);
    assert.deepEqual(decisions, []);
  });
});
