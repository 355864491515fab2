import * as assert from 'node:assert/strict';
import { answerThroughInbox } from '../../../src/domain/answering';
import { Inbox } from '../../../src/domain/inbox';
import { nullLogger } from '../../../src/protocol/env';
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
