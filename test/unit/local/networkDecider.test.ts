import * as assert from 'node:assert/strict';
import type { GateMode, PendingAsk } from '../../../src/local';
import type { ConnectAttempt, HostVerdict } from '../../../src/local/network/contract';
import {
  NET_ALLOW_ONCE,
  NET_ALLOW_SESSION,
  NET_REJECT,
  createNetworkDecider,
  type NetworkDeciderOptions,
  type NetworkEvent,
} from '../../../src/local/network/decider';

const attempt = (host: string, port = 443, addresses = ['151.101.0.223']): ConnectAttempt => ({
  host,
  port,
  via: 'connect',
  addresses,
});

/** A decider with a fake inbox that only collects asks (it never answers: the test does, as a user would). */
function setup(over: Partial<NetworkDeciderOptions> = {}) {
  const asks: PendingAsk[] = [];
  const events: NetworkEvent[] = [];
  let mode: GateMode = 'ask';
  let allowHosts: unknown = [];
  const decider = createNetworkDecider({
    agentName: 'claude',
    folderName: 'my-folder',
    runtime: 'claude',
    env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:41234' },
    mode: () => mode,
    allowHosts: () => allowHosts,
    askTimeoutSec: () => 300,
    ask: (a) => asks.push(a),
    record: (e) => events.push(e),
    ...over,
  });
  return {
    decider,
    asks,
    events,
    setMode: (m: GateMode) => (mode = m),
    setAllowHosts: (v: unknown) => (allowHosts = v),
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('network decider (the session HostDecider)', () => {
  it('asks the inbox for a host nobody allowed, with the three options, its why and an inert title', async () => {
    const { decider, asks } = setup();
    const p = decider.decide(attempt('pypi.org'), new AbortController().signal);
    await tick();
    assert.equal(asks.length, 1);
    const a = asks[0];
    assert.equal(a.request.toolCall.title, 'Connect to pypi.org:443');
    assert.equal(a.gate?.reason, 'not in fountain.local.allowHosts');
    assert.deepEqual(a.network, { host: 'pypi.org', port: 443, pattern: 'pypi.org' });
    assert.deepEqual(
      a.request.options.map((o) => [o.optionId, o.name, o.kind]),
      [
        [NET_ALLOW_ONCE, 'Allow Once', 'allow_once'],
        [NET_ALLOW_SESSION, 'Allow pypi.org for This Session', 'allow_always'],
        [NET_REJECT, 'Reject', 'reject_once'],
      ],
    );
    assert.equal(a.answer('something-else'), 'not_offered');
    assert.equal(a.answer(NET_REJECT), 'sent');
    const v = await p;
    assert.deepEqual(v, {
      allow: false,
      rule: 'user: Reject',
      reason: 'not an allowed host; the user was asked and rejected',
    });
    assert.equal(a.answer(NET_ALLOW_ONCE), 'closed', 'never answered twice');
  });

  it('concurrent attempts to one host share one ask; its answer applies to all', async () => {
    const { decider, asks } = setup();
    const ps = [1, 2, 3].map(() => decider.decide(attempt('pypi.org'), new AbortController().signal));
    const other = decider.decide(attempt('pypi.org', 8443), new AbortController().signal);
    await tick();
    assert.equal(asks.length, 2, 'one ask for pypi.org:443, one for pypi.org:8443');
    asks[0].answer(NET_ALLOW_ONCE);
    const vs = await Promise.all(ps);
    assert.deepEqual(
      vs.map((v) => v.allow && v.rule),
      ['user: Allow Once', 'user: Allow Once', 'user: Allow Once'],
    );
    assert.equal(asks[1].isOpen, true, 'the other port still waits');
    asks[1].answer(NET_REJECT);
    assert.equal((await other).allow, false);
    // Allow Once kept nothing: the next attempt asks again.
    void decider.decide(attempt('pypi.org'), new AbortController().signal);
    await tick();
    assert.equal(asks.length, 3);
    decider.dispose();
  });

  it('the ask timeout refuses the held connection', async () => {
    const { decider, asks } = setup({ askTimeoutSec: () => 0.05 });
    const v = await decider.decide(attempt('pypi.org'), new AbortController().signal);
    assert.deepEqual(
      [v.allow, v.rule, !v.allow && v.reason],
      [false, 'timeout', 'not an allowed host; nobody answered within 0.05 s'],
    );
    assert.equal(asks[0].isOpen, false);
    assert.equal((await asks[0].closed).reason, 'timeout');
  });

  it('an attempt that gives up withdraws the ask only when nobody else waits on it', async () => {
    const { decider, asks } = setup();
    const a1 = new AbortController();
    const a2 = new AbortController();
    const p1 = decider.decide(attempt('pypi.org'), a1.signal);
    const p2 = decider.decide(attempt('pypi.org'), a2.signal);
    await tick();
    a1.abort();
    assert.equal((await p1).rule, 'withdrawn');
    assert.equal(asks[0].isOpen, true, 'the second attempt still waits on it');
    a2.abort();
    assert.equal((await p2).rule, 'withdrawn');
    assert.equal(asks[0].isOpen, false);
    assert.equal((await asks[0].closed).reason, 'withdrawn');
  });

  it('"for This Session" adds a host grant: the next attempt to that host is allowed unasked', async () => {
    const { decider, asks, events } = setup();
    const p = decider.decide(attempt('pypi.org'), new AbortController().signal);
    await tick();
    asks[0].answer(NET_ALLOW_SESSION);
    assert.equal((await p).rule, 'user: Allow for This Session');
    assert.deepEqual(decider.grants, ['pypi.org']);
    const next = await decider.decide(attempt('pypi.org', 80), new AbortController().signal);
    assert.deepEqual(next, { allow: true, rule: 'grant: pypi.org', address: '151.101.0.223' });
    assert.equal(asks.length, 1, 'asked once');
    const last = events.at(-1);
    assert.ok(last?.type === 'decided' && !last.asked && last.verdict.rule === 'grant: pypi.org');
    // The grant is the host at 443/80 only, and never lifts the address deny.
    void decider.decide(attempt('pypi.org', 8443), new AbortController().signal);
    await tick();
    assert.equal(asks.length, 2);
    const rebound = await decider.decide(attempt('pypi.org', 443, ['127.0.0.1']), new AbortController().signal);
    assert.equal(rebound.rule, 'deny: loopback');
    assert.ok(decider.revokeGrant('pypi.org'));
    decider.dispose();
  });

  it('allowHosts is read at each attempt (Always appends there only after the confirmation): no ask once it holds the host', async () => {
    const { decider, asks, setAllowHosts } = setup();
    setAllowHosts(['pypi.org']);
    const v = await decider.decide(attempt('pypi.org'), new AbortController().signal);
    assert.equal(v.rule, 'allowHosts: pypi.org');
    setAllowHosts(['https://pypi.org']); // a problem never widens: the entry is left out
    void decider.decide(attempt('pypi.org'), new AbortController().signal);
    await tick();
    assert.equal(asks.length, 1);
    decider.dispose();
  });

  it("the preset's model host and its base URL (a scripted model on 127.0.0.1) are allowed unasked", async () => {
    const { decider, asks, events } = setup();
    const m = await decider.decide(attempt('127.0.0.1', 41234, ['127.0.0.1']), new AbortController().signal);
    assert.deepEqual(m, { allow: true, rule: 'baseUrl: ANTHROPIC_BASE_URL', address: '127.0.0.1' });
    const a = await decider.decide(attempt('api.anthropic.com'), new AbortController().signal);
    assert.equal(a.rule, 'preset: claude');
    const other = await decider.decide(attempt('127.0.0.1', 41235, ['127.0.0.1']), new AbortController().signal);
    assert.equal(other.rule, 'deny: loopback');
    assert.equal(asks.length, 0);
    assert.equal(events.length, 3);
  });

  it('the gate mode: plan refuses unasked, yolo allows unasked, read at each attempt', async () => {
    const { decider, asks, setMode } = setup();
    setMode('plan');
    assert.equal((await decider.decide(attempt('pypi.org'), new AbortController().signal)).rule, 'mode: plan');
    setMode('yolo');
    assert.equal((await decider.decide(attempt('pypi.org'), new AbortController().signal)).rule, 'mode: yolo');
    assert.equal(asks.length, 0);
  });

  it('not interactive: refused without an ask', async () => {
    const { decider, asks } = setup({ interactive: () => false });
    assert.equal((await decider.decide(attempt('pypi.org'), new AbortController().signal)).rule, 'not interactive');
    assert.equal(asks.length, 0);
  });

  it('the session ending closes open asks (refused) and refuses later attempts', async () => {
    const { decider, asks } = setup();
    const p = decider.decide(attempt('pypi.org'), new AbortController().signal);
    await tick();
    decider.dispose();
    const v: HostVerdict = await p;
    assert.equal(v.allow, false);
    assert.equal((await asks[0].closed).reason, 'agent_exited');
    assert.equal((await decider.decide(attempt('api.anthropic.com'), new AbortController().signal)).allow, false);
  });

  it('a throwing inbox or record sink never changes a verdict: the timeout still refuses', async () => {
    const { decider } = setup({
      askTimeoutSec: () => 0.02,
      ask: () => {
        throw new Error('broken inbox');
      },
      record: () => {
        throw new Error('broken history');
      },
    });
    assert.equal((await decider.decide(attempt('pypi.org'), new AbortController().signal)).rule, 'timeout');
  });

  it('records each ended connection', () => {
    const { decider, events } = setup();
    const rec = {
      attempt: attempt('pypi.org'),
      verdict: { allow: true as const, rule: 'user: Allow Once', address: '151.101.0.223' },
      bytesOut: 10,
      bytesIn: 20,
      startedAt: 1,
      endedAt: 2,
    };
    decider.connectionEnded(rec);
    assert.deepEqual(events, [{ type: 'ended', record: rec }]);
  });
});
