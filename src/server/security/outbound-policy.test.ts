import { describe, expect, it } from 'vitest';
import { parseAllowEntry } from '../../../schemas/network-policy';
import { createOutboundPolicy, OutboundConnectError, OutboundRefusedError, pinnedLookup, type OutboundSettings } from './outbound-policy';

// The decisions of the outbound policy, with names answered by a table instead of DNS.

const names: Record<string, string[]> = {
  'db.corp.local': ['10.20.1.5'],
  'api.svc.example': ['10.30.0.7'],
  'svc.example': ['10.30.0.8'],
  'public.example': ['93.184.216.34'],
  'mixed.example': ['93.184.216.34', '192.168.1.9'],
  'sneaky.example': ['169.254.169.254'],
  'metadata.google.internal': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
};

function policy(over: Partial<OutboundSettings> = {}) {
  const settings: OutboundSettings = { outboundAllow: [], mcpStdioCommands: [], httpAllowPrivate: false, ...over };
  return createOutboundPolicy({
    settings,
    resolver: async (host) => {
      const found = names[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    },
  });
}

const outcome = (p: ReturnType<typeof policy>, host: string, port: number) =>
  p.admit(host, port, 'http').then(
    (t) => t.address,
    (e: unknown) => (e instanceof OutboundRefusedError ? 'refused' : e instanceof OutboundConnectError ? `unreachable:${e.reason}` : String(e)),
  );

describe('allow entries', () => {
  it('parses hosts, wildcards, addresses and CIDRs, with or without a port (IPv6 in brackets)', () => {
    expect(parseAllowEntry('db.corp.local:1521')).toEqual({ kind: 'host', host: 'db.corp.local', wildcard: false, port: 1521 });
    expect(parseAllowEntry('*.Svc.Example')).toEqual({ kind: 'host', host: 'svc.example', wildcard: true });
    expect(parseAllowEntry('127.0.0.1:11434')).toEqual({ kind: 'cidr', family: 4, address: '127.0.0.1', bits: 32, port: 11434 });
    expect(parseAllowEntry('10.20.0.0/16')).toEqual({ kind: 'cidr', family: 4, address: '10.20.0.0', bits: 16 });
    expect(parseAllowEntry('[fd00::]/64:443')).toEqual({ kind: 'cidr', family: 6, address: 'fd00::', bits: 64, port: 443 });
    expect(parseAllowEntry('[fd00::/64]:443')).toEqual({ kind: 'cidr', family: 6, address: 'fd00::', bits: 64, port: 443 });
    expect(parseAllowEntry('[::1]')).toEqual({ kind: 'cidr', family: 6, address: '::1', bits: 128 });
    for (const bad of ['', 'fe80::1', '10.0.0.0/33', '[fd00::]/129', 'host:0', 'host:70000', 'http://x', 'a b', 'x/8', '1.2.3', '[zz::]', 'user@host', '-bad-.example']) {
      expect(typeof parseAllowEntry(bad), bad).toBe('string');
    }
  });
});

describe('decisions', () => {
  it('lets public addresses through and refuses everything inside by default, without resolving metadata names', async () => {
    const p = policy();
    expect(await outcome(p, 'public.example', 443)).toBe('93.184.216.34');
    expect(await outcome(p, '8.8.8.8', 53)).toBe('8.8.8.8');
    for (const host of ['127.0.0.1', 'localhost', '[::1]', '10.1.2.3', 'db.corp.local', '169.254.169.254', 'fd00:ec2::254', '0.0.0.0', '::', '224.0.0.1', '::ffff:127.0.0.1', '64:ff9b::a9fe:a9fe', 'metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.']) {
      expect(await outcome(p, host, 80), host).toBe('refused');
    }
    expect(await outcome(p, 'nowhere.example', 80)).toBe('unreachable:dns');
  });

  it('checks every address of a name', async () => {
    expect(await outcome(policy(), 'mixed.example', 443)).toBe('refused');
    expect(await outcome(policy({ outboundAllow: ['192.168.1.9'] }), 'mixed.example', 443)).toBe('93.184.216.34');
  });

  it('opens exactly what the entries name: hosts, wildcards, CIDRs, ports', async () => {
    const p = policy({ outboundAllow: ['127.0.0.1:11434', '10.20.0.0/16', 'db.corp.local:1521', '*.svc.example'] });
    expect(await outcome(p, '127.0.0.1', 11434)).toBe('127.0.0.1');
    expect(await outcome(p, '127.0.0.1', 11435)).toBe('refused');
    expect(await outcome(p, '10.20.200.1', 5432)).toBe('10.20.200.1');
    expect(await outcome(p, '10.21.0.1', 5432)).toBe('refused');
    expect(await outcome(p, 'db.corp.local', 1521)).toBe('10.20.1.5');
    expect(await outcome(p, 'api.svc.example', 8080)).toBe('10.30.0.7');
    // The wildcard is for names under the suffix, not the suffix itself.
    expect(await outcome(p, 'svc.example', 8080)).toBe('refused');
    // localhost is 127.0.0.1 and ::1: ::1 is not opened, so the name is refused.
    expect(await outcome(p, 'localhost', 11434)).toBe('refused');
    expect(await outcome(policy({ outboundAllow: ['127.0.0.1:11434', '[::1]:11434'] }), 'localhost', 11434)).toBe('127.0.0.1');
  });

  it('never opens metadata through a range, a name or the deprecated switch; only an exact entry does', async () => {
    const wide = policy({ outboundAllow: ['0.0.0.0/0', '[::]/0', '169.254.0.0/16', '100.64.0.0/10', 'sneaky.example', '*.example'], httpAllowPrivate: true });
    for (const host of ['169.254.169.254', 'sneaky.example', '100.100.100.200', 'fd00:ec2::254', 'metadata.google.internal']) {
      expect(await outcome(wide, host, 80), host).toBe('refused');
    }
    // The ranges themselves are open, apart from metadata.
    expect(await outcome(wide, '169.254.10.10', 80)).toBe('169.254.10.10');
    expect(await outcome(policy({ outboundAllow: ['169.254.169.254:80'] }), '169.254.169.254', 80)).toBe('169.254.169.254');
    expect(await outcome(policy({ outboundAllow: ['metadata.google.internal'] }), 'metadata.google.internal', 80)).toBe('169.254.169.254');
  });

  it('the deprecated WEFT_HTTP_ALLOW_PRIVATE opens the private ranges only', async () => {
    const p = policy({ httpAllowPrivate: true });
    expect(await outcome(p, 'db.corp.local', 1521)).toBe('10.20.1.5');
    expect(await outcome(p, '[fd12::1]', 80)).toBe('fd12::1');
    for (const host of ['127.0.0.1', '169.254.1.1', '[fe80::1]', '169.254.169.254', '0.0.0.0']) expect(await outcome(p, host, 80), host).toBe('refused');
  });

  it('hands the connection the checked addresses, whatever name it is asked for', async () => {
    const target = await policy({ outboundAllow: ['127.0.0.1', '[::1]'] }).admit('localhost', 80, 'http');
    const lookup = pinnedLookup(target);
    const all = await new Promise((r) => (lookup as unknown as (h: string, o: object, cb: (e: unknown, a: unknown) => void) => void)('evil.example', { all: true }, (_e, a) => r(a)));
    expect(all).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    const one = await new Promise((r) => (lookup as unknown as (h: string, o: object, cb: (e: unknown, a: unknown, f: number) => void) => void)('x', { family: 6 }, (_e, a, f) => r([a, f])));
    expect(one).toEqual(['::1', 6]);
  });
});
