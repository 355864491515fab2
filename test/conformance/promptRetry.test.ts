/**
 * The product's prompt client (src/protocol/prompts.ts, the one Reject with Reason… sends the reason with) against
 * the local Fountain-compatible server over loopback, when the response to its POST is lost after the server took
 * the prompt: whatever the client does next (read the turns, or send again with the same client_request_id, which
 * the server dedupes as Fountain does), the prompt is queued once.
 */
import * as assert from 'node:assert/strict';
import { PromptClient } from '../../src/protocol/prompts';
import { defaultEnv } from '../../src/protocol/env';
import { answerPath, api, control, createAndAsk } from '../support/serverClient';
import { startInProcess } from '../support/serverFixture';
import { waitFor } from '../support/wait';

type Server = Awaited<ReturnType<typeof startInProcess>>;
type Turn = { prompt: string; client_request_id: string | null };

const turnsOf = async (server: Server, id: string) =>
  (await api<{ data: Turn[] }>(server, 'GET', `/api/conversations/${id}/turns`)).body.data;

const log = async (server: Server) =>
  (await control<{ data: { method: string; path: string; status: number }[] }>(server, 'GET', '/log')).body.data;

/** The prompts and turns calls the server saw for `id` after the first `since` log entries, as "METHOD status tail". */
async function calls(server: Server, id: string, since: number): Promise<string[]> {
  return (await log(server))
    .slice(since)
    .filter((e) => e.path === `/api/conversations/${id}/prompts` || e.path === `/api/conversations/${id}/turns`)
    .map((e) => `${e.method} ${e.status} ${e.path.split('/').pop()}`);
}

describe('conformance: a prompt whose response is lost is queued once (prompt client against the local server)', function () {
  this.timeout(20_000);
  let server: Server;
  let client: PromptClient;
  beforeEach(async () => {
    server = await startInProcess();
    client = new PromptClient({ server: server.url, key: server.apiKey, env: defaultEnv(), timeoutMs: 5000 });
  });
  afterEach(async () => {
    await server.close();
  });

  it('idle conversation: the turn with our id is already there, so nothing is sent again', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    await waitFor('the first turn to end', async () =>
      (await turnsOf(server, id)).every((t) => t.prompt === 'run: ls'),
    );
    await waitFor(
      'idle',
      async () =>
        (await api<{ data: { status: string } }>(server, 'GET', `/api/conversations/${id}`)).body.data.status ===
        'idle',
    );
    await control(server, 'POST', '/drop-response', { route: 'prompts' });
    const since = (await log(server)).length;
    const r = await client.send(id, 'Do not delete it; move it to trash/ instead.', 'cr-idle');
    assert.deepEqual(r, { kind: 'queued', attempts: 1 });
    assert.deepEqual(await calls(server, id, since), ['POST 0 prompts', 'GET 200 turns']);
    assert.deepEqual(
      (await turnsOf(server, id)).map((t) => t.client_request_id),
      [null, 'cr-idle'],
    );
  });

  it('busy conversation: the prompt waits behind the turn (no turn shows it yet), the retry is deduped: one turn', async () => {
    const { id, requestId } = await createAndAsk(server, 'claude', 'run: ls');
    await control(server, 'POST', '/drop-response', { route: 'prompts' });
    const since = (await log(server)).length;
    const r = await client.send(id, 'Use the staging database, not production.', 'cr-busy');
    assert.deepEqual(r, { kind: 'queued', attempts: 2 });
    assert.deepEqual(await calls(server, id, since), ['POST 0 prompts', 'GET 200 turns', 'POST 202 prompts']);
    await api(server, 'POST', answerPath(id, requestId), { body: { option_id: 'allow' } });
    await waitFor('the reason to run as a turn', async () => (await turnsOf(server, id)).length >= 2);
    await new Promise((res) => setTimeout(res, 200)); // a duplicate would start right after
    assert.deepEqual(
      (await turnsOf(server, id)).map((t) => [t.prompt, t.client_request_id]),
      [
        ['run: ls', null],
        ['Use the staging database, not production.', 'cr-busy'],
      ],
    );
  });
});
