import * as assert from 'node:assert/strict';
import type { PermissionOption } from '../../../src/domain/model';
import { inlineAllowOption, inlineRejectOption, toastButtons } from '../../../src/domain/optionChoice';

const opt = (optionId: string, kind: string): PermissionOption => ({ optionId, name: `Name ${optionId}`, kind });
const ids = (os: readonly PermissionOption[]) => os.map((o) => o.optionId);

describe('optionChoice', () => {
  describe('toastButtons', () => {
    it('2 options: both, in the agent order', () => {
      const r = toastButtons([opt('no', 'reject_once'), opt('yes', 'allow_once')]);
      assert.deepEqual(ids(r.options), ['no', 'yes']);
      assert.equal(r.more, false);
    });

    it('3 options: all three, in order, including unknown kinds', () => {
      const os = [opt('a', 'allow_once'), opt('w', 'weird'), opt('r', 'reject_once')];
      const r = toastButtons(os);
      assert.deepEqual(ids(r.options), ['a', 'w', 'r']);
      assert.equal(r.more, false);
      assert.equal(r.options[1], os[1], 'returns the offered object itself');
    });

    it('4 options: first allow-kind and first reject-kind plus more', () => {
      const r = toastButtons([
        opt('always', 'allow_always'),
        opt('once', 'allow_once'),
        opt('never', 'reject_always'),
        opt('no', 'reject_once'),
      ]);
      assert.deepEqual(ids(r.options), ['always', 'never']);
      assert.equal(r.more, true);
    });

    it('6 options: keeps the agent order of the two picks', () => {
      const r = toastButtons([
        opt('x', 'other'),
        opt('no', 'reject_once'),
        opt('y', 'other'),
        opt('once', 'allow_once'),
        opt('always', 'allow_always'),
        opt('never', 'reject_always'),
      ]);
      assert.deepEqual(ids(r.options), ['no', 'once']);
      assert.equal(r.more, true);
    });

    it('many options of neither kind: no buttons, only more', () => {
      const r = toastButtons([opt('a', 'x'), opt('b', 'x'), opt('c', 'x'), opt('d', 'x')]);
      assert.deepEqual(ids(r.options), []);
      assert.equal(r.more, true);
    });

    it('0 options: nothing', () => {
      assert.deepEqual(toastButtons([]), { options: [], more: false });
    });
  });

  describe('inline actions', () => {
    it('allow picks the first allow_once, never allow_always', () => {
      assert.equal(
        inlineAllowOption([opt('al', 'allow_always'), opt('o1', 'allow_once'), opt('o2', 'allow_once')])?.optionId,
        'o1',
      );
      assert.equal(inlineAllowOption([opt('al', 'allow_always')]), undefined);
    });

    it('reject prefers the first reject_once, else the first reject_always', () => {
      assert.equal(inlineRejectOption([opt('ra', 'reject_always'), opt('r1', 'reject_once')])?.optionId, 'r1');
      assert.equal(inlineRejectOption([opt('ra', 'reject_always'), opt('rb', 'reject_always')])?.optionId, 'ra');
      assert.equal(inlineRejectOption([opt('a', 'allow_once')]), undefined);
    });
  });
});
