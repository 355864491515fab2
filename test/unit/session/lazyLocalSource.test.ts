// The inbox's local source as dist/extension.js carries it: nothing is built until a session is listed, and then
// every call goes to the one real source.
import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import type { LocalPermissionRequest, PendingAsk } from '../../../src/local';
import { PermissionBroker } from '../../../src/local/permissions';
import { LazyLocalSource } from '../../../src/session/lazyLocalSource';
import { LocalSource, localSourceId, type LocalSessionInfo } from '../../../src/session/localSource';

const SESSION: LocalSessionInfo = { id: 'local-7', agentName: 'Claude', folderName: 'proj', status: 'running' };
const REQUEST: LocalPermissionRequest = {
  sessionId: 'acp-1',
  toolCall: { toolCallId: 'call_1', title: 'touch x', kind: 'execute' },
  options: [
    { optionId: 'allow', name: 'Allow', kind: 'allow_once' },
    { optionId: 'reject', name: 'Reject', kind: 'reject_once' },
  ],
};

describe('local agent source, built on first use', () => {
  it('before a session is listed: owns local keys, finds nothing waiting, and builds nothing', async () => {
    let built = 0;
    const lazy = new LazyLocalSource(() => (built++, new LocalSource(new Inbox())));
    const key = { server: localSourceId('local-7'), conversationId: 'local-7', requestId: 'local-ask-1' };
    assert.equal(lazy.owns(key), true);
    assert.equal(lazy.owns({ ...key, server: 'https://fountain.test' }), false);
    assert.deepEqual(await lazy.send(key, 'allow'), { kind: 'notFound' });
    assert.equal(lazy.provenance(key), undefined);
    assert.equal(lazy.askOf(key), undefined);
    assert.equal(built, 0);
  });

  it('a listed session builds the real source once; asks, answers and provenance go through it', async () => {
    let built = 0;
    const inbox = new Inbox();
    const lazy = new LazyLocalSource(() => (built++, new LocalSource(inbox)));
    lazy.sessionChanged(SESSION);
    const asks: PendingAsk[] = [];
    const broker = new PermissionBroker({
      agentName: 'Claude',
      policy: { default: 'ask' },
      ask: (a) => {
        asks.push(a);
        lazy.ask(SESSION, a);
      },
    });
    const decided = broker.decide(REQUEST);
    assert.equal(built, 1);
    const item = inbox.all()[0];
    assert.ok(item);
    assert.equal(lazy.askOf(item.key)?.ask, asks[0]);
    assert.equal(lazy.provenance(item.key)?.agentName, 'Claude');
    assert.deepEqual(await lazy.send(item.key, 'allow'), { kind: 'answered' });
    assert.deepEqual(await decided, { outcome: 'selected', optionId: 'allow' });
    assert.equal(built, 1);
  });
});
