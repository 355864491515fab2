/**
 * A scripted-bytes HTTP server on a real loopback socket (127.0.0.1, port 0) for the conformance scenarios:
 * each request takes the first unconsumed exchange whose `match` fits; SSE bodies are written one TCP write per
 * string, then ended, aborted (socket destroyed) or held open. Unmatched requests get 599 and are recorded.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Match {
  method: string;
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  headers_absent?: string[];
}

/** One TCP write of `text`, or `count` writes of `bytes` × `fill` (a stream that never sends a newline). */
export type SseWrite =
  string | { text: string; delay_ms?: number } | { fill: string; bytes: number; count: number; delay_ms?: number };

export interface Respond {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
  sse?: SseWrite[];
  close?: 'end' | 'abort' | 'hold';
  /** Destroy the socket without any response (a lost response). */
  abort?: boolean;
  delay_ms?: number;
}

export interface Exchange {
  match: Match;
  respond: Respond;
  /** May be used any number of times. */
  repeat?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  exchange: number;
  at: number;
  /** SSE responses: writes completed, and whether the client closed the connection before the script ended. */
  sseWrites?: number;
  cutOffByClient?: boolean;
}

export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  readonly unmatched: RecordedRequest[] = [];
  private readonly consumed = new Set<number>();
  private readonly open = new Set<http.ServerResponse>();
  private readonly server: http.Server;
  private inFlight = 0;
  maxInFlight = 0;
  url = '';
  /** Replaced in response header values and bodies, e.g. `$other` → the second server's URL. */
  readonly vars: Record<string, string> = {};

  constructor(
    private readonly exchanges: Exchange[],
    private readonly tls?: { key: string | Buffer; cert: string | Buffer },
  ) {
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res);
    this.server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handler) : http.createServer(handler);
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `${this.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
    return this.url;
  }

  private subst(text: string): string {
    let out = text;
    for (const [k, v] of Object.entries(this.vars)) {
      out = out.split(k).join(v);
    }
    return out;
  }

  /** Exchanges (non-repeat) not used yet. */
  get unconsumed(): number[] {
    return this.exchanges.flatMap((e, i) => (!e.repeat && !this.consumed.has(i) ? [i] : []));
  }

  async close(): Promise<void> {
    for (const r of this.open) {
      r.socket?.destroy();
    }
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      const chunks: Buffer[] = [];
      for await (const c of req) {
        chunks.push(c as Buffer);
      }
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text || undefined;
      try {
        body = text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        // keep the text
      }
      const u = new URL(req.url ?? '/', 'http://x');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : (v ?? '');
      }
      const rec: RecordedRequest = {
        method: req.method ?? 'GET',
        // The raw (still percent-encoded) path, so encoding is checked exactly.
        path: (req.url ?? '/').split('?')[0],
        query: Object.fromEntries(u.searchParams),
        headers,
        body,
        exchange: -1,
        at: Date.now(),
      };
      const idx = this.exchanges.findIndex((e, i) => (e.repeat || !this.consumed.has(i)) && matches(e.match, rec));
      rec.exchange = idx;
      this.requests.push(rec);
      if (idx < 0) {
        this.unmatched.push(rec);
        res.writeHead(599, { 'content-type': 'application/json' }).end('{"error":"unmatched"}');
        return;
      }
      if (!this.exchanges[idx].repeat) {
        this.consumed.add(idx);
      }
      await this.respond(this.exchanges[idx].respond, res, rec);
    } finally {
      this.inFlight--;
    }
  }

  private async respond(r: Respond, res: http.ServerResponse, rec: RecordedRequest): Promise<void> {
    if (r.delay_ms) {
      await delay(r.delay_ms);
    }
    if (r.abort) {
      res.socket?.destroy();
      return;
    }
    if (r.sse) {
      res.writeHead(r.status ?? 200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        ...this.substHeaders(r.headers),
      });
      res.flushHeaders();
      res.socket?.setNoDelay(true);
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      rec.sseWrites = 0;
      rec.cutOffByClient = false;
      const writes = r.sse.flatMap((w) =>
        typeof w === 'string'
          ? [{ text: w }]
          : 'fill' in w
            ? Array.from({ length: w.count }, () => ({ text: w.fill.repeat(w.bytes), delay_ms: w.delay_ms }))
            : [w],
      );
      for (const item of writes) {
        if (item.delay_ms) {
          await delay(item.delay_ms);
        }
        if (res.destroyed) {
          rec.cutOffByClient = true;
          return;
        }
        const ok = await new Promise<boolean>((resolve) => {
          const onClose = () => resolve(false);
          res.once('close', onClose);
          res.write(this.subst(item.text), (e) => {
            res.off('close', onClose);
            resolve(!e);
          });
        });
        if (!ok || res.destroyed) {
          rec.cutOffByClient = true;
          return;
        }
        rec.sseWrites++;
      }
      const close = r.close ?? 'end';
      if (close === 'end') {
        res.end();
      } else if (close === 'abort') {
        await delay(5);
        res.socket?.destroy();
      }
      return;
    }
    const headers: Record<string, string> = this.substHeaders(r.headers);
    let payload = this.subst(r.body ?? '');
    if (r.json !== undefined) {
      headers['content-type'] ??= 'application/json';
      payload = JSON.stringify(r.json);
    }
    res.writeHead(r.status ?? 200, headers).end(payload);
  }

  private substHeaders(h: Record<string, string> | undefined): Record<string, string> {
    return Object.fromEntries(Object.entries(h ?? {}).map(([k, v]) => [k, this.subst(v)]));
  }
}

function matches(m: Match, r: RecordedRequest): boolean {
  if (m.method.toUpperCase() !== r.method.toUpperCase() || m.path !== r.path) {
    return false;
  }
  for (const [k, v] of Object.entries(m.query ?? {})) {
    if (r.query[k] !== v) {
      return false;
    }
  }
  for (const [k, v] of Object.entries(m.headers ?? {})) {
    if (r.headers[k.toLowerCase()] !== v) {
      return false;
    }
  }
  return !(m.headers_absent ?? []).some((h) => r.headers[h.toLowerCase()] !== undefined);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
