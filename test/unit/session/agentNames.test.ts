import * as assert from 'node:assert/strict';
import { Inbox } from '../../../src/domain/inbox';
import type { FeedEvent } from '../../../src/domain/model';
import { nullLogger } from '../../../src/protocol/env';
import { AgentNames } from '../../../src/session/agentNames';
import { FountainSession } from '../../../src/session/fountainSession';
import { MemoryCursorStore } from '../../memoryCursorStore';
import { api, requestLog } from '../../support/serverClient';
import { startInProcess } from '../../support/serverFixture';
import { waitFor } from '../../support/wait';

const conversation = (id: string, agentId?: string, agentName?: string): FeedEvent => ({
  type: 'conversation',
  conversation: {
    server: 'https://f.example',
    id,
    ...(agentId ? { agentId } : {}),
    ...(agentName ? { agentName } : {}),
  },
});

describe("session/agentNames: a conversation's agent is named by one read of the agent, never by its id", () => {
  it('reads each agent once, names every conversation of it seen meanwhile, and then names new ones at once', async () => {
    const reads: string[] = [];
    let answer!: (name: string) => void;
    const names = new AgentNames((id) => (reads.push(id), new Promise<string>((r) => (answer = r))), nullLogger);
    const late: FeedEvent[] = [];
    assert.deepEqual(
      names.name(conversation('c1', 'a-1'), (e) => late.push(e)),
      conversation('c1', 'a-1'),
    );
    names.name(conversation('c2', 'a-1'), (e) => late.push(e));
    assert.deepEqual(reads, ['a-1'], 'one read for two conversations of the agent');
    answer('Claude Code');
    await waitFor('the late names', () => late.length === 2);
    assert.deepEqual(
      late.map((e) => e.type === 'conversation' && [e.conversation.id, e.conversation.agentName]),
      [
        ['c1', 'Claude Code'],
        ['c2', 'Claude Code'],
      ],
    );
    const third = names.name(conversation('c3', 'a-1'), () => assert.fail('no late event once the name is known'));
    assert.equal(third.type === 'conversation' && third.conversation.agentName, 'Claude Code');
    assert.deepEqual(reads, ['a-1']);
  });

  it('a failed read is logged and not repeated; events with a name, or without an agent, pass through', async () => {
    const warned: string[] = [];
    let reads = 0;
    const names = new AgentNames(
      () => (reads++, Promise.reject(new Error('GET /api/agents/a-2 failed: HTTP 404 not_found'))),
      { ...nullLogger, warn: (m: string) => warned.push(m) },
    );
    names.name(conversation('c1', 'a-2'), () => assert.fail('no name to add'));
    await waitFor('the warning', () => warned.length === 1);
    assert.match(warned[0], /HTTP 404/, 'the status goes to the log');
    names.name(conversation('c2', 'a-2'), () => assert.fail('no name to add'));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(reads, 1);
    const given = conversation('c3', 'a-3', 'Gemini');
    assert.equal(
      names.name(given, () => undefined),
      given,
    );
    const anonymous = conversation('c4');
    assert.equal(
      names.name(anonymous, () => undefined),
      anonymous,
    );
    assert.equal(reads, 1);
  });
});

describe('FountainSession names conversations from GET /api/agents/{id} (the test server sends no agent_name)', function () {
  let server: Awaited<ReturnType<typeof startInProcess>>;
  before(async () => {
    server = await startInProcess({ clock: 'real' });
  });
  after(async () => {
    await server.close();
  });

  it("the inbox holds the agent's display name for each conversation, read once per agent", async () => {
    const agent = await api<{ data: { name: string } }>(server, 'GET', '/api/agents/claude');
    assert.equal(agent.status, 200);
    const made: string[] = [];
    for (const prompt of ['run: git status', 'run: git log']) {
      const r = await api<{ data: { id: string; agent_name?: unknown } }>(server, 'POST', '/api/conversations', {
        body: { agent_id: 'claude', prompt },
      });
      assert.equal(r.status, 201);
      assert.equal('agent_name' in r.body.data, false, 'like Fountain, the conversation JSON has no agent_name');
      made.push(r.body.data.id);
    }
    const inbox = new Inbox();
    const session = new FountainSession({ inbox, cursorStore: new MemoryCursorStore(), logger: nullLogger });
    const before = (await requestLog(server)).length;
    try {
      session.connect({ url: server.url, key: server.apiKey, allowInsecureHttp: true });
      await waitFor(
        'both conversations named',
        () =>
          made.every((id) => inbox.all().some((i) => i.key.conversationId === id)) &&
          inbox.all().every((i) => i.conversation.agentName === agent.body.data.name),
        10_000,
      );
      const reads = (await requestLog(server))
        .slice(before)
        .filter((l) => l.method === 'GET' && l.path.startsWith('/api/agents/'));
      assert.deepEqual(
        reads.map((l) => l.path),
        ['/api/agents/claude'],
        'one read for two conversations of the agent',
      );
    } finally {
      session.dispose();
      inbox.dispose();
    }
  });
});
