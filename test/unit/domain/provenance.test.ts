import * as assert from 'node:assert/strict';
import type { ConversationInfo } from '../../../src/domain/model';
import { AgentPolicyCache, provenanceOf, type AgentRecord } from '../../../src/domain/provenance';

const S = 'http://127.0.0.1:4000';
const conv = (over: Partial<ConversationInfo> = {}): ConversationInfo => ({
  server: S,
  id: 'c1',
  agentId: 'claude',
  ...over,
});
const known = (policy: Record<string, unknown>) =>
  ({ kind: 'known', agent: { id: 'claude', policy }, readAt: 0 }) as const;

describe('request provenance', () => {
  it('names the kind key and the agent policy', () => {
    const p = provenanceOf(
      conv(),
      { title: 'touch x', kind: 'execute' },
      known({ execute: 'ask', default: 'auto_allow' }),
    );
    assert.deepEqual(p, {
      kind: 'explained',
      verdict: 'ask',
      key: 'execute',
      keyType: 'kind',
      source: 'agent',
      hasLaunchPolicy: false,
      loosened: false,
    });
  });

  it('names an exact title key', () => {
    const p = provenanceOf(conv(), { title: 'Bash', kind: 'execute' }, known({ Bash: 'ask', default: 'auto_allow' }));
    assert.equal(p.kind === 'explained' && p.keyType, 'title');
    assert.equal(p.kind === 'explained' && p.key, 'Bash');
  });

  it('names the launch policy when it is the stricter one', () => {
    const p = provenanceOf(
      conv({ permissionPolicy: { default: 'ask' } }),
      { title: 'touch x', kind: 'execute' },
      known({ default: 'auto_allow' }),
    );
    assert.equal(p.kind, 'explained');
    assert.equal(p.kind === 'explained' && p.source, 'launch');
    assert.equal(p.kind === 'explained' && p.keyType, 'default');
    assert.equal(p.kind === 'explained' && p.hasLaunchPolicy, true);
  });

  it('waits for the conversation, then the agent policy; says when it could not be read', () => {
    assert.deepEqual(provenanceOf(conv({ agentId: undefined }), { kind: 'read' }, undefined), {
      kind: 'pending',
      waitingFor: 'conversation',
    });
    assert.deepEqual(provenanceOf(conv(), { kind: 'read' }, { kind: 'loading' }), {
      kind: 'pending',
      waitingFor: 'agentPolicy',
    });
    assert.deepEqual(provenanceOf(conv(), { kind: 'read' }, { kind: 'unreadable', reason: 'HTTP 403', readAt: 0 }), {
      kind: 'unreadable',
      reason: 'HTTP 403',
    });
  });
});

describe('agent policy cache', () => {
  function setup() {
    let now = 0;
    const calls: string[] = [];
    let policy: Record<string, unknown> = { default: 'ask' };
    let fail: Error | undefined;
    const cache = new AgentPolicyCache(
      (_server, id): Promise<AgentRecord> => {
        calls.push(id);
        return fail
          ? Promise.reject(fail)
          : Promise.resolve({ id, policy: { ...policy }, version: String(calls.length) });
      },
      { now: () => now, maxAgeMs: 1000 },
    );
    return {
      cache,
      calls,
      advance: (ms: number) => (now += ms),
      setPolicy: (p: Record<string, unknown>) => (policy = p),
      setFail: (e: Error | undefined) => (fail = e),
    };
  }

  it('reads once for concurrent users, then serves from memory until it is old', async () => {
    const t = setup();
    assert.deepEqual(t.cache.get(S, 'claude'), { kind: 'loading' });
    t.cache.get(S, 'claude');
    await t.cache.refresh(S, 'claude');
    assert.deepEqual(t.calls, ['claude']);
    assert.equal(t.cache.get(S, 'claude')?.kind, 'known');
    assert.deepEqual(t.calls, ['claude']);
    t.advance(1001);
    t.cache.get(S, 'claude');
    assert.deepEqual(t.calls, ['claude', 'claude']);
  });

  it('re-reads the agent of a new conversation and fires only when something changed', async () => {
    const t = setup();
    await t.cache.refresh(S, 'claude');
    const changes: string[] = [];
    t.cache.onDidChange((e) => changes.push(e.agentId));
    t.setPolicy({ default: 'ask', read: 'auto_allow' });
    t.cache.noteConversation(conv({ id: 'c-new' }));
    t.cache.noteConversation(conv({ id: 'c-new' }));
    await t.cache.refresh(S, 'claude');
    assert.equal(t.calls.length, 2, 'one re-read for the new conversation (joined by the explicit refresh)');
    assert.deepEqual(changes, ['claude']);
    const s = t.cache.get(S, 'claude');
    assert.deepEqual(s?.kind === 'known' && s.agent.policy, { default: 'ask', read: 'auto_allow' });
  });

  it('keeps the reason when the policy cannot be read, and takes a PATCH response as the new state', async () => {
    const t = setup();
    t.setFail(new Error('GET /api/agents/claude failed: HTTP 403 forbidden'));
    const s = await t.cache.refresh(S, 'claude');
    assert.equal(s.kind === 'unreadable' && s.reason, 'GET /api/agents/claude failed: HTTP 403 forbidden');
    t.cache.set(S, { id: 'claude', policy: { execute: 'auto_allow' } });
    const after = t.cache.get(S, 'claude');
    assert.deepEqual(after?.kind === 'known' && after.agent.policy, { execute: 'auto_allow' });
  });
});
