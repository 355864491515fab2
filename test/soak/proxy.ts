/**
 * The soak's wire tap: a loopback HTTP proxy between the extension and the local Fountain server. It forwards every
 * byte as it arrives (an SSE frame cut mid-way by the server reaches the extension cut), destroys the extension's
 * socket when the server's is destroyed (a restart, an abort), and records every request the extension sent: when it
 * arrived, when its response began and ended, method, path, status and the body. `/_soak/*` is the scripted user's
 * report channel (never forwarded, never recorded).
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireEntry {
  readonly seq: number;
  readonly method: string;
  readonly path: string;
  readonly arrivedAt: number;
  /** The server's status; undefined when the server never answered (refused, reset). */
  status?: number;
  headersAt?: number;
  endedAt?: number;
  /** The request body (JSON when it parses). */
  body?: unknown;
  /** The client's remote port (to tell which extension host holds the stream). */
  readonly remotePort: number;
}

export interface SoakProxy {
  readonly url: string;
  readonly entries: WireEntry[];
  /** Streams that got a 200 from the server, newest last (`endedAt` unset: still open). */
  readonly streams: () => WireEntry[];
  close(): Promise<void>;
}

export async function startProxy(
  upstream: () => number,
  control: (path: string, body: unknown) => unknown,
): Promise<SoakProxy> {
  const entries: WireEntry[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const path = req.url ?? '/';
      if (path.startsWith('/_soak/')) {
        let parsed: unknown;
        try {
          parsed = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
        } catch {
          parsed = undefined;
        }
        const answer = JSON.stringify(control(path, parsed) ?? {});
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
        return;
      }
      const entry: WireEntry = {
        seq: entries.length,
        method: req.method ?? '',
        path,
        arrivedAt: Date.now(),
        remotePort: req.socket.remotePort ?? 0,
      };
      if (raw.length) {
        try {
          entry.body = JSON.parse(raw.toString('utf8'));
        } catch {
          entry.body = raw.toString('utf8');
        }
      }
      entries.push(entry);
      const headers = { ...req.headers, host: `127.0.0.1:${upstream()}` };
      const up = http.request(
        { host: '127.0.0.1', port: upstream(), method: req.method, path, headers, agent: false },
        (ur) => {
          entry.status = ur.statusCode;
          entry.headersAt = Date.now();
          res.writeHead(ur.statusCode ?? 502, ur.headers);
          res.flushHeaders();
          ur.on('data', (d: Buffer) => res.write(d));
          ur.on('end', () => {
            entry.endedAt = Date.now();
            res.end();
          });
          // The server destroyed its socket (a stream abort, a restart): the extension's socket goes the same way.
          ur.on('aborted', () => res.destroy());
          ur.on('error', () => res.destroy());
        },
      );
      up.on('error', () => {
        entry.endedAt = Date.now();
        res.destroy();
      });
      res.on('close', () => {
        entry.endedAt ??= Date.now();
        up.destroy();
      });
      up.end(raw);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    entries,
    streams: () => entries.filter((e) => e.path.startsWith('/api/events/stream') && e.status === 200),
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => r());
      }),
  };
}
