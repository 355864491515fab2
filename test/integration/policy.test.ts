import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { editScripted } from './editScript';
import { getApi, harnessTestServer, openIn, waitFor } from './support';
import type { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

type Agent = { id: string; permission_policy: Record<string, unknown>; updated_at: string };

describe('policy provenance, the agent-policy editor and the approval history', function () {
  let server: TestServer;

  before(function () {
    const s = harnessTestServer();
    if (!s) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    server = s;
  });

  async function agent(id: string): Promise<Agent> {
    const r = await server.api<{ data: Agent }>('GET', `/api/agents/${id}`);
    assert.equal(r.status, 200);
    return r.body.data;
  }

  /** Sets an agent's policy as another client would, runs `body`, and puts the old policy back. */
  async function withAgentPolicy(id: string, policy: Record<string, unknown>, body: () => Promise<void>) {
    const before = (await agent(id)).permission_policy;
    const set = await server.api('PATCH', `/api/agents/${id}`, { permission_policy: policy });
    assert.equal(set.status, 200);
    try {
      await body();
    } finally {
      await server.api('PATCH', `/api/agents/${id}`, { permission_policy: before });
    }
  }

  it('a request asked by a kind key of the agent policy says so on the toast, the tooltip and the details', async () => {
    const api = await getApi();
    await withAgentPolicy('codex', { default: 'auto_allow', execute: 'ask' }, async () => {
      const id = await server.startConversation('codex', 'run: touch provenance-kind.txt', { title: 'kind key' });
      const item = await waitFor('the codex request', () => openIn(api.items(), id)[0]);
      const full = await waitFor('its provenance', () => {
        const t = api.provenance(item.id).full;
        return t.startsWith('ask by') ? t : undefined;
      });
      assert.equal(full, 'ask by kind "execute" in the agent policy');
      assert.equal(await api.provenance(item.id).toast, 'asked by kind "execute" in the agent policy');
      const row = await waitFor('the tree row with its tooltip', () =>
        api
          .tree()
          .flatMap((c) => c.children)
          .find((c) => c.tooltip.includes('touch provenance-kind.txt') && c.tooltip.includes('Why asked: ask by')),
      );
      assert.ok(row.tooltip.includes('Why asked: ask by kind "execute" in the agent policy'), row.tooltip);
      assert.match(api.detailsText(item.id), /Why asked:\s+ask by kind "execute" in the agent policy/);

      // Answering from the extension records the answer in the history (label kept by default).
      const reject = item.request.options.find((o) => o.kind === 'reject_once')!;
      assert.deepEqual(await api.answer(item.id, reject.optionId), { kind: 'answered' });
      const entry = await waitFor('the history entry', () => api.history().find((e) => e.conversationId === id));
      assert.deepEqual(
        {
          agentId: entry.agentId,
          runtime: entry.runtime,
          kind: entry.kind,
          label: entry.label,
          optionId: entry.optionId,
          optionKind: entry.optionKind,
          outcome: entry.outcome,
          server: entry.server,
        },
        {
          agentId: 'codex',
          runtime: 'codex',
          kind: 'execute',
          label: 'touch provenance-kind.txt',
          optionId: reject.optionId,
          optionKind: 'reject_once',
          outcome: 'answered',
          server: api.serverUrl(),
        },
      );
    });
  });

  it('a request asked because of the launch policy names the launch policy', async () => {
    const api = await getApi();
    await withAgentPolicy('gemini', { default: 'auto_allow' }, async () => {
      const id = await server.startConversation('gemini', 'run: touch provenance-launch.txt', {
        title: 'launch key',
        permission_policy: { execute: 'ask' },
      });
      const item = await waitFor('the gemini request', () => openIn(api.items(), id)[0]);
      // The PATCH above went around the extension: until the re-read a new conversation starts has landed, the
      // explanation may still come from the policy cached before it. The re-read must then name the launch policy.
      let last = '';
      const full = await waitFor('its provenance after the re-read', () => {
        last = api.provenance(item.id).full;
        return last === 'ask by kind "execute" in the launch policy' ? last : undefined;
      }).catch((e: Error) => assert.fail(`${e.message}; last: ${last}`));
      assert.equal(full, 'ask by kind "execute" in the launch policy');
      assert.match(api.detailsText(item.id), /Why asked:\s+ask by kind "execute" in the launch policy/);
      const reject = item.request.options.find((o) => o.kind === 'reject_once')!;
      await api.answer(item.id, reject.optionId);
    });
  });

  it('activation and provenance did not load the agent-policy editor bundle (dist/policyEditor.js)', async () => {
    const api = await getApi();
    assert.equal(api.policyEditorLoaded(), false);
  });

  it('an edit the server would refuse is refused locally with the server message, and nothing is sent', async () => {
    const api = await getApi();
    for (const [agentId, steps] of [
      ['qwen', [{ timeout: '99999999' }]],
      ['opencode', [{ key: 'execute', verdict: 'ask' as const }]],
    ] as const) {
      const before = await agent(agentId);
      const run = await editScripted(api, { agentId, steps, confirm: true });
      assert.equal(run.result.kind, 'refusedLocally', JSON.stringify(run));
      assert.ok(!run.calls.includes('preview') && !run.calls.includes('confirm'), run.calls.join(','));
      const proposed = { ...before.permission_policy };
      for (const s of steps) {
        Object.assign(proposed, 'timeout' in s ? { ask_timeout: Number(s.timeout) } : { [s.key]: s.verdict });
      }
      // What the server itself says about the same policy, sent directly by another client.
      const direct = await server.api<{ errors: { permission_policy: string[] } }>('PATCH', `/api/agents/${agentId}`, {
        permission_policy: proposed,
      });
      assert.equal(direct.status, 422);
      assert.deepEqual(run.result.kind === 'refusedLocally' && run.result.errors, direct.body.errors.permission_policy);
      assert.ok(run.errors[0].includes(direct.body.errors.permission_policy[0]), run.errors[0]);
      const after = await agent(agentId);
      assert.deepEqual(after, before, 'the agent is unchanged: nothing was PATCHed');
    }
  });

  it('the first edit loaded dist/policyEditor.js', async () => {
    const api = await getApi();
    assert.equal(api.policyEditorLoaded(), true);
  });

  it('a valid edit PATCHes after the preview and confirmation, and the next request of that agent is not asked', async () => {
    const api = await getApi();
    const before = await agent('qwen');
    assert.equal(before.permission_policy.default, 'ask', 'qwen asks for everything to begin with');
    try {
      const declined = await editScripted(api, {
        agentId: 'qwen',
        steps: [{ key: 'execute', verdict: 'auto_allow' }],
        confirm: false,
        acceptRisk: true,
      });
      assert.equal(declined.result.kind, 'cancelled');
      assert.deepEqual(await agent('qwen'), before, 'declining the confirmation sends nothing');

      const run = await editScripted(api, {
        agentId: 'qwen',
        steps: [{ key: 'execute', verdict: 'auto_allow' }],
        confirm: true,
        acceptRisk: true,
      });
      assert.deepEqual(run.calls, [
        'pickKey',
        'pickVerdict:execute',
        'confirmRisk:execute',
        'pickKey',
        'preview',
        'confirm',
      ]);
      assert.equal(run.result.kind, 'patched', JSON.stringify(run));
      const saved = await agent('qwen');
      assert.deepEqual(saved.permission_policy, { ...before.permission_policy, execute: 'auto_allow' });

      const id = await server.startConversation('qwen', 'run: touch not-asked.txt', { title: 'after the edit' });
      const state = await server.conversationState(id);
      await waitFor('the command to run without asking', () => fs.existsSync(path.join(state.cwd, 'not-asked.txt')));
      assert.deepEqual((await server.conversationState(id)).held, []);
      assert.equal(
        api.items().filter((i) => i.key.conversationId === id).length,
        0,
        'no request of that conversation reached the inbox',
      );
    } finally {
      await server.api('PATCH', '/api/agents/qwen', { permission_policy: before.permission_policy });
    }
  });
});
