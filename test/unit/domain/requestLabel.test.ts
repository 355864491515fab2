import * as assert from 'node:assert/strict';
import { planOf } from '../../../src/domain/requestLabel';

describe('domain/requestLabel: plan approvals', () => {
  it("claude's ExitPlanMode (kind switch_mode, rawInput.plan) carries the whole plan", () => {
    const plan = '1. touch a marker file\n2. report back';
    assert.equal(planOf({ kind: 'switch_mode', rawInput: { plan } }), plan);
  });
  it('anything else is not a plan: another kind, no plan, an empty or non-string plan', () => {
    assert.equal(planOf({ kind: 'execute', rawInput: { plan: 'x' } }), undefined);
    assert.equal(planOf({ kind: 'switch_mode', rawInput: { mode: 'default' } }), undefined);
    assert.equal(planOf({ kind: 'switch_mode', rawInput: { plan: '  ' } }), undefined);
    assert.equal(planOf({ kind: 'switch_mode', rawInput: { plan: ['a'] } }), undefined);
    assert.equal(planOf({ kind: 'switch_mode', rawInput: 'plan' }), undefined);
    assert.equal(planOf({ kind: 'switch_mode' }), undefined);
  });
});
