/**
 * The address classes a sandboxed agent's connection is refused for, checked on the addresses its host resolved to
 * at connect time (so a public name that resolves to 127.0.0.1 is refused too: DNS rebinding). Node's own
 * `net.BlockList` holds the ranges; an IPv6 address that carries an IPv4 one (mapped `::ffff:a.b.c.d`, compatible
 * `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`) is checked as that IPv4 address too.
 */
import { BlockList, isIP } from 'node:net';

export type AddressClass = 'metadata' | 'loopback' | 'unspecified' | 'private' | 'linkLocal' | 'reserved';

/** What each class is, in the words a refusal uses. */
export const ADDRESS_CLASS_WORDS: Readonly<Record<AddressClass, string>> = Object.freeze({
  metadata: 'a cloud metadata address',
  loopback: 'a loopback address (this machine)',
  unspecified: 'an unspecified address',
  private: 'a private network address',
  linkLocal: 'a link-local address',
  reserved: 'a multicast or reserved address',
});

type Range = readonly [string, number, 'ipv4' | 'ipv6'];

/** In this order: the first class that holds an address names it (metadata before link-local and private). */
const RANGES: ReadonlyArray<readonly [AddressClass, readonly Range[]]> = [
  [
    'metadata',
    [
      ['169.254.169.254', 32, 'ipv4'],
      ['100.100.100.200', 32, 'ipv4'],
      ['fd00:ec2::254', 128, 'ipv6'],
    ],
  ],
  [
    'loopback',
    [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  ],
  [
    'unspecified',
    [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  ],
  [
    'private',
    [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ],
  ],
  [
    'linkLocal',
    [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  ],
  [
    'reserved',
    [
      ['224.0.0.0', 4, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  ],
];

const LISTS: ReadonlyArray<readonly [AddressClass, BlockList]> = RANGES.map(([cls, ranges]) => {
  const list = new BlockList();
  for (const [net, prefix, type] of ranges) {
    list.addSubnet(net, prefix, type);
  }
  return [cls, list] as const;
});

/** The prefixes whose low 32 bits are an IPv4 address: mapped, compatible (deprecated) and NAT64. */
const EMBEDDING = (() => {
  const l = new BlockList();
  l.addSubnet('::ffff:0:0', 96, 'ipv6');
  l.addSubnet('::', 96, 'ipv6');
  l.addSubnet('64:ff9b::', 96, 'ipv6');
  return l;
})();

/** The IPv4 address in an IPv6 one's low 32 bits, written `a.b.c.d` or as two hex groups. */
function embeddedV4(v6: string): string | undefined {
  if (!EMBEDDING.check(v6, 'ipv6')) {
    return undefined;
  }
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(v6);
  if (dotted && isIP(dotted[1]) === 4) {
    return dotted[1];
  }
  const m = /:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(v6);
  if (!m) {
    return undefined; // `::` and `::1` themselves: classed as IPv6
  }
  const hi = parseInt(m[1], 16);
  const lo = parseInt(m[2], 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * The class `address` belongs to, or undefined for an ordinary public address. Something that is not an IP address
 * at all is classed `unspecified`: it is never connected to.
 */
export function addressClass(address: string): AddressClass | undefined {
  const a = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const v = isIP(a);
  if (v === 0) {
    return 'unspecified';
  }
  const type = v === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of LISTS) {
    if (list.check(a, type)) {
      return cls;
    }
  }
  const inner = v === 6 ? embeddedV4(a.toLowerCase()) : undefined;
  return inner === undefined ? undefined : addressClass(inner);
}
