// A session's permission-request path (sessionPermissions.ts) and its mode updates (agentModes.ts), without an agent.
import * as assert from 'node:assert/strict';
import { AgentModeTracker } from '../../../src/local/agentModes';
import { PermissionBroker, type PendingAsk, type PermissionDecision } from '../../../src/local/permissions';
import { PermissionRequests, decisionNote } from '../../../src/local/sessionPermissions';
import { Transcript } from '../../../src/local/transcript';

const OPTIONS = [
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const raw = (title: string) => ({
  sessionId: 's1',
  toolCall: { toolCallId: 'call_1', title, kind: 'execute' },
  options: OPTIONS,
});

function setup(policy: Record<string, unknown>) {
  const asks: PendingAsk[] = [];
  const decisions: PermissionDecision[] = [];
  const log: string[] = [];
  const broker = new PermissionBroker({ agentName: 'Claude', policy, ask: (a) => asks.push(a) });
  broker.onDidDecide((d) => decisions.push(d));
  const transcript = new Transcript();
  const requests = new PermissionRequests(broker, transcript, (l) => log.push(l));
  return { asks, decisions, log, transcript, requests };
}

describe('local agents: a session’s permission requests', () => {
  it('an unreadable request is answered cancelled and logged; nothing is asked', async () => {
    const { asks, log, requests } = setup({ default: 'ask' });
    const response = await requests.answer({ sessionId: 's1' }, new AbortController().signal, 7);
    assert.deepEqual(response, { outcome: { outcome: 'cancelled' } });
    assert.equal(asks.length, 0);
    assert.match(log.join('\n'), /without a usable tool call or options: answered cancelled/);
  });

  it('keeps the JSON-RPC id of each open request until it is answered, and shows the tool call', async () => {
    const { asks, requests, transcript } = setup({ default: 'ask' });
    const response = requests.answer(raw('touch x'), new AbortController().signal, 7);
    await new Promise((r) => setImmediate(r));
    assert.equal(asks.length, 1);
    assert.deepEqual(requests.openIds(), [7]);
    assert.equal(transcript.toolCall('call_1')?.title, 'touch x');
    asks[0].answer('allow');
    assert.deepEqual(await response, { outcome: { outcome: 'selected', optionId: 'allow' } });
    assert.deepEqual(requests.openIds(), []);
  });

  it('notes each decision: what was asked, the verdict and why, and what was sent', async () => {
    const { decisions, requests } = setup({ default: 'ask', execute: 'auto_deny' });
    await requests.answer(raw('rm -rf x'), new AbortController().signal, 1);
    assert.equal(decisions.length, 1);
    assert.equal(decisionNote(decisions[0]), 'permission for rm -rf x: auto_deny (policy), sent reject');
  });
});

describe('local agents: mode updates from the agent', () => {
  it('current_mode_update and a mode config option update are the agent’s mode; a never-ask mode is left', async () => {
    const sent: string[] = [];
    const modes = new AgentModeTracker(
      'claude',
      async (id) => void sent.push(id),
      () => {},
      () => {},
    );
    modes.started({ currentModeId: 'default', availableModes: [{ id: 'default' }, { id: 'bypassPermissions' }] });
    modes.noteUpdate({ sessionUpdate: 'current_mode_update', currentModeId: 'bypassPermissions' });
    assert.equal(modes.info?.id, 'bypassPermissions');
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(sent, ['default'], 'sent back to its asking mode');
    modes.noteUpdate({
      sessionUpdate: 'config_option_update',
      configOptions: [{ id: 'mode', name: 'Mode', type: 'select', currentValue: 'plan', options: [] }],
    });
    assert.equal(modes.info?.id, 'plan');
  });
});
