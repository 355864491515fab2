/**
 * Sign-in's key check: asks the server who a key belongs to (`GET /api/auth/me`) before anything is stored.
 * The server's refusal sentence and reason code are returned as the server wrote them (untrusted text: the UI makes
 * it inert before showing it).
 */
import { ApiClient, FountainHttpError } from './apiClient';
import type { ProtocolEnv } from './env';
import { checkServerUrl, isSandboxKey } from './serverUrl';
import { errorMessage } from './sseClient';

export interface FountainAccount {
  /** The server's user id. */
  readonly id: string;
  readonly email?: string;
}

export type KeyCheck =
  | { readonly kind: 'ok'; readonly server: string; readonly account: FountainAccount }
  /** The server answered 401/403 (or another refusal): `error` is its sentence, `reason` its code. */
  | { readonly kind: 'refused'; readonly status: number; readonly error?: string; readonly reason?: string }
  /** The key is a sandbox token; it was not sent. */
  | { readonly kind: 'sandboxToken' }
  /** The URL was refused before any traffic (not http(s), credentials in it, plain http to another machine). */
  | { readonly kind: 'badUrl'; readonly message: string }
  /** No HTTP answer, or not the documented shape. */
  | { readonly kind: 'unreachable'; readonly message: string };

export async function checkKey(
  url: string,
  key: string,
  env: ProtocolEnv,
  opts: { allowInsecureHttp?: boolean; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<KeyCheck> {
  if (isSandboxKey(key)) {
    return { kind: 'sandboxToken' };
  }
  const check = checkServerUrl(url, { allowInsecureHttp: opts.allowInsecureHttp });
  if (!check.ok) {
    return { kind: 'badUrl', message: check.message };
  }
  const api = new ApiClient({ server: check.url, key, env, timeoutMs: opts.timeoutMs ?? 15_000 });
  try {
    const me = await api.me(opts.signal);
    return { kind: 'ok', server: check.url, account: { id: me.id, email: me.email ?? undefined } };
  } catch (e) {
    if (e instanceof FountainHttpError) {
      return { kind: 'refused', status: e.status, error: e.code, reason: e.reason };
    }
    return { kind: 'unreachable', message: errorMessage(e) };
  }
}
