import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '../../../schemas/errors';
import type { McpServerConfig } from '../../../schemas/tool';
import { createPolicyFetch } from '../http/policy-fetch';
import { hostPort, OutboundConnectError, outboundErrorIn, OutboundRefusedError, type OutboundPolicy } from '../security/outbound-policy';

/**
 * Clients of MCP servers (@modelcontextprotocol/sdk): remote ones over streamable HTTP or SSE, every
 * request admitted by the outbound policy (redirects followed only within the origin, each hop
 * admitted again), and stdio ones (a command this server starts), only when the operator allows the
 * command (`allowStdio` decides, before anything starts). A pool keeps one connected client per
 * server config and closes it after a quiet spell or on shutdown.
 */

export const MCP_ERRORS = {
  CONNECT: 'MCP-CONNECT-FAILED',
  TIMEOUT: 'MCP-TIMEOUT',
  /** The outbound policy refused the server's address (nothing was sent). */
  BLOCKED: ErrorCode.NETWORK_NOT_ALLOWED,
  /** The remote server could not be reached (one answer, whatever the network said). */
  UNREACHABLE: ErrorCode.NETWORK_UNREACHABLE,
  /** The stdio server's command (or env, cwd) is not allowed here: it was not started. */
  STDIO_NOT_ALLOWED: ErrorCode.MCP_STDIO_NOT_ALLOWED,
} as const;

export class McpConnectError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface McpClientOptions {
  /** Admits every remote server and each of its requests. */
  policy: OutboundPolicy;
  /** Throws McpConnectError(STDIO_NOT_ALLOWED) unless this server may start the stdio server. */
  allowStdio: (config: Extract<McpServerConfig, { command: string }>) => Promise<void>;
  /** Connect and handshake. Default 20 s. */
  timeoutMs?: number;
}

export const isStdio = (c: McpServerConfig): c is Extract<McpServerConfig, { command: string }> => 'command' in c;

const fetches = new WeakMap<OutboundPolicy, typeof fetch>();
function mcpFetch(policy: OutboundPolicy): typeof fetch {
  let f = fetches.get(policy);
  if (!f) fetches.set(policy, (f = createPolicyFetch(policy, 'mcp')));
  return f;
}

/** Connects to a server; a clear error (with the tail of an stdio server's stderr) when it cannot. */
export async function connectMcp(config: McpServerConfig, opts: McpClientOptions): Promise<Client> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  // The SDK (and the HTTP stack it brings) loads on the first connection, not at the server's start (issue 32).
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const client = new Client({ name: 'weft', version: '0.1.0' });
  let stderr = '';
  let transport;
  if (isStdio(config)) {
    await opts.allowStdio(config);
    const { getDefaultEnvironment, StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const t = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      // No tenant chooses where the process runs (a stored cwd makes allowStdio refuse).
      stderr: 'pipe',
    });
    t.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-2000);
    });
    transport = t;
  } else {
    const url = new URL(config.url);
    // Refused before any request, with the policy's own answer.
    await opts.policy.admitUrl(url, 'mcp').catch((e: unknown) => {
      throw e instanceof OutboundRefusedError ? new McpConnectError(MCP_ERRORS.BLOCKED, e.message, { host: e.host, port: e.port }) : e;
    });
    const fetch = mcpFetch(opts.policy);
    transport =
      config.type === 'sse'
        ? new (await import('@modelcontextprotocol/sdk/client/sse.js')).SSEClientTransport(url, { requestInit: { headers: config.headers }, fetch })
        : new (await import('@modelcontextprotocol/sdk/client/streamableHttp.js')).StreamableHTTPClientTransport(url, { requestInit: { headers: config.headers }, fetch });
  }
  try {
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  } catch (e) {
    await client.close().catch(() => undefined);
    if (e instanceof McpConnectError) throw e;
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof McpConnectError) throw cause;
    const outbound = outboundErrorIn(e);
    if (outbound instanceof OutboundRefusedError) throw new McpConnectError(MCP_ERRORS.BLOCKED, outbound.message, { host: outbound.host, port: outbound.port });
    const msg = (e as Error).message ?? String(e);
    if (!isStdio(config)) {
      // No HTTP answer at all: the one "could not connect" of the policy, the detail in the log.
      const url = new URL(config.url);
      const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
      if (outbound instanceof OutboundConnectError || /fetch failed|ECONN|socket|network|timed? ?out/i.test(msg)) {
        if (!(outbound instanceof OutboundConnectError)) opts.policy.connectFailed('mcp', url.hostname, port, e);
        throw new McpConnectError(MCP_ERRORS.UNREACHABLE, `Could not connect to the MCP server at ${hostPort(url.hostname, port)}`);
      }
    }
    const timedOut = /timed? ?out/i.test(msg);
    const where = isStdio(config) ? `the command "${config.command}"` : config.url;
    const tail = stderr.trim() ? ` (stderr: ${stderr.trim().split('\n').slice(-3).join(' | ')})` : '';
    throw new McpConnectError(timedOut ? MCP_ERRORS.TIMEOUT : MCP_ERRORS.CONNECT, `Could not connect to the MCP server at ${where}: ${msg}${tail}`);
  }
}

export interface McpListedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export async function listTools(client: Client, timeoutMs = 20_000): Promise<McpListedTool[]> {
  const out: McpListedTool[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 20; i++) {
    const r = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    for (const t of r.tools) out.push({ name: t.name, description: t.description ?? '', inputSchema: (t.inputSchema as Record<string, unknown>) ?? { type: 'object' } });
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

/** Connected clients by server config, each closed after `idleMs` without use. */
export class McpClientPool {
  private readonly clients = new Map<string, { client: Promise<Client>; timer?: NodeJS.Timeout }>();

  constructor(
    private readonly opts: McpClientOptions & { idleMs?: number },
  ) {}

  /** Runs `use` with the server's client (connecting once); a failed call drops the client so the next one reconnects. */
  async with<T>(config: McpServerConfig, use: (c: Client) => Promise<T>): Promise<T> {
    const key = JSON.stringify(config);
    let entry = this.clients.get(key);
    if (!entry) {
      entry = { client: connectMcp(config, this.opts) };
      this.clients.set(key, entry);
      entry.client.catch(() => this.clients.delete(key));
    }
    if (entry.timer) clearTimeout(entry.timer);
    const client = await entry.client;
    try {
      return await use(client);
    } catch (e) {
      // A closed transport or a dead child process: start afresh next time.
      if (/closed|not connected|EPIPE/i.test((e as Error).message ?? '')) await this.drop(key);
      throw e;
    } finally {
      const current = this.clients.get(key);
      if (current === entry) {
        entry.timer = setTimeout(() => void this.drop(key), this.opts.idleMs ?? 5 * 60_000);
        entry.timer.unref();
      }
    }
  }

  private async drop(key: string) {
    const entry = this.clients.get(key);
    if (!entry) return;
    this.clients.delete(key);
    if (entry.timer) clearTimeout(entry.timer);
    await entry.client.then((c) => c.close()).catch(() => undefined);
  }

  /** Closes the client of one server config, if one is open (its command is no longer allowed). */
  async forget(config: McpServerConfig) {
    await this.drop(JSON.stringify(config));
  }

  /** Closes every client (server shutdown). */
  async closeAll() {
    await Promise.all([...this.clients.keys()].map((k) => this.drop(k)));
  }

  get size() {
    return this.clients.size;
  }
}
