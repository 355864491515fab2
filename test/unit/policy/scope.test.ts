import * as assert from 'node:assert/strict';
import {
  accessFor,
  commandMatches,
  isInside,
  normalisePath,
  parsePattern,
  pathMatches,
  type AllowPath,
} from '../../../src/policy';

describe('local gate: paths', () => {
  it('normalises ., .., repeated and trailing slashes, never above /, and refuses relative paths', () => {
    assert.equal(normalisePath('/work/repo/./src//a/../b/'), '/work/repo/src/b');
    assert.equal(normalisePath('/../../etc'), '/etc');
    assert.equal(normalisePath('/'), '/');
    assert.equal(normalisePath('src/a.ts'), undefined);
    assert.equal(normalisePath(''), undefined);
  });

  it('is inside a root segment-wise: /work/repo-evil is not inside /work/repo', () => {
    assert.ok(isInside('/work/repo', '/work/repo'));
    assert.ok(isInside('/work/repo/src/a.ts', '/work/repo/'));
    assert.ok(!isInside('/work/repo-evil/a.ts', '/work/repo'));
    assert.ok(!isInside('/work/repo/../repo-evil/a.ts', '/work/repo'));
    assert.ok(isInside('/anything', '/'));
  });

  it('gives read+write inside a root and nothing elsewhere by default', () => {
    assert.deepEqual(accessFor('/work/repo/a', ['/work/repo']), { access: 'rw', by: 'root' });
    assert.deepEqual(accessFor('/work/repo-evil/a', ['/work/repo']), { access: undefined });
    assert.deepEqual(accessFor('/work/repo/../../etc/passwd', ['/work/repo']), { access: undefined });
  });

  it('lets the longest matching allowPaths entry decide, whatever the order', () => {
    const entries: AllowPath[] = [
      { pattern: '/srv/...', access: 'r' },
      { pattern: '/srv/data/...', access: 'rw' },
      { pattern: '/srv/data/secret', access: 'w' },
    ];
    for (const list of [entries, [...entries].reverse()]) {
      assert.equal(accessFor('/srv/x', [], list).access, 'r');
      assert.equal(accessFor('/srv/data/x/y', [], list).access, 'rw');
      assert.equal(accessFor('/srv/data/secret', [], list).access, 'w');
      assert.equal(accessFor('/srv', [], list).access, 'r');
      assert.equal(accessFor('/srvx', [], list).access, undefined);
    }
  });

  it('path globs: * and ? stay in one segment, ** crosses, dir/... is the tree, exact paths are exact', () => {
    assert.ok(pathMatches('/a/*.ts', '/a/x.ts', []));
    assert.ok(!pathMatches('/a/*.ts', '/a/b/x.ts', []));
    assert.ok(pathMatches('/a/**/*.ts', '/a/b/c/x.ts', []));
    assert.ok(pathMatches('/a/**/*.ts', '/a/x.ts', []));
    assert.ok(pathMatches('/a/**', '/a', []));
    assert.ok(pathMatches('/a/**', '/a/b/c', []));
    assert.ok(!pathMatches('/a/**', '/ab', []));
    assert.ok(pathMatches('/a/?.ts', '/a/x.ts', []));
    assert.ok(!pathMatches('/a/?.ts', '/a/xy.ts', []));
    assert.ok(pathMatches('/a/...', '/a/b/c', []));
    assert.ok(pathMatches('/a/b.ts', '/a/./b.ts', []));
    assert.ok(!pathMatches('/a/b.ts', '/a/b.tsx', []));
    assert.ok(!pathMatches('/a/*', '/a/../etc/passwd', []));
  });

  it('matches many-** globs against a deep path segment by segment', () => {
    const deep = '/a'.repeat(2000);
    assert.equal(pathMatches('/**/a/**/a/**/a/**/b', deep, []), false);
    assert.equal(pathMatches('/**/a/**/a/**/a/**', deep, []), true);
    assert.equal(pathMatches('/**/*a*a*a*b', '/' + 'a'.repeat(4000), []), false);
  });

  it('a relative path glob is read inside each workspace root', () => {
    assert.ok(pathMatches('src/**', '/work/repo/src/a/b.ts', ['/work/repo']));
    assert.ok(!pathMatches('src/**', '/work/other/src/a.ts', ['/work/repo']));
    assert.ok(!pathMatches('src/*', '/work/repo/src/a/b.ts', ['/work/repo']));
    // A glob starting with ** matches at any depth, inside the roots or not.
    assert.ok(pathMatches('**/.env', '/etc/app/.env', ['/work/repo']));
    assert.ok(pathMatches('**', '/opt/x', []));
  });
});

describe('local gate: patterns', () => {
  it('reads <kind>:<glob>, bash: as execute:, a bare glob for every kind, and URLs as globs', () => {
    assert.deepEqual(parsePattern('bash:git *'), { source: 'bash:git *', kind: 'execute', glob: 'git *' });
    assert.deepEqual(parsePattern('execute:ls'), { source: 'execute:ls', kind: 'execute', glob: 'ls' });
    assert.deepEqual(parsePattern('read:src/**'), { source: 'read:src/**', kind: 'read', glob: 'src/**' });
    assert.deepEqual(parsePattern('git log --format=%H:%s'), {
      source: 'git log --format=%H:%s',
      glob: 'git log --format=%H:%s',
    });
    assert.deepEqual(parsePattern('https://x.test/*'), { source: 'https://x.test/*', glob: 'https://x.test/*' });
  });

  it('refuses an unknown kind and an empty glob, naming the pattern', () => {
    const bad = parsePattern('read_file:**');
    assert.ok('problem' in bad && /unknown kind "read_file"/.test(bad.problem));
    const empty = parsePattern('execute:');
    assert.ok('problem' in empty && /nothing after/.test(empty.problem));
    assert.ok('problem' in parsePattern(''));
  });

  it('command globs: * matches any characters, the rest is literal, blanks collapse', () => {
    assert.ok(commandMatches('git *', 'git push origin main'));
    assert.ok(commandMatches('git status*', 'git status'));
    assert.ok(commandMatches('ls *', 'ls  -la'));
    assert.ok(!commandMatches('ls *', 'ls'));
    assert.ok(!commandMatches('ls *', 'lsof -i'));
    assert.ok(commandMatches('sed -n*', 'sed -n 1p'));
    assert.ok(!commandMatches('a.b', 'axb'));
    assert.ok(!commandMatches('echo (x)', 'echo x'));
    assert.ok(commandMatches('*', ''));
    assert.ok(commandMatches('a*b*c', 'aXbYc'));
    assert.ok(!commandMatches('a*b*c', 'aXbYcd'));
  });

  it('matches many-star globs against a hostile 1 MB command without backtracking blow-up', () => {
    // A backtracking regex for `*a*a*a*a*b` on 10^6 "a"s never finishes; the wildcard matcher is O(glob × text).
    const text = 'a'.repeat(1_000_000);
    assert.equal(commandMatches('*a*a*a*a*b', text), false);
    assert.equal(commandMatches('*a*a*a*a*', text), true);
  });
});
