import * as assert from 'node:assert/strict';
import type { HistoryEntry } from '../../../src/domain/history';
import { recommend } from '../../../src/domain/recommendations';

const S = 'http://127.0.0.1:4000';
let clock = 1_000;

/** One answered entry; `conv` and `option` vary per call. */
function answer(kind: string, optionKind: string, conv: string, over: Partial<HistoryEntry> = {}): HistoryEntry {
  clock += 1000;
  return {
    at: clock,
    server: S,
    conversationId: conv,
    agentId: 'agent-x',
    agentName: 'Agent X',
    kind,
    optionId: optionKind,
    optionKind,
    outcome: 'answered',
    ...over,
  };
}

/** n answers of `optionKind` for `kind`, spread round-robin over `convs` conversations. */
function many(n: number, kind: string, optionKind: string, convs: number, over: Partial<HistoryEntry> = {}) {
  return Array.from({ length: n }, (_, i) => answer(kind, optionKind, `c${i % convs}`, over));
}

describe('policy recommendations from the approval history', () => {
  it('suggests auto_allow for a kind always allowed 5 times across 2 conversations', () => {
    const r = recommend(many(5, 'read', 'allow_once', 2));
    assert.deepEqual(r, [
      {
        server: S,
        agentId: 'agent-x',
        agentName: 'Agent X',
        kind: 'read',
        verdict: 'auto_allow',
        count: 5,
        conversations: 2,
        risky: false,
      },
    ]);
  });

  it('needs both thresholds: 4 answers, or 5 in one conversation, suggest nothing', () => {
    assert.deepEqual(recommend(many(4, 'read', 'allow_once', 2)), []);
    assert.deepEqual(recommend(many(5, 'read', 'allow_always', 1)), []);
    assert.equal(recommend(many(6, 'read', 'allow_always', 2)).length, 1);
  });

  it('honours configured thresholds', () => {
    const entries = many(3, 'search', 'allow_once', 3);
    assert.deepEqual(recommend(entries), []);
    assert.equal(recommend(entries, { minAnswers: 3, minConversations: 3 }).length, 1);
    assert.deepEqual(recommend(entries, { minAnswers: 3, minConversations: 4 }), []);
    // Nonsense thresholds fall back to the defaults rather than suggesting from one answer.
    assert.deepEqual(recommend(entries, { minAnswers: 0, minConversations: -1 }), []);
  });

  it('one reject among the allows rules out loosening', () => {
    const entries = [...many(9, 'fetch', 'allow_once', 3), answer('fetch', 'reject_once', 'c9')];
    assert.deepEqual(recommend(entries), []);
  });

  it('an option of unknown kind counts as neither allow nor reject', () => {
    const entries = [...many(5, 'read', 'allow_once', 2), answer('read', 'something_else', 'c1')];
    assert.deepEqual(recommend(entries), []);
  });

  it('suggests auto_deny for a kind always rejected (never risky: it tightens)', () => {
    const r = recommend(many(5, 'execute', 'reject_once', 2));
    assert.equal(r.length, 1);
    assert.equal(r[0].verdict, 'auto_deny');
    assert.equal(r[0].kind, 'execute');
    assert.equal(r[0].risky, false);
    const mixed = [...many(5, 'edit', 'reject_always', 2), answer('edit', 'allow_once', 'c3')];
    assert.deepEqual(recommend(mixed), []);
  });

  it('flags loosening execute and delete as risky, and nothing else', () => {
    const r = recommend([
      ...many(5, 'execute', 'allow_once', 2),
      ...many(6, 'delete', 'allow_always', 2),
      ...many(7, 'edit', 'allow_once', 2),
    ]);
    assert.deepEqual(
      r.map((x) => [x.kind, x.verdict, x.risky]),
      [
        ['edit', 'auto_allow', false],
        ['delete', 'auto_allow', true],
        ['execute', 'auto_allow', true],
      ],
    );
  });

  it('counts only answers the server took, for known agents and ACP kinds', () => {
    const entries = [
      ...many(4, 'read', 'allow_once', 2),
      answer('read', 'allow_once', 'c1', { outcome: 'failed' }),
      answer('read', 'allow_once', 'c1', { outcome: 'resolvedElsewhere' }),
      answer('read', 'allow_once', 'c1', { agentId: undefined }),
      ...many(5, 'Bash', 'allow_once', 2),
    ];
    assert.deepEqual(recommend(entries), []);
  });

  it('keeps agents and servers apart', () => {
    const entries = [
      ...many(3, 'read', 'allow_once', 2),
      ...many(3, 'read', 'allow_once', 2, { agentId: 'agent-y' }),
      ...many(3, 'read', 'allow_once', 2, { server: 'http://127.0.0.1:5000' }),
    ];
    assert.deepEqual(recommend(entries), []);
  });

  it('skips what the agent policy already says', () => {
    const entries = [...many(5, 'read', 'allow_once', 2), ...many(5, 'think', 'allow_once', 2)];
    const r = recommend(entries, {}, (_s, _a, kind) => (kind === 'read' ? 'auto_allow' : 'ask'));
    assert.deepEqual(
      r.map((x) => x.kind),
      ['think'],
    );
  });

  it('names the agent by its latest name', () => {
    const entries = [...many(5, 'read', 'allow_once', 2), answer('read', 'allow_once', 'c5', { agentName: 'Renamed' })];
    assert.equal(recommend(entries)[0].agentName, 'Renamed');
  });
});
