import dns from 'node:dns';
import net from 'node:net';

/**
 * What kind of address an IP is, for the outbound policy (src/server/security/outbound-policy.ts):
 * everything inside the host or its networks is refused unless the operator's allow-list opens it,
 * so a flow, a tool, a database check or a model provider cannot become a way to read the cloud
 * metadata service, the studio's own database or an intranet admin page.
 */
export type AddressClass = 'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'unspecified' | 'multicast' | 'reserved';

type Range = readonly [string, number, AddressClass];

const V4: Range[] = [
  ['0.0.0.0', 8, 'unspecified'], // "this network", incl. 0.0.0.0 which reaches the host
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'private'], // carrier-grade NAT (and Tailscale)
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'], // documentation
  ['203.0.113.0', 24, 'reserved'], // documentation
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // incl. broadcast
];
const V6: Range[] = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // the deprecated IPv4-compatible form
  ['100::', 64, 'reserved'], // discard
  ['2001::', 32, 'reserved'], // Teredo
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fc00::', 7, 'private'], // unique local
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'private'], // site-local (deprecated)
  ['ff00::', 8, 'multicast'],
];

/**
 * Cloud metadata services: never opened by a range (not by `WEFT_HTTP_ALLOW_PRIVATE`, not by
 * 169.254.0.0/16 or 0.0.0.0/0), only by an entry naming exactly the address or the name.
 * AWS, Azure, GCP, Oracle and DigitalOcean (169.254.169.254), AWS ECS task metadata and AWS DNS,
 * Tencent Cloud (169.254.0.23), Alibaba Cloud (100.100.100.200), Oracle (192.0.0.192), AWS IPv6.
 */
export const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', '169.254.169.253', '169.254.0.23', '100.100.100.200', '192.0.0.192', 'fd00:ec2::254', 'fd00:ec2::23']);
export const METADATA_NAMES = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'metadata.azure.com',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'metadata.platformequinix.com',
]);

const lists = new Map<AddressClass, net.BlockList>();
function listOf(c: AddressClass): net.BlockList {
  let l = lists.get(c);
  if (!l) lists.set(c, (l = new net.BlockList()));
  return l;
}
for (const [a, bits, c] of V4) listOf(c).addSubnet(a, bits, 'ipv4');
for (const [a, bits, c] of V6) listOf(c).addSubnet(a, bits, 'ipv6');
// Most specific first: ::1 before ::/96, metadata before link-local.
const ORDER: AddressClass[] = ['unspecified', 'loopback', 'multicast', 'link-local', 'private', 'reserved'];

/** The 16 bytes of an IPv6 address (zone dropped). */
function v6Bytes(ip: string): number[] {
  let text = ip.split('%')[0].toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    tail.push(...dotted[1].split('.').map(Number));
    text = text.slice(0, -dotted[1].length) + '0:0';
  }
  const [head, rest] = text.split('::');
  const groups = (s: string | undefined) => (s ? s.split(':').filter(Boolean).map((g) => parseInt(g, 16)) : []);
  const h = groups(head);
  const r = rest === undefined ? [] : groups(rest);
  const all = [...h, ...Array(8 - h.length - r.length).fill(0), ...r];
  const bytes = all.flatMap((g) => [g >> 8, g & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

/**
 * An IPv6 address that carries an IPv4 one the packets really go to: IPv4-mapped (::ffff:a.b.c.d),
 * NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48) and 6to4 (2002::/16). Checked as that IPv4.
 */
export function embeddedIpv4(ip: string): string | undefined {
  if (net.isIP(ip) !== 6) return undefined;
  const b = v6Bytes(ip);
  const v4 = (at: number) => b.slice(at, at + 4).join('.');
  const zero = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12);
  if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && (zero(4, 12) || (b[4] === 0 && b[5] === 1))) return v4(12);
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2);
  return undefined;
}

/** The address without brackets or zone, IPv4 for the IPv6 forms that carry one; '' when not an IP. */
export function normalizeAddress(address: string): string {
  const ip = (address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address).split('%')[0].toLowerCase();
  const family = net.isIP(ip);
  if (!family) return '';
  return embeddedIpv4(ip) ?? ip;
}

/** What kind of address this is; anything that is not an IP address counts as reserved. */
export function classifyAddress(address: string): AddressClass {
  const ip = normalizeAddress(address);
  if (!ip) return 'reserved';
  if (METADATA_ADDRESSES.has(ip)) return 'metadata';
  const type = net.isIP(ip) === 4 ? 'ipv4' : 'ipv6';
  for (const c of ORDER) if (lists.get(c)!.check(ip, type)) return c;
  return 'public';
}

/** True when an address is anything but public (loopback, private, link-local, metadata, reserved...). */
export function isBlockedAddress(address: string): boolean {
  return classifyAddress(address) !== 'public';
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (the OS resolver, as connections do). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });
