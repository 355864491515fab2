import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { denylistMatch } from '../../../src/policy';
import { allowedThrough, denied } from './denylistSpellings';

describe('built-in denylist', () => {
  for (const [command, why] of denied) {
    it(`denies ${JSON.stringify(command)}`, () => {
      const hit = denylistMatch(command);
      assert.ok(hit, `expected a denylist hit for ${command}`);
      assert.match(hit.reason, why);
    });
  }

  it('does not deny ordinary commands that merely look alike', () => {
    for (const command of allowedThrough) {
      assert.equal(denylistMatch(command), undefined, command);
    }
  });

  it('is total: any string, any length, no throw', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => void denylistMatch(s)));
    assert.equal(denylistMatch('{'.repeat(200_000) + '}'), undefined);
    assert.equal(denylistMatch(' '.repeat(1_000_000)), undefined);
  });

  it('finds rm -rf / whatever is chained before or after it', () => {
    const safe = fc.constantFrom('ls', 'git status', 'echo hi', 'make', 'true');
    const op = fc.constantFrom('; ', ' && ', ' || ', ' | ', '\n', ' & ');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(safe, op), { maxLength: 4 }),
        fc.array(fc.tuple(op, safe), { maxLength: 4 }),
        (a, b) => {
          const command = `${a.map(([s, o]) => s + o).join('')}rm -rf /${b.map(([o, s]) => o + s).join('')}`;
          assert.ok(denylistMatch(command), command);
        },
      ),
    );
  });
});
