import * as assert from 'node:assert/strict';
import { planBatch } from '../../../src/domain/batchPlan';
import { Inbox } from '../../../src/domain/inbox';
import type { PermissionOption } from '../../../src/domain/model';
import { key, opened } from './builders';

const NOW = 1_000_000;
const CLAUDE: PermissionOption[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const GEMINI: PermissionOption[] = [
  { optionId: 'proceed_always', name: 'Allow for this session', kind: 'allow_always' },
  { optionId: 'proceed_once', name: 'Allow', kind: 'allow_once' },
  { optionId: 'cancel', name: 'Reject', kind: 'reject_once' },
];
const ALWAYS_ONLY: PermissionOption[] = [
  { optionId: 'always', name: 'Allow', kind: 'allow_always' },
  { optionId: 'never', name: 'Never', kind: 'reject_always' },
];

function inboxOf(): Inbox {
  const inbox = new Inbox({ now: () => NOW });
  inbox.apply(opened({ key: key('claude', 'c1'), askedAt: NOW - 3000, options: CLAUDE }));
  inbox.apply(opened({ key: key('gemini', 'c2'), askedAt: NOW - 2000, options: GEMINI }));
  inbox.apply(opened({ key: key('always', 'c3'), askedAt: NOW - 1000, options: ALWAYS_ONLY }));
  return inbox;
}

const ids = (entries: readonly { item: { key: { requestId: string } } }[]) => entries.map((e) => e.item.key.requestId);

describe('domain/batchPlan: Allow Selected… / Reject Selected…', () => {
  it('Allow gives each request its own allow_once option, never an always option; one without it is skipped', () => {
    const inbox = inboxOf();
    const plan = planBatch(inbox.open(), 'allow');
    assert.deepEqual(
      plan.send.map((s) => [s.item.key.requestId, s.option.optionId, s.option.kind]),
      [
        ['claude', 'allow', 'allow_once'],
        ['gemini', 'proceed_once', 'allow_once'],
      ],
    );
    assert.deepEqual(
      plan.skip.map((s) => [s.item.key.requestId, s.reason]),
      [['always', 'noOption']],
    );
    // Every option sent is one of that request's offered objects, unchanged.
    for (const s of plan.send) {
      assert.ok(s.item.request.options.includes(s.option));
    }
  });

  it('Reject gives each its own reject option (reject_once, else reject_always)', () => {
    const plan = planBatch(inboxOf().open(), 'reject');
    assert.deepEqual(
      plan.send.map((s) => [s.item.key.requestId, s.option.optionId]),
      [
        ['claude', 'reject'],
        ['gemini', 'cancel'],
        ['always', 'never'],
      ],
    );
    assert.equal(plan.skip.length, 0);
  });

  it('a request selected twice is answered once; closed and in-flight requests are listed as skipped', () => {
    const inbox = inboxOf();
    const [claude, gemini, always] = inbox.open();
    assert.ok(inbox.beginAnswer(gemini.key, 'proceed_once').ok);
    inbox.apply({
      type: 'requestResolved',
      key: always.key,
      outcome: 'answered',
      optionId: 'never',
      detached: false,
      at: NOW,
    });
    const plan = planBatch([claude, claude, inbox.get(gemini.id)!, inbox.get(always.id)!], 'allow');
    assert.deepEqual(ids(plan.send), ['claude']);
    assert.deepEqual(
      plan.skip.map((s) => [s.item.key.requestId, s.reason]),
      [
        ['gemini', 'notWaiting'],
        ['always', 'notWaiting'],
      ],
    );
  });

  it('plans the most urgent first', () => {
    const inbox = new Inbox({ now: () => NOW });
    inbox.apply(opened({ key: key('far', 'c1'), askedAt: NOW - 5000, detached: true, deadline: NOW + 86_400_000 }));
    inbox.apply(opened({ key: key('near', 'c2'), askedAt: NOW - 1000, detached: true, deadline: NOW + 60_000 }));
    assert.deepEqual(ids(planBatch(inbox.open(), 'allow').send), ['near', 'far']);
    assert.deepEqual(planBatch([], 'allow'), { kind: 'allow', send: [], skip: [] });
  });
});
