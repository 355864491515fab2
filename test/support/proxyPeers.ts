/**
 * The peers of the network proxy (src/local/network/proxy.ts) in its conformance tests and bench: a raw client that
 * writes scripted bytes to the proxy's socket and reads what comes back, and loopback upstreams that count the
 * connections they were given (so a test can show that a refused attempt reached nothing).
 */
import * as net from 'node:net';

/** A raw client connection to the proxy (a Unix socket path, or a port on 127.0.0.1). */
export class RawClient {
  readonly socket: net.Socket;
  private buf = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  readonly ended: Promise<void>;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (d: Buffer) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.wake();
    });
    this.ended = new Promise((resolve) => {
      socket.once('close', () => {
        this.wake();
        resolve();
      });
    });
    socket.on('error', () => undefined);
    // Half-open so that a test can end its side and still read; when the proxy ends its side, the client's follows.
    socket.once('end', () => socket.end());
  }

  static connect(to: string | number): Promise<RawClient> {
    return new Promise((resolve, reject) => {
      const s =
        typeof to === 'string'
          ? net.connect({ path: to, allowHalfOpen: true })
          : net.connect({ port: to, host: '127.0.0.1', allowHalfOpen: true });
      s.once('error', reject);
      s.once('connect', () => {
        s.off('error', reject);
        resolve(new RawClient(s));
      });
    });
  }

  write(bytes: string | Buffer): void {
    this.socket.write(bytes);
  }

  /** Everything received so far. */
  get received(): Buffer {
    return this.buf;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) {
      f();
    }
  }

  /** Waits until `done(received)` holds (or fails after `ms`, naming `what`). */
  async until(what: string, done: (b: Buffer) => boolean, ms = 5000): Promise<Buffer> {
    const deadline = Date.now() + ms;
    while (!done(this.buf)) {
      if (this.socket.destroyed && !done(this.buf)) {
        throw new Error(`the connection closed before ${what}; got ${JSON.stringify(this.buf.toString('latin1'))}`);
      }
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no ${what} in ${ms} ms; got ${JSON.stringify(this.buf.toString('latin1'))}`);
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return this.buf;
  }

  /** Reads one whole HTTP response (framed by Content-Length) and removes it from what was received. */
  async response(ms = 5000): Promise<ParsedResponse> {
    await this.until('a whole HTTP response', (b) => parseResponse(b) !== undefined, ms);
    const r = parseResponse(this.buf)!;
    this.buf = this.buf.subarray(r.length);
    return r;
  }

  close(): void {
    this.socket.destroy();
  }
}

export interface ParsedResponse {
  readonly status: number;
  readonly statusLine: string;
  /** Header lines as received, in order. */
  readonly headerLines: string[];
  /** Lower-cased name → value (the last one). */
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Its bytes on the wire. */
  readonly length: number;
}

/** A response at the start of `b` with its Content-Length body complete (none when it has none), or undefined. */
export function parseResponse(b: Buffer): ParsedResponse | undefined {
  const end = b.indexOf('\r\n\r\n');
  if (end < 0) {
    return undefined;
  }
  const [statusLine, ...headerLines] = b.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of headerLines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  const len = Number(headers['content-length'] ?? 0);
  if (b.length < end + 4 + len) {
    return undefined;
  }
  return {
    status: Number(statusLine.split(' ')[1]),
    statusLine,
    headerLines,
    headers,
    body: b.subarray(end + 4, end + 4 + len).toString('utf8'),
    length: end + 4 + len,
  };
}

export interface Upstream {
  readonly port: number;
  /** Connections it accepted. */
  readonly connections: net.Socket[];
  /** What each connection sent, in accept order. */
  readonly received: Buffer[];
  close(): Promise<void>;
}

/**
 * A TCP server on `host` (127.0.0.1 by default): `onConnection` gets each socket and the index of its received bytes;
 * it is closed with every connection it still has.
 */
export function startUpstream(
  onConnection: (s: net.Socket, up: Upstream, index: number) => void,
  host = '127.0.0.1',
): Promise<Upstream> {
  const connections: net.Socket[] = [];
  const received: Buffer[] = [];
  const server = net.createServer({ allowHalfOpen: true });
  return new Promise((resolve) => {
    server.listen(0, host, () => {
      const up: Upstream = {
        port: (server.address() as net.AddressInfo).port,
        connections,
        received,
        close: () =>
          new Promise<void>((r) => {
            for (const c of connections) {
              c.destroy();
            }
            server.close(() => r());
          }),
      };
      server.on('connection', (s) => {
        const i = connections.push(s) - 1;
        received.push(Buffer.alloc(0));
        s.on('data', (d: Buffer) => (received[i] = Buffer.concat([received[i], d])));
        s.on('error', () => undefined);
        onConnection(s, up, i);
      });
      resolve(up);
    });
  });
}

/** Echoes every byte; ends its side when the client ends its side. */
export const echo = (s: net.Socket) => {
  s.pipe(s);
};

/** Answers each request (headers only; no body expected) with `200` and a body naming the request line. */
export const httpAnswer = (s: net.Socket, up: Upstream, i: number) => {
  let answered = 0;
  s.on('data', () => {
    const requests = up.received[i].toString('latin1').split('\r\n\r\n').slice(0, -1);
    for (; answered < requests.length; answered++) {
      const body = `saw ${requests[answered].split('\r\n')[0]}`;
      s.write(`HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
    }
  });
};
