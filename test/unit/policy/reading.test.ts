import * as assert from 'node:assert/strict';
import { decide, parseCommand, type GateConfig, type GateInput } from '../../../src/policy';
import { gateRequestFrom } from '../../../src/policy/gateRequest';

const ROOT = '/work/repo';
const HOME = '/home/u';
const cfg = (over: Partial<GateConfig> = {}): GateConfig => ({ roots: [ROOT], ...over });
const run = (command: string) => ({ kind: 'execute', command, title: command, cwd: ROOT });
function gate(command: string, over: Partial<GateInput> = {}) {
  return decide({ request: run(command), mode: 'ask', config: cfg(), home: HOME, ...over });
}
const brief = (d: { verdict: string; rule: string }) => `${d.verdict}/${d.rule}`;
const MODES = ['ask', 'acceptEdits', 'yolo'] as const;
const AUTO = cfg({ policy: { execute: 'auto_allow', default: 'auto_allow' } });

describe('local gate: reading a line as bash does (issue 27)', () => {
  it('a CR, NUL or other control character (not tab or newline) is asked in every mode', () => {
    for (const c of ['echo hi\r# ; touch X', 'ls\0', 'ls \x1b[2K', 'echo a\x7f', 'ls \u0085']) {
      assert.ok(
        parseCommand(c).problems.some((p) => p.startsWith('the control character')),
        JSON.stringify(c),
      );
      for (const mode of MODES) {
        assert.equal(brief(gate(c, { mode })), 'ask/unreadable', `${mode} ${JSON.stringify(c)}`);
      }
    }
    // bash reads the CR as part of the word, so the # is no comment and touch runs: the gate sees touch too.
    assert.deepEqual(
      parseCommand('echo hi\r# ; touch X').parts.map((p) => p.words),
      [
        ['echo', 'hi\r#'],
        ['touch', 'X'],
      ],
    );
    assert.equal(brief(gate('ls\tsrc\nls')), 'allow/allow-pattern');
  });

  it('a line that ends after |, &&, || or |& is asked: bash refuses it whole and runs nothing (differential seed 303)', () => {
    for (const c of ['grep&&', 'ls |', 'ls ||\n', 'cat x |&']) {
      assert.ok(
        parseCommand(c).problems.some((p) => p.startsWith('the line ends after')),
        JSON.stringify(c),
      );
      assert.equal(brief(gate(c)), 'ask/unreadable', JSON.stringify(c));
    }
    // A newline after the operator continues the list, as in bash: still read, still allowed.
    assert.equal(brief(gate('ls &&\nls')), 'allow/allow-pattern');
  });

  it('a $ before a backslash-newline reads as bash joins it ($HOME, $(…)), and is not allowed', () => {
    const p = parseCommand('cat $\\\nHOME/.ssh/id_rsa');
    assert.deepEqual(p.parts[0].segs?.[1], [
      { t: 'var', name: 'HOME', q: false },
      { t: 'lit', s: '/.ssh/id_rsa', q: false },
    ]);
    assert.equal(brief(gate('cat $\\\nHOME/.ssh/id_rsa')), 'ask/unreadable');
    assert.equal(brief(gate('echo $\\\n(id)')), 'ask/unreadable');
    assert.equal(brief(gate('rm -rf $\\\nHOME', { mode: 'yolo' })), 'deny/denylist');
    // A continuation that changes nothing stays readable.
    assert.equal(brief(gate('ls -la \\\n  src')), 'allow/allow-pattern');
  });

  it('a command of redirections alone is checked: scope, protected files, network devices', () => {
    assert.equal(brief(gate('ls; >~/.bashrc', { mode: 'yolo' })), 'ask/protected');
    assert.equal(brief(gate('ls && >.git/hooks/pre-commit', { mode: 'yolo' })), 'ask/protected');
    assert.equal(brief(gate('ls; </dev/tcp/10.0.0.1/80', { mode: 'yolo' })), 'ask/network');
    assert.equal(brief(gate('ls; </etc/shadow')), 'ask/path-scope');
    assert.notEqual(gate('ls; <src/a').verdict, 'allow');
  });

  it('after a cd whose success is not proven, relative operands cannot be placed', () => {
    assert.equal(brief(gate('cd nope; cat ../.ssh/id_rsa', { config: AUTO })), 'ask/path-scope');
    assert.match(gate('cd nope; cat ../.ssh/id_rsa').reason, /may or may not have worked/);
    assert.equal(brief(gate('cd nope || cat ../x')), 'ask/path-scope');
    assert.equal(brief(gate('cd .git; echo x > config', { mode: 'yolo' })), 'ask/protected');
    // Through && the cd worked, or the command does not run: placed in the new directory.
    assert.equal(brief(gate('cd src && cat a.ts')), 'allow/allow-pattern');
    assert.equal(brief(gate('cd src && cat ../../../etc/x')), 'ask/path-scope');
    assert.match(gate('cd src && cat ../../../etc/x').reason, /would read \/etc\/x/);
  });

  it('files named on standard input or in a list file are asked', () => {
    for (const c of [
      'printf "/home/u/.ssh/id_rsa\\0" | sort --files0-from=-',
      'wc --files0-from=list',
      'sort --files0-fr=list',
      'file -f names',
      'xargs -a list cat',
      'find . | xargs cat',
    ]) {
      const d = gate(c, { config: AUTO });
      assert.equal(brief(d), 'ask/path-scope', c);
    }
    for (const c of ['tar -cf out.tar -T list', 'rsync --files-from=list . /tmp/x', 'gcc @args']) {
      assert.equal(brief(gate(c, { config: AUTO })), 'ask/path-scope', c);
    }
  });

  it('the operands a program writes are writes: the protected-file rule holds in yolo and under auto_allow', () => {
    for (const c of [
      'cp /tmp/x .git/hooks/pre-commit',
      'cp -t .git/hooks /tmp/pre-commit',
      'mv .git /tmp/g',
      'install -m 755 /tmp/x .husky/pre-commit',
      'tee .git/hooks/post-checkout',
      'dd if=/tmp/x of=.git/config',
      'sed -i s/a/b/ .git/config',
      'sed -Ei.bak -e s/a/b/ .vscode/tasks.json',
      'ln -s /tmp/x .git/hooks/pre-push',
      'rsync -a /tmp/h/ .git/hooks/',
      'tar -xf /tmp/a.tar -C .git',
      'tar xzf /tmp/a.tgz -C .git/hooks',
      'git config core.hooksPath /tmp/h',
      'git -C sub config --add alias.x !sh',
      'touch .envrc',
    ]) {
      for (const [mode, config] of [
        ['yolo', cfg()],
        ['ask', AUTO],
      ] as const) {
        const d = gate(c, { mode, config });
        assert.equal(brief(d), 'ask/protected', `${mode} ${c}: ${d.reason}`);
      }
    }
    // Reads of them are no writes; and a plain cp inside the workspace stays what the mode makes it.
    assert.equal(brief(gate('cp .git/config /work/repo/x', { mode: 'yolo' })), 'allow/mode');
    assert.equal(brief(gate('git config --get core.hooksPath', { mode: 'yolo' })), 'allow/mode');
    assert.equal(brief(gate('cp a /tmp/b')), 'ask/path-scope');
  });

  it('a request that carries a command is decided as that command, whatever kind it names, in the policy step too', () => {
    const config = cfg({ policy: { read: 'auto_allow', search: 'auto_allow', execute: 'ask' } });
    for (const kind of ['read', 'search', 'other']) {
      const req = gateRequestFrom({ kind, title: 'Read', rawInput: { command: 'python3 -c 1' } }, ROOT);
      const d = decide({ request: req, mode: 'ask', config, home: HOME });
      assert.equal(brief(d), 'ask/mode', kind);
    }
    const plainRead = decide({
      request: { kind: 'read', title: 'Read', paths: [{ path: '/etc/hosts', access: 'read' }] },
      mode: 'ask',
      config: cfg({ policy: { read: 'auto_allow' }, allowPaths: [{ pattern: '/etc/...', access: 'r' }] }),
    });
    assert.equal(plainRead.verdict, 'allow');
  });
});
