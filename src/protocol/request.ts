/**
 * One REST call to a Fountain server, the way every client here makes it: the key only in the Authorization
 * header, JSON in and out, no redirect followed (a 303 would turn a POST into a GET elsewhere, and https→http
 * would send the key in clear: a 3xx comes back as it is), a per-call timeout, and the caller's signal.
 */
import { redact, type ProtocolEnv } from './env';

/** The status, headers and whole body text of one response. */
export type RawResponse = { readonly status: number; readonly headers: Headers; readonly text: string };

export interface RequestTarget {
  /** Normalised base URL (no trailing slash). */
  readonly server: string;
  readonly key: string;
  readonly env: ProtocolEnv;
  readonly timeoutMs: number;
}

/** Sends one request; throws what fetch throws (no answer, timed out, aborted), the key not yet redacted. */
export async function sendRequest(
  t: RequestTarget,
  method: string,
  path: string,
  body: unknown,
  signal?: AbortSignal,
): Promise<RawResponse> {
  const { env, key, server, timeoutMs } = t;
  const ac = new AbortController();
  const onAbort = () => ac.abort(signal!.reason);
  if (signal?.aborted) {
    ac.abort(signal.reason);
  }
  signal?.addEventListener('abort', onAbort, { once: true });
  const timer = env.timers.setTimeout(() => ac.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const headers: Record<string, string> = { Authorization: `Bearer ${key}`, Accept: 'application/json' };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  env.logger.debug(`${method} ${redact(path, key)}`);
  try {
    const res = await env.fetch(server + path, {
      method,
      headers,
      redirect: 'manual',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: ac.signal,
    });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } finally {
    env.timers.clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
