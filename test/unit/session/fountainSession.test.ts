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
