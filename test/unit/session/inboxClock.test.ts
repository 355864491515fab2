import * as assert from 'node:assert/strict';
import { Inbox, IN_TURN_TIMEOUT_MS } from '../../../src/domain/inbox';
import { COUNTDOWN_MS, InboxClock } from '../../../src/session/inboxClock';
import { key, opened, resolved } from '../domain/builders';
import { FakeTimers } from '../protocol/fakes';

describe('InboxClock: the one scheduler of the inbox time', () => {
  it('ticks the inbox at a deadline, beats the countdown only while something is open, and then stops', async () => {
    const timers = new FakeTimers();
    const inbox = new Inbox({ now: () => timers.now(), lingerMs: 1_000 });
    const clock = new InboxClock(inbox, timers);
    let beats = 0;
    clock.onDidCountdown(() => beats++);
    assert.equal(timers.pending, 0, 'an empty inbox needs no timer');
    inbox.apply(opened({ key: key('r1'), askedAt: timers.now() }));
    await timers.advance(COUNTDOWN_MS * 2);
    assert.equal(beats, 2);
    assert.equal(inbox.get(key('r1'))!.state.kind, 'open');
    await timers.advance(IN_TURN_TIMEOUT_MS);
    assert.equal(inbox.get(key('r1')), undefined, 'expired on the clock, then lingered out');
    const after = beats;
    await timers.advance(COUNTDOWN_MS * 3);
    assert.equal(beats, after, 'no beat once nothing is open');
    assert.equal(timers.pending, 0);
    clock.dispose();
    inbox.dispose();
  });

  it('beats while a closed request is still shown (its "answered elsewhere · N seconds ago" moves on), then stops', async () => {
    const timers = new FakeTimers();
    const inbox = new Inbox({ now: () => timers.now(), lingerMs: COUNTDOWN_MS * 2 + 1_000 });
    const clock = new InboxClock(inbox, timers);
    let beats = 0;
    clock.onDidCountdown(() => beats++);
    inbox.apply(opened({ key: key('r1'), askedAt: timers.now() }));
    inbox.apply(resolved(key('r1'), 'reject', timers.now()));
    assert.equal(inbox.openCount, 0, 'nothing is waiting');
    await timers.advance(COUNTDOWN_MS * 2);
    assert.equal(beats, 2, 'the lingering row still gets its beats');
    await timers.advance(COUNTDOWN_MS * 2);
    assert.equal(inbox.get(key('r1')), undefined, 'lingered out');
    const after = beats;
    await timers.advance(COUNTDOWN_MS * 3);
    assert.equal(beats, after);
    assert.equal(timers.pending, 0);
    clock.dispose();
    inbox.dispose();
  });
});
