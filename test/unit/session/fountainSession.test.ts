import * as assert from 'node:assert/strict';
import { answerThroughInbox } from '../../../src/domain/answering';
import { Inbox } from '../../../src/domain/inbox';
import { nullLogger } from '../../../src/protocol/env';
import { AnswerRouter, type AnswerSource } from '../../../src/session/answerRouter';
import { FountainSession } from '../../../src/session/fountainSession';
import { MemoryCursorStore } from '../../memoryCursorStore';
import { key, opened } from '../domain/builders';

describe('FountainSession: the Fountain answer path', () => {
  it('with no connection (a restart in progress) sends nothing and leaves the request answerable', async () => {
    const inbox = new Inbox();
    const session = new FountainSession({ inbox, cursorStore: new MemoryCursorStore(), logger: nullLogger });
    inbox.apply(opened({ key: key('r1') }));
    const a = await answerThroughInbox(inbox, session, key('r1'), 'allow');
    assert.equal(a.kind, 'sent');
    assert.equal(a.kind === 'sent' && a.result.kind, 'network');
    const item = inbox.get(key('r1'))!;
    assert.equal(item.state.kind, 'open', 'a local "not connected" never closes a held request');
    assert.equal(item.answerable, true);
    assert.equal(item.lastError?.result.kind, 'network');
    session.dispose();
    inbox.dispose();
  });
});

describe('AnswerRouter: one answer path across sources', () => {
  it("a local agent's request is answered by its own source while no Fountain server is connected", async () => {
    const inbox = new Inbox();
    const session = new FountainSession({ inbox, cursorStore: new MemoryCursorStore(), logger: nullLogger });
    const sent: string[] = [];
    const router = new AnswerRouter();
    router.add(session); // first, as the composition root adds it
    router.add({
      owns: (k) => k.server.startsWith('local:'),
      send: (k, optionId) => (sent.push(`${k.requestId}:${optionId}`), Promise.resolve({ kind: 'answered' })),
    });
    const local = { server: 'local:local-1', conversationId: 'local-1', requestId: 'local-ask-1' };
    assert.equal(session.owns(local), false);
    assert.equal(session.owns(key('r1')), true, "a Fountain request while reconnecting stays the session's");
    assert.equal((await router.send(local, 'allow')).kind, 'answered');
    assert.equal((await router.send(key('r1'), 'allow')).kind, 'network');
    assert.deepEqual(sent, ['local-ask-1:allow']);
    session.dispose();
    inbox.dispose();
  });

  it('sends through the source that owns the key, and sends nothing for a key no source owns', async () => {
    const sent: string[] = [];
    const source = (id: string): AnswerSource => ({
      owns: (k) => k.server === id,
      send: (k, optionId) => (sent.push(`${id}:${k.requestId}:${optionId}`), Promise.resolve({ kind: 'answered' })),
    });
    const router = new AnswerRouter();
    router.add(source('https://f.example'));
    const local = router.add(source('local:agent'));
    const k = (server: string) => ({ server, conversationId: 'c', requestId: 'r' });
    assert.equal((await router.send(k('local:agent'), 'allow')).kind, 'answered');
    assert.equal((await router.send(k('https://f.example'), 'reject')).kind, 'answered');
    local.dispose();
    assert.equal((await router.send(k('local:agent'), 'allow')).kind, 'network');
    assert.deepEqual(sent, ['local:agent:r:allow', 'https://f.example:r:reject']);
  });
});
