import * as assert from 'node:assert/strict';
import {
  IN_TURN_TIMEOUT_MS,
  Inbox,
  labelOf,
  severityOf,
  type AnswerTicket,
  type InboxChange,
} from '../../../src/domain/inbox';
import { keyId, type AnswerResult, type FeedEvent } from '../../../src/domain/model';
import { FakeClock, key, opened, request, resolved, SERVER } from './builders';

function setup(opts: { lingerMs?: number; memorySize?: number } = {}) {
  const clock = new FakeClock();
  const inbox = new Inbox({ now: clock.now, ...opts });
  const changes: InboxChange[] = [];
  inbox.onDidChangeItems((c) => changes.push(c));
  return { clock, inbox, changes };
}

function ticketFor(inbox: Inbox, k = key(), optionId = 'allow'): AnswerTicket {
  const r = inbox.beginAnswer(k, optionId);
  assert.ok(r.ok, `beginAnswer refused: ${JSON.stringify(r)}`);
  return r.ticket;
}

const K1 = key('r1');

describe('Inbox', () => {
  describe('opening', () => {
    it('adds an open item with conversation, label, severity, askedAt and the in-turn deadline', () => {
      const { inbox, changes, clock } = setup();
      inbox.apply(opened({ askedAt: clock.t - 1000 }));
      const item = inbox.get(K1)!;
      assert.equal(item.state.kind, 'open');
      assert.equal(item.id, keyId(K1));
      assert.equal(item.label, 'Bash');
      assert.equal(item.severity, 'high');
      assert.equal(item.isRisky, true);
      assert.equal(item.askedAt, clock.t - 1000);
      assert.equal(item.deadline, clock.t - 1000 + IN_TURN_TIMEOUT_MS);
      assert.deepEqual(item.conversation, { server: SERVER, id: 'c1' });
      assert.equal(inbox.openCount, 1);
      assert.deepEqual(changes, [{ ids: [item.id], added: [item.id], removed: [] }]);
    });

    it('uses first-seen time when askedAt is unknown, and no deadline for a detached request without one', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      assert.equal(inbox.get(K1)!.askedAt, clock.t);
      assert.equal(inbox.get(K1)!.deadline, clock.t + IN_TURN_TIMEOUT_MS);
      inbox.apply(opened({ key: key('r2'), detached: true }, 'backfill'));
      assert.equal(inbox.get(key('r2'))!.deadline, undefined);
      assert.equal(inbox.get(key('r2'))!.source, 'backfill');
    });

    it('duplicate opens are idempotent: no change event when nothing new', () => {
      const { inbox, changes } = setup();
      inbox.apply(opened());
      inbox.apply(opened());
      assert.equal(changes.length, 1);
      assert.equal(inbox.all().length, 1);
    });

    it('a later duplicate adds detail (rawParams, summary, deadline) but keeps what was known', () => {
      const { inbox, changes, clock } = setup();
      inbox.apply(opened({ title: undefined, name: 'Bash', summary: undefined }));
      const deadline = clock.t + 86_400_000;
      inbox.apply(
        opened({ title: 'Other', summary: 'command=ls', rawParams: { x: 1 }, detached: true, deadline }, 'backfill'),
      );
      const item = inbox.get(K1)!;
      assert.equal(item.request.title, 'Other', 'title was missing, so it is filled');
      assert.equal(item.request.summary, 'command=ls');
      assert.deepEqual(item.request.rawParams, { x: 1 });
      assert.equal(item.detached, true);
      assert.equal(item.deadline, deadline);
      assert.equal(item.source, 'live');
      assert.equal(changes.length, 2);
      assert.deepEqual(changes[1].added, []);
      inbox.apply(opened({ title: 'Third' }));
      assert.equal(inbox.get(K1)!.request.title, 'Other', 'known values are not replaced');
    });
  });

  describe('label and severity', () => {
    it('label: title, else command string, else argv joined (shell-quoted), else summary, kind, name, "tool"', () => {
      assert.equal(labelOf(request({ title: 'T', rawInput: { command: 'ls' } })), 'T');
      assert.equal(labelOf(request({ title: undefined, rawInput: { command: 'git push' } })), 'git push');
      assert.equal(
        labelOf(request({ title: undefined, rawInput: { command: ['rm', '-rf', 'my dir', "it's"] } })),
        `rm -rf 'my dir' 'it'\\''s'`,
      );
      assert.equal(labelOf(request({ title: undefined, rawInput: { command: 3 }, summary: 'S' })), 'S');
      assert.equal(labelOf(request({ title: undefined, summary: undefined, kind: 'edit' })), 'edit');
      assert.equal(labelOf(request({ title: undefined, summary: undefined, kind: undefined, name: 'N' })), 'N');
      assert.equal(
        labelOf(request({ title: undefined, summary: undefined, kind: undefined, name: undefined })),
        'tool',
      );
    });

    it('severity: execute, delete, fetch, edit, move, switch_mode high; read, search, think, other low; unknown high', () => {
      for (const k of ['execute', 'delete', 'fetch', 'edit', 'move', 'switch_mode']) {
        assert.equal(severityOf(k), 'high', k);
      }
      for (const k of ['read', 'search', 'think', 'other']) {
        assert.equal(severityOf(k), 'low', k);
      }
      assert.equal(severityOf('nuke_everything'), 'high');
      assert.equal(severityOf(undefined), 'high');
      const { inbox } = setup();
      inbox.apply(opened({ kind: 'read' }));
      assert.equal(inbox.get(K1)!.isRisky, false);
    });
  });

  describe('answering', () => {
    it('beginAnswer gives a ticket for an offered option and moves to answering', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      const r = inbox.beginAnswer(K1, 'reject');
      assert.ok(r.ok);
      assert.equal(r.ticket.optionId, 'reject');
      assert.deepEqual(inbox.get(K1)!.state, { kind: 'answering', optionId: 'reject', since: clock.t });
      assert.equal(inbox.get(K1)!.pending, true);
      assert.equal(inbox.get(K1)!.answerable, false);
    });

    it('refuses an option the runtime did not offer, without changing anything', () => {
      const { inbox, changes } = setup();
      inbox.apply(opened());
      assert.deepEqual(inbox.beginAnswer(K1, 'allow_always'), {
        ok: false,
        refusal: { kind: 'notOffered', optionId: 'allow_always' },
      });
      assert.equal(inbox.get(K1)!.state.kind, 'open');
      assert.equal(changes.length, 1);
    });

    it('a second click while answering does nothing', () => {
      const { inbox, changes } = setup();
      inbox.apply(opened());
      ticketFor(inbox, K1, 'allow');
      const before = changes.length;
      const r = inbox.beginAnswer(K1, 'reject');
      assert.deepEqual(r, { ok: false, refusal: { kind: 'busyAnswering', optionId: 'allow' } });
      assert.equal(changes.length, before);
      assert.equal(inbox.get(K1)!.state.kind, 'answering');
    });

    it('refuses an unknown key', () => {
      const { inbox } = setup();
      assert.deepEqual(inbox.beginAnswer(K1, 'allow'), { ok: false, refusal: { kind: 'unknown' } });
    });

    it('answered → answeredByYou', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      const t = ticketFor(inbox);
      clock.advance(200);
      inbox.completeAnswer(t, { kind: 'answered' });
      assert.deepEqual(inbox.get(K1)!.state, { kind: 'answeredByYou', optionId: 'allow', at: clock.t });
      assert.equal(inbox.openCount, 0);
      assert.equal(inbox.get(K1)!.closedAt, clock.t);
    });

    it('notDelivered → answeredByYou with the prompt-to-wake warning', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      inbox.completeAnswer(ticketFor(inbox), { kind: 'notDelivered', message: 'resume failed' });
      const s = inbox.get(K1)!.state;
      assert.equal(s.kind, 'answeredByYou');
      assert.ok(s.kind === 'answeredByYou' && s.promptToWake === true && s.message === 'resume failed');
    });

    it('resolvedElsewhere (409) → resolvedElsewhere, details filled in by the later stream event', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      inbox.completeAnswer(ticketFor(inbox), { kind: 'resolvedElsewhere' });
      assert.deepEqual(inbox.get(K1)!.state, { kind: 'resolvedElsewhere', optionId: null, at: clock.t });
      const closedAt = inbox.get(K1)!.closedAt;
      inbox.apply(resolved(K1, 'reject', clock.t - 500));
      assert.deepEqual(inbox.get(K1)!.state, {
        kind: 'resolvedElsewhere',
        optionId: 'reject',
        outcome: 'answered',
        at: clock.t - 500,
      });
      assert.equal(inbox.get(K1)!.closedAt, closedAt, 'linger is not restarted by the refinement');
    });

    for (const reason of ['busy', 'credits', 'suspended', 'unavailable'] as const) {
      it(`leftOpen(${reason}) stays pending and answerable, showing why`, () => {
        const { inbox } = setup();
        inbox.apply(opened({ detached: true }));
        inbox.completeAnswer(ticketFor(inbox), { kind: 'leftOpen', reason, retryAfterSec: 30 });
        const item = inbox.get(K1)!;
        assert.equal(item.state.kind, 'leftOpen');
        assert.ok(item.state.kind === 'leftOpen' && item.state.reason === reason && item.state.retryAfterSec === 30);
        assert.equal(item.pending, true);
        assert.equal(inbox.openCount, 1);
        assert.ok(inbox.beginAnswer(K1, 'reject').ok, 'answerable again');
      });
    }

    const errors: AnswerResult[] = [
      { kind: 'optionNotOffered', code: 'unknown_option' },
      { kind: 'auth', status: 401 },
      { kind: 'rateLimited', retryAfterSec: 5 },
      { kind: 'network', message: 'socket hang up' },
      { kind: 'unexpected', status: 500 },
      { kind: 'spriteToken' },
    ];
    for (const result of errors) {
      it(`${result.kind} → back to open with lastError, answerable again`, () => {
        const { inbox, clock } = setup();
        inbox.apply(opened());
        inbox.completeAnswer(ticketFor(inbox, K1, 'reject'), result);
        const item = inbox.get(K1)!;
        assert.deepEqual(item.state, { kind: 'open' });
        assert.deepEqual(item.lastError, { optionId: 'reject', at: clock.t, result });
        assert.ok(inbox.beginAnswer(K1, 'allow').ok);
        assert.equal(inbox.get(K1)!.lastError, undefined, 'a new attempt clears the old error');
      });
    }

    it('notFound (404) → closed as no longer waiting', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      inbox.completeAnswer(ticketFor(inbox), { kind: 'notFound' });
      const s = inbox.get(K1)!.state;
      assert.ok(s.kind === 'noLongerWaiting' && s.cause === 'notFound');
    });

    it('a stream resolution with our option while answering means our answer took', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      const t = ticketFor(inbox, K1, 'reject');
      inbox.apply(resolved(K1, 'reject', clock.t + 5));
      assert.deepEqual(inbox.get(K1)!.state, { kind: 'answeredByYou', optionId: 'reject', at: clock.t + 5 });
      inbox.completeAnswer(t, { kind: 'answered' });
      assert.equal(inbox.get(K1)!.state.kind, 'answeredByYou');
    });

    it('a stream resolution with another option while answering means elsewhere, and a late 200 does not change it', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      const t = ticketFor(inbox, K1, 'reject');
      inbox.apply(resolved(K1, 'allow', clock.t + 5));
      const expected = { kind: 'resolvedElsewhere', optionId: 'allow', outcome: 'answered', at: clock.t + 5 };
      assert.deepEqual(inbox.get(K1)!.state, expected);
      inbox.completeAnswer(t, { kind: 'answered' });
      assert.deepEqual(inbox.get(K1)!.state, expected);
    });

    it('a late notDelivered after the stream already said we answered adds the prompt-to-wake warning', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ detached: true }));
      const t = ticketFor(inbox, K1, 'allow');
      inbox.apply(resolved(K1, 'allow', clock.t));
      inbox.completeAnswer(t, { kind: 'notDelivered' });
      const s = inbox.get(K1)!.state;
      assert.ok(s.kind === 'answeredByYou' && s.promptToWake === true);
    });

    it('a late 200 beats a closure the inbox inferred itself (turn ended) while the POST was in flight', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      const t = ticketFor(inbox);
      inbox.apply({ type: 'turnEnded', server: SERVER, conversationId: 'c1', at: clock.t });
      assert.equal(inbox.get(K1)!.state.kind, 'turnEnded');
      inbox.completeAnswer(t, { kind: 'answered' });
      assert.equal(inbox.get(K1)!.state.kind, 'answeredByYou');
    });

    it('an old ticket from a failed attempt does not complete a newer attempt', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      const t1 = ticketFor(inbox, K1, 'allow');
      inbox.completeAnswer(t1, { kind: 'network', message: 'x' });
      ticketFor(inbox, K1, 'reject');
      inbox.completeAnswer(t1, { kind: 'network', message: 'late duplicate' });
      assert.equal(inbox.get(K1)!.state.kind, 'answering');
    });
  });

  describe('resolution events', () => {
    it('outcome answered by someone else → resolvedElsewhere with option, outcome and when', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      inbox.apply(resolved(K1, 'allow', 42));
      assert.deepEqual(inbox.get(K1)!.state, {
        kind: 'resolvedElsewhere',
        optionId: 'allow',
        outcome: 'answered',
        at: 42,
      });
    });

    it('outcome timeout → expired (server), turn_ended → turnEnded, anything else → resolvedElsewhere', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('a') }));
      inbox.apply(opened({ key: key('b') }));
      inbox.apply(opened({ key: key('c') }));
      inbox.apply(resolved(key('a'), 'reject', 10, 'timeout'));
      inbox.apply(resolved(key('b'), null, 11, 'turn_ended'));
      inbox.apply(resolved(key('c'), null, 12, 'cancelled_by_admin'));
      assert.deepEqual(inbox.get(key('a'))!.state, { kind: 'expired', at: 10, source: 'server', optionId: 'reject' });
      assert.deepEqual(inbox.get(key('b'))!.state, { kind: 'turnEnded', at: 11 });
      assert.deepEqual(inbox.get(key('c'))!.state, {
        kind: 'resolvedElsewhere',
        optionId: null,
        outcome: 'cancelled_by_admin',
        at: 12,
      });
    });

    it('the first resolution wins', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      inbox.apply(resolved(K1, 'allow', 1));
      inbox.apply(resolved(K1, 'reject', 2));
      assert.deepEqual(inbox.get(K1)!.state, {
        kind: 'resolvedElsewhere',
        optionId: 'allow',
        outcome: 'answered',
        at: 1,
      });
    });

    it('a resolution before its request is remembered: the later open does not resurrect it', () => {
      const { inbox, changes } = setup();
      inbox.apply(resolved(K1, 'reject', 7));
      inbox.apply(opened({}, 'backfill'));
      assert.equal(inbox.get(K1), undefined);
      assert.equal(inbox.openCount, 0);
      assert.equal(changes.length, 0);
      assert.deepEqual(inbox.clickCheck(K1, 'allow'), {
        kind: 'stale',
        closure: { kind: 'resolvedElsewhere', optionId: 'reject', outcome: 'answered', at: 7 },
      });
    });

    it('the memory of early resolutions is bounded (oldest forgotten first)', () => {
      const { inbox } = setup({ memorySize: 2 });
      inbox.apply(resolved(key('a'), 'allow', 1));
      inbox.apply(resolved(key('b'), 'allow', 1));
      inbox.apply(resolved(key('c'), 'allow', 1));
      inbox.apply(opened({ key: key('a') }));
      inbox.apply(opened({ key: key('c') }));
      assert.ok(inbox.get(key('a')), 'a was forgotten, so it opens');
      assert.equal(inbox.get(key('c')), undefined, 'c is still remembered');
    });
  });

  describe('turns and conversations', () => {
    it('turnEndedWaiting detaches the item with its deadline and keeps it open', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ turnId: 't1' }));
      const deadline = clock.t + 2 * 86_400_000;
      inbox.apply({ type: 'turnEndedWaiting', key: K1, deadline, turnId: 't1' });
      const item = inbox.get(K1)!;
      assert.equal(item.state.kind, 'open');
      assert.equal(item.detached, true);
      assert.equal(item.deadline, deadline);
    });

    it('turnEndedWaiting seen before the request applies when it opens', () => {
      const { inbox, clock } = setup();
      inbox.apply({ type: 'turnEndedWaiting', key: K1, deadline: clock.t + 1000 });
      inbox.apply(opened());
      assert.equal(inbox.get(K1)!.detached, true);
      assert.equal(inbox.get(K1)!.deadline, clock.t + 1000);
    });

    it('turnEnded closes the in-turn items of that conversation only, not detached ones or other conversations', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('in', 'c1') }));
      inbox.apply(opened({ key: key('det', 'c1'), detached: true }));
      inbox.apply(opened({ key: key('other', 'c2') }));
      inbox.apply(opened({ key: key('otherServer', 'c1', 'http://127.0.0.1:9') }));
      inbox.apply({ type: 'turnEnded', server: SERVER, conversationId: 'c1', stopReason: 'end_turn', at: 5 });
      assert.deepEqual(inbox.get(key('in', 'c1'))!.state, { kind: 'turnEnded', at: 5, stopReason: 'end_turn' });
      assert.equal(inbox.get(key('det', 'c1'))!.state.kind, 'open');
      assert.equal(inbox.get(key('other', 'c2'))!.state.kind, 'open');
      assert.equal(inbox.get(key('otherServer', 'c1', 'http://127.0.0.1:9'))!.state.kind, 'open');
    });

    it('turnEnded spares items of another known turn and items asked after it ended', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('t2'), turnId: 't2' }));
      inbox.apply(opened({ key: key('later'), askedAt: 100 }));
      inbox.apply({ type: 'turnEnded', server: SERVER, conversationId: 'c1', turnId: 't1', at: 50 });
      assert.equal(inbox.get(key('t2'))!.state.kind, 'open');
      assert.equal(inbox.get(key('later'))!.state.kind, 'open');
    });

    it('conversationEnded closes every item of the conversation, detached included', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('a', 'c1') }));
      inbox.apply(opened({ key: key('b', 'c1'), detached: true }));
      inbox.apply(opened({ key: key('c', 'c2') }));
      inbox.apply({ type: 'conversationEnded', server: SERVER, conversationId: 'c1', reason: 'terminated', at: 9 });
      assert.deepEqual(inbox.get(key('a'))!.state, { kind: 'conversationEnded', at: 9, reason: 'terminated' });
      assert.equal(inbox.get(key('b'))!.state.kind, 'conversationEnded');
      assert.equal(inbox.get(key('c', 'c2'))!.state.kind, 'open');
      inbox.apply(opened({ key: key('z', 'c1'), askedAt: 8 }, 'backfill'));
      assert.equal(inbox.get(key('z', 'c1')), undefined, 'a request asked before the end is not resurrected');
    });

    it('conversation events update the conversation info shown on its items', () => {
      const { inbox, changes } = setup();
      inbox.apply(opened());
      inbox.apply({
        type: 'conversation',
        conversation: { server: SERVER, id: 'c1', title: 'Fix bug', runtime: 'claude' },
      });
      inbox.apply({ type: 'conversation', conversation: { server: SERVER, id: 'c1', agentName: 'Bob' } });
      assert.deepEqual(inbox.get(K1)!.conversation, {
        server: SERVER,
        id: 'c1',
        title: 'Fix bug',
        runtime: 'claude',
        agentName: 'Bob',
      });
      assert.deepEqual(changes.at(-1)!.ids, [keyId(K1)]);
    });
  });

  describe('backfillComplete', () => {
    const complete = (openKeys: string[], conversationIds: string[], startedAt?: number): FeedEvent => ({
      type: 'backfillComplete',
      server: SERVER,
      openKeys: new Set(openKeys),
      conversationIds: new Set(conversationIds),
      at: 77,
      startedAt,
    });

    it('closes items of the read conversations that the backfill did not find', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('gone', 'c1') }));
      inbox.apply(opened({ key: key('kept', 'c1') }));
      inbox.apply(opened({ key: key('unread', 'c2') }));
      inbox.apply(complete([keyId(key('kept', 'c1'))], ['c1']));
      assert.deepEqual(inbox.get(key('gone'))!.state, { kind: 'noLongerWaiting', at: 77, cause: 'backfill' });
      assert.equal(inbox.get(key('kept'))!.state.kind, 'open');
      assert.equal(inbox.get(key('unread', 'c2'))!.state.kind, 'open');
    });

    it('closes an absent in-turn item only of a conversation whose in-turn requests were read', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('inturn', 'c1') }));
      inbox.apply(opened({ key: key('detached', 'c1'), detached: true }));
      inbox.apply(opened({ key: key('inturn2', 'c2') }));
      inbox.apply({ ...complete([], ['c1', 'c2']), inTurnRead: new Set(['c2']) } as FeedEvent);
      assert.equal(inbox.get(key('inturn', 'c1'))!.state.kind, 'open', 'its feed was not read');
      assert.equal(inbox.get(key('detached', 'c1'))!.state.kind, 'noLongerWaiting', 'pending_requests were read');
      assert.equal(inbox.get(key('inturn2', 'c2'))!.state.kind, 'noLongerWaiting');
    });

    it('leaves an answer in flight alone, and items first seen after the backfill started', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ key: key('busy') }));
      ticketFor(inbox, key('busy'));
      const startedAt = clock.t;
      clock.advance(10);
      inbox.apply(opened({ key: key('new') }));
      inbox.apply(complete([], ['c1'], startedAt));
      assert.equal(inbox.get(key('busy'))!.state.kind, 'answering');
      assert.equal(inbox.get(key('new'))!.state.kind, 'open');
    });
  });

  describe('time: deadlines and linger', () => {
    it('an in-turn item expires 5 minutes after it was asked, not before', () => {
      const { inbox, clock, changes } = setup();
      inbox.apply(opened({ askedAt: clock.t }));
      const asked = clock.t;
      inbox.tick(asked + IN_TURN_TIMEOUT_MS - 1);
      assert.equal(inbox.get(K1)!.state.kind, 'open');
      const n = changes.length;
      inbox.tick(asked + IN_TURN_TIMEOUT_MS);
      assert.deepEqual(inbox.get(K1)!.state, { kind: 'expired', at: asked + IN_TURN_TIMEOUT_MS, source: 'clock' });
      assert.equal(changes.length, n + 1);
      assert.equal(inbox.openCount, 0);
    });

    it('a detached item expires at its own deadline', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ detached: true, deadline: clock.t + 10 * 60_000 }));
      inbox.tick(clock.t + 9 * 60_000);
      assert.equal(inbox.get(K1)!.state.kind, 'open');
      inbox.tick(clock.t + 10 * 60_000);
      assert.equal(inbox.get(K1)!.state.kind, 'expired');
    });

    it('an answer in flight is not expired by the clock', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ askedAt: clock.t }));
      ticketFor(inbox);
      inbox.tick(clock.t + IN_TURN_TIMEOUT_MS + 1);
      assert.equal(inbox.get(K1)!.state.kind, 'answering');
    });

    it('a clock expiry is undone when the turn turns out to have ended waiting with a later deadline', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ askedAt: clock.t }));
      clock.advance(IN_TURN_TIMEOUT_MS);
      inbox.tick();
      assert.equal(inbox.get(K1)!.state.kind, 'expired');
      inbox.apply({ type: 'turnEndedWaiting', key: K1, deadline: clock.t + 86_400_000 });
      assert.equal(inbox.get(K1)!.state.kind, 'open');
      assert.equal(inbox.get(K1)!.closedAt, undefined);
    });

    it('closed items linger 30 s by default, then leave with a removed change', () => {
      const { inbox, clock, changes } = setup();
      inbox.apply(opened());
      inbox.apply(resolved(K1, 'allow', clock.t));
      assert.equal(inbox.nextWakeAt(), clock.t + 30_000);
      inbox.tick(clock.t + 29_999);
      assert.ok(inbox.get(K1));
      assert.equal(inbox.all().length, 1);
      inbox.tick(clock.t + 30_000);
      assert.equal(inbox.get(K1), undefined);
      assert.deepEqual(changes.at(-1), { ids: [keyId(K1)], added: [], removed: [keyId(K1)] });
    });

    it('linger is configurable', () => {
      const { inbox, clock } = setup({ lingerMs: 1000 });
      inbox.apply(opened());
      inbox.apply(resolved(K1, 'allow', clock.t));
      inbox.tick(clock.t + 1000);
      assert.equal(inbox.get(K1), undefined);
    });

    it('an item that lingered out is not resurrected by a replay, and a click still says what happened', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened());
      inbox.apply(resolved(K1, 'reject', clock.t - 12_000));
      inbox.tick(clock.t + 30_000);
      inbox.apply(opened({}, 'backfill'));
      assert.equal(inbox.get(K1), undefined);
      assert.deepEqual(inbox.clickCheck(K1, 'allow'), {
        kind: 'stale',
        closure: { kind: 'resolvedElsewhere', optionId: 'reject', outcome: 'answered', at: clock.t - 12_000 },
        optionName: 'Reject',
      });
    });

    it('nextWakeAt is the earliest deadline of answerable items', () => {
      const { inbox, clock } = setup();
      assert.equal(inbox.nextWakeAt(), undefined);
      inbox.apply(opened({ key: key('a'), askedAt: clock.t }));
      inbox.apply(opened({ key: key('b'), detached: true, deadline: clock.t + 1000 }));
      assert.equal(inbox.nextWakeAt(), clock.t + 1000);
    });
  });

  describe('clickCheck', () => {
    it('answerable with the offered option object', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      const c = inbox.clickCheck(K1, 'reject');
      assert.equal(c.kind, 'answerable');
      assert.ok(c.kind === 'answerable' && c.option.name === 'Reject' && c.item.id === keyId(K1));
    });

    it('stale: already answered elsewhere names the option and when', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      inbox.apply(resolved(K1, 'always', 123));
      assert.deepEqual(inbox.clickCheck(K1, 'allow'), {
        kind: 'stale',
        closure: { kind: 'resolvedElsewhere', optionId: 'always', outcome: 'answered', at: 123 },
        optionName: 'Always allow',
      });
      const r = inbox.beginAnswer(K1, 'allow');
      assert.ok(!r.ok && r.refusal.kind === 'stale');
    });

    it('stale: expired and turn ended', () => {
      const { inbox, clock } = setup();
      inbox.apply(opened({ key: key('e'), askedAt: clock.t }));
      inbox.apply(opened({ key: key('t', 'c2') }));
      inbox.apply({ type: 'turnEnded', server: SERVER, conversationId: 'c2', at: 3 });
      inbox.tick(clock.t + IN_TURN_TIMEOUT_MS);
      const e = inbox.clickCheck(key('e'), 'allow');
      assert.ok(e.kind === 'stale' && e.closure.kind === 'expired' && e.optionName === undefined);
      const t = inbox.clickCheck(key('t', 'c2'), 'allow');
      assert.deepEqual(t, {
        kind: 'stale',
        closure: { kind: 'turnEnded', at: 3, stopReason: undefined },
        optionName: undefined,
      });
    });

    it('clickCheck never changes state', () => {
      const { inbox, changes } = setup();
      inbox.apply(opened());
      inbox.clickCheck(K1, 'allow');
      assert.equal(changes.length, 1);
      assert.equal(inbox.get(K1)!.state.kind, 'open');
    });
  });

  describe('queries', () => {
    it('open() is oldest first across conversations; all() includes lingering items; byConversation groups', () => {
      const { inbox } = setup();
      inbox.apply(opened({ key: key('x', 'c2'), askedAt: 300 }));
      inbox.apply(opened({ key: key('y', 'c1'), askedAt: 100 }));
      inbox.apply(opened({ key: key('z', 'c2'), askedAt: 200 }));
      inbox.apply(opened({ key: key('w', 'c1'), askedAt: 400 }));
      inbox.apply(resolved(key('w', 'c1'), 'allow', 500));
      assert.deepEqual(
        inbox.open().map((i) => i.key.requestId),
        ['y', 'z', 'x'],
      );
      assert.equal(inbox.all().length, 4);
      assert.equal(inbox.openCount, 3);
      const groups = inbox.byConversation();
      assert.deepEqual(
        groups.map((g) => [g.conversationId, g.items.map((i) => i.key.requestId)]),
        [
          ['c1', ['y', 'w']],
          ['c2', ['z', 'x']],
        ],
      );
    });

    it('snapshots are immutable values: a change makes a new object', () => {
      const { inbox } = setup();
      inbox.apply(opened());
      const before = inbox.get(K1)!;
      ticketFor(inbox);
      assert.notEqual(inbox.get(K1), before);
      assert.equal(before.state.kind, 'open');
    });
  });
});

describe('a stale click names what closed the item', () => {
  it('a clickCheck after a resolution elsewhere carries the closure and the winning option name', () => {
    const clock = new FakeClock();
    const inbox = new Inbox({ now: clock.now });
    inbox.apply(opened());
    inbox.apply(resolved(K1, 'always', clock.t - 30_000));
    const c = inbox.clickCheck(K1, 'allow');
    assert.ok(c.kind === 'stale');
    assert.equal(c.optionName, 'Always allow');
    assert.deepEqual(c.closure, {
      kind: 'resolvedElsewhere',
      optionId: 'always',
      outcome: 'answered',
      at: clock.t - 30_000,
    });
  });
});
