import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { decide, denylistMatch, recommendLocal, type ApprovalEntry } from '../../../src/policy';

const allow = (command: string): ApprovalEntry => ({ kind: 'execute', command, answer: 'allow' });
const reject = (command: string): ApprovalEntry => ({ kind: 'execute', command, answer: 'reject' });

describe('local gate: recommendations from a session approval log', () => {
  it('suggests exact, subcommand and verb patterns with evidence, more specific first', () => {
    const recs = recommendLocal([
      allow('git status'),
      allow('git status -s'),
      allow('git status'),
      allow('git log --oneline'),
    ]);
    assert.deepEqual(
      recs.map((r) => r.pattern),
      ['execute:git status', 'execute:git status*', 'execute:git *'],
    );
    const [exact, sub, verb] = recs;
    assert.deepEqual(exact.evidence, ['git status']);
    assert.equal(exact.reason, 'You allowed this exact command 2 times in this session.');
    assert.deepEqual(sub.evidence, ['git status', 'git status -s']);
    assert.match(sub.reason, /3 requests \(2 different\) covered by commands starting with "git status"/);
    assert.deepEqual(verb.evidence, ['git status', 'git status -s', 'git log --oneline']);
    assert.equal(verb.risky, true);
    assert.equal(exact.risky, false);
  });

  it('needs minCount allows, two different samples for a glob, and two subcommands for a verb', () => {
    assert.deepEqual(recommendLocal([allow('make test')]), []);
    assert.deepEqual(
      recommendLocal([allow('npm test'), allow('npm test')]).map((r) => r.pattern),
      ['execute:npm test'],
    );
    assert.deepEqual(
      recommendLocal([allow('make a')], { minCount: 1 }).map((r) => r.pattern),
      ['execute:make a'],
    );
  });

  it('never suggests a pattern that would cover a command the user rejected', () => {
    const recs = recommendLocal([allow('git status'), allow('git log'), allow('git diff'), reject('git push')]);
    assert.ok(!recs.some((r) => r.pattern === 'execute:git *'));
  });

  it('suggests nothing from denylisted, substituted, unreadable or redirecting commands, nor wildcards for wrappers', () => {
    const log = [
      'rm -rf ~',
      'rm -rf ~',
      'echo $(id)',
      'echo $(id)',
      "echo 'open",
      "echo 'open",
      'ls > out',
      'ls > out',
    ].map(allow);
    assert.deepEqual(recommendLocal(log), []);
    const wrappers = recommendLocal(['sudo apt update', 'sudo apt install x', 'bash a.sh', 'bash b.sh'].map(allow));
    assert.ok(
      wrappers.every((r) => !r.pattern.endsWith('*')),
      JSON.stringify(wrappers),
    );
  });

  it('counts each simple command of a command line', () => {
    const recs = recommendLocal([allow('npm ci && npm test'), allow('npm test')]);
    assert.ok(recs.some((r) => r.pattern === 'execute:npm test'));
  });

  it('suggests file patterns relative to the workspace root, and fetch origins', () => {
    const recs = recommendLocal(
      [
        { kind: 'edit', paths: ['/w/src/a.ts'], answer: 'allow' },
        { kind: 'edit', paths: ['/w/src/b.ts'], answer: 'allow' },
        { kind: 'fetch', url: 'https://docs.x.test/a', answer: 'allow' },
        { kind: 'fetch', url: 'https://docs.x.test/b', answer: 'allow' },
      ],
      { roots: ['/w'] },
    );
    assert.deepEqual(
      recs.map((r) => r.pattern),
      // One wildcard before two.
      ['fetch:https://docs.x.test/*', 'edit:src/**'],
    );
  });

  it('leaves out what is already configured', () => {
    const log = [allow('npm test'), allow('npm test')];
    assert.deepEqual(recommendLocal(log, { existing: ['execute:npm test'] }), []);
  });

  it('every suggestion, once applied, allows its evidence, and none covers a denylisted command', () => {
    const cmd = fc.constantFrom(
      'git status',
      'git status -s',
      'git log',
      'git push',
      'npm test',
      'npm run build',
      'make',
      'rm -rf ~',
      'cargo build',
      'ls -la; make',
    );
    const entry = fc.record({ command: cmd, answer: fc.constantFrom<'allow' | 'reject'>('allow', 'allow', 'reject') });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        const log: ApprovalEntry[] = entries.map((e) => ({ kind: 'execute', ...e }));
        for (const r of recommendLocal(log)) {
          for (const sample of r.evidence) {
            assert.equal(denylistMatch(sample), undefined);
            const d = decide({
              request: { kind: 'execute', command: sample },
              mode: 'allow',
              config: { roots: ['/w'], allow: [r.pattern], builtinAllow: false },
            });
            assert.equal(d.verdict, 'allow', `${r.pattern} should allow ${sample}`);
          }
          for (const e of log.filter((x) => x.answer === 'reject')) {
            const d = decide({
              request: { kind: 'execute', command: e.command },
              mode: 'allow',
              config: { roots: ['/w'], allow: [r.pattern], builtinAllow: false },
            });
            assert.equal(d.verdict, 'deny', `${r.pattern} covers the rejected ${e.command}`);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
