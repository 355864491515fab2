/** HTTP plumbing shared by the routes: JSON answers, bounded body reading, content negotiation, common errors. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a route answers: a status, a JSON body and extra headers. */
export interface HttpResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const notFound: HttpResult = { status: 404, body: { error: 'not_found' } };

/** 422 `validation_failed` with one field's messages. */
export const invalid = (field: string, ...messages: string[]): HttpResult => ({
  status: 422,
  body: { error: 'validation_failed', errors: { [field]: messages } },
});

export const unauthorized = (reason: string, error: string): HttpResult => ({ status: 401, body: { error, reason } });

export function sendJson(res: ServerResponse, r: HttpResult): void {
  if (res.headersSent || res.destroyed) {
    return;
  }
  const body = JSON.stringify(r.body);
  res.writeHead(r.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...(r.headers ?? {}),
  });
  res.end(body);
}

/** Bodies read per request, so the request log can show what a client sent. */
const bodiesRead = new WeakMap<IncomingMessage, unknown>();

/** The body a route read from this request, if it read one. */
export function bodyRead(req: IncomingMessage): { body: unknown } | undefined {
  return bodiesRead.has(req) ? { body: bodiesRead.get(req) } : undefined;
}

/** Reads a JSON body (empty → `{}`); throws SyntaxError on bad JSON and `too_large` past 2 MB. */
export async function readBody(req: IncomingMessage): Promise<unknown> {
  const body = await readBodyRaw(req);
  bodiesRead.set(req, body);
  return body;
}

/** The body as a record (control routes accept anything and read fields off it). */
export async function readRecord(req: IncomingMessage): Promise<Record<string, unknown>> {
  return (await readBody(req)) as Record<string, unknown>;
}

async function readBodyRaw(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 2_000_000) {
      throw new Error('too_large');
    }
    chunks.push(c as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) {
    return {};
  }
  return JSON.parse(text) as unknown;
}

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function acceptsJson(req: IncomingMessage): boolean {
  const a = req.headers.accept;
  if (!a) {
    return true;
  }
  return a.split(',').some((part) => {
    const t = part.split(';')[0].trim().toLowerCase();
    return t === '*/*' || t === 'application/*' || t === 'application/json' || t.endsWith('+json');
  });
}
