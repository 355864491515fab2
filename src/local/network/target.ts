/**
 * Where a sandboxed agent asked the proxy (proxy.ts) to connect, read strictly: the host of a `CONNECT host:port`
 * line or of an absolute `http://` URL. What the decider matches patterns against must be the one spelling a
 * resolver and a server would also use, so anything a resolver reads in more than one way is refused rather than
 * guessed at: userinfo, IDN (non-ASCII) names, numeric IPv4 forms other than the dotted quad (`127.1`, `0x7f.1`,
 * `2130706433`, which getaddrinfo reads as 127.0.0.1), IPv6 zone ids, and ports that are not 1 to 65535 in plain
 * digits. Pure: no sockets, no DNS.
 */
import { isIPv4, isIPv6 } from 'node:net';

export interface Target {
  /** Lower-case, without IPv6 brackets or a trailing dot (ConnectAttempt.host). */
  readonly host: string;
  readonly port: number;
  /** `host[:port]` normalised (`example.com:8080`, `[::1]:443`; no port when the URL had none), the Host header sent. */
  readonly authority: string;
}

export interface HttpTarget extends Target {
  /** The origin-form request target sent upstream: the path and query, `/` when the URL had none. */
  readonly path: string;
}

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reason: string };

const fail = (reason: string): { ok: false; reason: string } => ({ ok: false, reason });

/** RFC 1123 labels, plus `_` (some real hosts carry one). */
const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
/** A last label a resolver would read as (part of) a number: decimal, octal or hex. */
const NUMERIC_LABEL = /^(?:0x[0-9a-f]*|[0-9]+)$/;

/** A host as written in a request (brackets around IPv6), checked and normalised. */
export function parseHost(raw: string): Parsed<string> {
  if (raw === '') {
    return fail('no host');
  }
  if (raw.startsWith('[')) {
    if (!raw.endsWith(']')) {
      return fail('an IPv6 address must be closed with ]');
    }
    const inner = raw.slice(1, -1).toLowerCase();
    if (inner.includes('%')) {
      return fail('an IPv6 zone id is not accepted');
    }
    return isIPv6(inner) ? { ok: true, value: inner } : fail('not a valid IPv6 address in brackets');
  }
  if (raw.includes(':')) {
    return fail('an IPv6 address must be in brackets');
  }
  const host = (raw.endsWith('.') ? raw.slice(0, -1) : raw).toLowerCase();
  if (isIPv4(host)) {
    return { ok: true, value: host };
  }
  if (host.length === 0 || host.length > 253) {
    return fail(host.length === 0 ? 'no host' : 'host name longer than 253 characters');
  }
  if (/[^\x21-\x7e]/.test(host)) {
    return fail('host name with characters outside printable ASCII (send an IDN in its xn-- form)');
  }
  const labels = host.split('.');
  if (!labels.every((l) => LABEL.test(l))) {
    return fail('not a valid host name');
  }
  if (NUMERIC_LABEL.test(labels[labels.length - 1])) {
    return fail('a numeric host that is not a dotted-quad IPv4 address');
  }
  return { ok: true, value: host };
}

/** A port in plain digits, 1 to 65535, no sign, no leading zero. */
export function parsePort(raw: string): Parsed<number> {
  if (!/^[1-9][0-9]{0,4}$/.test(raw)) {
    return fail(raw === '' ? 'no port' : 'the port is not a number from 1 to 65535');
  }
  const port = Number(raw);
  return port <= 65535 ? { ok: true, value: port } : fail('the port is not a number from 1 to 65535');
}

/** `host:port` (an authority with a port it must have, or the default port when it may omit it). */
export function parseAuthority(raw: string, defaultPort?: number): Parsed<Target> {
  if (raw.includes('@')) {
    return fail('userinfo (user:password@) in the target is not accepted');
  }
  const close = raw.lastIndexOf(']');
  const colon = raw.lastIndexOf(':');
  const hasPort = colon > close;
  if (!hasPort && defaultPort === undefined) {
    return fail('no port (CONNECT needs host:port)');
  }
  const host = parseHost(hasPort ? raw.slice(0, colon) : raw);
  if (!host.ok) {
    return host;
  }
  const port = hasPort ? parsePort(raw.slice(colon + 1)) : { ok: true as const, value: defaultPort! };
  if (!port.ok) {
    return port;
  }
  const bracketed = host.value.includes(':') ? `[${host.value}]` : host.value;
  const authority = hasPort ? `${bracketed}:${port.value}` : bracketed;
  return { ok: true, value: { host: host.value, port: port.value, authority } };
}

/** The request target of a CONNECT: authority-form, `host:port`. */
export function parseConnectTarget(raw: string): Parsed<Target> {
  return parseAuthority(raw);
}

/** The request target of a plain proxied request: an absolute `http://` URL (absolute-form). */
export function parseHttpTarget(raw: string): Parsed<HttpTarget> {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(raw);
  if (!scheme) {
    return fail(
      raw.startsWith('/')
        ? 'not a proxy request: the target must be an absolute http:// URL, or use CONNECT host:port'
        : 'the target is not an absolute http:// URL',
    );
  }
  if (scheme[1].toLowerCase() !== 'http') {
    return fail(
      scheme[1].toLowerCase() === 'https'
        ? 'an https:// URL goes through CONNECT host:443, not a plain request'
        : 'only http:// URLs are forwarded',
    );
  }
  const rest = raw.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const target = parseAuthority(authority, 80);
  if (!target.ok) {
    return target;
  }
  let path = end < 0 ? '/' : rest.slice(end);
  if (path.includes('#')) {
    return fail('a fragment (#) is not sent in a request');
  }
  if (path.startsWith('?')) {
    path = `/${path}`;
  }
  return { ok: true, value: { ...target.value, path } };
}
