import * as assert from 'node:assert/strict';
import {
  ASK_TIMEOUT_MAX_SEC,
  IN_TURN_CEILING_SEC,
  VERDICTS,
  matchingKeys,
  strictness,
  stricter,
  toolLabel,
  verdictOf,
} from '../../../src/policy';

describe('policy lookup', () => {
  it('names the three verdicts, least strict first, and the two limits', () => {
    assert.deepEqual([...VERDICTS], ['auto_allow', 'ask', 'auto_deny']);
    assert.equal(ASK_TIMEOUT_MAX_SEC, 365 * 24 * 60 * 60);
    assert.equal(IN_TURN_CEILING_SEC, 5 * 60);
  });

  it('ranks auto_allow < ask < auto_deny and picks the stricter of two', () => {
    assert.ok(strictness('auto_allow') < strictness('ask'));
    assert.ok(strictness('ask') < strictness('auto_deny'));
    assert.equal(stricter('auto_allow', 'ask'), 'ask');
    assert.equal(stricter('auto_deny', 'ask'), 'auto_deny');
    assert.equal(stricter('ask', 'auto_allow'), 'ask');
  });

  describe('toolLabel', () => {
    it('is the title, else the kind, else "tool"', () => {
      assert.equal(toolLabel({ title: 'git push origin main', kind: 'execute' }), 'git push origin main');
      assert.equal(toolLabel({ title: '', kind: 'edit' }), 'edit');
      assert.equal(toolLabel({ title: null, kind: 'edit' }), 'edit');
      assert.equal(toolLabel({ kind: '' }), 'tool');
      assert.equal(toolLabel({}), 'tool');
    });

    it('ignores fields that are not strings (agent data is untrusted)', () => {
      const hostile = { title: 42, kind: { toString: () => 'execute' } } as unknown as { title: string; kind: string };
      assert.equal(toolLabel(hostile), 'tool');
    });
  });

  describe('matchingKeys', () => {
    it('lists title, kind, default, most specific first', () => {
      assert.deepEqual(matchingKeys({ title: 'git push', kind: 'execute' }), ['git push', 'execute', 'default']);
    });

    it('skips missing, empty and non-string fields and drops duplicates', () => {
      assert.deepEqual(matchingKeys({ kind: 'edit' }), ['edit', 'default']);
      assert.deepEqual(matchingKeys({ title: '', kind: null }), ['default']);
      assert.deepEqual(matchingKeys({ title: 'read', kind: 'read' }), ['read', 'default']);
      assert.deepEqual(matchingKeys({ title: 'default', kind: 'edit' }), ['default', 'edit']);
      assert.deepEqual(matchingKeys({ title: 7 as unknown as string }), ['default']);
    });

    it('never offers the reserved ask_timeout key, which names no tool', () => {
      assert.deepEqual(matchingKeys({ title: 'ask_timeout', kind: 'execute' }), ['execute', 'default']);
    });
  });

  describe('verdictOf', () => {
    const policy = { default: 'ask', execute: 'auto_deny', 'git status': 'auto_allow', ask_timeout: 600 };

    it('tries the title first', () => {
      assert.deepEqual(verdictOf(policy, { title: 'git status', kind: 'execute' }), {
        verdict: 'auto_allow',
        key: 'git status',
      });
    });

    it('then the kind', () => {
      assert.deepEqual(verdictOf(policy, { title: 'rm -rf /', kind: 'execute' }), {
        verdict: 'auto_deny',
        key: 'execute',
      });
    });

    it('then default', () => {
      assert.deepEqual(verdictOf(policy, { title: 'Edit a.ts', kind: 'edit' }), { verdict: 'ask', key: 'default' });
      assert.deepEqual(verdictOf(policy, {}), { verdict: 'ask', key: 'default' });
    });

    it('then the built-in auto_allow, with no key', () => {
      assert.deepEqual(verdictOf({ execute: 'auto_deny' }, { kind: 'edit' }), { verdict: 'auto_allow', key: null });
      assert.deepEqual(verdictOf({}, { kind: 'edit' }), { verdict: 'auto_allow', key: null });
      assert.deepEqual(verdictOf(null, { kind: 'edit' }), { verdict: 'auto_allow', key: null });
      assert.deepEqual(verdictOf(undefined, { kind: 'edit' }), { verdict: 'auto_allow', key: null });
    });

    it('reads a stored value that is not a verdict as auto_deny, wherever it matched', () => {
      assert.deepEqual(verdictOf({ Bash: 'allow' }, { title: 'Bash' }), { verdict: 'auto_deny', key: 'Bash' });
      assert.deepEqual(verdictOf({ execute: 1 }, { kind: 'execute' }), { verdict: 'auto_deny', key: 'execute' });
      assert.deepEqual(verdictOf({ default: 'AUTO_ALLOW' }, { kind: 'edit' }), {
        verdict: 'auto_deny',
        key: 'default',
      });
      assert.deepEqual(verdictOf({ default: {} }, {}), { verdict: 'auto_deny', key: 'default' });
    });

    it('treats a null value as absent, as the server does with JSON null', () => {
      assert.deepEqual(verdictOf({ Bash: null, execute: 'ask' }, { title: 'Bash', kind: 'execute' }), {
        verdict: 'ask',
        key: 'execute',
      });
    });

    it('never reads ask_timeout as a tool, even for a card titled "ask_timeout"', () => {
      assert.deepEqual(verdictOf({ ask_timeout: 600 }, { title: 'ask_timeout' }), { verdict: 'auto_allow', key: null });
    });

    it('reads own keys only: a title like "constructor" does not hit Object.prototype', () => {
      for (const title of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
        assert.deepEqual(verdictOf({ default: 'ask' }, { title }), { verdict: 'ask', key: 'default' }, title);
      }
      const parsed = JSON.parse('{"__proto__": "auto_deny"}') as Record<string, unknown>;
      assert.deepEqual(verdictOf(parsed, { title: '__proto__' }), { verdict: 'auto_deny', key: '__proto__' });
    });

    it('treats a policy that is not an object as empty', () => {
      for (const junk of ['auto_deny', 3, ['auto_deny'], true]) {
        assert.deepEqual(verdictOf(junk as unknown as Record<string, unknown>, { kind: 'execute' }), {
          verdict: 'auto_allow',
          key: null,
        });
      }
    });
  });
});
