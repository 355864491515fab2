/**
 * The hub between real window processes: each Window is a node process running driver.ts, joined over real unix
 * sockets in a fresh temp folder. Waits are bounded (WAIT_MS) and never assert on time.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Window } from './windows';

const unixOnly = process.platform === 'win32' ? describe.skip : describe;

unixOnly('WindowHub across real processes', function () {
  this.timeout(60_000);
  let dir: string;
  let windows: Window[] = [];

  const open = (id: string, extra?: string[], opts?: object): Window => {
    const w = Window.open(dir, id, extra, opts);
    windows.push(w);
    return w;
  };

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
  });

  afterEach(async () => {
    await Promise.all(windows.map((w) => w.kill()));
    windows = [];
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens the windows at once and returns them with their first role reports. */
  async function race(ids: string[]): Promise<{ leader: Window; followers: Window[] }> {
    const ws = ids.map((id) => open(id));
    const roles = await Promise.all(ws.map((w) => w.role()));
    const leaders = ws.filter((_, i) => roles[i].ev === 'leader');
    assert.equal(leaders.length, 1, `exactly one leader, got ${JSON.stringify(roles)}`);
    const followers = ws.filter((w) => w !== leaders[0]);
    for (const f of followers) {
      assert.equal((await f.role()).leaderId, leaders[0].windowId);
    }
    return { leader: leaders[0], followers };
  }

  it('elects exactly one leader among three racing processes, every time', async () => {
    for (let round = 0; round < 3; round++) {
      await race(['a', 'b', 'c']);
      await Promise.all(windows.map((w) => w.kill()));
      windows = [];
      fs.rmSync(dir, { recursive: true, force: true });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
    }
  });

  it('keeps the folder 0700, the socket 0600, and a process of another user out', async function () {
    const { leader } = await race(['a']);
    const hubDir = path.join(dir, 'hub');
    const gen = (await leader.role()).generation as number;
    assert.equal(fs.statSync(hubDir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(hubDir, `hub.${gen}.sock`)).mode & 0o777, 0o600);
    assert.equal(fs.statSync(path.join(hubDir, `gen.${gen}`)).mode & 0o777, 0o600);
    if (process.getuid?.() !== 0) {
      return; // Only root can start a process as another user here; the mode bits above are what keep it out.
    }
    // Let `nobody` reach the storage folder itself, so only the hub folder's own 0700 stands in the way.
    fs.chmodSync(dir, 0o755);
    const other = open('other', ['connect', path.join(hubDir, `hub.${gen}.sock`)], { uid: 65534, gid: 65534 });
    const outcome = await other.waitFor((r) => r.ev === 'connected' || r.ev === 'connectError', 'connect outcome');
    assert.deepEqual(outcome, { ev: 'connectError', code: 'EACCES' });
    const joiner = open('other-join', [], { uid: 65534, gid: 65534 });
    const refused = await joiner.waitFor(
      (r) => r.ev === 'joinError' || r.ev === 'leader' || r.ev === 'follower',
      'join',
    );
    assert.equal(refused.ev, 'joinError');
    assert.match(String(refused.message), /belongs to uid 0/);
  });

  it('gives a follower the snapshot, then the facts in order, and carries the cursor', async () => {
    const a = open('a');
    assert.equal((await a.role()).ev, 'leader');
    a.send({ cmd: 'snapshot', value: { pending: ['r1'] } });
    a.send({ cmd: 'publish', body: 'before-b', cursor: 'c1' });
    const b = open('b');
    const joined = await b.waitFor((r) => r.ev === 'follower', 'follower');
    assert.deepEqual(joined.snapshot, { pending: ['r1'] });
    assert.equal(joined.cursor, 'c1');
    a.send({ cmd: 'publish', body: { answered: 'r1' }, cursor: 'c2' });
    a.send({ cmd: 'publish', body: 'third' });
    await b.waitFor((r) => r.ev === 'fact' && r.body === 'third', 'third fact');
    const facts = b.reports.filter((r) => r.ev === 'fact');
    assert.deepEqual(facts, [
      { ev: 'fact', body: { answered: 'r1' }, cursor: 'c2' },
      { ev: 'fact', body: 'third' },
    ]);
  });

  it("sends a follower's request to the leader's handler and brings back its reply or its error", async () => {
    const { leader, followers } = await race(['a', 'b']);
    const ok = await followers[0].request({ answer: 'X', option: 'allow_once' });
    assert.deepEqual(ok, {
      ev: 'reply',
      id: 1,
      ok: true,
      body: { echo: { answer: 'X', option: 'allow_once' }, by: leader.windowId, from: followers[0].windowId },
    });
    const failed = await followers[0].request({ fail: true });
    assert.equal(failed.ok, false);
    assert.match(String(failed.error), new RegExp(`refused by ${leader.windowId}`));
    const own = await leader.request('self');
    assert.deepEqual(own.body, { echo: 'self', by: leader.windowId, from: leader.windowId });
  });

  it('names the focused window for a toast, else the most recently focused one', async () => {
    const { leader, followers } = await race(['a', 'b', 'c']);
    const [f1, f2] = followers;
    // A follower's request travels on the same socket after its focus frame, so its reply means the leader has
    // applied that focus change.
    const focus = async (w: Window, focused: boolean): Promise<void> => {
      w.send({ cmd: 'focus', focused });
      await w.request('barrier');
    };
    assert.equal(await leader.toastTarget(), leader.windowId, 'nobody ever focused: the leader itself');
    await focus(f1, true);
    assert.equal(await leader.toastTarget(), f1.windowId);
    await focus(f1, false);
    await focus(f2, true);
    assert.equal(await leader.toastTarget(), f2.windowId);
    await focus(f2, false);
    assert.equal(await leader.toastTarget(), f2.windowId, 'nobody focused: the most recently focused');
    leader.send({ cmd: 'focus', focused: true });
    leader.send({ cmd: 'focus', focused: false });
    assert.equal(await leader.toastTarget(), leader.windowId, 'the leader counts as a window too');
    await focus(f1, true);
    leader.send({ cmd: 'focus', focused: true });
    leader.send({ cmd: 'focus', focused: false });
    assert.equal(await leader.toastTarget(), f1.windowId, 'a focused window beats a more recently focused one');
    assert.equal(await f1.toastTarget(), null, 'a follower does not pick toast targets');
  });

  it('after kill -9 of the leader, exactly one follower takes over and the other follows it', async () => {
    const { leader, followers } = await race(['a', 'b', 'c']);
    leader.send({ cmd: 'publish', body: 'one', cursor: 'c7' });
    await Promise.all(followers.map((f) => f.waitFor((r) => r.ev === 'fact' && r.body === 'one', 'fact one')));
    const marks = followers.map((f) => f.reports.length);
    await leader.kill();
    const roles = await Promise.all(followers.map((f, i) => f.role(marks[i])));
    const next = followers.filter((_, i) => roles[i].ev === 'leader');
    assert.equal(next.length, 1, `exactly one new leader, got ${JSON.stringify(roles)}`);
    const nextRole = roles[followers.indexOf(next[0])];
    assert.equal(nextRole.cursor, 'c7', 'the new leader knows where the stream stood');
    const other = followers.find((f) => f !== next[0])!;
    assert.equal(roles[followers.indexOf(other)].leaderId, next[0].windowId);
    next[0].send({ cmd: 'publish', body: 'after takeover' });
    await other.waitFor((r) => r.ev === 'fact' && r.body === 'after takeover', 'fact from the new leader');
    const reply = await other.request('still there?');
    assert.equal((reply.body as { by: string }).by, next[0].windowId);
  });

  it('a stale socket file from a killed leader does not block the next one', async () => {
    const a = open('a');
    const gen = (await a.role()).generation as number;
    await a.kill();
    const stale = path.join(dir, 'hub', `hub.${gen}.sock`);
    assert.ok(fs.existsSync(stale), 'kill -9 leaves the socket file behind');
    const b = open('b');
    const role = await b.role();
    assert.equal(role.ev, 'leader');
    assert.ok(fs.existsSync(path.join(dir, 'hub', `hub.${role.generation as number}.sock`)));
    const c = open('c');
    assert.equal((await c.role()).leaderId, 'b');
  });

  it('when the leader leaves cleanly (dispose), a follower takes over', async () => {
    const { leader, followers } = await race(['a', 'b']);
    const mark = followers[0].reports.length;
    leader.send({ cmd: 'dispose' });
    assert.equal((await followers[0].role(mark)).ev, 'leader');
  });
});
