import * as assert from 'node:assert/strict';
import {
  DEFAULT_LOCAL_POLICY,
  PRESETS,
  parseLocalAgents,
  presetById,
  specFromConfig,
  specFromPreset,
} from '../../../src/local';
import { unknownVerdictMessage } from '../../../src/policy/validate';

describe('local agents: fountain.localAgents entries', () => {
  it('fills the defaults: no args, no env, policy {"default":"ask"}', () => {
    const { agents, problems } = parseLocalAgents([{ name: 'mine', command: 'my-agent' }]);
    assert.deepEqual(problems, []);
    assert.deepEqual(agents, [{ name: 'mine', command: 'my-agent', args: [], env: [], policy: { default: 'ask' } }]);
    assert.deepEqual(DEFAULT_LOCAL_POLICY, { default: 'ask' });
  });

  it('keeps a full entry as written', () => {
    const entry = {
      name: 'claude here',
      command: '/opt/bin/claude-agent-acp',
      args: ['--flag'],
      env: ['ANTHROPIC_API_KEY'],
      runtime: 'claude',
      policy: { default: 'ask', execute: 'auto_deny', ask_timeout: 60 },
      defaultMode: 'plan',
    };
    assert.deepEqual(parseLocalAgents([entry]), { agents: [entry], problems: [] });
  });

  it('validates the policy with the server messages of src/policy', () => {
    const { agents, problems } = parseLocalAgents([{ name: 'a', command: 'x', policy: { execute: 'sometimes' } }]);
    assert.deepEqual(agents, []);
    assert.deepEqual(problems, [
      `fountain.localAgents[0] ("a"): policy: ${unknownVerdictMessage('execute', 'sometimes')}`,
    ]);
  });

  it('refuses values in env: it names variables, never holds secrets', () => {
    const { agents, problems } = parseLocalAgents([
      { name: 'a', command: 'x', env: ['ANTHROPIC_API_KEY=sk-ant-123'] },
      { name: 'b', command: 'x', env: 'OPENAI_API_KEY' },
    ]);
    assert.deepEqual(agents, []);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /^fountain\.localAgents\[0\] \("a"\): env\.0: env lists names/);
    assert.match(problems[1], /^fountain\.localAgents\[1\] \("b"\): env: env lists names/);
    assert.ok(!problems.join('\n').includes('sk-ant-123'), 'the refused value is not echoed');
  });

  it('refuses unknown keys, empty names and commands, and a second entry with the same name; keeps the good ones', () => {
    const { agents, problems } = parseLocalAgents([
      { name: 'ok', command: 'x' },
      { name: 'typo', command: 'x', enviroment: ['A'] },
      { name: ' ', command: 'x' },
      { name: 'nocmd', command: '' },
      { name: 'ok', command: 'y' },
      'not an object',
    ]);
    assert.deepEqual(
      agents.map((a) => a.name),
      ['ok'],
    );
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.match(problems[0], /\[1\].*enviroment/);
    assert.match(problems[1], /\[2\].*name must be a non-empty string/);
    assert.match(problems[2], /\[3\].*command must be a non-empty string/);
    assert.match(problems[3], /\[4\] \("ok"\): another entry already has this name/);
    assert.match(problems[4], /\[5\]/);
  });

  it('reads a missing setting as no agents and a non-list as one problem', () => {
    assert.deepEqual(parseLocalAgents(undefined), { agents: [], problems: [] });
    assert.deepEqual(parseLocalAgents({ name: 'a' }), {
      agents: [],
      problems: ['fountain.localAgents must be a list of agents'],
    });
  });

  it('a configured agent with a preset runtime gets that preset stop timings; others the defaults', () => {
    const [claudeLike, custom] = parseLocalAgents([
      { name: 'c', command: 'claude-agent-acp', runtime: 'claude' },
      { name: 'd', command: 'other-agent' },
    ]).agents;
    const c = specFromConfig(claudeLike);
    assert.equal(c.graceMs, presetById('claude')!.graceMs);
    assert.equal(c.install, 'npm install -g @zed-industries/claude-agent-acp');
    const d = specFromConfig(custom);
    assert.equal(d.runtime, 'custom');
    assert.equal(d.install, undefined);
    assert.ok(d.graceMs > c.graceMs);
  });
});

describe('local agents: built-in presets', () => {
  it('has the five runtimes, each with its ACP arguments and an exact npm install command', () => {
    const table = PRESETS.map((p) => [p.id, p.command, p.args.join(' '), p.install]);
    assert.deepEqual(table, [
      ['claude', 'claude-agent-acp', '', 'npm install -g @zed-industries/claude-agent-acp'],
      ['gemini', 'gemini', '--acp --approval-mode default', 'npm install -g @google/gemini-cli'],
      [
        'codex',
        'codex-acp',
        '-c approval_policy="untrusted" -c sandbox_mode="workspace-write"',
        'npm install -g @zed-industries/codex-acp',
      ],
      ['opencode', 'opencode', 'acp', 'npm install -g opencode-ai'],
      ['qwen', 'qwen', '--acp --approval-mode default', 'npm install -g @qwen-code/qwen-code'],
    ]);
  });

  it('claude and codex (which never exit on stdin EOF) get a short grace; the others wait for their clean exit', () => {
    for (const id of ['claude', 'codex']) {
      assert.ok(presetById(id)!.graceMs <= 250, id);
    }
    for (const id of ['gemini', 'opencode', 'qwen']) {
      assert.ok(presetById(id)!.graceMs >= 2000, id);
    }
  });

  it('a preset spec asks by default, and takes a policy and extra variable names', () => {
    const base = specFromPreset(presetById('gemini')!);
    assert.deepEqual(base.policy, { default: 'ask' });
    assert.deepEqual(base.args, ['--acp', '--approval-mode', 'default']);
    const custom = specFromPreset(presetById('gemini')!, {
      policy: { default: 'auto_deny' },
      env: ['EXTRA', 'GEMINI_API_KEY'],
    });
    assert.deepEqual(custom.policy, { default: 'auto_deny' });
    assert.equal(custom.env.filter((n) => n === 'GEMINI_API_KEY').length, 1);
    assert.ok(custom.env.includes('EXTRA'));
  });
});
