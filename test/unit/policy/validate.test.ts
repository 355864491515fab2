import * as assert from 'node:assert/strict';
import { policySchema, policySchemaFor, validatePolicy } from '../../../src/policy';

const OPENCODE =
  'the opencode runtime never asks before it runs a tool, so a policy stricter than auto_allow cannot be enforced on it';

describe('policy validation', () => {
  it('accepts verdicts, default and a readable ask_timeout, returning a copy', () => {
    const input = { default: 'auto_allow', execute: 'ask', Bash: 'auto_deny', ask_timeout: 172800 };
    const r = validatePolicy(input);
    assert.deepEqual(r, {
      ok: true,
      policy: { default: 'auto_allow', execute: 'ask', Bash: 'auto_deny', ask_timeout: 172800 },
    });
    assert.ok(r.ok && r.policy !== input);
    assert.deepEqual(validatePolicy({ ask_timeout: '600' }), { ok: true, policy: { ask_timeout: '600' } });
  });

  it('reads null (and a missing value) as the empty policy, as the server clears it', () => {
    assert.deepEqual(validatePolicy(null), { ok: true, policy: {} });
    assert.deepEqual(validatePolicy(undefined), { ok: true, policy: {} });
  });

  it('refuses a policy that is not a map', () => {
    for (const v of ['auto_deny', 3, ['auto_deny'], true]) {
      const r = validatePolicy(v);
      assert.deepEqual(r, {
        ok: false,
        errors: ['must be a map of tool name to verdict'],
        changeset: { permission_policy: ['must be a map of tool name to verdict'] },
      });
    }
  });

  it('refuses an empty tool name', () => {
    assert.deepEqual(validatePolicy({ '': 'ask' }), {
      ok: false,
      errors: ['tool names must be non-empty strings'],
      changeset: { permission_policy: ['tool names must be non-empty strings'] },
    });
  });

  it('refuses an unknown verdict, quoting the value as the server does', () => {
    const cases: [unknown, string][] = [
      ['x', 'Bash: unknown verdict "x" (one of auto_allow, ask, auto_deny)'],
      ['Auto_Allow', 'Bash: unknown verdict "Auto_Allow" (one of auto_allow, ask, auto_deny)'],
      [null, 'Bash: unknown verdict nil (one of auto_allow, ask, auto_deny)'],
      [1, 'Bash: unknown verdict 1 (one of auto_allow, ask, auto_deny)'],
      [true, 'Bash: unknown verdict true (one of auto_allow, ask, auto_deny)'],
      [['ask'], 'Bash: unknown verdict ["ask"] (one of auto_allow, ask, auto_deny)'],
      [{ b: 1, a: 'x' }, 'Bash: unknown verdict %{"a" => "x", "b" => 1} (one of auto_allow, ask, auto_deny)'],
    ];
    for (const [value, message] of cases) {
      assert.deepEqual(validatePolicy({ Bash: value }), {
        ok: false,
        errors: [message],
        changeset: { permission_policy: [message] },
      });
    }
    const d = validatePolicy({ default: 'deny' });
    assert.ok(!d.ok);
    assert.deepEqual(d.errors, ['default: unknown verdict "deny" (one of auto_allow, ask, auto_deny)']);
  });

  it('refuses an unreadable ask_timeout', () => {
    const cases: [unknown, string][] = [
      [0, '0'],
      [-1, '-1'],
      [1.5, '1.5'],
      ['soon', '"soon"'],
      [null, 'nil'],
      [{}, '%{}'],
      [31_536_001, '31536001'],
    ];
    for (const [value, shown] of cases) {
      const r = validatePolicy({ ask_timeout: value });
      assert.ok(!r.ok);
      assert.deepEqual(r.errors, [
        `ask_timeout: ${shown} is not a positive number of seconds no greater than 31536000`,
      ]);
    }
  });

  it('lists every problem: tool keys in byte order, then ask_timeout, then the runtime', () => {
    const r = validatePolicy(
      { zed: 'nope', '': 'ask', Bash: 'allow', ask_timeout: 'x', execute: 'auto_deny' },
      { runtime: 'opencode' },
    );
    assert.deepEqual(r, {
      ok: false,
      errors: [
        'tool names must be non-empty strings',
        'Bash: unknown verdict "allow" (one of auto_allow, ask, auto_deny)',
        'zed: unknown verdict "nope" (one of auto_allow, ask, auto_deny)',
        'ask_timeout: "x" is not a positive number of seconds no greater than 31536000',
        OPENCODE,
      ],
      changeset: {
        permission_policy: [
          'tool names must be non-empty strings',
          'Bash: unknown verdict "allow" (one of auto_allow, ask, auto_deny)',
          'zed: unknown verdict "nope" (one of auto_allow, ask, auto_deny)',
          'ask_timeout: "x" is not a positive number of seconds no greater than 31536000',
          OPENCODE,
        ],
      },
    });
  });

  describe('the opencode runtime', () => {
    it('refuses anything stricter than auto_allow, in the server sentence', () => {
      for (const policy of [{ execute: 'ask' }, { default: 'auto_deny' }, { Bash: 'auto_allow', edit: 'ask' }]) {
        assert.deepEqual(validatePolicy(policy, { runtime: 'opencode' }), {
          ok: false,
          errors: [OPENCODE],
          changeset: { permission_policy: [OPENCODE] },
        });
      }
    });

    it('accepts an all-auto_allow policy, an empty one, and an ask_timeout alone', () => {
      for (const policy of [{}, { default: 'auto_allow', Bash: 'auto_allow' }, { ask_timeout: 600 }, null]) {
        assert.equal(validatePolicy(policy, { runtime: 'opencode' }).ok, true, JSON.stringify(policy));
      }
    });

    it('does not apply to runtimes that ask', () => {
      for (const runtime of ['claude', 'codex', 'gemini', 'acp']) {
        assert.equal(validatePolicy({ execute: 'auto_deny' }, { runtime }).ok, true, runtime);
      }
    });
  });

  it('exposes zod schemas whose issues carry those messages', () => {
    const ok = policySchema.safeParse({ execute: 'ask' });
    assert.ok(ok.success);
    assert.deepEqual(ok.data, { execute: 'ask' });
    const bad = policySchema.safeParse({ execute: 'maybe' });
    assert.ok(!bad.success);
    assert.deepEqual(
      bad.error.issues.map((i) => i.message),
      ['execute: unknown verdict "maybe" (one of auto_allow, ask, auto_deny)'],
    );
    const oc = policySchemaFor({ runtime: 'opencode' }).safeParse({ execute: 'ask' });
    assert.ok(!oc.success);
    assert.deepEqual(
      oc.error.issues.map((i) => i.message),
      [OPENCODE],
    );
  });

  it('keeps a "__proto__" key as a key in the validated copy', () => {
    const input = JSON.parse('{"__proto__": "auto_deny", "execute": "ask"}') as unknown;
    const r = validatePolicy(input);
    assert.ok(r.ok);
    assert.equal(Object.getPrototypeOf(r.policy), Object.prototype);
    assert.deepEqual(Object.keys(r.policy).sort(), ['__proto__', 'execute']);
    const bad = validatePolicy(JSON.parse('{"__proto__": "x"}'));
    assert.ok(!bad.ok);
    assert.deepEqual(bad.errors, ['__proto__: unknown verdict "x" (one of auto_allow, ask, auto_deny)']);
  });
});
