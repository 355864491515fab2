import * as assert from 'node:assert/strict';
import { autoOutcome, type OptionLike } from '../../../src/policy';

// Option lists as real adapters send them (ids differ across generations; only the kind carries meaning).
const claude016: OptionLike[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const claude066: OptionLike[] = [
  { optionId: 'reject', name: 'Deny', kind: 'reject_once' },
  { optionId: 'allow', name: 'Allow Once', kind: 'allow_once' },
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
];
const claude0101NoRule: OptionLike[] = [
  { optionId: 'allow-once', name: 'Yes', kind: 'allow_once' },
  { optionId: 'reject', name: 'No', kind: 'reject_once' },
];
const codexNetwork: OptionLike[] = [
  { optionId: 'allow_once', name: 'Allow Once', kind: 'allow_once' },
  { optionId: 'apply_network_policy_amendment:0', name: 'Allow Host', kind: 'allow_always' },
  { optionId: 'apply_network_policy_amendment:1', name: 'Block Host', kind: 'reject_always' },
  { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
];
const planExit: OptionLike[] = [
  { optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'switch_mode' },
  { optionId: 'plan', name: 'No, keep planning', kind: 'switch_mode' },
];

describe('automatic outcomes', () => {
  it('auto_allow picks allow_always, wherever it sits in the list', () => {
    assert.deepEqual(autoOutcome('auto_allow', claude016), { outcome: 'selected', optionId: 'allow_always' });
    assert.deepEqual(autoOutcome('auto_allow', claude066), { outcome: 'selected', optionId: 'allow_always' });
    assert.deepEqual(autoOutcome('auto_allow', codexNetwork), {
      outcome: 'selected',
      optionId: 'apply_network_policy_amendment:0',
    });
  });

  it('auto_allow falls back to allow_once, then to the first option offered', () => {
    assert.deepEqual(autoOutcome('auto_allow', claude0101NoRule), { outcome: 'selected', optionId: 'allow-once' });
    assert.deepEqual(autoOutcome('auto_allow', planExit), { outcome: 'selected', optionId: 'acceptEdits' });
  });

  it('auto_deny picks reject_always, else reject_once', () => {
    assert.deepEqual(autoOutcome('auto_deny', codexNetwork), {
      outcome: 'selected',
      optionId: 'apply_network_policy_amendment:1',
    });
    assert.deepEqual(autoOutcome('auto_deny', claude016), { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(autoOutcome('auto_deny', claude066), { outcome: 'selected', optionId: 'reject' });
  });

  it('auto_deny never falls back to the first option: with no reject offered it is cancelled', () => {
    assert.deepEqual(autoOutcome('auto_deny', planExit), { outcome: 'cancelled' });
    assert.deepEqual(autoOutcome('auto_deny', [{ optionId: 'go', name: 'Go', kind: 'allow_once' }]), {
      outcome: 'cancelled',
    });
  });

  it('with nothing offered, both verdicts are cancelled rather than an invented id', () => {
    assert.deepEqual(autoOutcome('auto_allow', []), { outcome: 'cancelled' });
    assert.deepEqual(autoOutcome('auto_deny', []), { outcome: 'cancelled' });
  });

  it('takes the first option of a kind when the agent offers several', () => {
    const two: OptionLike[] = [
      { optionId: 'r1', kind: 'reject_once' },
      { optionId: 'r2', kind: 'reject_once' },
    ];
    assert.deepEqual(autoOutcome('auto_deny', two), { outcome: 'selected', optionId: 'r1' });
  });

  it('skips hostile entries (non-objects, ids that are not strings) instead of sending them', () => {
    const hostile = [
      null,
      'reject_once',
      { optionId: 5, kind: 'reject_always' },
      { optionId: { id: 'x' }, kind: 'allow_always' },
      { optionId: 'no', kind: 'reject_once' },
      { optionId: 'yes', kind: 'allow_once' },
    ] as unknown as OptionLike[];
    assert.deepEqual(autoOutcome('auto_deny', hostile), { outcome: 'selected', optionId: 'no' });
    assert.deepEqual(autoOutcome('auto_allow', hostile), { outcome: 'selected', optionId: 'yes' });
    assert.deepEqual(autoOutcome('auto_allow', [null, { optionId: 'second' }] as unknown as OptionLike[]), {
      outcome: 'cancelled',
    });
    assert.deepEqual(autoOutcome('auto_allow', 'nope' as unknown as OptionLike[]), { outcome: 'cancelled' });
  });

  it('reads kinds exactly: a near-miss kind is not a reject', () => {
    const odd: OptionLike[] = [
      { optionId: 'x', kind: 'REJECT_ONCE' },
      { optionId: 'y', kind: 'reject' },
    ];
    assert.deepEqual(autoOutcome('auto_deny', odd), { outcome: 'cancelled' });
  });

  it('answers a non-allow verdict handed in at run time as a deny', () => {
    assert.deepEqual(autoOutcome('ask' as unknown as 'auto_deny', claude016), {
      outcome: 'selected',
      optionId: 'reject',
    });
  });
});
