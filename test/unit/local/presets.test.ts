import * as assert from 'node:assert/strict';
import { presetById, specFromConfig, specFromPreset, parseLocalAgents, presetEnv } from '../../../src/local';
import {
  AgentModeTracker,
  agentModeClass,
  agentModeFor,
  modeOption,
  sendableMode,
} from '../../../src/local/agentModes';
import { askPermissions, opencodeConfigContent, OPENCODE_ASK_KEYS } from '../../../src/local/opencodeConfig';

describe('local presets: every preset is started so that it asks', () => {
  it('codex asks (untrusted, workspace-write sandbox), gemini and qwen in their default approval mode', () => {
    assert.deepEqual(presetById('codex')!.args, [
      '-c',
      'approval_policy="untrusted"',
      '-c',
      'sandbox_mode="workspace-write"',
    ]);
    assert.deepEqual(presetById('gemini')!.args, ['--acp', '--approval-mode', 'default']);
    assert.deepEqual(presetById('qwen')!.args, ['--acp', '--approval-mode', 'default']);
    assert.ok(!presetById('qwen')!.args.includes('auto'));
    assert.equal(presetById('codex')!.asks.level, 'partial');
    for (const id of ['claude', 'gemini', 'opencode', 'qwen']) {
      assert.equal(presetById(id)!.asks.level, 'all', id);
    }
  });

  it('a configured entry carries the preset asking only with the preset command line', () => {
    const [same, other] = parseLocalAgents([
      { name: 'a', command: 'codex-acp', runtime: 'codex', args: [...presetById('codex')!.args] },
      { name: 'b', command: 'codex-acp', runtime: 'codex', args: [] },
    ]).agents;
    assert.equal(specFromConfig(same).asks?.level, 'partial');
    assert.equal(specFromConfig(other).asks, undefined);
    assert.equal(specFromPreset(presetById('claude')!).asks?.level, 'all');
  });
});

interface Oc {
  model?: string;
  default_agent: string;
  permission: Record<string, unknown>;
  agent: Record<string, { model?: string; mode?: string; permission: Record<string, unknown> }>;
}
const oc = (value: string) => JSON.parse(value) as Oc;

describe('opencode: OPENCODE_CONFIG_CONTENT asks for every permission, merged with the user value', () => {
  it('without a user value: every known permission and * ask, the build agent too, build is the default agent', () => {
    const c = JSON.parse(opencodeConfigContent(undefined).value) as Oc;
    for (const k of OPENCODE_ASK_KEYS) {
      assert.equal(c.permission[k], 'ask', k);
      assert.equal(c.agent.build.permission[k], 'ask', k);
    }
    assert.equal(c.default_agent, 'build');
  });

  it("keeps the user's other keys and denies; what the user allowed is asked", () => {
    const user = {
      model: 'x/y',
      default_agent: 'mine',
      permission: { bash: { '*': 'allow', 'rm *': 'deny' }, edit: 'allow', webfetch: 'deny' },
      agent: { build: { model: 'x/z', permission: { bash: 'allow', task: 'deny' } }, mine: { mode: 'primary' } },
    };
    const c = JSON.parse(opencodeConfigContent(JSON.stringify(user)).value) as Oc;
    assert.equal(c.model, 'x/y');
    assert.equal(c.default_agent, 'build');
    assert.deepEqual(c.permission.bash, { '*': 'ask', 'rm *': 'deny' });
    assert.equal(c.permission.edit, 'ask');
    assert.equal(c.permission.webfetch, 'deny');
    assert.equal(c.agent.build.model, 'x/z');
    assert.deepEqual(c.agent.mine, { mode: 'primary' });
    assert.equal(c.agent.build.permission.bash, 'ask', 'the build agent allowed bash');
    assert.equal(c.agent.build.permission.task, 'deny');
    assert.equal(c.agent.build.permission.webfetch, 'deny', 'a top-level deny applies to build');
  });

  it('a value that is not a JSON object is not used, and says so', () => {
    for (const bad of ['{', '[1]', '"x"']) {
      const r = opencodeConfigContent(bad);
      assert.match(r.problem ?? '', /OPENCODE_CONFIG_CONTENT is not/);
      assert.equal(oc(r.value).permission.bash, 'ask');
    }
    assert.deepEqual(askPermissions('deny').bash, 'deny');
  });

  it('presetEnv sets it for the opencode runtime only, reading the user value from the source', () => {
    const lines: string[] = [];
    const env = presetEnv(
      { runtime: 'opencode' },
      { PATH: '/bin' },
      { OPENCODE_CONFIG_CONTENT: '{"model":"a/b"}' },
      (l) => lines.push(l),
    );
    assert.equal(oc(env.OPENCODE_CONFIG_CONTENT).model, 'a/b');
    assert.equal(oc(env.OPENCODE_CONFIG_CONTENT).permission['*'], 'ask');
    assert.deepEqual(
      presetEnv({ runtime: 'claude' }, { PATH: '/bin' }, { OPENCODE_CONFIG_CONTENT: '{}' }, () => {}),
      {
        PATH: '/bin',
      },
    );
    presetEnv({ runtime: 'opencode' }, {}, { OPENCODE_CONFIG_CONTENT: 'nope' }, (l) => lines.push(l));
    assert.equal(lines.length, 1);
  });
});

describe('agent modes: only modes where the agent asks are ever sent', () => {
  it('classifies the published agents’ modes', () => {
    for (const m of ['bypassPermissions', 'dontAsk', 'yolo', 'auto', 'full-access']) {
      assert.equal(agentModeClass(m), 'neverAsks', m);
      assert.equal(sendableMode(m), false, m);
    }
    for (const m of ['acceptEdits', 'autoEdit', 'auto_edit', 'auto-edit']) {
      assert.equal(sendableMode(m), false, m);
    }
    assert.equal(sendableMode('default'), true);
    assert.equal(sendableMode('plan'), false, 'the gate plans; the agent keeps asking');
    assert.equal(sendableMode('architect'), false, 'an unknown mode');
    assert.equal(sendableMode('constructor'), false);
  });

  it('picks the asking mode for every gate mode (plan and yolo included)', () => {
    const claude = ['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions'];
    for (const g of ['plan', 'ask', 'acceptEdits', 'allow', 'yolo'] as const) {
      assert.equal(agentModeFor(g, claude), 'default', g);
    }
    assert.equal(agentModeFor('ask', ['read-only', 'auto', 'full-access']), undefined, 'codex: none fits');
    assert.equal(agentModeFor('plan', ['default']), 'default');
  });

  it('an entry whose defaultMode is the agent’s plan mode starts it there, and a gate mode change keeps it there', async () => {
    const sent: string[] = [];
    const log: string[] = [];
    const modes = new AgentModeTracker(
      'claude',
      async (id) => void sent.push(id),
      (l) => log.push(l),
      () => {},
    );
    modes.started({
      currentModeId: 'default',
      availableModes: [{ id: 'default' }, { id: 'plan' }, { id: 'acceptEdits' }],
    });
    await modes.noteDefaultMode('plan');
    await modes.sync('acceptEdits');
    assert.deepEqual(sent, ['plan']);
    assert.equal(modes.info?.kind, 'plan');
    modes.reported('acceptEdits'); // the user approved ExitPlanMode with "auto-accept edits": back to asking
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(sent, ['plan', 'default']);
    await modes.noteDefaultMode('bypassPermissions');
    assert.deepEqual(sent, ['plan', 'default'], 'a never-ask defaultMode is never sent');
  });

  it('reads a mode config option (opencode)', () => {
    assert.equal(
      modeOption([
        { id: 'model', currentValue: 'm' },
        { id: 'mode', category: 'mode', currentValue: 'build' },
      ]),
      'build',
    );
    assert.equal(modeOption(undefined), undefined);
    assert.equal(modeOption([null, 3]), undefined);
  });
});
