/**
 * The headers the network proxy (proxy.ts) passes on: a forwarded request or response loses its hop-by-hop headers
 * (RFC 9110 7.6.1: `Connection` and every header it names, `Keep-Alive`, `TE`, `Trailer`, `Transfer-Encoding`,
 * `Upgrade`) and every `Proxy-*` header (credentials meant for a proxy never go further), and a request's `Host` is
 * the URL's authority (RFC 9112 3.2.2), so the decided host is the one the server is asked for. Node re-frames the
 * body (chunked or by length) on each side. Raw header lists keep their order, spelling and repeats.
 */

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

function withoutHopByHop(raw: readonly string[], alsoDrop: (name: string) => boolean): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'connection') {
      for (const token of raw[i + 1].split(',')) {
        named.add(token.trim().toLowerCase());
      }
    }
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name) && !name.startsWith('proxy-') && !alsoDrop(name)) {
      out.push(raw[i], raw[i + 1]);
    }
  }
  return out;
}

/** A request's headers as sent upstream: `Host` first, set to `authority`; no hop-by-hop or `Proxy-*` header. */
export function forwardedRequestHeaders(raw: readonly string[], authority: string): string[] {
  return ['Host', authority, ...withoutHopByHop(raw, (n) => n === 'host')];
}

/** A response's headers as sent to the agent: no hop-by-hop or `Proxy-*` header. */
export function forwardedResponseHeaders(raw: readonly string[]): string[] {
  return withoutHopByHop(raw, () => false);
}

/** Text from a decider (a rule naming a user's pattern) made safe as one header value: printable ASCII, escaped. */
export function headerValue(text: string): string {
  return [...text]
    .map((c) => {
      const code = c.codePointAt(0)!;
      return code >= 0x20 && code <= 0x7e && c !== '\\' ? c : `\\u{${code.toString(16)}}`;
    })
    .join('');
}
