import * as assert from 'node:assert/strict';
import { AttentionTracker, hasWaitedLong, LONG_WAIT_MS, TOAST_HIDES_AFTER_MS } from '../../../src/domain/attention';

const waiting =
  (...ids: string[]) =>
  (id: string) =>
    ids.includes(id);

describe('AttentionTracker', () => {
  it('on a focus gain, names the waiting requests whose toast hid after 12 s of focused time', () => {
    const a = new AttentionTracker(true, 0);
    a.shown(['a'], 0);
    a.shown(['b'], 5000);
    assert.deepEqual(a.focus(false, TOAST_HIDES_AFTER_MS, waiting('a', 'b')), [], 'a blur reminds of nothing');
    // a was on screen 12 s of focused time (hidden); b only 7 s (still showing).
    assert.deepEqual(a.focus(true, 60_000, waiting('a', 'b')), ['a']);
  });

  it('time in the background does not hide a toast', () => {
    const a = new AttentionTracker(false, 0);
    a.shown(['a'], 0);
    assert.deepEqual(a.focus(true, 600_000, waiting('a')), [], 'shown while unfocused: it is still on screen');
    assert.deepEqual(a.focus(false, 611_999, waiting('a')), []);
    assert.deepEqual(a.focus(true, 700_000, waiting('a')), [], '11.999 s of focused time');
    a.focus(false, 700_001, waiting('a'));
    assert.deepEqual(a.focus(true, 800_000, waiting('a')), ['a']);
  });

  it('a reminder counts as the new toast: a focus flicker right after it stays quiet', () => {
    const a = new AttentionTracker(true, 0);
    a.shown(['a', 'b'], 0);
    a.focus(false, 20_000, waiting('a', 'b'));
    const due = a.focus(true, 30_000, waiting('a', 'b'));
    assert.deepEqual(due, ['a', 'b']);
    a.shown(due, 30_000);
    a.focus(false, 30_100, waiting('a', 'b'));
    assert.deepEqual(a.focus(true, 30_200, waiting('a', 'b')), [], 'once per gain, not on every flicker');
    assert.deepEqual(a.focus(true, 30_300, waiting('a', 'b')), [], 'a repeated "focused" is no gain');
  });

  it('a window state event with the focus unchanged is no gain', () => {
    const a = new AttentionTracker(true, 0);
    a.shown(['a'], 0);
    a.focus(false, 20_000, waiting('a'));
    assert.deepEqual(a.focus(true, 30_000, waiting('a')), ['a']);
    // (VS Code also reports other window state, e.g. "active", with `focused` unchanged.)
    assert.deepEqual(a.focus(true, 30_500, waiting('a')), []);
  });

  it('a toast the user closed counts as hidden; a later toast of the same request is not', () => {
    const a = new AttentionTracker(true, 0);
    a.shown(['a'], 0);
    a.closed(['a'], 0);
    a.focus(false, 100, waiting('a'));
    assert.deepEqual(a.focus(true, 200, waiting('a')), ['a']);
    a.shown(['a'], 200);
    a.closed(['a'], 0); // the old toast closing again says nothing about the new one
    a.focus(false, 300, waiting('a'));
    assert.deepEqual(a.focus(true, 400, waiting('a')), []);
  });

  it('requests no longer waiting, and requests never toasted, bring nothing', () => {
    const a = new AttentionTracker(true, 0);
    a.shown(['a'], 0);
    a.focus(false, 20_000, waiting('a'));
    assert.deepEqual(a.focus(true, 30_000, waiting('x')), [], 'a was answered; x never had a toast here');
    a.focus(false, 40_000, waiting('a'));
    assert.deepEqual(a.focus(true, 50_000, waiting('a')), [], 'a was forgotten once it stopped waiting');
  });
});

describe('hasWaitedLong (the status bar warning)', () => {
  const req = (askedAt: number, pending = true) => ({ askedAt, pending });

  it('is true while a pending request has waited over a minute, counted from when it was asked', () => {
    assert.equal(hasWaitedLong([req(0), req(50_000)], LONG_WAIT_MS), false, 'exactly a minute is not over');
    assert.equal(hasWaitedLong([req(50_000), req(0)], LONG_WAIT_MS + 1), true);
  });

  it('ignores requests no longer pending, and an empty inbox', () => {
    assert.equal(hasWaitedLong([req(0, false), req(100_000)], 120_000), false);
    assert.equal(hasWaitedLong([], 1e12), false);
  });
});
