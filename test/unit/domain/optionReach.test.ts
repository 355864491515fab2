import * as assert from 'node:assert/strict';
import type { PermissionOption } from '../../../src/domain/model';
import {
  TOAST_REACH_MAX,
  isPersistentOption,
  optionReaches,
  toastReachNote,
  type OptionReach,
  type ReachFormat,
} from '../../../src/domain/optionReach';

const opt = (optionId: string, kind: string, extra: Record<string, unknown> = {}): PermissionOption => ({
  optionId,
  name: `Name ${optionId}`,
  kind,
  ...extra,
});
const CLAUDE = [opt('allow_always', 'allow_always'), opt('allow', 'allow_once'), opt('reject', 'reject_once')];
const facts = (rs: readonly OptionReach[]) => rs.map((r) => [r.option.optionId, r.reach]);

describe('optionReach', () => {
  it('only persistent options get a reach: *_always, or a _meta scope that is not one-shot', () => {
    assert.equal(isPersistentOption(opt('a', 'allow_always')), true);
    assert.equal(isPersistentOption(opt('r', 'reject_always')), true);
    assert.equal(isPersistentOption(opt('o', 'allow_once')), false);
    assert.equal(
      isPersistentOption(opt('o', 'allow_once', { _meta: { permission: { lifetime: { scope: 'once' } } } })),
      false,
    );
    assert.equal(
      isPersistentOption(opt('o', 'allow_once', { _meta: { permission: { lifetime: { scope: 'persistent' } } } })),
      true,
    );
    assert.equal(isPersistentOption(opt('o', 'allow_once', { _meta: 'not an object' })), false);
  });

  it('from _meta: the descriptions (inert) and the scope, before any runtime knowledge', () => {
    const always = opt('allow_always', 'allow_always', {
      _meta: {
        permission: {
          changes: [
            { description: 'Allow Bash(git *)\u202e evil' },
            { command: 'no description' },
            'junk',
            { description: '' },
          ],
          lifetime: { scope: 'persistent' },
        },
      },
    });
    const rs = optionReaches(
      { kind: 'execute', options: [always, CLAUDE[1]] },
      { runtime: 'claude', where: 'fountain' },
    );
    assert.deepEqual(facts(rs), [
      ['allow_always', { source: 'meta', descriptions: ['Allow Bash(git *)⟨U+202E⟩ evil'], scope: 'persistent' }],
    ]);
    assert.equal(rs[0].option, always, 'the offered object itself');
  });

  it('from _meta: lifetime beside permission is read too; a scope alone is enough', () => {
    const o = opt('s', 'allow_always', { _meta: { lifetime: { scope: 'session\n' } } });
    assert.deepEqual(facts(optionReaches({ options: [o] }, { where: 'local' })), [
      ['s', { source: 'meta', descriptions: [], scope: 'session⏎' }],
    ]);
  });

  it('_meta that says nothing (codex-acp: changes without descriptions) falls back to the runtime', () => {
    const codex = opt('allow_always', 'allow_always', {
      _meta: { codex: { decision: 'acceptForSession' }, permission: { version: 1, changes: [{ command: 'ls' }] } },
    });
    assert.deepEqual(facts(optionReaches({ options: [codex] }, { runtime: 'codex', where: 'fountain' })), [
      ['allow_always', { source: 'runtime', fact: 'codexSessionGrant' }],
    ]);
    const amend = opt('approved-execpolicy-amendment', 'allow_always');
    assert.deepEqual(facts(optionReaches({ options: [amend] }, { runtime: 'codex', where: 'local' })), [
      ['approved-execpolicy-amendment', { source: 'runtime', fact: 'codexPrefixRule' }],
    ]);
  });

  it('per runtime: claude in a sandbox, claude on this machine, claude leaving plan mode, gemini, qwen', () => {
    const claude = (where: 'fountain' | 'local') =>
      optionReaches({ kind: 'execute', options: CLAUDE }, { runtime: 'Claude', where }).map((r) => r.reach);
    assert.deepEqual(claude('fountain'), [{ source: 'runtime', fact: 'claudeSandboxRule' }]);
    assert.deepEqual(claude('local'), [{ source: 'runtime', fact: 'claudeLocalRule' }]);
    const plan = [opt('acceptEdits\u0007', 'allow_always'), opt('default', 'allow_once'), opt('plan', 'reject_once')];
    assert.deepEqual(
      optionReaches({ kind: 'switch_mode', options: plan }, { runtime: 'claude', where: 'local' }).map((r) => r.reach),
      [{ source: 'runtime', fact: 'claudeModeSwitch', mode: 'acceptEdits\\x07' }],
    );
    const gemini = [opt('proceed_always', 'allow_always'), opt('proceed_always_and_save', 'allow_always')];
    assert.deepEqual(
      optionReaches({ options: gemini }, { runtime: 'gemini', where: 'local' }).map((r) => r.reach),
      [
        { source: 'runtime', fact: 'geminiSession' },
        { source: 'runtime', fact: 'geminiSaved' },
      ],
    );
    const qwen = [opt('proceed_always_project', 'allow_always'), opt('proceed_always_user', 'allow_always')];
    assert.deepEqual(
      optionReaches({ options: qwen }, { runtime: 'qwen', where: 'fountain' }).map((r) => r.reach),
      [{ source: 'runtime', fact: 'qwenProject' }, { source: 'unknown' }],
      'what was not measured is unknown, not guessed from the name',
    );
  });

  it('unknown: no runtime, an unmeasured runtime, an unmarked codex option, or a reject_always', () => {
    const unknown = { source: 'unknown' };
    const reachOf = (options: PermissionOption[], runtime?: string) =>
      optionReaches({ options }, { ...(runtime ? { runtime } : {}), where: 'fountain' }).map((r) => r.reach);
    assert.deepEqual(reachOf(CLAUDE), [unknown]);
    assert.deepEqual(reachOf(CLAUDE, 'opencode'), [unknown]);
    assert.deepEqual(reachOf([opt('x', 'allow_always')], 'codex'), [unknown]);
    assert.deepEqual(reachOf([opt('n', 'reject_always')], 'claude'), [unknown]);
  });

  describe('toastReachNote', () => {
    const fmt = (sentence: string): ReachFormat => ({
      sentence: () => sentence,
      note: (name, s) => `"${name}": ${s}`,
      seeDetails: (name) => `"${name}": see Details`,
      name: (o) => o.name,
    });
    const reaches = optionReaches({ options: CLAUDE }, { runtime: 'claude', where: 'fountain' });

    it('the whole note when it fits, else a pointer to Details; nothing when no option persists', () => {
      assert.equal(toastReachNote(reaches, fmt('short')), '"Name allow_always": short');
      assert.equal(toastReachNote(reaches, fmt('x'.repeat(TOAST_REACH_MAX))), '"Name allow_always": see Details');
      assert.equal(toastReachNote([], fmt('short')), undefined);
    });

    it('before the runtime is known, an unknown reach is not stated as a fact: the toast points to Details', () => {
      const noRuntime = optionReaches({ options: CLAUDE }, { where: 'fountain' });
      assert.equal(noRuntime[0].reach.source, 'unknown');
      assert.equal(
        toastReachNote(noRuntime, fmt('reach unknown'), undefined, false),
        '"Name allow_always": see Details',
      );
      assert.equal(
        toastReachNote(noRuntime, fmt('reach unknown'), undefined, true),
        '"Name allow_always": reach unknown',
      );
      // A known reach (here the runtime's) is still shown, whatever the flag says.
      assert.equal(toastReachNote(reaches, fmt('short'), undefined, false), '"Name allow_always": short');
    });

    it('the limit counts code points, and several options share it', () => {
      const fits = '😀'.repeat(TOAST_REACH_MAX - '"Name allow_always": '.length);
      assert.equal(toastReachNote(reaches, fmt(fits)), `"Name allow_always": ${fits}`);
      assert.equal(toastReachNote(reaches, fmt(`${fits}x`)), '"Name allow_always": see Details');
      const two = optionReaches({ options: [CLAUDE[0], opt('b', 'allow_always')] }, { where: 'local' });
      assert.equal(
        toastReachNote(two, fmt('y'.repeat(60))),
        '"Name allow_always": see Details · "Name b": see Details',
      );
    });
  });
});
