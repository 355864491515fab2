// The local agent source between the real permission broker (src/local) and the real inbox: each ask becomes a
// request, the answer goes through the inbox's guard to ask.answer, and each way an ask closes is its own closure.
import * as assert from 'node:assert/strict';
import { answerThroughInbox } from '../../../src/domain/answering';
import { Inbox } from '../../../src/domain/inbox';
import { AGENT_EXITED, keyId } from '../../../src/domain/model';
import type { LocalOption, LocalOutcome, LocalPermissionRequest, PendingAsk } from '../../../src/local';
import { PermissionBroker } from '../../../src/local/permissions';
import { AnswerRouter } from '../../../src/session/answerRouter';
import { LocalSource, localSourceId, type LocalSessionInfo } from '../../../src/session/localSource';

const OPTIONS: LocalOption[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];
const SESSION: LocalSessionInfo = { id: 'local-7', agentName: 'Claude', folderName: 'proj', status: 'running' };

function request(): LocalPermissionRequest {
  return {
    sessionId: 'acp-1',
    toolCall: {
      toolCallId: 'call_1',
      title: 'Write notes.txt',
      kind: 'edit',
      rawInput: { file_path: '/w/notes.txt' },
      locations: [{ path: '/w/notes.txt', line: 3 }],
      content: [
        { type: 'diff', path: '/w/notes.txt', oldText: 'a\n', newText: 'b\n' },
        { type: 'content', content: { type: 'text', text: 'why' } },
      ],
    },
    options: OPTIONS,
  };
}

function setup(askTimeoutSec = 300) {
  const inbox = new Inbox();
  const source = new LocalSource(inbox);
  const router = new AnswerRouter();
  router.add(source);
  const asks: PendingAsk[] = [];
  const broker = new PermissionBroker({
    agentName: 'Claude',
    policy: { default: 'ask' },
    askTimeoutSec,
    ask: (a) => {
      asks.push(a);
      source.ask(SESSION, a);
    },
  });
  const decided: Promise<LocalOutcome | undefined> = broker.decide(request());
  const item = inbox.all()[0];
  return { inbox, source, router, broker, asks, decided, item };
}

const settle = () => new Promise((r) => setImmediate(r));

describe('local agent source', () => {
  it('an ask becomes an open request of the session conversation, with its details and options as offered', () => {
    const { inbox, item, asks } = setup();
    assert.equal(inbox.openCount, 1);
    assert.deepEqual(item.key, { server: localSourceId('local-7'), conversationId: 'local-7', requestId: asks[0].id });
    assert.equal(item.conversation.title, 'Local · Claude · proj');
    assert.equal(item.conversation.status, 'running');
    const r = item.request;
    assert.equal(r.title, 'Write notes.txt');
    assert.equal(r.kind, 'edit');
    assert.deepEqual(r.rawInput, { file_path: '/w/notes.txt' });
    assert.deepEqual(r.locations, [{ path: '/w/notes.txt', line: 3 }]);
    assert.deepEqual(r.diffs, [{ path: '/w/notes.txt', oldText: 'a\n', newText: 'b\n' }]);
    assert.deepEqual(r.textContent, ['why']);
    assert.deepEqual(
      r.options.map((o) => o.optionId),
      ['allow_always', 'allow', 'reject'],
    );
    assert.equal(r.askedAt, asks[0].askedAt);
    assert.equal(item.deadline, asks[0].deadline);
  });

  it('an answer through the inbox sends exactly that option to the agent and closes as answered by you', async () => {
    const { inbox, router, item, decided } = setup();
    const attempt = await answerThroughInbox(inbox, router, item.key, 'allow');
    assert.equal(attempt.kind, 'sent');
    assert.deepEqual(await decided, { outcome: 'selected', optionId: 'allow' });
    await settle();
    assert.deepEqual(inbox.get(item.id)?.state.kind, 'answeredByYou');
    assert.equal((inbox.get(item.id)?.state as { optionId: string }).optionId, 'allow');
    // Never twice: the inbox refuses a second answer, and the ask would not take one either.
    const again = await answerThroughInbox(inbox, router, item.key, 'reject');
    assert.equal(again.kind, 'refused');
  });

  it('an option the agent did not offer is refused by the inbox and nothing reaches the agent', async () => {
    const { inbox, router, item, asks } = setup();
    const attempt = await answerThroughInbox(inbox, router, item.key, 'allow_forever');
    assert.equal(attempt.kind, 'refused');
    assert.equal(asks[0].isOpen, true);
    // The source itself reports the ask's verdict when asked directly.
    assert.deepEqual(await router.send(item.key, 'allow_forever'), { kind: 'optionNotOffered', code: 'not_offered' });
    assert.equal(asks[0].isOpen, true);
  });

  it('the ask timeout: the reject option was sent and the request shows expired with it', async () => {
    const { inbox, item, decided } = setup(1);
    assert.deepEqual(await decided, { outcome: 'selected', optionId: 'reject' });
    await settle();
    const state = inbox.get(item.id)!.state;
    assert.deepEqual(
      { kind: state.kind, optionId: (state as { optionId?: string }).optionId },
      {
        kind: 'expired',
        optionId: 'reject',
      },
    );
  });

  it('Cancel Turn / Stop: cancelled is sent and the request closes as turn ended', async () => {
    const { inbox, item, broker, decided } = setup();
    broker.cancelAll();
    assert.deepEqual(await decided, { outcome: 'cancelled' });
    await settle();
    assert.equal(inbox.get(item.id)!.state.kind, 'turnEnded');
  });

  it('the agent exited: nothing is sent and the request shows agent exited, never answered', async () => {
    const { inbox, router, item, broker, decided } = setup();
    broker.agentExited();
    assert.equal(await decided, undefined);
    await settle();
    const state = inbox.get(item.id)!.state;
    assert.deepEqual(state, { kind: 'conversationEnded', at: (state as { at: number }).at, reason: AGENT_EXITED });
    const late = await answerThroughInbox(inbox, router, item.key, 'allow');
    assert.equal(late.kind, 'refused');
  });

  it('withdrawn by the agent: no longer waiting, nothing sent', async () => {
    const inbox = new Inbox();
    const source = new LocalSource(inbox);
    const ac = new AbortController();
    const broker = new PermissionBroker({
      agentName: 'Claude',
      policy: { default: 'ask' },
      ask: (a) => source.ask(SESSION, a),
    });
    const decided = broker.decide(request(), ac.signal);
    const id = inbox.all()[0].id;
    ac.abort();
    assert.equal(await decided, undefined);
    await settle();
    assert.deepEqual(inbox.get(id)!.state.kind, 'noLongerWaiting');
    assert.equal((inbox.get(id)!.state as { cause: string }).cause, 'withdrawn');
  });

  it('owns only local keys, and says which local policy key asked', () => {
    const { source, item } = setup();
    assert.equal(source.owns(item.key), true);
    assert.equal(source.owns({ server: 'http://127.0.0.1:4123', conversationId: 'c', requestId: 'r' }), false);
    assert.deepEqual(source.provenance(item.key), { agentName: 'Claude', policyKey: 'default', matchedBy: 'default' });
    assert.equal(keyId(item.key), item.id);
  });
});
