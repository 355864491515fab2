/**
 * Host patterns, as `fountain.local.allowHosts` holds them (issue 28): `api.anthropic.com`, `*.googleapis.com`,
 * `host:port`, `host:*`, `127.0.0.1:8080`, `[::1]:8080`.
 *
 * - Without a port a pattern covers 443 and 80 only (HTTPS and plain HTTP); `host:port` covers that port, `host:*`
 *   every port.
 * - A `*` stands for one or more characters inside one DNS label: it never crosses a dot, so `*.googleapis.com`
 *   covers `storage.googleapis.com` but neither `googleapis.com` nor `a.b.googleapis.com`. The last label is always
 *   written out (no `*`, `*.com` or `example.*`), and an IP address is always written out whole.
 * - Anything else is refused with one sentence: a scheme (`https://`), a path, a query, userinfo (`user@`),
 *   whitespace, an empty label, a character a host name cannot hold, a port outside 1–65535. A problem never widens
 *   what is allowed: that entry is left out.
 * - Names are compared lower-case, without a trailing dot and without IPv6 brackets (as the proxy names them).
 */
import { isIP } from 'node:net';

/** The ports a pattern without one covers. */
export const DEFAULT_PORTS: readonly number[] = Object.freeze([443, 80]);

export interface HostPattern {
  /** The entry as written. */
  readonly text: string;
  /** Lower-case, no brackets, no trailing dot; may hold `*` (never in an IP literal). */
  readonly host: string;
  /** A number: that port; `any`: `host:*`; `default`: no port written (443 and 80). */
  readonly port: number | 'any' | 'default';
  /** True when the host holds no `*`. */
  readonly exact: boolean;
  /** True for an IP literal (v4, or v6 without its brackets). */
  readonly ip: boolean;
  readonly re: RegExp;
}

export type HostPatternParse =
  { readonly ok: true; readonly pattern: HostPattern } | { readonly ok: false; readonly problem: string };

const LABEL = /^[a-z0-9_*-]+$/;

function fail(text: string, why: string): HostPatternParse {
  return { ok: false, problem: `allowHosts: ${JSON.stringify(text)} ${why}` };
}

function parsePort(port: string): { port: number | 'any' } | { problem: string } {
  if (port === '*') {
    return { port: 'any' };
  }
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    return { problem: `has the port ${JSON.stringify(port)}: a port is a number from 1 to 65535, or * for every port` };
  }
  return { port: Number(port) };
}

/** Splits `host[:port]`, `[v6][:port]` or a bare IPv6 literal. */
function split(text: string): { host: string; port?: string } | string {
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) {
      return 'opens a [ without closing it';
    }
    const rest = text.slice(end + 1);
    if (rest !== '' && !rest.startsWith(':')) {
      return 'has text after its ] that is not :port';
    }
    return { host: text.slice(1, end), ...(rest ? { port: rest.slice(1) } : {}) };
  }
  if (isIP(text) === 6) {
    return { host: text };
  }
  const colon = text.lastIndexOf(':');
  if (colon < 0) {
    return { host: text };
  }
  if (text.indexOf(':') !== colon) {
    return 'looks like an IPv6 address with a port: write it as [address]:port';
  }
  return { host: text.slice(0, colon), port: text.slice(colon + 1) };
}

function checkName(host: string): string | undefined {
  const labels = host.split('.');
  if (labels.some((l) => l === '')) {
    return 'has an empty label (two dots in a row, or a dot at the start)';
  }
  const bad = labels.find((l) => !LABEL.test(l));
  if (bad !== undefined) {
    return `has the label ${JSON.stringify(bad)}: a host name holds letters, digits, "-", "_" and "*" only`;
  }
  const last = labels[labels.length - 1];
  if (last.includes('*')) {
    return 'puts a * in its last label: write the domain out (e.g. *.example.com)';
  }
  if (/^[0-9]+$/.test(last)) {
    return 'is neither a host name nor an IP address (a name never ends in digits only; an address is written out whole)';
  }
  return undefined;
}

function regexOf(host: string): RegExp {
  const body = host
    .split('*')
    .map((s) => s.replace(/[.\\^$+?()[\]{}|-]/g, (c) => `\\${c}`))
    .join('[^.]+');
  return new RegExp(`^${body}$`);
}

/** One `fountain.local.allowHosts` entry, parsed; a problem says what is wrong in one sentence. */
export function parseHostPattern(entry: unknown): HostPatternParse {
  if (typeof entry !== 'string') {
    return {
      ok: false,
      problem: `allowHosts: every entry must be a string (found ${JSON.stringify(entry) ?? String(entry)})`,
    };
  }
  const text = entry;
  if (text.length === 0) {
    return fail(text, 'is empty');
  }
  if (text.length > 300) {
    return fail(text.slice(0, 40) + '…', 'is longer than 300 characters');
  }
  if (/[\s\p{C}]/u.test(text)) {
    return fail(text, 'holds whitespace or a control character');
  }
  if (text.includes('://')) {
    return fail(text, 'has a scheme: write the host alone (e.g. pypi.org), or host:port');
  }
  if (text.includes('@')) {
    return fail(text, 'has userinfo (an @): write the host alone');
  }
  if (/[/?#]/.test(text)) {
    return fail(text, 'has a path, a query or a fragment: a host pattern names a host and a port only');
  }
  const parts = split(text);
  if (typeof parts === 'string') {
    return fail(text, parts);
  }
  let port: number | 'any' | 'default' = 'default';
  if (parts.port !== undefined) {
    const p = parsePort(parts.port);
    if ('problem' in p) {
      return fail(text, p.problem);
    }
    port = p.port;
  }
  const host = parts.host.toLowerCase().replace(/\.$/, '');
  if (host === '') {
    return fail(text, 'has no host');
  }
  const ip = isIP(host) !== 0;
  if (!ip) {
    if (text.startsWith('[')) {
      return fail(text, 'has brackets around something that is not an IPv6 address');
    }
    const why = checkName(host);
    if (why !== undefined) {
      return fail(text, why);
    }
  }
  return { ok: true, pattern: { text, host, port, exact: !host.includes('*'), ip, re: regexOf(host) } };
}

/** True when `p` covers `host:port` (`host` as the proxy names it: lower-case, no brackets). */
export function patternCoversHost(p: HostPattern, host: string, port: number): boolean {
  const portOk = p.port === 'any' || (p.port === 'default' ? DEFAULT_PORTS.includes(port) : p.port === port);
  if (!portOk) {
    return false;
  }
  const h = host.toLowerCase().replace(/\.$/, '');
  if (p.ip) {
    return isIP(h) !== 0 && sameAddress(p.host, h);
  }
  return isIP(h) === 0 && p.re.test(h);
}

/** True when `p` names exactly this host and port (no `*`, the port written out): only such lifts the deny. */
export function patternNamesExactly(p: HostPattern, host: string, port: number): boolean {
  return p.exact && typeof p.port === 'number' && patternCoversHost(p, host, port);
}

function sameAddress(a: string, b: string): boolean {
  if (a === b) {
    return true;
  }
  // `::1` and `0:0:0:0:0:0:0:1` are one address.
  return isIP(a) === 6 && isIP(b) === 6 && expand6(a) === expand6(b);
}

function expand6(a: string): string {
  const [head, tail = ''] = a.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const fill = a.includes('::') ? Array<string>(8 - h.length - t.length).fill('0') : [];
  return [...h, ...fill, ...t].map((x) => x.replace(/^0+(?=.)/, '')).join(':');
}

/** Every entry of the setting parsed: the usable patterns, and a sentence for each entry left out. */
export function compileHostPatterns(value: unknown): { patterns: HostPattern[]; problems: string[] } {
  if (value === undefined || value === null) {
    return { patterns: [], problems: [] };
  }
  if (!Array.isArray(value)) {
    return { patterns: [], problems: ['allowHosts must be a list of host patterns (e.g. ["pypi.org"])'] };
  }
  const patterns: HostPattern[] = [];
  const problems: string[] = [];
  for (const entry of value) {
    const r = parseHostPattern(entry);
    if (r.ok) {
      patterns.push(r.pattern);
    } else {
      problems.push(r.problem);
    }
  }
  return { patterns, problems };
}

/** `host:port` as a pattern names it: brackets around an IPv6 address. */
export function hostPort(host: string, port: number): string {
  return `${isIP(host) === 6 ? `[${host}]` : host}:${port}`;
}

/**
 * The narrowest pattern for a session grant or an "always" rule: the host alone for 443 and 80 (what a pattern
 * without a port covers), else `host:port`.
 */
export function patternFor(host: string, port: number): string {
  if (DEFAULT_PORTS.includes(port)) {
    return isIP(host) === 6 ? `[${host}]` : host;
  }
  return hostPort(host, port);
}
