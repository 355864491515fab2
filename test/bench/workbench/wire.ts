/**
 * A loopback TCP relay between the extension hosts and the local Fountain server, so the bench reads times "on the
 * wire": when a complete SSE frame carrying a `session/request_permission` reaches the relay from the server (the
 * moment it is forwarded to the extension host), when an answer's request line reaches it from an extension host, and
 * when a stream's first response byte passes. Times are `performance.timeOrigin + performance.now()` (epoch ms with a
 * fraction), the clock the page and the extension-host hook use too. The relay adds one loopback hop each way; it is
 * counted against the extension and the baseline alike.
 */
import * as net from 'node:net';
import { performance } from 'node:perf_hooks';

export const wallNow = (): number => performance.timeOrigin + performance.now();

export interface WireLog {
  /**
   * `fountain:<marker>` or `minimal:<marker>` (the baseline's stream asks with `bench=minimal`) → when the first
   * complete frame naming the marker with a permission request passed on such a stream (server → client).
   */
  readonly asked: Map<string, number>;
  /** request line's first 200 bytes and when it passed (client → server), oldest first. */
  readonly requests: Array<{ at: number; line: string }>;
  /** First response byte of each stream connection: its request line and when. */
  readonly streamFirstByte: Array<{ at: number; line: string }>;
}

export interface WireRelay {
  readonly url: string;
  readonly log: WireLog;
  close(): Promise<void>;
}

/** `marker` is a regular expression with one group: the marker of a request in its title. */
export async function startRelay(target: string, marker: RegExp): Promise<WireRelay> {
  const t = new URL(target);
  const log: WireLog = { asked: new Map(), requests: [], streamFirstByte: [] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const upstream = net.connect(Number(t.port), t.hostname);
    upstream.setNoDelay(true);
    sockets.add(client).add(upstream);
    let lastLine = '';
    let isStream = false;
    let sawFirstByte = false;
    let pending = '';
    client.on('data', (chunk: Buffer) => {
      const at = wallNow();
      const text = chunk.toString('latin1');
      const m = /^(GET|POST|PUT|PATCH|DELETE) [^\r\n]*/.exec(text);
      if (m) {
        lastLine = m[0].slice(0, 200);
        log.requests.push({ at, line: lastLine });
        isStream = /\/stream(\?| )/.test(lastLine);
        sawFirstByte = false;
        pending = '';
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      const at = wallNow();
      client.write(chunk);
      if (!isStream) {
        return;
      }
      if (!sawFirstByte) {
        sawFirstByte = true;
        log.streamFirstByte.push({ at, line: lastLine });
      }
      // Complete frames only: a frame is usable by the client once its blank line has arrived.
      pending += chunk.toString('utf8');
      const end = pending.lastIndexOf('\n\n');
      if (end < 0) {
        return;
      }
      const frames = pending.slice(0, end).split('\n\n');
      pending = pending.slice(end + 2);
      for (const f of frames) {
        if (!f.includes('session/request_permission')) {
          continue;
        }
        const g = marker.exec(f);
        const key = g && `${lastLine.includes('bench=minimal') ? 'minimal' : 'fountain'}:${g[1]}`;
        if (key && !log.asked.has(key)) {
          log.asked.set(key, at);
        }
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
