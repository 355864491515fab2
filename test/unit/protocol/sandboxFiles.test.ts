import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { defaultEnv } from '../../../src/protocol/env';
import { SandboxFilesClient } from '../../../src/protocol/sandboxFiles';
import type { RunningServer } from '../../server';
import { api, createAndAsk } from '../../support/serverClient';
import { startInProcess } from '../../support/serverFixture';

describe('protocol: SandboxFilesClient against the local server', () => {
  let server: RunningServer;
  let client: SandboxFilesClient;
  let conv: string;
  let sandbox: string;
  before(async () => {
    server = await startInProcess();
    client = new SandboxFilesClient({ server: server.url, key: server.apiKey, env: defaultEnv(), maxBytes: 64 });
    conv = (await createAndAsk(server, 'claude', 'run: ls')).id;
    sandbox = (await api<{ data: { sandbox_id: string } }>(server, 'GET', `/api/conversations/${conv}`)).body.data
      .sandbox_id;
  });
  after(() => server.close());
  beforeEach(() => server.setSandbox(conv, { state: 'ready', repository: true, changes: [] }));

  it('reads a file, git status and diff; a live sandbox has no snapshot time', async () => {
    writeFileSync(path.join(server.cwdOf(conv)!, 'a.txt'), 'in the sandbox\n');
    server.setSandbox(conv, { changes: [{ path: 'a.txt', status: 'M', diff: '-x\n+y\n' }] });
    const f = await client.file(sandbox, path.join(server.cwdOf(conv)!, 'a.txt'));
    assert.deepEqual(f, { ok: true, value: { content: 'in the sandbox\n', truncated: false } });
    const st = await client.gitStatus(sandbox);
    assert.deepEqual(st, {
      ok: true,
      value: { branch: 'main', entries: [{ path: 'a.txt', status: 'M', staged: false }], skipped: 0 },
    });
    assert.deepEqual(await client.diff(sandbox), { ok: true, value: { diff: '-x\n+y\n', truncated: false } });
    writeFileSync(path.join(server.cwdOf(conv)!, 'big.txt'), 'x'.repeat(100));
    const big = await client.file(sandbox, 'big.txt');
    assert.ok(big.ok && big.value.truncated && big.value.content.length === 64, 'max_bytes is sent');
  });

  it('maps each error status to its failure; a parked sandbox carries snapshot_at', async () => {
    server.setSandbox(conv, { state: 'not_ready' });
    assert.deepEqual(await client.gitStatus(sandbox), { ok: false, failure: { kind: 'notReady' } });
    server.setSandbox(conv, { state: 'unavailable', retry_after: 30 });
    assert.deepEqual(await client.file(sandbox, 'a.txt'), {
      ok: false,
      failure: { kind: 'unavailable', retryAfterSec: 30 },
    });
    server.setSandbox(conv, { state: 'parked', snapshot_at: '2026-11-30T10:00:00.000Z' });
    const parked = await client.gitStatus(sandbox);
    assert.equal(parked.ok && parked.snapshotAt, '2026-11-30T10:00:00.000Z');
    assert.deepEqual(await client.file(sandbox, '/etc/passwd'), { ok: false, failure: { kind: 'outsideSandbox' } });
    assert.deepEqual(await client.file(sandbox, 'missing'), { ok: false, failure: { kind: 'notFound' } });
    server.setSandbox(conv, { repository: false });
    assert.deepEqual(await client.diff(sandbox), { ok: false, failure: { kind: 'notRepository' } });
    const other = new SandboxFilesClient({ server: server.url, key: 'ftn_live_nope', env: defaultEnv() });
    assert.deepEqual(await other.gitStatus(sandbox), { ok: false, failure: { kind: 'refused', status: 401 } });
  });

  it('an answer that is not the expected shape and a refused connection are failures, never throws', async () => {
    server.failNext({ route: 'sandboxGitStatus', status: 200, body: { data: { entries: 'nope' } } });
    const odd = await client.gitStatus(sandbox);
    assert.equal(!odd.ok && odd.failure.kind, 'unexpected');
    const gone = new SandboxFilesClient({ server: 'http://127.0.0.1:1', key: server.apiKey, env: defaultEnv() });
    const r = await gone.file(sandbox, 'a.txt');
    assert.equal(!r.ok && r.failure.kind, 'network');
    assert.ok(!JSON.stringify(r).includes(server.apiKey));
  });
});
