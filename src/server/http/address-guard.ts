import dns from 'node:dns';
import net from 'node:net';

/**
 * Which addresses outbound requests from nodes and tools may reach. Everything inside the host or
 * its networks is refused unless the server allows it (`WEFT_HTTP_ALLOW_PRIVATE`): a flow must not
 * become a way to read the cloud metadata service, the database or an intranet admin page.
 */
const BLOCKED = new net.BlockList();
for (const [net4, bits] of [
  ['0.0.0.0', 8], // "this network", incl. 0.0.0.0 which reaches the host
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
] as const) {
  BLOCKED.addSubnet(net4, bits, 'ipv4');
}
for (const [net6, bits] of [
  ['::', 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  BLOCKED.addSubnet(net6, bits, 'ipv6');
}

/** True when an IP address (v4, v6, or v4-mapped v6) lies in a private, loopback, link-local or reserved range. */
export function isBlockedAddress(address: string): boolean {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const family = net.isIP(ip);
  if (family === 4) return BLOCKED.check(ip, 'ipv4');
  // BlockList matches IPv4-mapped IPv6 (::ffff:127.0.0.1) against the IPv4 rules too.
  if (family === 6) return BLOCKED.check(ip.split('%')[0], 'ipv6');
  return true;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to every address (the OS resolver, as connections do). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Raised inside a connection attempt when the host resolves to a refused address. */
export class BlockedAddressError extends Error {
  constructor(
    readonly hostname: string,
    readonly address: string,
  ) {
    super(`${hostname} resolves to ${address}, a private or local address that requests may not reach`);
    this.name = 'BlockedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` that resolves the host, checks EVERY address, and hands the checked
 * addresses to the connection: the address connected to is the one checked (no second resolution a
 * rebinding DNS server could answer differently).
 */
export function guardedLookup(resolve: Resolver, refuse: (address: string) => boolean) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
        const addresses = wanted ? found.filter((a) => a.family === wanted) : found;
        if (!addresses.length) {
          const err: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          err.code = 'ENOTFOUND';
          return callback(err, '');
        }
        const bad = found.find((a) => refuse(a.address));
        if (bad) return callback(new BlockedAddressError(hostname, bad.address), '');
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}
