import * as assert from 'node:assert/strict';
import { defaultEnv } from '../../../src/protocol/env';
import { checkKey } from '../../../src/protocol/whoami';
import { startInProcess as start } from '../../support/serverFixture';

type RunningServer = Awaited<ReturnType<typeof start>>;

describe("sign-in's key check against the local server (GET /api/auth/me)", () => {
  let server: RunningServer;
  before(async () => {
    server = await start();
  });
  after(async () => {
    await server.close();
  });

  it('a good key: who it belongs to, at the normalised URL', async () => {
    const r = await checkKey(server.url + '/', server.apiKey, defaultEnv());
    assert.deepEqual(r, { kind: 'ok', server: server.url, account: { id: 'user-alice', email: 'alice@example.test' } });
  });

  it("a refused key: the server's sentence and reason code, as the server wrote them", async () => {
    assert.deepEqual(await checkKey(server.url, server.revokedKey, defaultEnv()), {
      kind: 'refused',
      status: 401,
      error: 'This API key was revoked',
      reason: 'api_key_revoked',
    });
    const unknown = await checkKey(server.url, 'ftn_live_unknown', defaultEnv());
    assert.equal(unknown.kind === 'refused' && unknown.reason, 'api_key_invalid');
  });

  it('a sandbox token or a plain-http remote URL is refused before any traffic', async () => {
    const seen: string[] = [];
    const env = { ...defaultEnv(), fetch: (u: string, i?: RequestInit) => (seen.push(u), fetch(u, i)) };
    assert.deepEqual(await checkKey(server.url, 'sprite:abc', env), { kind: 'sandboxToken' });
    const insecure = await checkKey('http://fountain.example.com', server.apiKey, env);
    assert.equal(insecure.kind, 'badUrl');
    assert.deepEqual(seen, []);
  });

  it('no server listening: unreachable, with the reason', async () => {
    const r = await checkKey('http://127.0.0.1:9', server.apiKey, defaultEnv(), { timeoutMs: 5000 });
    assert.equal(r.kind, 'unreachable');
  });
});
