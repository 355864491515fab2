import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import { conversationKey, TreeModel } from '../../../src/domain/treeModel';
import { key, opened, SERVER } from './builders';

describe('domain/treeModel', () => {
  it('groups like the inbox, looks a conversation up by key, and follows every inbox change', () => {
    const inbox = new Inbox({ now: () => 1_000 });
    const model = new TreeModel(inbox);
    inbox.apply(opened({ key: key('r1', 'c1'), askedAt: 10 }));
    inbox.apply(opened({ key: key('r2', 'c2'), askedAt: 20 }));
    inbox.apply(opened({ key: key('r3', 'c1'), askedAt: 30 }));
    assert.deepEqual(model.groups(), inbox.byConversation());
    assert.deepEqual(
      model.group(conversationKey(SERVER, 'c1'))?.items.map((i) => i.key.requestId),
      ['r1', 'r3'],
    );
    assert.equal(model.group(conversationKey(SERVER, 'nope')), undefined);
    // A change after the grouping was made: the next ask sees it (no stale rows).
    inbox.apply(opened({ key: key('r4', 'c3'), askedAt: 40 }));
    assert.deepEqual(
      model.groups().map((g) => g.conversationId),
      ['c1', 'c2', 'c3'],
    );
    assert.ok(model.group(conversationKey(SERVER, 'c3')));
    model.dispose();
  });
});
