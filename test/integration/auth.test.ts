import * as assert from 'node:assert/strict';
import { getApi, harnessTestServer, waitFor } from './support';
import { skipOrFail } from '../support/skipOrFail';

describe('a refused key stops the stream and asks for a key instead of looping', function () {
  this.timeout(60_000);

  it('401 api_key_revoked: state authFailed, the reason beside the view title, and no retry loop', async function () {
    const server = harnessTestServer();
    if (!server) {
      skipOrFail(this, 'the local test server is not running (run through npm run test:integration)');
    }
    const api = await getApi();
    const good = process.env.FOUNTAIN_API_KEY;
    const streamCalls = async () => (await server.requestLog()).filter((e) => e.path === '/api/events/stream');
    try {
      process.env.FOUNTAIN_API_KEY = String(server.info.revokedKey);
      const before = (await streamCalls()).length;
      await api.restart();
      const state = await waitFor('the auth failure', () => {
        const s = api.connectionState();
        return s.kind === 'authFailed' ? s : undefined;
      });
      assert.equal(state.status, 401);
      assert.match(api.viewDescription() ?? '', /refused the key/);
      // Several backoff periods later there is still exactly one refused stream request: no loop.
      await new Promise((r) => setTimeout(r, 3000));
      const calls = (await streamCalls()).slice(before);
      assert.deepEqual(
        calls.map((c) => c.status),
        [401],
      );
    } finally {
      process.env.FOUNTAIN_API_KEY = good;
      await api.restart();
    }
    await waitFor('the good key to connect again', () => api.connectionState().kind === 'connected');
    assert.equal(api.viewDescription(), undefined);
  });
});
