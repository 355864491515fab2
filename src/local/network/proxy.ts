/**
 * The network proxy of a sandboxed agent (issue 28): the agent's only way out of its network namespace. It listens on
 * a Unix socket that the sandbox's forwarder relays to, reads HTTP `CONNECT host:port` (a tunnel, for TLS it cannot
 * read) and plain HTTP requests with an absolute `http://` URL (forwarded in origin-form, each request of a
 * keep-alive connection decided on its own), and never decides on its own account: for each attempt it resolves the
 * host once, hands the addresses to the session's {@link HostDecider}, holds the agent's connection while that runs
 * (aborting it when the agent goes away), and connects only to the address the allow verdict names (no second
 * lookup, so a name cannot resolve to a checked address for the decider and to another for the connect).
 *
 * What the agent gets back is plain text or JSON, never markup: `403` with {@link BLOCKED_HEADER} and a JSON body for
 * a refusal, `502` for an upstream that could not be reached or a name that did not resolve, `400` with a one-line
 * reason for a request it does not accept (target rules in target.ts; the request line and headers together are
 * capped at 16 KB). SOCKS5 is not served. Nothing here imports `vscode`.
 */
import * as dns from 'node:dns';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as net from 'node:net';
import * as path from 'node:path';
import { pipeline, type Duplex } from 'node:stream';
import { nullLogger, type Logger } from '../../util/logger';
import type { ConnectAttempt, ConnectionRecord, HostDecider, HostVerdict } from './contract';
import { BLOCKED_HEADER } from './contract';
import { forwardedRequestHeaders, forwardedResponseHeaders, headerValue } from './headers';
import { parseConnectTarget, parseHttpTarget, type Target } from './target';

export interface HostProxyOptions {
  readonly decide: HostDecider;
  /** One record per decided attempt, when its connection has ended. */
  readonly onRecord?: (r: ConnectionRecord) => void;
  /** A host name's addresses (default: the system resolver, IPv4 and IPv6). Not called for an IP literal. */
  readonly resolve?: (host: string) => Promise<string[]>;
  readonly log?: Logger;
  /** How long an upstream TCP connect may take before the agent gets a 502 (default 30 s). */
  readonly connectTimeoutMs?: number;
  /** How long resolving a name may take before it counts as not resolved (default 10 s). */
  readonly resolveTimeoutMs?: number;
}

export interface HostProxyUnixOptions extends HostProxyOptions {
  /** Where to listen; its folder must be private to this user (mode 0700, e.g. from fs.mkdtemp). */
  readonly socketPath: string;
}

export interface HostProxy {
  readonly socketPath: string;
  /** Stops listening and ends every connection (tunnels, forwarded requests, attempts still being decided). */
  close(): Promise<void>;
}

export interface LoopbackHostProxy {
  /** The port on 127.0.0.1 it listens on. */
  readonly port: number;
  close(): Promise<void>;
}

/** Request line and headers together, in bytes (Node's parser answers more with HPE_HEADER_OVERFLOW). */
export const MAX_HEADER_BYTES = 16 * 1024;

const BLOCKED_BY = 'Fountain Approvals';
/** The `rule` of a refusal the proxy makes itself (the decider failed, or named an address it was not given). */
export const PROXY_RULE = 'proxy';

/** Listens on a Unix socket (mode 0600) in a private folder: the proxy the sandbox's forwarder reaches. */
export async function startHostProxy(o: HostProxyUnixOptions): Promise<HostProxy> {
  assertPrivateFolder(path.dirname(o.socketPath));
  const core = new ProxyCore(o);
  await core.listen((s) => s.listen(o.socketPath));
  fs.chmodSync(o.socketPath, 0o600);
  return {
    socketPath: o.socketPath,
    close: async () => {
      await core.close();
      fs.rmSync(o.socketPath, { force: true });
    },
  };
}

/** The same proxy on 127.0.0.1 and a free port, for tests and the bench (the product listens on a Unix socket). */
export async function startLoopbackHostProxy(o: HostProxyOptions): Promise<LoopbackHostProxy> {
  const core = new ProxyCore(o);
  const server = await core.listen((s) => s.listen(0, '127.0.0.1'));
  return { port: (server.address() as net.AddressInfo).port, close: () => core.close() };
}

function assertPrivateFolder(dir: string): void {
  const st = fs.statSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory() || (st.mode & 0o077) !== 0 || (uid !== undefined && st.uid !== uid)) {
    throw new Error(`the proxy's socket folder ${dir} must be a folder only this user can open (mode 0700)`);
  }
}

/** One-line plain-text reason, or a JSON body; never anything a client would render as markup. */
function rawResponse(status: number, statusText: string, body: string, extra: Record<string, string> = {}): string {
  const json = body.startsWith('{');
  const headers: Record<string, string> = {
    'Content-Type': json ? 'application/json' : 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    'X-Content-Type-Options': 'nosniff',
    Connection: 'close',
    ...extra,
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`);
  return `HTTP/1.1 ${status} ${statusText}\r\n${lines.join('')}\r\n${body}`;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  403: 'Forbidden',
  501: 'Not Implemented',
  502: 'Bad Gateway',
};

/** What the agent gets instead of a connection. */
type Failure =
  | {
      readonly kind: 'refused';
      readonly attempt: ConnectAttempt;
      readonly verdict: Extract<HostVerdict, { allow: false }>;
    }
  | { readonly kind: 'status'; readonly status: 400 | 501 | 502; readonly reason: string };

function failureResponse(f: Failure): string {
  if (f.kind === 'status') {
    return rawResponse(f.status, STATUS_TEXT[f.status], `${f.reason}\n`);
  }
  const { attempt, verdict } = f;
  const body = JSON.stringify({
    blockedBy: BLOCKED_BY,
    host: attempt.host,
    port: attempt.port,
    rule: verdict.rule,
    reason: verdict.reason,
  });
  return rawResponse(403, STATUS_TEXT[403], body, { [BLOCKED_HEADER]: headerValue(verdict.rule) });
}

/** An attempt decided: what the decider saw and said, and when it started. */
interface Decided {
  readonly attempt: ConnectAttempt;
  readonly verdict: HostVerdict;
  readonly startedAt: number;
  /** Why the proxy resolved nothing (`ENOTFOUND`, `timed out`), when it did not. */
  readonly unresolved?: string;
}

class ProxyCore {
  private readonly log: Logger;
  private readonly resolve: (host: string) => Promise<string[]>;
  private readonly connectTimeoutMs: number;
  private readonly resolveTimeoutMs: number;
  private readonly sockets = new Set<Duplex>();
  private readonly pending = new Set<AbortController>();
  private server: http.Server | undefined;
  private closed = false;

  constructor(private readonly o: HostProxyOptions) {
    this.log = o.log ?? nullLogger;
    this.resolve = o.resolve ?? systemResolve;
    this.connectTimeoutMs = o.connectTimeoutMs ?? 30_000;
    this.resolveTimeoutMs = o.resolveTimeoutMs ?? 10_000;
  }

  listen(bind: (s: http.Server) => void): Promise<http.Server> {
    const server = http.createServer({
      maxHeaderSize: MAX_HEADER_BYTES,
      // The Host header is replaced by the URL's authority (RFC 9112 3.2.2), so its absence is no error here.
      requireHostHeader: false,
      // A body may take long to send upstream; the header timeout still ends a client that never finishes its headers.
      requestTimeout: 0,
    });
    this.server = server;
    server.on('connection', (s: net.Socket) => this.track(s));
    server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      void this.onConnect(req, socket, head);
    });
    server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      void this.onRequest(req, res);
    });
    server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => {
      this.fail(socket, {
        kind: 'status',
        status: 501,
        reason: 'an Upgrade through a plain proxied request is not supported; use CONNECT host:port',
      });
    });
    server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => this.onClientError(err, socket));
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.once('listening', () => {
        server.off('error', reject);
        server.on('error', (e) => this.log.error(`network proxy: ${String(e)}`));
        resolve(server);
      });
      bind(server);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const c of this.pending) {
      c.abort();
    }
    for (const s of this.sockets) {
      s.destroy();
    }
    const server = this.server;
    if (server?.listening) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }

  private track(s: Duplex): void {
    if (this.closed) {
      s.destroy();
      return;
    }
    this.sockets.add(s);
    s.on('error', () => undefined); // reported where the connection is handled; never an uncaught error
    s.once('close', () => this.sockets.delete(s));
  }

  private onClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
    const reason =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? `the request line and headers are over ${MAX_HEADER_BYTES / 1024} KB`
        : err.code === 'HPE_HEADERS_TIMEOUT'
          ? 'the request headers did not arrive in time'
          : `a malformed request (${err.code ?? 'unreadable'})`;
    this.log.warn(`network proxy: ${reason}`);
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    this.fail(socket, { kind: 'status', status: 400, reason });
  }

  /** Answers on a raw socket and closes it. */
  private fail(socket: Duplex, f: Failure): void {
    if (socket.writable) {
      socket.end(failureResponse(f));
    }
    socket.once('finish', () => socket.destroy());
    setTimeout(() => socket.destroy(), 2000).unref();
  }

  private record(d: Decided, bytesOut: number, bytesIn: number): void {
    try {
      this.o.onRecord?.({
        attempt: d.attempt,
        verdict: d.verdict,
        bytesOut,
        bytesIn,
        startedAt: d.startedAt,
        endedAt: Date.now(),
      });
    } catch (e) {
      this.log.error(`network proxy: the connection record was not taken: ${String(e)}`);
    }
  }

  /** Resolves once, asks the decider, and checks that an allow names one of the addresses it was given. */
  private async decide(t: Target, via: ConnectAttempt['via'], signal: AbortSignal): Promise<Decided> {
    const startedAt = Date.now();
    const resolved = await this.addresses(t.host);
    const attempt: ConnectAttempt = { host: t.host, port: t.port, via, addresses: resolved.addresses };
    const refuse = (reason: string): Decided => ({
      attempt,
      startedAt,
      verdict: { allow: false, rule: PROXY_RULE, reason },
    });
    let verdict: HostVerdict;
    try {
      verdict = await this.o.decide(attempt, signal);
    } catch (e) {
      if (signal.aborted) {
        return refuse('the agent closed the connection before it was decided');
      }
      this.log.error(`network proxy: deciding ${t.host}:${t.port} failed: ${String(e)}`);
      return refuse('the connection could not be decided (an internal error), so it is refused');
    }
    if (verdict.allow && attempt.addresses.length > 0 && !attempt.addresses.includes(verdict.address)) {
      this.log.error(`network proxy: the decider named ${verdict.address}, which ${t.host} did not resolve to`);
      return refuse('the decider named an address the host did not resolve to, so it is refused');
    }
    this.log.debug(
      `network proxy: ${via} ${t.host}:${t.port} ${verdict.allow ? 'allowed' : 'refused'} by ${verdict.rule}`,
    );
    return { attempt, verdict, startedAt, ...(resolved.error ? { unresolved: resolved.error } : {}) };
  }

  private async addresses(host: string): Promise<{ addresses: string[]; error?: string }> {
    if (net.isIP(host)) {
      return { addresses: [host] };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out')), this.resolveTimeoutMs);
      });
      const all = await Promise.race([this.resolve(host), late]);
      const addresses = [...new Set(all)].filter((a) => net.isIP(a));
      return addresses.length ? { addresses } : { addresses: [], error: 'no address' };
    } catch (e) {
      return { addresses: [], error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
    } finally {
      clearTimeout(timer);
    }
  }

  /** An allowed verdict with nothing to connect to (the name did not resolve): the 502 the agent gets. */
  private unresolvedFailure(d: Decided): Failure | undefined {
    return d.attempt.addresses.length === 0
      ? { kind: 'status', status: 502, reason: `${d.attempt.host} did not resolve (${d.unresolved ?? 'no address'})` }
      : undefined;
  }

  /** A TCP connection to the verdict's address, or the one-line reason it could not be made. */
  private connectUpstream(address: string, port: number, signal: AbortSignal): Promise<net.Socket | string> {
    return new Promise((resolve) => {
      const up = net.connect({ host: address, port, allowHalfOpen: true, noDelay: true });
      this.track(up);
      const shown = net.isIPv6(address) ? `[${address}]:${port}` : `${address}:${port}`;
      const done = (r: net.Socket | string) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        up.off('error', onError);
        if (typeof r === 'string') {
          up.destroy();
        }
        resolve(r);
      };
      const onError = (e: NodeJS.ErrnoException) => done(`could not connect to ${shown}: ${e.code ?? e.message}`);
      const onAbort = () => done('the agent closed the connection');
      const timer = setTimeout(
        () => done(`could not connect to ${shown}: no answer in ${this.connectTimeoutMs / 1000} s`),
        this.connectTimeoutMs,
      );
      up.once('error', onError);
      up.once('connect', () => done(up));
      signal.addEventListener('abort', onAbort);
    });
  }

  private async onConnect(req: http.IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const target = parseConnectTarget(req.url ?? '');
    if (!target.ok) {
      this.log.warn(`network proxy: CONNECT refused as malformed: ${target.reason}`);
      this.fail(socket, { kind: 'status', status: 400, reason: target.reason });
      return;
    }
    const hold = holdClient(socket, head);
    this.pending.add(hold.controller);
    try {
      const d = await this.decide(target.value, 'connect', hold.controller.signal);
      const failure: Failure | undefined = !d.verdict.allow
        ? { kind: 'refused', attempt: d.attempt, verdict: d.verdict }
        : this.unresolvedFailure(d);
      if (failure || !d.verdict.allow || hold.controller.signal.aborted) {
        this.record(d, 0, 0);
        if (failure && !hold.controller.signal.aborted) {
          this.fail(socket, failure);
        } else {
          socket.destroy();
        }
        return;
      }
      const up = await this.connectUpstream(d.verdict.address, d.attempt.port, hold.controller.signal);
      if (typeof up === 'string' || hold.controller.signal.aborted) {
        this.record(d, 0, 0);
        if (typeof up === 'string') {
          this.fail(socket, { kind: 'status', status: 502, reason: up });
        } else {
          up.destroy();
          socket.destroy();
        }
        return;
      }
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      for (const chunk of hold.release()) {
        up.write(chunk);
      }
      relay(socket, up, () => this.record(d, up.bytesWritten, up.bytesRead));
    } finally {
      this.pending.delete(hold.controller);
    }
  }

  private async onRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const target = parseHttpTarget(req.url ?? '');
    if (!target.ok) {
      this.log.warn(`network proxy: ${req.method ?? ''} refused as malformed: ${target.reason}`);
      endWith(res, { kind: 'status', status: 400, reason: target.reason });
      return;
    }
    const controller = new AbortController();
    const gone = () => controller.abort();
    res.once('close', gone);
    this.pending.add(controller);
    let d: Decided;
    try {
      d = await this.decide(target.value, 'http', controller.signal);
    } finally {
      this.pending.delete(controller);
      res.off('close', gone);
    }
    const failure: Failure | undefined = !d.verdict.allow
      ? { kind: 'refused', attempt: d.attempt, verdict: d.verdict }
      : this.unresolvedFailure(d);
    if (failure || !d.verdict.allow || controller.signal.aborted) {
      this.record(d, 0, 0);
      if (failure && !controller.signal.aborted) {
        endWith(res, failure);
      }
      return;
    }
    this.forward(req, res, { ...target.value, address: d.verdict.address }, d);
  }

  /** Sends one request upstream in origin-form and its response back; records it when the response has ended. */
  private forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    t: { host: string; port: number; authority: string; path: string; address: string },
    d: Decided,
  ): void {
    const up = http.request({
      host: t.address,
      port: t.port,
      method: req.method,
      path: t.path,
      headers: forwardedRequestHeaders(req.rawHeaders, t.authority),
      setHost: false,
      agent: false,
    });
    let upSocket: net.Socket | undefined;
    const timer = setTimeout(
      () => up.destroy(new Error(`no answer in ${this.connectTimeoutMs / 1000} s`)),
      this.connectTimeoutMs,
    );
    up.once('socket', (s: net.Socket) => {
      upSocket = s;
      this.track(s);
      s.once('connect', () => clearTimeout(timer));
    });
    up.once('response', (upRes: http.IncomingMessage) => {
      res.sendDate = false;
      res.writeHead(upRes.statusCode ?? 502, upRes.statusMessage, forwardedResponseHeaders(upRes.rawHeaders));
      upRes.pipe(res);
      upRes.once('error', () => res.destroy());
      upRes.once('aborted', () => res.destroy());
    });
    up.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const shown = net.isIPv6(t.address) ? `[${t.address}]:${t.port}` : `${t.address}:${t.port}`;
      if (!res.headersSent) {
        endWith(res, { kind: 'status', status: 502, reason: `could not reach ${shown}: ${e.code ?? e.message}` });
      } else {
        res.destroy();
      }
    });
    res.once('close', () => {
      clearTimeout(timer);
      if (!res.writableFinished) {
        up.destroy();
      }
      this.record(d, upSocket?.bytesWritten ?? 0, upSocket?.bytesRead ?? 0);
    });
    req.pipe(up);
  }
}

/** Ends a plain-HTTP response with a failure (and the client connection after it). */
function endWith(res: http.ServerResponse, f: Failure): void {
  const raw = failureResponse(f);
  const split = raw.indexOf('\r\n\r\n');
  const lines = raw.slice(0, split).split('\r\n');
  const status = f.kind === 'refused' ? 403 : f.status;
  const headers = lines.slice(1).flatMap((l) => {
    const i = l.indexOf(': ');
    return [l.slice(0, i), l.slice(i + 2)];
  });
  res.shouldKeepAlive = false;
  res.writeHead(status, STATUS_TEXT[status], headers);
  res.end(raw.slice(split + 4));
}

/**
 * Holds a CONNECT's client while its attempt is decided: what it sends early is kept (for upstream), and its end or
 * close aborts the controller (the decider then closes its ask). `release` stops holding and returns the early bytes.
 */
function holdClient(socket: Duplex, head: Buffer): { controller: AbortController; release: () => Buffer[] } {
  const controller = new AbortController();
  const early: Buffer[] = head.length ? [head] : [];
  let held = head.length;
  const onData = (b: Buffer) => {
    early.push(b);
    held += b.length;
    if (held > 1024 * 1024) {
      socket.pause(); // backpressure until the tunnel is up
    }
  };
  const gone = () => controller.abort();
  socket.on('data', onData);
  socket.once('end', gone);
  socket.once('close', gone);
  return {
    controller,
    release: () => {
      socket.pause();
      socket.off('data', onData);
      socket.off('end', gone);
      socket.off('close', gone);
      return early;
    },
  };
}

/** Pipes both ways with backpressure; each side's end half-closes the other; `done` once both ways have ended. */
function relay(client: Duplex, up: net.Socket, done: () => void): void {
  let open = 2;
  const ended = (err?: Error | null) => {
    if (err) {
      client.destroy();
      up.destroy();
    }
    open -= 1;
    if (open === 0) {
      client.destroy();
      up.destroy();
      done();
    }
  };
  pipeline(client, up, ended);
  pipeline(up, client, ended);
}

async function systemResolve(host: string): Promise<string[]> {
  const all = await dns.promises.lookup(host, { all: true, verbatim: true });
  return all.map((a) => a.address);
}
