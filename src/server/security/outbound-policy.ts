import net from 'node:net';
import type { LookupFunction } from 'node:net';
import { ErrorCode } from '../../../schemas/errors';
import { parseAllowEntry, type AllowEntry } from '../../../schemas/network-policy';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { classifyAddress, METADATA_NAMES, normalizeAddress, systemResolver, type ResolvedAddress, type Resolver } from '../http/address-guard';
import { StoredPolicyCache, type StoredNetworkPolicy } from './network-settings';

/**
 * The one module that decides every connection the server makes for a user: HTTP nodes and custom
 * tools, remote MCP, knowledge URLs, database drivers and model providers. Given a host (name or IP
 * literal), a port and a purpose, it resolves the name once, checks EVERY address, and answers the
 * checked addresses, which the caller then connects to (no second resolution a rebinding DNS server
 * could answer differently).
 *
 * Public addresses pass. Loopback, private, link-local, reserved and metadata addresses pass only
 * through an entry of the operator's allow-list: WEFT_OUTBOUND_ALLOW, plus the super admin's list in
 * system_settings (seen by other processes within `reloadMs`). Unspecified and multicast addresses
 * never pass; a metadata address only through an entry naming exactly it. The deprecated
 * WEFT_HTTP_ALLOW_PRIVATE opens the private ranges (RFC 1918, CGNAT, ULA), never loopback,
 * link-local or metadata.
 *
 * A refusal is {@link OutboundRefusedError} (NETWORK-1000) before any connection; an allowed
 * destination that cannot be reached is {@link OutboundConnectError} (NETWORK-1001) with one message
 * whatever went wrong (refused, reset, timeout, TLS or protocol garbage), the detail only in the log:
 * a tenant cannot use the answers as a port scanner.
 */

export type OutboundPurpose = 'http' | 'mcp' | 'knowledge' | 'database' | 'model' | 'identity';

/** The host and port as an error names them: IPv6 in brackets. */
export const hostPort = (host: string, port: number) => `${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;

export class OutboundRefusedError extends AppError {
  constructor(
    readonly host: string,
    readonly port: number,
  ) {
    super(400, ErrorCode.NETWORK_NOT_ALLOWED, `${hostPort(host, port)} is not allowed by the server's network policy`, { host, port });
    this.name = 'OutboundRefusedError';
  }
}

export class OutboundConnectError extends AppError {
  constructor(
    readonly host: string,
    readonly port: number,
    /** 'dns' when the name does not resolve (the database check says so); 'network' otherwise. */
    readonly reason: 'dns' | 'network',
  ) {
    super(400, ErrorCode.NETWORK_UNREACHABLE, `Could not connect to ${hostPort(host, port)}`, { host, port });
    this.name = 'OutboundConnectError';
  }
}

/** Finds one of our errors in an error's cause chain (SDKs wrap what a fetch threw). */
export function outboundErrorIn(e: unknown): OutboundRefusedError | OutboundConnectError | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 6 && cur && typeof cur === 'object'; i++) {
    if (cur instanceof OutboundRefusedError || cur instanceof OutboundConnectError) return cur;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

export interface AdmittedTarget {
  host: string;
  port: number;
  /** The first checked address: what a single connection goes to. */
  address: string;
  family: 4 | 6;
  /** Every address the name resolved to, all checked. */
  addresses: ResolvedAddress[];
}

/** What the policy reads of the settings; read at each decision, so a change applies at once. */
export interface OutboundSettings {
  outboundAllow: string[];
  mcpStdioCommands: string[];
  httpAllowPrivate: boolean;
}

export type OutboundLog = (detail: { purpose: OutboundPurpose; host: string; port: number; error: string }) => void;

export interface OutboundPolicy {
  /** Host name resolution (tests answer names with chosen addresses). */
  resolver: Resolver;
  /** Resolves and checks; the addresses to connect to, or OutboundRefusedError / OutboundConnectError. */
  admit(host: string, port: number, purpose: OutboundPurpose): Promise<AdmittedTarget>;
  /** {@link admit} for an http(s) URL (its port or the scheme's). */
  admitUrl(url: URL, purpose: OutboundPurpose): Promise<AdmittedTarget>;
  /** The super admin's lists (cached for `reloadMs`). */
  stored(): Promise<StoredNetworkPolicy>;
  /** The commands stdio MCP servers may start: the environment's and the stored ones. */
  stdioCommands(): Promise<Set<string>>;
  /** After this process wrote the stored lists: use them at once. */
  invalidate(value?: StoredNetworkPolicy): void;
  /** The uniform error for a failed connection to an allowed destination; the detail goes to the log. */
  connectFailed(purpose: OutboundPurpose, host: string, port: number, cause: unknown): OutboundConnectError;
  setLogger(log: OutboundLog): void;
}

export interface OutboundPolicyOptions {
  db?: Db;
  settings: OutboundSettings;
  resolver?: Resolver;
  /** How old the stored lists may be before they are read again. Default 3 s. */
  reloadMs?: number;
  log?: OutboundLog;
}

interface Compiled {
  entry: AllowEntry;
  list?: net.BlockList;
}

const compiled = new Map<string, Compiled | null>();

/** An entry parsed once (entries come as strings from the environment and the database). */
function compile(raw: string): Compiled | null {
  let c = compiled.get(raw);
  if (c === undefined) {
    const entry = parseAllowEntry(raw);
    if (typeof entry === 'string') c = null;
    else if (entry.kind === 'host') c = { entry };
    else {
      const list = new net.BlockList();
      list.addSubnet(entry.address, entry.bits, entry.family === 4 ? 'ipv4' : 'ipv6');
      c = { entry, list };
    }
    if (compiled.size > 5000) compiled.clear();
    compiled.set(raw, c);
  }
  return c;
}

const fullBits = (e: Extract<AllowEntry, { kind: 'cidr' }>) => e.bits === (e.family === 4 ? 32 : 128);

/** Whether one entry opens this address of this name on this port. */
function opens(c: Compiled, name: string, ip: string, port: number, metadata: boolean): boolean {
  const e = c.entry;
  if (e.port !== undefined && e.port !== port) return false;
  if (e.kind === 'host') {
    if (!(e.wildcard ? name.endsWith(`.${e.host}`) : name === e.host)) return false;
    // A name opens a metadata address only when the name itself is a metadata name, entered as such.
    return !metadata || (!e.wildcard && METADATA_NAMES.has(name));
  }
  const family = net.isIP(ip) === 4 ? 4 : 6;
  if (e.family !== family || !c.list!.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return false;
  return !metadata || fullBits(e);
}

/** The policy's decision for one resolved address. */
export function addressAllowed(address: string, name: string, port: number, entries: readonly Compiled[], allowPrivate: boolean): boolean {
  const ip = normalizeAddress(address);
  const kind = classifyAddress(ip);
  if (kind === 'public') return true;
  if (kind === 'unspecified' || kind === 'multicast' || !ip) return false;
  if (kind === 'private' && allowPrivate) return true;
  return entries.some((c) => opens(c, name, ip, port, kind === 'metadata'));
}

/**
 * A `lookup` for node:net / node:http that answers the admitted addresses whatever name it is asked
 * for: the connection goes where the policy looked.
 */
export function pinnedLookup(target: AdmittedTarget): LookupFunction {
  return ((_hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    const wanted = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const list = wanted ? target.addresses.filter((a) => a.family === wanted) : target.addresses;
    if (!list.length) {
      const err: NodeJS.ErrnoException = new Error(`${target.host} has no IPv${wanted} address`);
      err.code = 'ENOTFOUND';
      return callback(err, options.all ? [] : '', 0);
    }
    if (options.all) callback(null, list);
    else callback(null, list[0].address, list[0].family);
  }) as LookupFunction;
}

export function createOutboundPolicy(opts: OutboundPolicyOptions): OutboundPolicy {
  const cache = new StoredPolicyCache(opts.db, opts.reloadMs ?? 3000);
  let log: OutboundLog = opts.log ?? (() => undefined);

  const policy: OutboundPolicy = {
    resolver: opts.resolver ?? systemResolver,

    async admit(host, port, purpose) {
      const name = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
      const stored = await cache.get();
      const entries = [...opts.settings.outboundAllow, ...stored.allow].map(compile).filter((c): c is Compiled => c !== null);
      const literal = net.isIP(name.split('%')[0]) ? name.split('%')[0] : '';
      // Metadata names are refused before they are even looked up.
      if (!literal && METADATA_NAMES.has(name) && !entries.some((c) => c.entry.kind === 'host' && !c.entry.wildcard && c.entry.host === name && (c.entry.port === undefined || c.entry.port === port))) {
        throw new OutboundRefusedError(host, port);
      }
      let addresses: ResolvedAddress[];
      if (literal) addresses = [{ address: literal, family: net.isIP(literal) }];
      else {
        try {
          addresses = await policy.resolver(name);
        } catch (e) {
          log({ purpose, host, port, error: `lookup failed: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` });
          throw new OutboundConnectError(host, port, 'dns');
        }
      }
      if (!addresses.length) throw new OutboundConnectError(host, port, 'dns');
      for (const a of addresses) {
        if (!addressAllowed(a.address, name, port, entries, opts.settings.httpAllowPrivate)) {
          log({ purpose, host, port, error: `refused by the network policy (${a.address})` });
          throw new OutboundRefusedError(host, port);
        }
      }
      const first = addresses[0];
      return { host, port, address: first.address, family: first.family === 6 ? 6 : 4, addresses };
    },

    admitUrl(url, purpose) {
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      return policy.admit(url.hostname, port, purpose);
    },

    stored: () => cache.get(),

    async stdioCommands() {
      const stored = await cache.get();
      return new Set([...opts.settings.mcpStdioCommands, ...stored.mcp_stdio_commands]);
    },

    invalidate: (value) => cache.invalidate(value),

    connectFailed(purpose, host, port, cause) {
      const err = cause as NodeJS.ErrnoException | undefined;
      log({ purpose, host, port, error: [err?.code, err?.message ?? String(cause)].filter(Boolean).join(' ') });
      return new OutboundConnectError(host, port, 'network');
    },

    setLogger(next) {
      log = next;
    },
  };
  return policy;
}
