import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { RunningServer } from './server';
import { api, control, createAndAsk } from '../support/serverClient';
import { startInProcess as start } from '../support/serverFixture';

type Data = { data: Record<string, unknown> };

describe('test server: sandbox reads (files, file, diff, git-status)', function () {
  let server: RunningServer;
  let conv: string;
  let sandbox: string;
  let cwd: string;
  beforeEach(async () => {
    server = await start();
    conv = (await createAndAsk(server, 'claude', 'run: ls')).id;
    const c = await api<Data>(server, 'GET', `/api/conversations/${conv}`);
    sandbox = c.body.data.sandbox_id as string;
    cwd = server.cwdOf(conv)!;
  });
  afterEach(async () => {
    await server.close();
  });

  const get = (route: string, query = '', key?: string | null) =>
    api<Data & { error?: string }>(server, 'GET', `/api/sandboxes/${sandbox}/${route}${query}`, { key });

  it('/file answers the working directory file, by relative or absolute path; missing is 404, max_bytes cuts', async () => {
    writeFileSync(path.join(cwd, 'notes.txt'), 'current text\n');
    const rel = await get('file', '?path=notes.txt');
    assert.equal(rel.status, 200);
    assert.equal(rel.body.data.content, 'current text\n');
    assert.equal(rel.body.data.truncated, false);
    assert.equal(rel.body.data.snapshot_at, null, 'a live sandbox has no snapshot time');
    const abs = await get('file', `?path=${encodeURIComponent(path.join(cwd, 'notes.txt'))}`);
    assert.equal(abs.body.data.content, 'current text\n');
    const cut = await get('file', '?path=notes.txt&max_bytes=4');
    assert.deepEqual([cut.body.data.content, cut.body.data.truncated, cut.body.data.size], ['curr', true, 13]);
    assert.equal((await get('file', '?path=missing.txt')).status, 404);
    assert.equal((await get('file', '')).status, 422, 'path is required');
  });

  it('a path outside the sandbox is 422 path_outside_sandbox, relative or absolute', async () => {
    for (const p of ['../../etc/passwd', '/etc/passwd', `${cwd}/../x`]) {
      const r = await get('file', `?path=${encodeURIComponent(p)}`);
      assert.equal(r.status, 422, p);
      assert.equal(r.body.error, 'path_outside_sandbox', p);
    }
    assert.equal((await get('diff', '?path=/etc/passwd')).body.error, 'path_outside_sandbox');
  });

  it('the control knob writes and deletes files and sets what git-status and diff answer', async () => {
    const diff = '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1 +1 @@\n-old\n+new\n';
    const set = await control(server, 'POST', `/sandboxes/${conv}`, {
      files: { 'src/a.ts': 'new\n' },
      branch: 'feature',
      changes: [
        { path: 'src/a.ts', status: 'M', diff },
        { path: 'b.txt', status: 'A', staged: true, diff: '+++ b/b.txt\n+b\n' },
      ],
    });
    assert.equal(set.status, 200);
    assert.equal((await get('file', '?path=src/a.ts')).body.data.content, 'new\n');
    const st = await get('git-status');
    assert.equal(st.status, 200);
    assert.equal(st.body.data.branch, 'feature');
    assert.equal(st.body.data.clean, false);
    assert.deepEqual(st.body.data.entries, [
      { path: 'src/a.ts', status: 'M', staged: false },
      { path: 'b.txt', status: 'A', staged: true },
    ]);
    assert.equal((await get('diff')).body.data.diff, diff, 'unstaged by default');
    assert.equal((await get('diff', '?staged=true')).body.data.diff, '+++ b/b.txt\n+b\n');
    assert.equal((await get('diff', '?path=b.txt')).body.data.files, 0, 'b.txt has only a staged change');
    assert.equal((await get('diff', '?path=src/a.ts&max_bytes=3')).body.data.truncated, true);
    const listing = await get('files', '?path=src');
    assert.deepEqual(listing.body.data.entries, [{ name: 'a.ts', type: 'file', size: 4 }]);
    await control(server, 'POST', `/sandboxes/${sandbox}`, { files: { 'src/a.ts': null } });
    assert.equal((await get('file', '?path=src/a.ts')).status, 404, 'null deletes; the sandbox id works too');
    const bad = await control(server, 'POST', `/sandboxes/${conv}`, { state: 'asleep', files: { '../x': 'y' } });
    assert.equal(bad.status, 422);
    assert.equal((bad.body as { errors: { sandbox: string[] } }).errors.sandbox.length, 2);
  });

  it('not ready is 409, unavailable is 503 with Retry-After, on every route', async () => {
    await control(server, 'POST', `/sandboxes/${conv}`, { state: 'not_ready' });
    for (const route of ['file?path=a', 'files', 'diff', 'git-status']) {
      const r = await get(route);
      assert.equal(r.status, 409, route);
      assert.equal(r.body.error, 'sandbox_not_ready', route);
    }
    server.setSandbox(conv, { state: 'unavailable', retry_after: 42 });
    for (const route of ['file?path=a', 'files', 'diff', 'git-status']) {
      const r = await get(route);
      assert.equal(r.status, 503, route);
      assert.equal(r.body.error, 'sandbox_unavailable', route);
      assert.equal(r.headers.get('retry-after'), '42', route);
    }
  });

  it('a parked sandbox answers from its snapshot with snapshot_at', async () => {
    writeFileSync(path.join(cwd, 'a.txt'), 'kept\n');
    const at = '2026-11-30T10:00:00.000Z';
    server.setSandbox(conv, { state: 'parked', snapshot_at: at });
    for (const route of ['file?path=a.txt', 'files', 'diff', 'git-status']) {
      const r = await get(route);
      assert.equal(r.status, 200, route);
      assert.equal(r.body.data.snapshot_at, at, route);
    }
  });

  it('not a repository, invalid and unknown refs; unknown sandbox 404; a sprite key is refused (403)', async () => {
    assert.equal((await get('diff', '?ref=..%2Fx')).body.error, 'invalid_ref');
    const nf = await get('diff', '?ref=nosuchbranch');
    assert.deepEqual([nf.status, nf.body.error], [404, 'ref_not_found']);
    assert.equal((await get('diff', '?ref=HEAD~1')).status, 200);
    server.setSandbox(conv, { repository: false });
    for (const route of ['diff', 'git-status']) {
      const r = await get(route);
      assert.deepEqual([r.status, r.body.error], [422, 'not_a_repository'], route);
    }
    const unknown = await api(server, 'GET', '/api/sandboxes/00000000-0000-4000-8000-000000000000/git-status');
    assert.equal(unknown.status, 404);
    assert.equal((await get('git-status', '', server.apiKey2)).status, 404, "bob cannot read alice's sandbox");
    const sprite = await get('git-status', '', server.spriteKey(conv));
    assert.equal(sprite.status, 403);
  });

  it('/_control/fail can fail a sandbox route by name', async () => {
    server.failNext({ route: 'sandboxFile', status: 503, retryAfter: 9 });
    const r = await get('file', '?path=a');
    assert.equal(r.status, 503);
    assert.equal(r.headers.get('retry-after'), '9');
  });
});
