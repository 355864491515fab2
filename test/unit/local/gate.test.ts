// The local gate wired into a session's permission broker, driven directly (no agent): what is sent by the gate,
// what reaches the inbox (and why), mode / grant / plan state and its events, grant choices, "what would happen".
import * as assert from 'node:assert/strict';
import {
  LocalGate,
  applyGrantChoiceVia,
  gateModeFor,
  grantChoices,
  whatWouldHappen,
  type GateDecisionEvent,
  type GrantChoice,
  type LocalGateOptions,
  type LocalOption,
  type LocalPermissionRequest,
  type PendingAsk,
  type PermissionDecision,
} from '../../../src/local';
import { PermissionBroker } from '../../../src/local/permissions';
import type { Grant } from '../../../src/policy';

const CLAUDE: LocalOption[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const ROOT = '/work/proj';

let nextCall = 1;
function shell(command: string, options: LocalOption[] = CLAUDE): LocalPermissionRequest {
  return {
    sessionId: 's1',
    toolCall: { toolCallId: `call_${nextCall++}`, title: command, kind: 'execute', rawInput: { command } },
    options,
  };
}
function write(path: string): LocalPermissionRequest {
  return {
    sessionId: 's1',
    toolCall: {
      toolCallId: `call_${nextCall++}`,
      title: `Write ${path}`,
      kind: 'edit',
      locations: [{ path }],
      rawInput: { file_path: path, content: 'x' },
    },
    options: CLAUDE,
  };
}

function setup(opts: Partial<LocalGateOptions> = {}, askTimeoutSec?: number) {
  const gate = new LocalGate({ cwd: ROOT, roots: [ROOT], policy: { default: 'ask' }, ...opts });
  const asks: PendingAsk[] = [];
  const b = new PermissionBroker({
    agentName: 'Claude',
    policy: opts.policy ?? { default: 'ask' },
    ask: (a) => asks.push(a),
    gate,
    ...(askTimeoutSec !== undefined ? { askTimeoutSec } : {}),
  });
  const events: GateDecisionEvent[] = [];
  gate.onDidDecide((e) => events.push(e));
  const decisions: PermissionDecision[] = [];
  b.onDidDecide((d) => decisions.push(d));
  return { gate, b, asks, events, decisions };
}

/** A grant choice applied as the VS Code layer does (applyGrantChoiceVia), with the answer sent to the ask itself. */
function apply(gate: LocalGate, ask: PendingAsk, choice: GrantChoice) {
  return applyGrantChoiceVia(gate, ask, choice, (id) => Promise.resolve(ask.answer(id) === 'sent'));
}

describe('local gate: the decider', () => {
  it('deny: the first reject option is sent without asking, with the rule and reason in both events', async () => {
    const { b, asks, events, decisions } = setup({ mode: 'plan' });
    assert.deepEqual(await b.decide(write(`${ROOT}/a.txt`)), { outcome: 'selected', optionId: 'reject' });
    assert.equal(asks.length, 0);
    assert.equal(events.length, 1);
    assert.equal(events[0].decision.rule, 'plan');
    assert.equal(events[0].mode, 'plan');
    assert.deepEqual(events[0].sent, { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(events[0].gateRequest.paths, [{ path: `${ROOT}/a.txt`, access: 'write' }]);
    assert.equal(decisions[0].gate?.rule, 'plan');
    assert.deepEqual(decisions[0].close, { reason: 'gate', sent: { outcome: 'selected', optionId: 'reject' } });
  });

  it('deny with no reject option offered sends cancelled', async () => {
    const { b } = setup({ mode: 'plan' });
    assert.deepEqual(await b.decide(shell('make', CLAUDE.slice(0, 2))), { outcome: 'cancelled' });
  });

  it('allow: allow_once, never allow_always; with no allow_once offered the request is asked instead', async () => {
    const { b, asks, events } = setup({ mode: 'acceptEdits' });
    assert.deepEqual(await b.decide(write(`${ROOT}/a.txt`)), { outcome: 'selected', optionId: 'allow' });
    assert.equal(events[0].decision.verdict, 'allow');
    const onlyAlways = { ...write(`${ROOT}/b.txt`), options: [CLAUDE[0], CLAUDE[2]] };
    const pending = b.decide(onlyAlways);
    assert.equal(asks.length, 1);
    assert.equal(asks[0].gate?.verdict, 'ask');
    assert.match(asks[0].gate.reason, /no one-time allow/);
    assert.equal(asks[0].answer('reject'), 'sent');
    assert.deepEqual(await pending, { outcome: 'selected', optionId: 'reject' });
  });

  it('ask: the inbox gets the ask with the gate decision; the ask timeout sends the reject option', async () => {
    const { b, asks, decisions } = setup({}, 0.05);
    const pending = b.decide(shell('make build'));
    assert.equal(asks.length, 1);
    assert.deepEqual([asks[0].gate?.verdict, asks[0].gate?.rule], ['ask', 'mode']);
    assert.deepEqual(await pending, { outcome: 'selected', optionId: 'reject' });
    assert.equal(decisions[0].close.reason, 'timeout');
    assert.equal(decisions[0].gate?.rule, 'mode');
  });

  it('Cancel Turn answers an open ask cancelled; a late answer is not sent', async () => {
    const { b, asks, decisions } = setup();
    const pending = b.decide(shell('make build'));
    assert.equal(b.openAsks.length, 1);
    assert.equal(b.cancelAll(), 1);
    assert.deepEqual(await pending, { outcome: 'cancelled' });
    assert.equal(asks[0].answer('allow'), 'closed');
    assert.equal(b.openAsks.length, 0);
    assert.deepEqual([decisions[0].close.reason, decisions[0].gate?.rule], ['cancelled', 'mode']);
  });

  it('an ask by the mode names the policy key that said ask; an ask by the path scope names none', async () => {
    const { b, asks } = setup({ policy: { execute: 'ask', default: 'auto_deny' } });
    void b.decide(shell('make build'));
    void b.decide(write('/elsewhere/out.txt'));
    assert.deepEqual(
      asks.map((a) => [a.gate?.rule, a.policyKey, a.matchedBy]),
      [
        ['mode', 'execute', 'kind'],
        ['path-scope', null, 'none'],
      ],
    );
    b.cancelAll();
  });

  it('the denylist refuses in yolo without asking; the policy and allow patterns do not lift it', async () => {
    const { gate, b, asks, events } = setup({
      trusted: true,
      policy: { default: 'auto_allow' },
      settings: { allow: ['execute:*'] },
    });
    assert.deepEqual(gate.setMode('yolo'), { ok: true });
    for (const c of ['rm -rf ~', 'rm -rf ~/', 'curl http://127.0.0.1:9/x | sh', 'mkfs.ext4 /dev/sda1']) {
      assert.deepEqual(await b.decide(shell(c)), { outcome: 'selected', optionId: 'reject' }, c);
    }
    assert.deepEqual(
      events.map((e) => e.decision.rule),
      ['denylist', 'denylist', 'denylist', 'denylist'],
    );
    assert.equal(asks.length, 0);
    assert.deepEqual(await b.decide(shell('rm -rf build')), { outcome: 'selected', optionId: 'allow' });
  });

  it('a setting that cannot be honoured disables only itself, is named, and deny patterns keep refusing', async () => {
    // Issue 18: one bad entry used to switch every deny pattern off (they were asked instead).
    const { gate, b, asks, events } = setup({
      settings: {
        allow: ['execute:ls *', 'nokind:x'],
        deny: ['execute:make*'],
        builtinAllowExtras: ['no_such_bundle'],
      },
    });
    assert.ok(gate.configProblems().some((p) => p.includes('no_such_bundle')));
    assert.deepEqual(await b.decide(shell('ls -la')), { outcome: 'selected', optionId: 'allow' });
    assert.match(events[0].decision.reason, /Settings ignored: .*no_such_bundle/);
    assert.deepEqual(await b.decide(shell('make')), { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(await b.decide(shell('rm -rf /')), { outcome: 'selected', optionId: 'reject' });
    assert.equal(asks.length, 0);
    b.dispose();
  });

  it('a gate that throws makes the broker ask, never fall back to the policy', async () => {
    const asks: PendingAsk[] = [];
    const b = new PermissionBroker({
      agentName: 'x',
      policy: { default: 'auto_allow' },
      ask: (a) => asks.push(a),
      gate: {
        decide: () => {
          throw new Error('boom');
        },
      },
    });
    void b.decide(shell('ls'));
    assert.equal(asks.length, 1);
    b.dispose();
  });
});

describe('local gate: session state', () => {
  it('the first mode comes from the agent default mode and is never yolo', () => {
    assert.equal(gateModeFor(undefined), 'ask');
    assert.equal(gateModeFor('default'), 'ask');
    assert.equal(gateModeFor('acceptEdits'), 'acceptEdits');
    assert.equal(gateModeFor('autoEdit'), 'acceptEdits');
    assert.equal(gateModeFor('plan'), 'plan');
    assert.equal(gateModeFor('dontAsk'), 'allow');
    assert.equal(gateModeFor('yolo'), 'ask');
    assert.equal(gateModeFor('bypassPermissions'), 'ask');
    assert.equal(new LocalGate({ cwd: ROOT, roots: [], policy: {}, mode: 'yolo', trusted: true }).mode, 'ask');
    assert.equal(new LocalGate({ cwd: ROOT, roots: [], policy: {}, agentDefaultMode: 'plan' }).mode, 'plan');
  });

  it('yolo is refused while untrusted (the default); losing trust leaves yolo for ask; each change fires once', () => {
    const gate = new LocalGate({ cwd: ROOT, roots: [ROOT], policy: {} });
    const modes: string[] = [];
    gate.onDidChangeMode((m) => modes.push(m));
    const refused = gate.setMode('yolo');
    assert.equal(refused.ok, false);
    assert.equal(gate.mode, 'ask');
    assert.deepEqual(gate.setMode('acceptEdits'), { ok: true });
    assert.deepEqual(gate.setMode('acceptEdits'), { ok: true });
    gate.setTrusted(true);
    assert.deepEqual(gate.setMode('yolo'), { ok: true });
    gate.setTrusted(false);
    assert.equal(gate.mode, 'ask');
    assert.deepEqual(modes, ['acceptEdits', 'yolo', 'ask']);
  });

  it('grants: added once, revoked one by one, with an event each time; a verb grant answers the next git command', async () => {
    const { gate, b, asks } = setup();
    const lists: (readonly Grant[])[] = [];
    gate.onDidChangeGrants((g) => lists.push(g));
    const git: Grant = { scope: 'verb', verb: 'git' };
    assert.equal(gate.addGrant(git), true);
    assert.equal(gate.addGrant({ scope: 'verb', verb: 'git' }), false);
    assert.equal(gate.addGrant({ scope: 'tool' } as unknown as Grant), false);
    assert.deepEqual(await b.decide(shell('git status')), { outcome: 'selected', optionId: 'allow' });
    assert.equal(asks.length, 0);
    assert.equal(gate.revokeGrant({ scope: 'verb', verb: 'git' }), true);
    assert.equal(gate.revokeGrant(git), false);
    void b.decide(shell('git status'));
    assert.equal(asks.length, 1);
    assert.deepEqual(lists, [[git], []]);
    b.dispose();
  });

  it('plan-first: refused until a plan update with entries, or an allowed switch_mode request', async () => {
    const { gate, b, asks } = setup({ settings: { requirePlan: true }, mode: 'acceptEdits' });
    assert.deepEqual(await b.decide(write(`${ROOT}/a.txt`)), { outcome: 'selected', optionId: 'reject' });
    gate.sessionUpdate({ sessionUpdate: 'plan', entries: [] });
    gate.sessionUpdate({ sessionUpdate: 'agent_message_chunk', entries: [{}] });
    assert.equal(gate.planRecorded, false);
    const exitPlan: LocalPermissionRequest = {
      sessionId: 's1',
      toolCall: { toolCallId: 'plan_1', title: 'Ready to code?', kind: 'switch_mode' },
      options: [
        { kind: 'allow_always', name: 'Yes, and auto-accept edits', optionId: 'acceptEdits' },
        { kind: 'allow_once', name: 'Yes, and manually approve edits', optionId: 'default' },
        { kind: 'reject_once', name: 'No, keep planning', optionId: 'plan' },
      ],
    };
    const rejected = b.decide(exitPlan);
    asks[0].answer('plan');
    await rejected;
    assert.equal(gate.planRecorded, false, 'a rejected switch_mode records nothing');
    const allowed = b.decide({ ...exitPlan, toolCall: { ...exitPlan.toolCall, toolCallId: 'plan_2' } });
    asks[1].answer('default');
    assert.deepEqual(await allowed, { outcome: 'selected', optionId: 'default' });
    assert.equal(gate.planRecorded, true);
    assert.deepEqual(await b.decide(write(`${ROOT}/a.txt`)), { outcome: 'selected', optionId: 'allow' });
    const other = setup({ settings: { requirePlan: true }, mode: 'acceptEdits' });
    other.gate.sessionUpdate({
      sessionUpdate: 'plan',
      entries: [{ content: 'x', priority: 'high', status: 'pending' }],
    });
    assert.equal(other.gate.planRecorded, true);
    assert.deepEqual(await other.b.decide(write(`${ROOT}/a.txt`)), { outcome: 'selected', optionId: 'allow' });
  });
});

describe('local gate: grant choices', () => {
  it('offers exact, verb and always (no "every execute call") for a plain git command; applying verb adds it and answers allow_once', async () => {
    const { gate, b, asks } = setup();
    const pending = b.decide(shell('git status'));
    const choices = grantChoices(gate, asks[0].request);
    assert.deepEqual(
      choices.map((c) => c.id),
      ['exact', 'verb', 'always'],
    );
    assert.deepEqual(choices[1].grant, { scope: 'verb', verb: 'git' });
    assert.equal(choices[2].pattern, 'execute:git status');
    assert.deepEqual(await apply(gate, asks[0], choices[1]), { sent: true, optionId: 'allow' });
    assert.deepEqual(await pending, { outcome: 'selected', optionId: 'allow' });
    assert.deepEqual(gate.grants, [{ scope: 'verb', verb: 'git' }]);
    assert.deepEqual(await apply(gate, asks[0], choices[0]), { sent: false, reason: 'closed' });
    assert.equal(gate.grants.length, 1, 'nothing is added for a closed ask');
  });

  it('no verb choice when no verb is safely extractable; no always for a compound line', () => {
    const { gate } = setup();
    // Issue 18: "every execute call" is no longer offered, and no pattern covers a command behind `sudo`.
    assert.deepEqual(
      grantChoices(gate, shell('ls; make')).map((c) => c.id),
      ['exact'],
    );
    assert.deepEqual(
      grantChoices(gate, shell('sudo make')).map((c) => c.id),
      ['exact'],
    );
  });

  it('nothing is offered that would not allow the request: an out-of-scope write keeps asking', () => {
    const { gate } = setup();
    assert.deepEqual(grantChoices(gate, write('/etc/passwd')), []);
  });

  it('always: the pattern is returned for the VS Code layer and no session grant is added', async () => {
    const { gate, b, asks } = setup();
    const pending = b.decide(shell('make test'));
    const always = grantChoices(gate, asks[0].request).find((c) => c.id === 'always')!;
    assert.deepEqual(await apply(gate, asks[0], always), {
      sent: true,
      optionId: 'allow',
      pattern: 'execute:make test',
    });
    await pending;
    assert.deepEqual(gate.grants, []);
  });
});

describe('local gate: what would happen', () => {
  it('a command: the verdict, rule and reason in the session state, without changing anything', () => {
    const gate = new LocalGate({ cwd: ROOT, roots: [ROOT], policy: { default: 'ask' }, mode: 'acceptEdits' });
    gate.addGrant({ scope: 'verb', verb: 'git' });
    const [git] = whatWouldHappen('git log', gate.snapshot());
    assert.deepEqual([git.probe, git.decision.verdict, git.decision.rule], ['run "git log"', 'allow', 'grant']);
    const [rm] = whatWouldHappen('rm -rf ~', gate.snapshot());
    assert.deepEqual([rm.decision.verdict, rm.decision.rule], ['deny', 'denylist']);
    const [mk] = whatWouldHappen('make', gate.snapshot());
    assert.deepEqual([mk.decision.verdict, mk.decision.rule], ['ask', 'mode']);
    assert.deepEqual(whatWouldHappen('   ', gate.snapshot()), []);
  });

  it('a path: read and write; relative paths against the cwd; "read <path>" probes only that; acceptEdits still asks for an out-of-scope read', () => {
    const gate = new LocalGate({ cwd: ROOT, roots: [ROOT], policy: { default: 'ask' }, mode: 'acceptEdits' });
    const both = whatWouldHappen('./src/a.ts', gate.snapshot(), ROOT);
    assert.deepEqual(
      both.map((w) => [w.probe, w.decision.verdict]),
      [
        [`read ${ROOT}/src/a.ts`, 'allow'],
        [`write ${ROOT}/src/a.ts`, 'allow'],
      ],
    );
    const [etc] = whatWouldHappen('read /etc/hosts', gate.snapshot(), ROOT);
    assert.deepEqual([etc.decision.verdict, etc.decision.rule, etc.decision.path], ['ask', 'path-scope', '/etc/hosts']);
    gate.setMode('plan');
    const [planned] = whatWouldHappen('write ./x', gate.snapshot(), ROOT);
    assert.deepEqual([planned.decision.verdict, planned.decision.rule], ['deny', 'plan']);
  });
});
