/** Pure helpers for server URLs and API keys (no network). */

/**
 * The canonical form of a server base URL, used in RequestKey.server: scheme + lower-case host + non-default port +
 * path without trailing slashes; no query, fragment or credentials. Returns undefined for something that is not an
 * http(s) URL.
 */
export function normalizeServerUrl(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return undefined;
  }
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.protocol}//${u.host}${path}`;
}

export type ServerUrlCheck =
  | { readonly ok: true; readonly url: string }
  | { readonly ok: false; readonly reason: 'invalid' | 'insecure' | 'credentials'; readonly message: string };

/**
 * True for literal loopback only: 127.0.0.0/8, ::1 and the exact name `localhost` (the only hosts plain http is
 * allowed to by default). Other `*.localhost` names are not: Node resolves them through the system resolver, so
 * whatever the DNS answers would receive the key in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost') {
    return true;
  }
  if (h === '::1' || h === '0:0:0:0:0:0:0:1') {
    return true;
  }
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return !!m && m.slice(1).every((p) => Number(p) <= 255);
}

/**
 * Validates a server URL before any traffic: it must be http(s), carry no user:password, and use https unless it
 * points at loopback or `allowInsecureHttp` is set.
 */
export function checkServerUrl(url: string, opts: { allowInsecureHttp?: boolean } = {}): ServerUrlCheck {
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    return { ok: false, reason: 'invalid', message: 'The server URL is not a valid URL.' };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { ok: false, reason: 'invalid', message: 'The server URL must start with https://.' };
  }
  if (u.username || u.password) {
    return { ok: false, reason: 'credentials', message: 'The server URL must not contain a user name or password.' };
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname) && !opts.allowInsecureHttp) {
    return {
      ok: false,
      reason: 'insecure',
      message:
        'Plain http:// is only allowed to this machine (127.0.0.1, [::1] or localhost); use https:// or enable fountain.allowInsecureHttp.',
    };
  }
  return { ok: true, url: normalizeServerUrl(url)! };
}

/** A sandbox (sprite-scoped) token: the answer route refuses it, so the extension must not run with one. */
export function isSandboxKey(key: string): boolean {
  return /^\s*sprite[:_]/i.test(key);
}
