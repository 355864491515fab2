// A grant chosen beside the runtime's options, end to end below the VS Code layer: the real local gate and
// permission broker, the real LocalSource and inbox. The answer a grant sends goes through the inbox's guard like
// any other (recorded as the user's answer, never twice), and the session grant is taken back when nothing went.
import * as assert from 'node:assert/strict';
import { answerThroughInbox } from '../../../src/domain/answering';
import { Inbox } from '../../../src/domain/inbox';
import {
  LocalGate,
  applyGrantChoiceVia,
  grantChoices,
  type LocalOption,
  type LocalOutcome,
  type LocalPermissionRequest,
  type PendingAsk,
} from '../../../src/local';
import { PermissionBroker } from '../../../src/local/permissions';
import { LocalSource, type LocalSessionInfo } from '../../../src/session/localSource';

const CLAUDE: LocalOption[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const SESSION: LocalSessionInfo = { id: 'local-3', agentName: 'Claude', folderName: 'proj', status: 'running' };
const ROOT = '/work/proj';
let call = 1;
const shell = (command: string): LocalPermissionRequest => ({
  sessionId: 'acp-1',
  toolCall: { toolCallId: `call_${call++}`, title: command, kind: 'execute', rawInput: { command } },
  options: CLAUDE,
});

function setup() {
  const inbox = new Inbox();
  const source = new LocalSource(inbox);
  const gate = new LocalGate({ cwd: ROOT, roots: [ROOT], policy: { default: 'ask' } });
  const asks: PendingAsk[] = [];
  const broker = new PermissionBroker({
    agentName: 'Claude',
    policy: { default: 'ask' },
    gate,
    ask: (a) => {
      asks.push(a);
      source.ask(SESSION, a);
    },
  });
  const sent: string[] = [];
  // What the VS Code layer passes: the answer through the inbox's guard, to the source that owns the request.
  const viaInbox = (ask: PendingAsk) => async (optionId: string) => {
    const key = inbox.all().find((i) => i.key.requestId === ask.id)!.key;
    const r = await answerThroughInbox(inbox, { send: (k, id) => (sent.push(id), source.send(k, id)) }, key, optionId);
    return r.kind === 'sent' && r.result.kind === 'answered';
  };
  return { inbox, source, gate, broker, asks, sent, viaInbox };
}

describe('local grants through the inbox', () => {
  it('a verb grant answers allow_once through the inbox (recorded as yours), and the next git command is not asked', async () => {
    const { inbox, gate, broker, asks, sent, viaInbox } = setup();
    const first: Promise<LocalOutcome | undefined> = broker.decide(shell('git init -q'));
    const verb = grantChoices(gate, asks[0].request).find((c) => c.id === 'verb')!;
    assert.deepEqual(verb.grant, { scope: 'verb', verb: 'git' });
    assert.deepEqual(await applyGrantChoiceVia(gate, asks[0], verb, viaInbox(asks[0])), {
      sent: true,
      optionId: 'allow',
    });
    assert.deepEqual(await first, { outcome: 'selected', optionId: 'allow' });
    assert.deepEqual(sent, ['allow']);
    const item = inbox.all()[0];
    assert.equal(item.state.kind, 'answeredByYou');
    assert.equal((item.state as { optionId?: string }).optionId, 'allow');
    assert.deepEqual(gate.grants, [{ scope: 'verb', verb: 'git' }]);

    assert.deepEqual(await broker.decide(shell('git add -A')), { outcome: 'selected', optionId: 'allow' });
    assert.equal(asks.length, 1, 'the second git command was asked');
    assert.equal(inbox.all().length, 1);
  });

  it('never twice: with an answer already in flight the inbox refuses, nothing is sent and the grant is taken back', async () => {
    const { inbox, gate, broker, asks, sent, viaInbox } = setup();
    void broker.decide(shell('git init -q'));
    const item = inbox.all()[0];
    const inFlight = inbox.beginAnswer(item.key, 'reject');
    assert.equal(inFlight.ok, true);
    const tool = grantChoices(gate, asks[0].request).find((c) => c.id === 'verb')!;
    assert.deepEqual(await applyGrantChoiceVia(gate, asks[0], tool, viaInbox(asks[0])), {
      sent: false,
      reason: 'closed',
    });
    assert.deepEqual(sent, []);
    assert.deepEqual(gate.grants, []);
    assert.equal(asks[0].isOpen, true);
  });

  it('a closed ask adds nothing, and a throwing sender takes the grant back before the error goes on', async () => {
    const { gate, broker, asks, viaInbox } = setup();
    void broker.decide(shell('git init -q'));
    const [exact] = grantChoices(gate, asks[0].request);
    await assert.rejects(
      applyGrantChoiceVia(gate, asks[0], exact, () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.deepEqual(gate.grants, []);
    assert.equal(asks[0].answer('reject'), 'sent');
    assert.deepEqual(await applyGrantChoiceVia(gate, asks[0], exact, viaInbox(asks[0])), {
      sent: false,
      reason: 'closed',
    });
    assert.deepEqual(gate.grants, []);
  });
});
