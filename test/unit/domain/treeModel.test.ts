import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import { conversationKey, TreeModel } from '../../../src/domain/treeModel';
import { byUrgencyGroups } from '../../../src/domain/urgency';
import { key, opened, resolved, SERVER } from './builders';

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

/** The grouping made from scratch: the inbox's grouping in the tree's order (what the model kept before issue 30). */
function fullGrouping(inbox: Inbox) {
  return byUrgencyGroups(inbox.byConversation());
}

/** A small deterministic pseudo-random sequence (the same cases on every run). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe('domain/treeModel, kept between changes', () => {
  it('after any sequence of inbox changes, the groups are those of a full regrouping (200 random sequences)', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const pick = (n: number) => Math.floor(next() * n);
      let now = 1_000;
      const inbox = new Inbox({ now: () => now, lingerMs: 5_000 });
      const model = new TreeModel(inbox);
      const ids: ReturnType<typeof key>[] = [];
      for (let step = 0; step < 40; step++) {
        const op = pick(6);
        if (op <= 1 || ids.length === 0) {
          const k = key(`r${step}`, `c${pick(5)}`);
          ids.push(k);
          const deadline = pick(3) === 0 ? undefined : now + 1_000 + pick(60_000);
          inbox.apply(opened({ key: k, askedAt: now - pick(10_000), deadline, detached: deadline === undefined }));
        } else if (op === 2) {
          inbox.apply(resolved(ids[pick(ids.length)], 'allow', now));
        } else if (op === 3) {
          const c = `c${pick(5)}`;
          inbox.apply({ type: 'conversation', conversation: { server: SERVER, id: c, title: `T${step}` } });
        } else if (op === 4) {
          now += pick(8_000);
          inbox.tick(now);
        } else {
          inbox.apply({ type: 'turnEnded', server: SERVER, conversationId: `c${pick(5)}`, at: now });
        }
        if (pick(2) === 0) {
          assert.deepEqual(model.groups(), fullGrouping(inbox), `seed ${seed}, step ${step}`);
        }
      }
      assert.deepEqual(model.groups(), fullGrouping(inbox), `seed ${seed}, at the end`);
      model.invalidate();
      assert.deepEqual(model.groups(), fullGrouping(inbox), `seed ${seed}, regrouped whole`);
      model.dispose();
    }
  });

  it('a change to one request regroups only its conversation: every other group is the same object as before', () => {
    const inbox = new Inbox({ now: () => 1_000 });
    const model = new TreeModel(inbox);
    for (let i = 0; i < 30; i++) {
      inbox.apply(opened({ key: key(`r${i}`, `c${i % 10}`), askedAt: i, deadline: 100_000 + i }));
    }
    const before = new Map(model.groups().map((g) => [g.conversationId, g]));
    const sameArray = model.groups();
    assert.equal(model.groups(), sameArray, 'no change: the same array');
    inbox.apply(resolved(key('r13', 'c3'), 'allow', 1_000));
    const after = model.groups();
    assert.notEqual(after, sameArray);
    const changed = after.filter((g) => before.get(g.conversationId) !== g).map((g) => g.conversationId);
    assert.deepEqual(changed, ['c3']);
    assert.deepEqual(after, fullGrouping(inbox));
    model.dispose();
  });
});
