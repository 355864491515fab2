import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { realAgentsInstalled } from './agents/real/index';
import { answerPath, api, createAndAsk, events, isStage, stageData, waitEvent } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';
import { waitFor } from '../support/wait';
import type { RunningServer } from './server';

/**
 * The whole ask flow with a real published ACP runtime: claude-agent-acp 0.23.1 (Claude Code inside) runs against
 * the scripted loopback model, asks session/request_permission for a shell command, the server holds it as `ask`,
 * an answer arrives over HTTP, and the command really runs.
 */
describe('test server: a real ACP agent (claude-agent-acp) asks and the server holds it', function () {
  this.timeout(90_000);
  let server: RunningServer;

  before(function () {
    if (!realAgentsInstalled('claude')) {
      throw new Error('real agents are not installed: run bash test/harness/setup-acp-agents.sh (npm test does)');
    }
  });
  beforeEach(async () => {
    server = await start({ clock: 'real', real: true });
  });
  afterEach(async () => {
    await server.close();
  });

  it('holds the real request as ask; an HTTP answer with the offered allow option runs the command', async () => {
    const { id, requestId, block } = await createAndAsk(
      server,
      'real-claude',
      'create file real-approved.txt containing yes',
      {},
      60_000,
    );
    assert.match(requestId, /^\d+\.[0-9a-f]{16}$/);
    const options = block.options as { optionId: string; kind: string }[];
    assert.deepEqual(
      options.map((o) => o.kind),
      ['allow_always', 'allow_once', 'reject_once'],
    );
    const file = path.join(server.cwdOf(id)!, 'real-approved.txt');
    assert.equal(existsSync(file), false, 'nothing runs before the answer');
    const pending = await api<{ data: { pending_requests: unknown[] } }>(server, 'GET', `/api/conversations/${id}`);
    assert.deepEqual(pending.body.data.pending_requests, [], 'an in-turn request is not a detached pending request');
    const allow = options.find((o) => o.kind === 'allow_once')!.optionId;
    const r = await api(server, 'POST', answerPath(id, requestId), { body: { option_id: allow } });
    assert.equal(r.status, 200);
    await waitFor('the command the real agent ran', () => existsSync(file), 60_000);
    assert.equal(readFileSync(file, 'utf8').trim(), 'yes');
    const done = await waitEvent(server, id, isStage('request', 'done'), 'request/done', 10_000);
    assert.deepEqual(stageData(done), { request_id: requestId, outcome: 'answered', option_id: allow });
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done', 60_000);
  });

  it('a reject answer reaches the real agent and the command does not run', async () => {
    const { id, requestId, block } = await createAndAsk(
      server,
      'real-claude',
      'create file real-rejected.txt containing no',
      {},
      60_000,
    );
    const reject = (block.options as { optionId: string; kind: string }[]).find(
      (o) => o.kind === 'reject_once',
    )!.optionId;
    assert.equal((await api(server, 'POST', answerPath(id, requestId), { body: { option_id: reject } })).status, 200);
    await waitEvent(server, id, isStage('turn', 'done'), 'turn/done', 60_000);
    assert.equal(existsSync(path.join(server.cwdOf(id)!, 'real-rejected.txt')), false);
    assert.ok((await events(server, id)).some(isStage('request', 'done')));
  });
});
