import { z } from 'zod';

/**
 * The operator's outbound network policy (README "Security"): which non-public destinations the
 * server may connect to for a user (HTTP nodes, tools, MCP, knowledge URLs, database drivers, model
 * providers), and which commands stdio MCP servers may start. Public addresses are always reachable;
 * loopback, private, link-local, reserved and cloud-metadata addresses only through an entry here.
 *
 * An allow entry is one of (IPv6 always in brackets, so a port cannot be misread):
 *   host                 db.corp.local             a name, every port
 *   host:port            db.corp.local:1521
 *   *.suffix[:port]      *.svc.cluster.local       every name under the suffix
 *   ip[:port]            127.0.0.1:11434, [::1]:8080
 *   cidr[:port]          10.20.0.0/16, [fd00::]/64:443
 */

const HOST_LABEL = '[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?';
const HOST_RE = new RegExp(`^(?=.{1,253}$)${HOST_LABEL}(?:\\.${HOST_LABEL})*$`);
const ipv4 = z.ipv4();
const ipv6 = z.ipv6();

export type AllowEntry =
  | { kind: 'host'; host: string; wildcard: boolean; port?: number }
  | { kind: 'cidr'; family: 4 | 6; address: string; bits: number; port?: number };

/** Parses one entry; a string saying what is wrong when it is not one. */
export function parseAllowEntry(raw: string): AllowEntry | string {
  const text = raw.trim();
  if (!text) return 'An entry must not be empty';
  if (/\s|:\/\/|[?#@]/.test(text)) return `"${text}" is not a host, an address or a CIDR (no scheme, path or credentials)`;
  let rest = text;
  let port: number | undefined;
  let family: 4 | 6 | 0 = 0;
  let address = '';
  let bits: number | undefined;
  if (rest.startsWith('[')) {
    // [v6], [v6]:port, [v6]/bits, [v6]/bits:port, [v6/bits], [v6/bits]:port
    const m = /^\[([^\]]+)\](\/\d{1,3})?(?::(\d{1,5}))?$/.exec(rest);
    if (!m) return `"${text}" is not a bracketed IPv6 address or CIDR`;
    const [inner, innerBits] = m[1].split('/');
    if (innerBits !== undefined && m[2]) return `"${text}" gives the prefix length twice`;
    address = inner;
    const b = innerBits ?? m[2]?.slice(1);
    bits = b === undefined ? undefined : Number(b);
    port = m[3] === undefined ? undefined : Number(m[3]);
    if (!ipv6.safeParse(address).success) return `"${address}" is not an IPv6 address`;
    family = 6;
  } else {
    if (rest.split(':').length > 2) return `Write IPv6 addresses in brackets, e.g. [${rest}]`;
    const colon = rest.lastIndexOf(':');
    if (colon >= 0) {
      const p = rest.slice(colon + 1);
      if (!/^\d{1,5}$/.test(p)) return `"${p}" is not a port`;
      port = Number(p);
      rest = rest.slice(0, colon);
    }
    const slash = rest.indexOf('/');
    if (slash >= 0) {
      if (!/^\d{1,2}$/.test(rest.slice(slash + 1))) return `"${rest}" has no valid prefix length`;
      bits = Number(rest.slice(slash + 1));
      rest = rest.slice(0, slash);
    }
    if (ipv4.safeParse(rest).success) {
      family = 4;
      address = rest;
    } else if (/^[\d.]+$/.test(rest)) {
      return `"${rest}" is not an IPv4 address`;
    } else if (bits !== undefined) {
      return `"${text}": a prefix length goes with an IP address, not a host name`;
    }
  }
  if (port !== undefined && (port < 1 || port > 65535)) return `The port ${port} is not between 1 and 65535`;
  if (family) {
    const max = family === 4 ? 32 : 128;
    if (bits !== undefined && bits > max) return `The prefix length /${bits} is longer than ${max}`;
    return { kind: 'cidr', family, address: address.toLowerCase(), bits: bits ?? max, ...(port !== undefined ? { port } : {}) };
  }
  const wildcard = rest.startsWith('*.');
  const host = (wildcard ? rest.slice(2) : rest).toLowerCase().replace(/\.$/, '');
  if (!HOST_RE.test(host)) return `"${rest}" is not a host name`;
  return { kind: 'host', host, wildcard, ...(port !== undefined ? { port } : {}) };
}

/** One allow-list entry, trimmed and checked (VALIDATION-1000 with the field when wrong). */
export const OutboundAllowEntry = z
  .string()
  .trim()
  .max(200)
  .superRefine((v, ctx) => {
    const parsed = parseAllowEntry(v);
    if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
  });

/**
 * A command stdio MCP servers may start: exactly what a tool's `command` must equal (a name looked
 * up on the server's PATH, or an absolute path). No arguments: those stay the tool's.
 */
export const McpStdioCommand = z
  .string()
  .trim()
  .min(1, 'A command must not be empty')
  .max(500)
  .regex(/^[^\s\u0000-\u001f]+$/, 'One command name or path, without arguments or spaces');

export const NetworkPolicyLists = z.object({
  allow: z.array(OutboundAllowEntry).max(200).describe('Hosts, host:port, CIDRs and CIDR:port the server may reach beyond public addresses'),
  mcp_stdio_commands: z.array(McpStdioCommand).max(100).describe('Commands stdio MCP servers may start (exact names or paths)'),
});
export type NetworkPolicyLists = z.infer<typeof NetworkPolicyLists>;

/** PUT body: both lists as a whole (the environment's entries are not part of it). */
export const NetworkPolicyBody = NetworkPolicyLists.strict();
export type NetworkPolicyBody = z.input<typeof NetworkPolicyBody>;

/** What the system page shows: the environment's lists (read-only) and the stored, editable ones. */
export const NetworkPolicy = z.object({
  env: z.object({
    allow: z.array(z.string()),
    mcp_stdio_commands: z.array(z.string()),
    /** WEFT_HTTP_ALLOW_PRIVATE (deprecated): the private ranges are open, loopback and metadata are not. */
    allow_private: z.boolean(),
  }),
  stored: z.object({ allow: z.array(z.string()), mcp_stdio_commands: z.array(z.string()) }),
  updated_at: z.string().nullable(),
  updated_by: z.string().nullable(),
});
export type NetworkPolicy = z.infer<typeof NetworkPolicy>;
