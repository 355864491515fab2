/** The leader's side of bad input, with the leader in this process and a raw socket as the misbehaving follower. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { WindowHub } from '../../../src/hub/windowHub';
import { checkPrivate, generations, openRendezvous } from '../../../src/hub/rendezvous';
import { elect } from '../../../src/hub/election';
import { encodeFrame, type Frame } from '../../../src/hub/frames';

const unixOnly = process.platform === 'win32' ? describe.skip : describe;

function until<T>(what: string, get: () => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = (): void => {
      const v = get();
      if (v !== undefined) {
        resolve(v);
      } else if (Date.now() - started > 10_000) {
        reject(new Error(`no ${what} within 10 s`));
      } else {
        setTimeout(tick, 5);
      }
    };
    tick();
  });
}

unixOnly('WindowHub leader against a misbehaving peer', () => {
  let dir: string;
  let hub: WindowHub;
  const warnings: string[] = [];

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
    warnings.length = 0;
    hub = WindowHub.join({
      dir,
      windowId: 'L',
      log: { info: () => {}, warn: (m) => warnings.push(m) },
      maxFrameBytes: 1024,
    });
    hub.snapshotProvider = () => ({ inbox: 'snap' });
    await until('leadership', () => (hub.role === 'leader' ? true : undefined));
  });

  afterEach(() => {
    hub.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function raw(): { sock: net.Socket; frames: Frame[]; closed: () => boolean } {
    const sock = net.connect(openRendezvous(dir).socketPath(hub.generation));
    const frames: Frame[] = [];
    let closed = false;
    let buf = '';
    sock.on('data', (d) => {
      buf += d.toString();
      const lines = buf.split('\n');
      buf = lines.pop()!;
      frames.push(...lines.map((l) => JSON.parse(l) as Frame));
    });
    sock.on('close', () => (closed = true));
    sock.on('error', () => {});
    return { sock, frames, closed: () => closed };
  }

  it('skips malformed frames, logs them, and keeps the connection', async () => {
    const peer = raw();
    peer.sock.write('not json\n{"t":"welcome"}\n');
    peer.sock.write(encodeFrame({ t: 'hello', windowId: 'F', focused: false, focusedAt: 0 }));
    const welcome = await until('welcome', () => peer.frames.find((f) => f.t === 'welcome'));
    assert.deepEqual(welcome, {
      t: 'welcome',
      leaderId: 'L',
      generation: hub.generation,
      snapshot: { inbox: 'snap' },
      cursor: null,
    });
    assert.equal(warnings.filter((w) => /malformed/.test(w)).length, 2, warnings.join('\n'));
    hub.publish('still up');
    await until('fact', () => peer.frames.find((f) => f.t === 'fact'));
    assert.equal(peer.closed(), false);
    assert.deepEqual(hub.windows(), ['L', 'F']);
    peer.sock.destroy();
  });

  it('closes a connection that sends a frame over the cap, logs it, and serves the others', async () => {
    const bad = raw();
    bad.sock.write(encodeFrame({ t: 'hello', windowId: 'B', focused: false, focusedAt: 0 }));
    await until('welcome', () => bad.frames.find((f) => f.t === 'welcome'));
    bad.sock.write('x'.repeat(2000));
    await until('close', () => (bad.closed() ? true : undefined));
    assert.ok(
      warnings.some((w) => /over 1024 bytes/.test(w)),
      warnings.join('\n'),
    );
    const good = raw();
    good.sock.write(encodeFrame({ t: 'hello', windowId: 'G', focused: false, focusedAt: 0 }));
    await until('welcome', () => good.frames.find((f) => f.t === 'welcome'));
    await until('B gone', () => (hub.windows().includes('B') ? undefined : true));
    assert.deepEqual(hub.windows(), ['L', 'G']);
    good.sock.destroy();
  });
});

unixOnly('hub rendezvous folder', () => {
  it('falls back to a private folder under tmpdir when the socket path would be too long', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
    const deep = path.join(base, 'x'.repeat(120));
    fs.mkdirSync(deep);
    const r = openRendezvous(deep);
    assert.equal(path.dirname(r.dir), os.tmpdir());
    assert.ok(Buffer.byteLength(r.socketPath(Number.MAX_SAFE_INTEGER)) <= 100);
    assert.equal(fs.statSync(r.dir).mode & 0o777, 0o700);
    assert.equal(openRendezvous(deep).dir, r.dir, 'the same storage folder meets in the same place');
    fs.rmSync(r.dir, { recursive: true });
    fs.rmSync(base, { recursive: true });
  });

  it('refuses a folder open to others or a symlink, rather than repairing it', () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
    fs.mkdirSync(path.join(base, 'hub'), { mode: 0o755 });
    fs.chmodSync(path.join(base, 'hub'), 0o755);
    assert.throws(() => openRendezvous(base), /open to others \(mode 755\)/);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
    fs.symlinkSync(other, path.join(other, 'link'));
    assert.throws(() => checkPrivate(path.join(other, 'link')), /not a directory/);
    fs.rmSync(base, { recursive: true });
    fs.rmSync(other, { recursive: true });
  });
});

unixOnly('hub election under contention', () => {
  // Hubs in one process never wait out each other's start-up grace (same pid) and interleave at every await, so
  // they contest far harder than separate processes do.
  it('of eight hubs joining at once, exactly one ever leads, over many rounds; the rest follow it', async function () {
    this.timeout(60_000);
    const quiet = { info: () => {}, warn: () => {} };
    for (let round = 0; round < 15; round++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
      const led: string[] = [];
      const followed = new Map<string, string>();
      const hubs = Array.from({ length: 8 }, (_, i) => {
        const h = WindowHub.join({ dir, windowId: `w${i}`, log: quiet });
        h.onDidBecomeLeader(() => led.push(h.windowId));
        h.onDidBecomeFollower((e) => followed.set(h.windowId, e.leaderId));
        return h;
      });
      await until('all roles', () => (led.length + followed.size >= 8 ? true : undefined));
      assert.deepEqual(led.length, 1, `round ${round}: leaders ${led.join(' ')}`);
      assert.deepEqual(new Set(followed.values()), new Set(led), `round ${round}: everyone follows the one leader`);
      hubs.forEach((h) => h.dispose());
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

unixOnly('hub election step 3 (claims that find no socket yet)', () => {
  let contested = 0;
  it('exactly one of eight elections leads when every claim waits before it listens', async function () {
    this.timeout(60_000);
    for (let round = 0; round < 10; round++) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fountain-hub-'));
      const r = openRendezvous(dir);
      const afterClaim = () => new Promise<void>((res) => setTimeout(res, Math.random() * 10));
      const results = await Promise.all(
        Array.from({ length: 8 }, () => elect(r, () => false, { afterClaim, graceMs: 0 })),
      );
      const leaders = results.filter((e) => e?.role === 'leader');
      const claims = generations(r).length;
      assert.equal(leaders.length, 1, `round ${round}: ${results.map((e) => `${e?.role}@${e?.generation}`).join(' ')}`);
      for (const e of results) {
        if (e?.role === 'follower') {
          e.socket.destroy();
        }
      }
      for (const e of leaders) {
        if (e?.role === 'leader') {
          e.early.forEach((s) => s.destroy());
          await new Promise((res) => e.server.close(res));
        }
      }
      contested += claims > 1 ? 1 : 0;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    assert.ok(contested > 0, 'at least one round was contested (more than one generation claimed)');
  });
});
