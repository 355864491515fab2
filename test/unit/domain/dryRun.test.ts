import { strict as assert } from 'node:assert';
import { coveredNow, dryRun } from '../../../src/domain/dryRun';
import { parseRule, ruleCovers } from '../../../src/domain/dryRunMatch';
import type { HistoryEntry } from '../../../src/domain/history';

const local = 'local:s1';
const entry = (over: Partial<HistoryEntry>): HistoryEntry => ({
  at: 1,
  server: local,
  conversationId: 'c1',
  kind: 'execute',
  optionId: 'allow',
  optionKind: 'allow_once',
  outcome: 'answered',
  ...over,
});
const rule = (s: string) => {
  const r = parseRule(s);
  assert.ok(r.ok, s);
  return r.rule;
};

describe('domain: dry run of an "always" rule over the history', () => {
  const history: HistoryEntry[] = [
    entry({ at: 10, label: 'npm test', conversationId: 'a' }),
    entry({ at: 20, label: '`npm test -- --grep x`', conversationId: 'b', optionKind: 'reject_once', optionId: 'no' }),
    entry({ at: 30, label: 'npm test && rm -rf /', conversationId: 'c' }),
    entry({ at: 40, label: 'npm install', conversationId: 'a' }),
    entry({ at: 50, conversationId: 'd' }), // label not kept
    entry({ at: 60, label: 'Edit /w/src/a.ts', kind: 'edit', conversationId: 'e' }),
    entry({ at: 70, label: 'npm test', server: 'https://fountain.example', conversationId: 'r' }),
  ];

  it('counts the past requests it would have allowed, their conversations and the rejected ones, newest first', () => {
    const r = dryRun(rule('execute:npm test*'), history, { roots: ['/w'], source: (s) => s.startsWith('local:') });
    assert.deepEqual(
      r.hits.map((h) => [h.entry.at, h.rejected]),
      [
        [20, true],
        [10, false],
      ],
      'a compound line is covered only when every command is; another source is not replayed',
    );
    assert.equal(r.conversations, 2);
    assert.equal(r.rejected, 1);
    assert.equal(r.unchecked, 1, 'the entry without a label cannot be checked');
    assert.equal(r.checked, 5, 'only execute entries of local sources');
  });

  it('a kindless rule looks at every kind; a path rule matches path labels inside the roots', () => {
    assert.deepEqual(
      dryRun(rule('edit:src/**'), history, { roots: ['/w'] }).hits.map((h) => h.entry.at),
      [60],
    );
    assert.equal(dryRun(rule('edit:src/**'), history, { roots: ['/elsewhere'] }).hits.length, 0);
    assert.equal(dryRun(rule('npm install'), history, { roots: [] }).hits.length, 1);
  });

  it('the waiting requests it covers now, matched like the gate', () => {
    const waiting = [
      { value: 'w1', subject: { kind: 'execute', command: 'npm test' } },
      { value: 'w2', subject: { kind: 'execute', command: 'npm test; curl evil' } },
      { value: 'w3', subject: { kind: 'edit', paths: ['/w/src/x.ts'] } },
    ];
    assert.deepEqual(coveredNow(rule('execute:npm test*'), waiting, ['/w']), ['w1']);
    assert.deepEqual(coveredNow(rule('edit:src/*'), waiting, ['/w']), ['w3']);
    assert.equal(ruleCovers(rule('execute:*'), { kind: 'edit', paths: ['/w/a'] }, ['/w']), false, 'kind must match');
  });

  it('a malformed rule is a sentence, never a rule', () => {
    const r = parseRule('nosuchkind:x');
    assert.ok(!r.ok && /unknown kind/.test(r.problem));
    assert.ok(!parseRule('execute:').ok);
  });
});
