import { strict as assert } from 'node:assert';
import type { RunningServer } from './server';
import { answerPath, api, createAndAsk, events, isStage, waitEvent } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';

type Conv = {
  id: string;
  status: string;
  labels: Record<string, string>;
  pending_requests: unknown[];
  permission_policy: unknown;
};

describe('test server: REST routes', function () {
  let server: RunningServer;
  beforeEach(async () => {
    server = await start();
  });
  afterEach(async () => {
    await server.close();
  });

  describe('auth', () => {
    it('401 bodies carry {error, reason}: invalid, revoked, expired, missing', async () => {
      const cases: [string | null, string][] = [
        ['ftn_live_nope', 'api_key_invalid'],
        [server.revokedKey, 'api_key_revoked'],
        [server.expiredKey, 'api_key_expired'],
        [null, 'api_key_invalid'],
      ];
      for (const [key, reason] of cases) {
        const r = await api(server, 'GET', '/api/conversations', { key });
        assert.equal(r.status, 401, reason);
        assert.equal(r.body.reason, reason);
        assert.equal(typeof r.body.error, 'string');
      }
      const me = await api(server, 'GET', '/api/auth/me');
      assert.equal(me.status, 200);
      assert.equal(me.body.email, 'alice@example.test', 'unenveloped');
    });

    it('a sprite key is refused full-scope routes (403 insufficient_scope) and sees only its own conversation', async () => {
      const { id } = await createAndAsk(server, 'claude', 'run: ls');
      const other = await createAndAsk(server, 'claude', 'run: ls');
      const sprite = server.spriteKey(id)!;
      const list = await api(server, 'GET', '/api/conversations', { key: sprite });
      assert.equal(list.status, 403);
      assert.equal(list.body.reason, 'insufficient_scope');
      assert.equal((await api(server, 'GET', `/api/conversations/${id}`, { key: sprite })).status, 200);
      assert.equal((await api(server, 'GET', `/api/conversations/${other.id}`, { key: sprite })).status, 404);
    });

    it('an unavailable account gets 401 account_unavailable', async () => {
      server.setAccount('alice', { unavailable: true });
      const r = await api(server, 'GET', '/api/conversations');
      assert.equal(r.status, 401);
      assert.equal(r.body.reason, 'account_unavailable');
    });
  });

  describe('GET /api/conversations', () => {
    it('orders by updated_at desc, filters by status, limit and labels, never lists pending requests, hides other users', async () => {
      const a = await createAndAsk(server, 'claude', 'run: ls', { labels: { team: 'web', env: 'prod' } });
      const b = await createAndAsk(server, 'gemini', 'run: ls', { labels: { team: 'docs' } });
      await api(server, 'POST', '/api/conversations', {
        key: server.apiKey2,
        body: { agent_id: 'claude', prompt: 'say: hi' },
      });
      let r = await api<{ data: Conv[] }>(server, 'GET', '/api/conversations');
      assert.deepEqual(
        r.body.data.map((c) => c.id),
        [b.id, a.id],
      );
      assert.ok(r.body.data.every((c) => Array.isArray(c.pending_requests) && c.pending_requests.length === 0));
      // answering a's request makes it the most recently updated
      assert.equal(
        (await api(server, 'POST', answerPath(a.id, a.requestId), { body: { option_id: 'allow' } })).status,
        200,
      );
      await waitEvent(server, a.id, isStage('turn', 'done'), 'turn done');
      r = await api<{ data: Conv[] }>(server, 'GET', '/api/conversations');
      assert.equal(r.body.data[0].id, a.id);
      r = await api<{ data: Conv[] }>(server, 'GET', '/api/conversations?status=running');
      assert.deepEqual(
        r.body.data.map((c) => c.id),
        [b.id],
      );
      r = await api<{ data: Conv[] }>(server, 'GET', '/api/conversations?status=idle,running&limit=1');
      assert.equal(r.body.data.length, 1);
      r = await api<{ data: Conv[] }>(server, 'GET', '/api/conversations?label=team:web&label=env:prod');
      assert.deepEqual(
        r.body.data.map((c) => c.id),
        [a.id],
      );
      r = await api<{ data: Conv[] }>(server, 'GET', '/api/conversations?label[]=team:docs');
      assert.deepEqual(
        r.body.data.map((c) => c.id),
        [b.id],
      );
    });

    it('400 invalid_status, invalid_limit, invalid_label_filter', async () => {
      for (const [q, err] of [
        ['status=waiting', 'invalid_status'],
        ['status=idle,bogus', 'invalid_status'],
        ['limit=0', 'invalid_limit'],
        ['limit=501', 'invalid_limit'],
        ['limit=ten', 'invalid_limit'],
        ['label=nocolon', 'invalid_label_filter'],
        ['label=:v', 'invalid_label_filter'],
      ]) {
        const r = await api(server, 'GET', `/api/conversations?${q}`);
        assert.equal(r.status, 400, q);
        assert.equal(r.body.error, err, q);
      }
    });
  });

  describe('POST /api/conversations', () => {
    it('creates with a UUID id; a launch policy that narrows is kept on the conversation', async () => {
      const r = await api<{ data: Conv }>(server, 'POST', '/api/conversations', {
        body: { agent_id: 'claude', permission_policy: { default: 'ask', Bash: 'auto_deny' } },
      });
      assert.equal(r.status, 201);
      assert.match(r.body.data.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.deepEqual(r.body.data.permission_policy, { default: 'ask', Bash: 'auto_deny' });
      await waitFor(
        'idle',
        async () =>
          (await api<{ data: Conv }>(server, 'GET', `/api/conversations/${r.body.data.id}`)).body.data.status ===
          'idle',
      );
    });

    it('422 permission_policy_widens names the key; invalid; unenforceable on opencode; unknown agent', async () => {
      const widen = await api(server, 'POST', '/api/conversations', {
        body: { agent_id: 'claude', permission_policy: { execute: 'auto_allow' } },
      });
      assert.equal(widen.status, 422);
      assert.equal(widen.body.error, 'permission_policy_widens');
      assert.match(String(widen.body.message), /execute would be loosened/);
      const longer = await api(server, 'POST', '/api/conversations', {
        body: { agent_id: 'claude', permission_policy: { default: 'ask', ask_timeout: 301 } },
      });
      assert.equal(longer.body.error, 'permission_policy_widens');
      assert.match(String(longer.body.message), /ask_timeout/);
      const invalid = await api(server, 'POST', '/api/conversations', {
        body: { agent_id: 'claude', permission_policy: { Bash: 'maybe' } },
      });
      assert.equal(invalid.status, 422);
      assert.equal(invalid.body.error, 'permission_policy_invalid');
      const oc = await api(server, 'POST', '/api/conversations', {
        body: { agent_id: 'opencode', permission_policy: { default: 'ask' } },
      });
      assert.equal(oc.status, 422);
      assert.equal(oc.body.error, 'permission_policy_unenforceable');
      const ok = await api(server, 'POST', '/api/conversations', {
        body: { agent_id: 'opencode', permission_policy: { default: 'auto_allow' } },
      });
      assert.equal(ok.status, 201);
      const unknown = await api(server, 'POST', '/api/conversations', { body: { agent_id: 'nobody' } });
      assert.equal(unknown.status, 422);
      assert.equal(unknown.body.error, 'validation_failed');
    });
  });

  describe('prompts, turns and events', () => {
    it('a prompt is {status:"queued"}; one sent while a turn runs waits for it', async () => {
      const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
      const r = await api(server, 'POST', `/api/conversations/${id}/prompts`, {
        body: { prompt: 'say: second', client_request_id: 'cr-2' },
      });
      assert.deepEqual(r.body, { status: 'queued' });
      assert.ok(r.status === 200 || r.status === 202);
      await new Promise((res) => setTimeout(res, 50));
      assert.equal(
        (await events(server, id)).filter(isStage('turn', 'started')).length,
        1,
        'queued behind the running turn',
      );
      assert.equal(
        (await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } })).status,
        200,
      );
      await waitFor(
        'second turn done',
        async () => (await events(server, id)).filter(isStage('turn', 'done')).length === 2,
      );
      const turns = await api<{
        data: { turn_number: number; prompt: string; client_request_id: string | null; status: string }[];
      }>(server, 'GET', `/api/conversations/${id}/turns`);
      assert.deepEqual(
        turns.body.data.map((t) => [t.turn_number, t.prompt, t.client_request_id, t.status]),
        [
          [1, 'run: ls', null, 'done'],
          [2, 'say: second', 'cr-2', 'done'],
        ],
      );
      const started = (await events(server, id)).filter(isStage('turn', 'started'));
      assert.equal((JSON.parse(started[1].data) as { client_request_id: string }).client_request_id, 'cr-2');
    });

    it('/events pages with after/limit, has_more and next_cursor; streams filters; 400 invalid_limit', async () => {
      const { id } = await createAndAsk(server, 'claude', 'say: a\nsay: b\nrun: ls');
      const all = await events(server, id);
      assert.ok(all.length >= 5);
      const ids: number[] = [];
      let after = 0;
      for (let guard = 0; guard < 50; guard++) {
        const r = await api<{
          data: { id: number }[];
          meta: { limit: number; has_more: boolean; next_cursor: number | null };
        }>(server, 'GET', `/api/conversations/${id}/events?after=${after}&limit=2`);
        assert.equal(r.body.meta.limit, 2);
        ids.push(...r.body.data.map((e) => e.id));
        if (!r.body.meta.has_more) {
          break;
        }
        after = r.body.meta.next_cursor!;
      }
      assert.deepEqual(
        ids,
        all.map((e) => e.id),
      );
      const stage = await events(server, id, 'streams=stage');
      assert.ok(stage.length > 0 && stage.every((e) => e.kind === 'stage'));
      assert.ok((await events(server, id, 'streams=nosuch')).length === 0, 'an unknown stream selects nothing');
      assert.ok(!('blocks' in (await events(server, id, 'limit=1'))[0]));
      assert.equal((await api(server, 'GET', `/api/conversations/${id}/events?limit=1001`)).status, 400);
      const last = all[all.length - 1].id;
      const empty = await api<{ data: unknown[]; meta: { next_cursor: unknown; has_more: boolean } }>(
        server,
        'GET',
        `/api/conversations/${id}/events?after=${last}`,
      );
      assert.deepEqual(empty.body, { data: [], meta: { limit: 100, has_more: false, next_cursor: null } });
    });
  });

  describe('agents', () => {
    it('GET lists and reads agents; PATCH validates with a changeset 422, null clears, opencode refuses ask', async () => {
      const list = await api<{ data: { id: string; runtime: string }[] }>(server, 'GET', '/api/agents');
      assert.ok(
        ['claude', 'gemini', 'codex', 'qwen', 'opencode', 'waiter'].every((id) =>
          list.body.data.some((a) => a.id === id),
        ),
      );
      const one = await api<{ data: { permission_policy: unknown } }>(server, 'GET', '/api/agents/claude');
      assert.deepEqual(one.body.data.permission_policy, { default: 'ask' });
      assert.equal((await api(server, 'GET', '/api/agents/nobody')).status, 404);
      const bad = await api<{ error: string; errors: { permission_policy: string[] } }>(
        server,
        'PATCH',
        '/api/agents/claude',
        {
          body: { permission_policy: { Bash: 'x' } },
        },
      );
      assert.equal(bad.status, 422);
      assert.equal(bad.body.error, 'validation_failed');
      assert.ok(bad.body.errors.permission_policy.some((m) => m.includes('unknown verdict')));
      const oc = await api<{ errors: { permission_policy: string[] } }>(server, 'PATCH', '/api/agents/opencode', {
        body: { permission_policy: { default: 'ask' } },
      });
      assert.equal(oc.status, 422);
      assert.ok(oc.body.errors.permission_policy.some((m) => m.includes('opencode')));
      const set = await api<{ data: { permission_policy: unknown } }>(server, 'PATCH', '/api/agents/claude', {
        body: { permission_policy: { default: 'ask', ask_timeout: 86400 } },
      });
      assert.equal(set.status, 200);
      assert.deepEqual(set.body.data.permission_policy, { default: 'ask', ask_timeout: 86400 });
      const cleared = await api<{ data: { permission_policy: unknown } }>(server, 'PATCH', '/api/agents/claude', {
        body: { permission_policy: null },
      });
      assert.deepEqual(cleared.body.data.permission_policy, {});
      assert.equal(
        (
          await api(server, 'PATCH', '/api/agents/claude', {
            key: server.spriteKey((await createAndAsk(server, 'gemini', 'run: ls')).id)!,
            body: {},
          })
        ).status,
        403,
      );
    });
  });
});
