import * as assert from 'node:assert/strict';
import { skipOrFail, underCi } from '../../support/skipOrFail';

describe('skipOrFail: no silent skips under CI', () => {
  it('reads CI as CI runners set it', () => {
    assert.equal(underCi({ CI: 'true' }), true);
    assert.equal(underCi({ CI: '1' }), true);
    assert.equal(underCi({}), false);
    assert.equal(underCi({ CI: '' }), false);
    assert.equal(underCi({ CI: 'false' }), false);
    assert.equal(underCi({ CI: '0' }), false);
  });

  it('under CI it throws an error naming what is missing, and never skips', () => {
    let skipped = false;
    const ctx = { skip: () => (skipped = true) } as unknown as Mocha.Context;
    assert.throws(
      () => skipOrFail(ctx, 'codex-acp is not installed', { CI: 'true' }),
      /codex-acp is not installed; under CI/,
    );
    assert.equal(skipped, false);
  });

  it('elsewhere it skips (with a warning)', () => {
    let skipped = false;
    const ctx = {
      skip: () => {
        skipped = true;
        throw new Error('pending');
      },
    } as unknown as Mocha.Context;
    const warn = console.warn;
    const warned: unknown[] = [];
    console.warn = (...a: unknown[]) => warned.push(a.join(' '));
    try {
      assert.throws(() => skipOrFail(ctx, 'gemini is not installed', {}), /pending/);
    } finally {
      console.warn = warn;
    }
    assert.equal(skipped, true);
    assert.deepEqual(warned, ['[skipped] gemini is not installed']);
  });
});
