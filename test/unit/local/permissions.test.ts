// The local policy's answers, with the broker driven directly (no agent): what reaches the inbox, what is sent.
import * as assert from 'node:assert/strict';
import { localAskTimeoutSec, type LocalOption, type LocalPermissionRequest, type PendingAsk } from '../../../src/local';
import { PermissionBroker } from '../../../src/local/permissions';

const CLAUDE: LocalOption[] = [
  { optionId: 'allow_always', name: 'Always Allow', kind: 'allow_always' },
  { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
];

function request(options: LocalOption[] = CLAUDE, title = 'touch x', kind = 'execute'): LocalPermissionRequest {
  return { sessionId: 's1', toolCall: { toolCallId: 'call_1', title, kind }, options };
}

function broker(policy: Record<string, unknown>, askTimeoutSec?: number) {
  const asks: PendingAsk[] = [];
  const b = new PermissionBroker({
    agentName: 'Claude',
    policy,
    ask: (a) => asks.push(a),
    ...(askTimeoutSec !== undefined ? { askTimeoutSec } : {}),
  });
  return { b, asks };
}

describe('local agents: permission policy', () => {
  it('auto_allow sends allow_always without asking; else allow_once; else the first option', async () => {
    const { b, asks } = broker({ default: 'ask', execute: 'auto_allow' });
    assert.deepEqual(await b.decide(request()), { outcome: 'selected', optionId: 'allow_always' });
    assert.deepEqual(await b.decide(request(CLAUDE.slice(1))), { outcome: 'selected', optionId: 'allow' });
    const odd = [{ optionId: 'x', name: 'X', kind: 'weird' }];
    assert.deepEqual(await b.decide(request(odd)), { outcome: 'selected', optionId: 'x' });
    assert.equal(asks.length, 0);
  });

  it('auto_deny sends the reject option, or cancelled when none is offered; never an allow', async () => {
    const { b, asks } = broker({ default: 'ask', execute: 'auto_deny' });
    assert.deepEqual(await b.decide(request()), { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(await b.decide(request(CLAUDE.slice(0, 2))), { outcome: 'cancelled' });
    assert.equal(asks.length, 0);
  });

  it('matches the title before the kind before default, and reports the deciding key', async () => {
    const { b } = broker({ default: 'auto_deny', execute: 'ask', 'touch ok': 'auto_allow' });
    const seen: (string | null)[] = [];
    b.onDidDecide((d) => seen.push(d.policyKey));
    assert.deepEqual(await b.decide(request(CLAUDE, 'touch ok')), { outcome: 'selected', optionId: 'allow_always' });
    assert.deepEqual(await b.decide(request(CLAUDE, 'cat y', 'read')), { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(seen, ['touch ok', 'default']);
  });

  it('ask: the inbox gets the request; a user answer with an offered id is sent, once', async () => {
    const { b, asks } = broker({ default: 'ask' });
    const decided = b.decide(request());
    assert.equal(asks.length, 1);
    const ask = asks[0];
    assert.equal(ask.policyKey, 'default');
    assert.deepEqual(ask.request.options, CLAUDE);
    assert.equal(b.openAsks.length, 1);
    assert.equal(ask.answer('bogus'), 'not_offered', 'an id the agent did not offer is never sent');
    assert.ok(ask.isOpen);
    assert.equal(ask.answer('allow'), 'sent');
    assert.equal(ask.answer('reject'), 'closed', 'never twice');
    assert.deepEqual(await decided, { outcome: 'selected', optionId: 'allow' });
    assert.deepEqual(await ask.closed, { reason: 'answered', sent: { outcome: 'selected', optionId: 'allow' } });
    assert.equal(b.openAsks.length, 0);
  });

  it('ask timeout sends the reject option; cancelled only when no reject is offered', async () => {
    const { b, asks } = broker({ default: 'ask' }, 0.02);
    const first = await b.decide(request());
    assert.deepEqual(first, { outcome: 'selected', optionId: 'reject' });
    assert.deepEqual(await asks[0].closed, { reason: 'timeout', sent: first });
    assert.equal(asks[0].answer('allow'), 'closed', 'a late answer is not sent');
    assert.deepEqual(await b.decide(request(CLAUDE.slice(0, 2))), { outcome: 'cancelled' });
  });

  it('the ask timeout is the policy ask_timeout when valid, else 300 s', () => {
    assert.equal(localAskTimeoutSec({ default: 'ask' }), 300);
    assert.equal(localAskTimeoutSec({ ask_timeout: 42 }), 42);
    assert.equal(localAskTimeoutSec({ ask_timeout: '42' }), 42);
    assert.equal(localAskTimeoutSec({ ask_timeout: -1 }), 300);
    assert.equal(localAskTimeoutSec({ ask_timeout: 'soon' }), 300);
    const { b, asks } = broker({ default: 'ask', ask_timeout: 120 });
    void b.decide(request());
    assert.equal(asks[0].deadline - asks[0].askedAt, 120_000);
    b.cancelAll();
  });

  it('cancelAll answers every open ask cancelled', async () => {
    const { b, asks } = broker({ default: 'ask' });
    const one = b.decide(request());
    const two = b.decide(request(CLAUDE, 'rm y'));
    assert.equal(b.cancelAll(), 2);
    assert.deepEqual(await Promise.all([one, two]), [{ outcome: 'cancelled' }, { outcome: 'cancelled' }]);
    assert.equal(asks[0].answer('allow'), 'closed');
    assert.equal(b.cancelAll(), 0);
  });

  it('agent exited: open asks close without an answer to send, and later requests are not asked', async () => {
    const { b, asks } = broker({ default: 'ask' });
    const open = b.decide(request());
    b.agentExited();
    assert.equal(await open, undefined);
    assert.deepEqual(await asks[0].closed, { reason: 'agent_exited' });
    assert.equal(asks[0].answer('allow'), 'closed');
    assert.equal(await b.decide(request()), undefined);
    assert.equal(asks.length, 1, 'nothing new reaches the inbox');
  });

  it('a request the agent withdraws ($/cancel_request) closes without an answer', async () => {
    const { b, asks } = broker({ default: 'ask' });
    const ac = new AbortController();
    const open = b.decide(request(), ac.signal);
    ac.abort();
    assert.equal(await open, undefined);
    assert.deepEqual(await asks[0].closed, { reason: 'withdrawn' });
  });

  it('an inbox that throws still gets the timeout answer sent', async () => {
    const b = new PermissionBroker({
      agentName: 'a',
      policy: { default: 'ask' },
      askTimeoutSec: 0.02,
      ask: () => {
        throw new Error('inbox broke');
      },
    });
    assert.deepEqual(await b.decide(request()), { outcome: 'selected', optionId: 'reject' });
  });

  it('reports which part of the request the deciding key matched', async () => {
    const { b, asks } = broker({ default: 'ask', execute: 'ask', 'cat x': 'ask' });
    void b.decide(request(CLAUDE, 'cat x', 'read'));
    void b.decide(request(CLAUDE, 'ls', 'execute'));
    void b.decide(request(CLAUDE, 'ls', 'read'));
    assert.deepEqual(
      asks.map((a) => [a.policyKey, a.matchedBy]),
      [
        ['cat x', 'title'],
        ['execute', 'kind'],
        ['default', 'default'],
      ],
    );
    b.cancelAll();
  });
});
