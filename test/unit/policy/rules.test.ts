// Grants and patterns compare everything (issue 27): the whole argv for exact grants and "always" rules, deny
// patterns through npm's global options, a fetch pattern's host, and a malformed deny entry that asks.
import * as assert from 'node:assert/strict';
import {
  allowPatternFor,
  decide,
  gateConfigProblems,
  type GateConfig,
  type GateInput,
  type Grant,
} from '../../../src/policy';

const ROOT = '/work/repo';
const cfg = (over: Partial<GateConfig> = {}): GateConfig => ({ roots: [ROOT], builtinAllow: false, ...over });
const run = (command: string) => ({ kind: 'execute', command, title: command, cwd: ROOT });
const fetchOf = (url: string) => ({ kind: 'fetch', title: `Fetch ${url}`, url });
function gate(request: GateInput['request'], over: Partial<GateInput> = {}) {
  return decide({ request, mode: 'ask', config: cfg(), ...over });
}
const brief = (d: { verdict: string; rule: string }) => `${d.verdict}/${d.rule}`;
const exact = (key: string): Grant => ({ scope: 'exact', kind: 'execute', key });

describe('local gate rules: grants and patterns compare everything', () => {
  it("an exact grant for git status does not allow git's global options in front of it", () => {
    const session = { grants: [exact('git status')] };
    assert.equal(brief(gate(run('git status'), { session })), 'allow/grant');
    for (const c of [
      'git -c core.fsmonitor=touch\\ /tmp/x status',
      'git --config-env=core.pager=EVIL status',
      'git -C /tmp status',
      'git --git-dir=/tmp/x.git status',
      'git --work-tree=/tmp status',
      'git --exec-path=/tmp status',
      'ls && git -c core.fsmonitor=x status',
    ]) {
      assert.notEqual(gate(run(c), { session }).verdict, 'allow', c);
    }
  });

  it('an exact "always" rule names the whole argv and covers nothing shorter or longer', () => {
    assert.deepEqual(allowPatternFor(run('git -C sub status')), { pattern: 'execute:git -C sub status' });
    const allow = ['execute:git status', 'execute:npm test'];
    const config = cfg({ allow });
    assert.equal(brief(gate(run('git status'), { config })), 'allow/allow-pattern');
    assert.equal(brief(gate(run('npm test'), { config })), 'allow/allow-pattern');
    for (const c of [
      'git -c core.fsmonitor=x status',
      'git --git-dir=/tmp/x status',
      'npm --prefix /tmp test',
      'npm --userconfig /tmp/rc test',
      'npm --loglevel=silent test',
    ]) {
      assert.notEqual(gate(run(c), { config }).verdict, 'allow', c);
    }
  });

  it("deny patterns see through npm's (and pnpm's, yarn's) global options as through git's", () => {
    const config = cfg({ deny: ['execute:npm publish*', 'execute:git push*', 'execute:yarn publish*'] });
    for (const c of [
      'npm publish',
      'npm --loglevel=silent publish',
      'npm --loglevel silent publish',
      'npm --prefix /tmp --userconfig /tmp/rc publish --tag x',
      'npm -w pkg publish',
      'yarn --cwd sub publish',
      'git -C . -c x=y push',
    ]) {
      assert.equal(brief(gate(run(c), { config, mode: 'yolo' })), 'deny/deny-pattern', c);
    }
    assert.equal(brief(gate(run('npm --loglevel=silent test'), { config, mode: 'yolo' })), 'allow/mode');
  });

  it("a fetch pattern's * never crosses /, ?, # or @ in the host", () => {
    const config = cfg({ allow: ['fetch:https://*.github.com/*'] });
    assert.equal(brief(gate(fetchOf('https://api.github.com/repos/x'), { config })), 'allow/allow-pattern');
    assert.equal(brief(gate(fetchOf('https://a.b.github.com/x?y#z'), { config })), 'allow/allow-pattern');
    for (const url of [
      'https://attacker.example/.github.com/x',
      'https://attacker.example?.github.com/x',
      'https://attacker.example#.github.com/x',
      'https://x.github.com@attacker.example/x',
      'https://attacker.example/x.github.com/',
      'http://api.github.com/x',
      'https://api.github.com:8443/x',
    ]) {
      assert.equal(brief(gate(fetchOf(url), { config })), 'ask/mode', url);
    }
    // The path part's `*` still matches anything.
    const docs = cfg({ allow: ['fetch:https://docs.example/*'] });
    assert.equal(brief(gate(fetchOf('https://docs.example/a/b?c=d'), { config: docs })), 'allow/allow-pattern');
  });

  it('a malformed deny entry makes what it might have covered ask, in yolo too, and is reported', () => {
    const config = cfg({ deny: ['exceute:rm *', 'execute:curl *'] });
    assert.match(gateConfigProblems(config).join(' '), /unknown kind "exceute"/);
    const d = gate(run('rm -rf build'), { config, mode: 'yolo' });
    assert.equal(brief(d), 'ask/deny-pattern');
    assert.match(d.reason, /"exceute:rm \*" cannot be read/);
    assert.match(d.reason, /Settings ignored: .*exceute/);
    assert.equal(brief(gate(run('curl x'), { config, mode: 'yolo' })), 'deny/deny-pattern');
    // What it could not have covered is decided as before.
    assert.equal(brief(gate(run('ls'), { config, mode: 'yolo' })), 'allow/mode');
    // An entry with nothing after its kind covers every call of that kind; one that is no text covers everything.
    assert.equal(brief(gate(run('ls'), { config: cfg({ deny: ['execute:'] }), mode: 'yolo' })), 'ask/deny-pattern');
    const notText = cfg({ deny: [42 as unknown as string] });
    assert.equal(brief(gate(fetchOf('https://x.example/'), { config: notText, mode: 'yolo' })), 'ask/deny-pattern');
    // Allow mode refuses what it would ask.
    assert.equal(brief(gate(run('rm -rf build'), { config, mode: 'allow' })), 'deny/deny-pattern');
  });

  it('a malformed allow entry disables only itself', () => {
    const config = cfg({ allow: ['exceute:ls', 'execute:ls'] });
    assert.equal(brief(gate(run('ls'), { config })), 'allow/allow-pattern');
    assert.equal(brief(gate(run('rm x'), { config, mode: 'yolo' })), 'allow/mode');
  });

  it("ps options that print other processes' environments are not read-only", () => {
    const config = cfg({ builtinAllow: true });
    for (const c of ['ps aux', 'ps -ef', 'ps -e', 'ps 123']) {
      assert.equal(brief(gate(run(c), { config })), 'allow/allow-pattern', c);
    }
    for (const c of ['ps e', 'ps eww', 'ps auxe', 'ps -e e', 'ps -o pid,environ']) {
      const d = gate(run(c), { config });
      assert.equal(brief(d), 'ask/mode', c);
      assert.match(d.reason, /environments/, c);
    }
  });

  it('in yolo, a runner the gate cannot see into is asked: at with unread input, vim -c, sed s///e, tmux send-keys', () => {
    for (const c of [
      'at now',
      'at now < jobs.txt',
      "vim -c 'call Foo()' x",
      "sed 's/x/y/e' f",
      'tmux send-keys ls Enter',
    ]) {
      assert.equal(brief(gate(run(c), { mode: 'yolo' })), 'ask/unreadable', c);
    }
    for (const c of ["tmux new -d 'make test'", "echo 'ls' | at now", 'vim +10 x', "sed 's/a/b/g' f", 'at -l']) {
      assert.equal(brief(gate(run(c), { mode: 'yolo' })), 'allow/mode', c);
    }
  });
});

describe('local gate rules: a grant cannot run what the agent wrote', () => {
  const editOf = (path: string) => ({
    kind: 'edit',
    title: `Edit ${path}`,
    paths: [{ path, access: 'write' as const }],
  });
  const acceptEdits = (request: GateInput['request'], over: Partial<GateInput> = {}) =>
    gate(request, { mode: 'acceptEdits', ...over });

  it('acceptEdits writing package.json is asked while an npm test grant exists, and the reason names the grant', () => {
    const session = { grants: [exact('npm test')] };
    const d = acceptEdits(editOf(`${ROOT}/package.json`), { session });
    assert.equal(brief(d), 'ask/protected');
    assert.match(d.reason, /package\.json.*session grant for "npm test"/);
    assert.equal(brief(acceptEdits(editOf(`${ROOT}/test/a.test.ts`), { session })), 'ask/protected');
    // Without the grant it behaves as today: an edit inside the workspace is allowed in acceptEdits.
    assert.equal(brief(acceptEdits(editOf(`${ROOT}/package.json`))), 'allow/mode');
    // A file npm does not run stays an ordinary edit under the grant.
    assert.equal(brief(acceptEdits(editOf(`${ROOT}/README.md`), { session })), 'allow/mode');
  });

  it('make ↔ Makefile, pytest ↔ conftest.py, python3 a.py ↔ a.py, cargo ↔ build.rs, by grant or allow pattern', () => {
    const cases: [Partial<GateInput>, string][] = [
      [{ session: { grants: [exact('make')] } }, 'Makefile'],
      [{ session: { grants: [{ scope: 'verb', verb: 'pytest' }] } }, 'conftest.py'],
      [{ session: { grants: [exact('python3 a.py')] } }, 'a.py'],
      [{ session: { grants: [exact('bash build.sh')] } }, 'build.sh'],
      [{ config: cfg({ allow: ['execute:cargo build'] }) }, 'build.rs'],
      [{ config: cfg({ allow: ['execute:tox'] }) }, 'tox.ini'],
      [{ session: { grants: [{ scope: 'tool', kind: 'execute' }] } }, 'pytest.ini'],
    ];
    for (const [over, file] of cases) {
      assert.equal(brief(acceptEdits(editOf(`${ROOT}/${file}`), over)), 'ask/protected', file);
      assert.equal(brief(acceptEdits(editOf(`${ROOT}/${file}`))), 'allow/mode', `${file} without the grant`);
    }
    // A command that writes it is refused in allow mode, naming the grant.
    const session = { grants: [exact('make')] };
    assert.equal(brief(gate(run('echo all: > Makefile'), { session, mode: 'allow' })), 'deny/protected');
  });

  it('yolo is unchanged: it asks about nothing it can allow', () => {
    const session = { grants: [exact('npm test')] };
    assert.equal(brief(gate(editOf(`${ROOT}/package.json`), { session, mode: 'yolo' })), 'allow/mode');
  });
});
