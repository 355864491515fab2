import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { getApi, harnessServer, waitFor } from './support';
import { TestServer } from '../support/serverClient';
import { skipOrFail } from '../support/skipOrFail';

describe('a real ACP agent through the local server and the extension', function () {
  this.timeout(120_000);

  it('claude-agent-acp asks, the extension shows its own options, and the answer makes it run the command', async function () {
    const info = harnessServer();
    if (!info || !info.agents?.includes('real-claude')) {
      skipOrFail(
        this,
        'the local test server has no real-claude agent (real agents: bash test/harness/setup-acp-agents.sh)',
      );
    }
    const server = new TestServer(info);
    const api = await getApi();
    const id = await server.startConversation('real-claude', 'create file from-real-agent.txt containing approved', {
      title: 'Real Claude',
    });
    const item = await waitFor(
      'the real agent request in the inbox',
      () => api.items().find((i) => i.key.conversationId === id && i.pending),
      60_000,
    );
    assert.equal(item.request.kind, 'execute');
    assert.match(item.label, /from-real-agent\.txt/);
    assert.deepEqual(
      item.request.options.map((o) => [o.optionId, o.kind]),
      [
        ['allow_always', 'allow_always'],
        ['allow', 'allow_once'],
        ['reject', 'reject_once'],
      ],
    );
    assert.deepEqual(await api.answer(item.id, 'allow'), { kind: 'answered' });
    const { cwd } = await server.conversationState(id);
    const file = path.join(cwd, 'from-real-agent.txt');
    await waitFor('the file the real agent writes after the answer', () => fs.existsSync(file), 60_000);
    assert.equal(fs.readFileSync(file, 'utf8').trim(), 'approved');
  });
});
