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

  it('lists conversations with nothing visible (local sessions) after the inbox groups, with their current info', () => {
    const inbox = new Inbox({ now: () => 1_000 });
    const model = new TreeModel(inbox);
    const local = 'local:local-1';
    let status = 'idle';
    model.listConversations(() => [{ server: local, id: 'local-1', title: 'Local · A · ws', status }]);
    inbox.apply(opened({ key: key('r1', 'c1'), askedAt: 10 }));
    assert.deepEqual(
      model.groups().map((g) => [g.conversationId, g.items.length, g.conversation.status]),
      [
        ['c1', 1, undefined],
        ['local-1', 0, 'idle'],
      ],
    );
    // Its request joins its group (one group, not two), which shows the status listed now.
    inbox.apply(opened({ key: { server: local, conversationId: 'local-1', requestId: 'a1' }, askedAt: 5 }));
    inbox.apply({ type: 'conversation', conversation: { server: local, id: 'local-1', status: 'stale' } });
    status = 'waiting';
    model.invalidate();
    assert.deepEqual(
      model.groups().map((g) => [g.conversationId, g.items.length, g.conversation.status]),
      [
        ['local-1', 1, 'waiting'],
        ['c1', 1, undefined],
      ],
    );
    assert.equal(model.group(conversationKey(local, 'local-1'))?.conversation.title, 'Local · A · ws');
    model.dispose();
  });
});
