import * as assert from 'node:assert/strict';
import type { PermissionOption } from '../../../src/domain/model';
import {
  foldConfusable,
  inlineAllowOption,
  inlineRejectOption,
  nameMatchesKind,
  optionButtonTitles,
  toastButtons,
  type OptionTitleFormat,
} from '../../../src/domain/optionChoice';

const opt = (optionId: string, kind: string): PermissionOption => ({ optionId, name: `Name ${optionId}`, kind });
const ids = (os: readonly PermissionOption[]) => os.map((o) => o.optionId);

describe('optionChoice', () => {
  describe('toastButtons', () => {
    it('2 options: both, allow_once first (the highlighted button), the other after it', () => {
      const r = toastButtons([opt('no', 'reject_once'), opt('yes', 'allow_once')]);
      assert.deepEqual(ids(r.options), ['yes', 'no']);
      assert.equal(r.more, false);
    });

    it('3 options: all three, in order, including unknown kinds', () => {
      const os = [opt('a', 'allow_once'), opt('w', 'weird'), opt('r', 'reject_once')];
      const r = toastButtons(os);
      assert.deepEqual(ids(r.options), ['a', 'w', 'r']);
      assert.equal(r.more, false);
      assert.equal(r.options[1], os[1], 'returns the offered object itself');
    });

    it("claude's three options: Allow first, then Always Allow and Reject in the agent order", () => {
      const r = toastButtons([
        opt('allow_always', 'allow_always'),
        opt('allow', 'allow_once'),
        opt('reject', 'reject_once'),
      ]);
      assert.deepEqual(ids(r.options), ['allow', 'allow_always', 'reject']);
      assert.equal(r.more, false);
    });

    it('no allow_once offered: a persistent option is still never first', () => {
      const r = toastButtons([opt('always', 'allow_always'), opt('no', 'reject_once')]);
      assert.deepEqual(ids(r.options), ['no', 'always']);
    });

    it('4 options: the first allow_once (not the persistent allow) and the first reject-kind, plus more', () => {
      const r = toastButtons([
        opt('always', 'allow_always'),
        opt('once', 'allow_once'),
        opt('never', 'reject_always'),
        opt('no', 'reject_once'),
      ]);
      assert.deepEqual(ids(r.options), ['once', 'never']);
      assert.equal(r.more, true);
    });

    it('6 options: allow_once first, then the reject pick', () => {
      const r = toastButtons([
        opt('x', 'other'),
        opt('no', 'reject_once'),
        opt('y', 'other'),
        opt('once', 'allow_once'),
        opt('always', 'allow_always'),
        opt('never', 'reject_always'),
      ]);
      assert.deepEqual(ids(r.options), ['once', 'no']);
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

  describe('spoofed options (issue 9, item 7)', () => {
    const named = (optionId: string, name: string, kind: string): PermissionOption => ({ optionId, name, kind });
    const fmt: OptionTitleFormat = {
      name: (o) => o.name,
      id: (o) => o.optionId,
      withKind: (name, kind) => `${kind}: "${name}"`,
    };
    it('folds Latin/Cyrillic/Greek look-alikes, fullwidth forms and accents to one form', () => {
      assert.equal(foldConfusable('\u0410llow once'), foldConfusable('Allow once')); // Cyrillic А
      assert.equal(foldConfusable('\u0391llow'), foldConfusable('Allow')); // Greek Α
      assert.equal(foldConfusable('Allоw'), foldConfusable('Allow')); // Cyrillic о
      assert.equal(foldConfusable('\uff21llow'), foldConfusable('Allow')); // fullwidth Ａ
      assert.equal(foldConfusable('Re\u0301ject'), foldConfusable('Reject'));
      assert.notEqual(foldConfusable('Allow'), foldConfusable('Reject'));
    });
    it('names of the real runtimes agree with their kinds (no kind shown)', () => {
      for (const [name, kind] of [
        ['Always Allow', 'allow_always'],
        ['Allow', 'allow_once'],
        ['Reject', 'reject_once'],
        ['Allow for this session', 'allow_always'],
        ['Allow Once', 'allow_once'],
        ['Allow for Session', 'allow_always'],
        ['Always Allow in project: git *', 'allow_always'],
        ['Yes, and auto-accept edits', 'allow_always'],
        ['Yes, and manually approve edits', 'allow_once'],
        ['No, keep planning', 'reject_once'],
        ['Allow All Edits', 'allow_always'],
        // codex-acp 2.6: "don't ask again" is how it says "remembered", not a reject
        ["Yes, and don't ask again for this command in this session", 'allow_always'],
        ["Yes, and don't ask again for these files", 'allow_always'],
        ['Yes, and don\u2019t ask again for commands that start with `npm test`', 'allow_always'],
        ['No, and tell Codex what to do differently', 'reject_once'],
        ['Yes, proceed', 'allow_once'],
      ]) {
        assert.equal(nameMatchesKind(name, kind), true, `${name} / ${kind}`);
      }
    });
    it('a reject-looking name on an allow kind disagrees, as do homoglyph and persistence spoofs', () => {
      assert.equal(nameMatchesKind('Reject', 'allow_always'), false);
      assert.equal(nameMatchesKind('R\u0435ject', 'allow_once'), false); // Cyrillic е
      assert.equal(nameMatchesKind('Allow', 'allow_always'), false, 'a persistent allow named like a one-time allow');
      assert.equal(nameMatchesKind('Always allow', 'allow_once'), false);
      assert.equal(nameMatchesKind("Don't allow", 'allow_once'), false);
      assert.equal(nameMatchesKind("Yes, and don't ask again", 'allow_once'), false, 'a remembered allow as once');
      assert.equal(nameMatchesKind("Don't ask again: reject", 'allow_always'), false);
      assert.equal(nameMatchesKind('Allow', 'reject_once'), false);
      assert.equal(nameMatchesKind('Option 1', 'allow_once'), false);
      assert.equal(nameMatchesKind('Allow', 'other'), false);
    });
    it('the "Reject"-named allow_always button shows its kind first; the real reject stays as it is', () => {
      const titles = optionButtonTitles(
        [named('evil', 'Reject', 'allow_always'), named('no', 'Reject', 'reject_once')],
        fmt,
        [],
      );
      assert.deepEqual(titles, ['allow_always: "Reject"', 'Reject']);
    });
    it('"Allow once" and "Аllow once" (Cyrillic А) are told apart by their ids', () => {
      const titles = optionButtonTitles(
        [named('once', 'Allow once', 'allow_once'), named('evil', '\u0410llow once', 'allow_once')],
        fmt,
        [],
      );
      assert.deepEqual(titles, ['Allow once (once)', '\u0410llow once (evil)']);
    });
    it('a name like one of our own buttons gets its id; ids that fold equal too get the position', () => {
      assert.deepEqual(
        optionButtonTitles([named('d', "Don't Sh\u043ew Again", 'reject_once')], fmt, ["Don't Show Again"]),
        ["Don't Sh\u043ew Again (d)"],
      );
      const same = optionButtonTitles(
        [named('a', 'Allow', 'allow_once'), named('\u0430', 'Allow', 'allow_once')],
        fmt,
        [],
      );
      assert.deepEqual(same, ['Allow (a) (#1)', 'Allow (\u0430) (#2)']);
      assert.equal(new Set(same.map(foldConfusable)).size, 2);
    });
  });
});
