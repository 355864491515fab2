/**
 * One window for the hub tests, run as its own process (`node --import tsx driver.ts <dir> <windowId> [mode]`):
 * joins the hub and reports over IPC; the test sends it commands over IPC.
 * Mode `connect <path>`: only connects a raw socket to `path` and reports the outcome (the other-user test).
 */
import * as net from 'node:net';
import { WindowHub, type Json } from '../../../src/hub/windowHub';

type Command =
  | { cmd: 'publish'; body: Json; cursor?: Json }
  | { cmd: 'request'; id: number; body: Json }
  | { cmd: 'focus'; focused: boolean }
  | { cmd: 'toastTarget'; id: number }
  | { cmd: 'snapshot'; value: Json }
  | { cmd: 'dispose' };

const send = (m: object): void => void process.send!(m);
const [dir, windowId, mode, target] = process.argv.slice(2);

if (mode === 'connect') {
  const s = net.connect(target);
  s.once('connect', () => {
    send({ ev: 'connected' });
    s.destroy();
  });
  s.once('error', (e: NodeJS.ErrnoException) => send({ ev: 'connectError', code: e.code }));
} else {
  let snapshot: Json = null;
  let hub: WindowHub;
  try {
    hub = WindowHub.join({
      dir,
      windowId,
      log: {
        info: (message) => send({ ev: 'log', level: 'info', message }),
        warn: (message) => send({ ev: 'log', level: 'warn', message }),
      },
    });
  } catch (e) {
    send({ ev: 'joinError', message: String(e) });
    process.exit(0);
  }
  hub.snapshotProvider = () => snapshot;
  hub.onRequest((body, from) => {
    if (body && typeof body === 'object' && !Array.isArray(body) && body.fail) {
      throw new Error(`refused by ${windowId}`);
    }
    return { echo: body, by: windowId, from };
  });
  hub.onDidBecomeLeader((e) => send({ ev: 'leader', windowId, ...e }));
  hub.onDidBecomeFollower((e) => send({ ev: 'follower', windowId, ...e }));
  hub.onFact((e) => send({ ev: 'fact', ...e }));
  process.on('message', (c: Command) => {
    if (c.cmd === 'publish') {
      hub.publish(c.body, c.cursor);
    } else if (c.cmd === 'request') {
      hub.request(c.body).then(
        (body) => send({ ev: 'reply', id: c.id, ok: true, body }),
        (e: unknown) => send({ ev: 'reply', id: c.id, ok: false, error: String(e) }),
      );
    } else if (c.cmd === 'focus') {
      hub.setFocused(c.focused);
    } else if (c.cmd === 'toastTarget') {
      send({ ev: 'toastTarget', id: c.id, target: hub.toastTarget() ?? null });
    } else if (c.cmd === 'snapshot') {
      snapshot = c.value;
    } else if (c.cmd === 'dispose') {
      hub.dispose();
      send({ ev: 'disposed' });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
