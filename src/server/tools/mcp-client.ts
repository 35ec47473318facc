import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import net from 'node:net';
import { isBlockedAddress, systemResolver } from '../http';
import type { McpServerConfig } from '../../../schemas/tool';

/**
 * Clients of MCP servers (@modelcontextprotocol/sdk): stdio (a command the server starts) or
 * streamable HTTP (a URL; private addresses refused unless WEFT_HTTP_ALLOW_PRIVATE). A pool keeps
 * one connected client per server config and closes it after a quiet spell or on shutdown.
 */

export const MCP_ERRORS = {
  CONNECT: 'MCP-CONNECT-FAILED',
  TIMEOUT: 'MCP-TIMEOUT',
  BLOCKED: 'MCP-ADDRESS-BLOCKED',
} as const;

export class McpConnectError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface McpClientOptions {
  allowPrivate: boolean;
  /** Connect and handshake. Default 20 s. */
  timeoutMs?: number;
}

const isStdio = (c: McpServerConfig): c is Extract<McpServerConfig, { command: string }> => 'command' in c;

/** A fetch that refuses hosts resolving to private, loopback or link-local addresses. */
function guardedFetch(allowPrivate: boolean): typeof fetch {
  return async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!allowPrivate) {
      const host = url.hostname.replace(/^\[|\]$/g, '');
      const addresses = net.isIP(host) ? [host] : (await systemResolver(host)).map((a) => a.address);
      const blocked = addresses.find(isBlockedAddress);
      if (blocked) throw new McpConnectError(MCP_ERRORS.BLOCKED, `${url.host} is a private or local address (${blocked}) that may not be reached`);
    }
    // Redirects could lead to a refused address: not followed.
    return fetch(input, { ...init, redirect: 'error' });
  };
}

/** Connects to a server; a clear error (with the tail of an stdio server's stderr) when it cannot. */
export async function connectMcp(config: McpServerConfig, opts: McpClientOptions): Promise<Client> {
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const client = new Client({ name: 'weft', version: '0.1.0' });
  let stderr = '';
  let transport;
  if (isStdio(config)) {
    const t = new StdioClientTransport({
      command: config.command,
      args: config.args,
      env: { ...getDefaultEnvironment(), ...config.env },
      cwd: config.cwd,
      stderr: 'pipe',
    });
    t.stderr?.on('data', (c: Buffer) => {
      stderr = (stderr + c.toString()).slice(-2000);
    });
    transport = t;
  } else {
    transport = new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers }, fetch: guardedFetch(opts.allowPrivate) });
  }
  try {
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  } catch (e) {
    await client.close().catch(() => undefined);
    if (e instanceof McpConnectError) throw e;
    const cause = (e as { cause?: unknown }).cause;
    if (cause instanceof McpConnectError) throw cause;
    const msg = (e as Error).message ?? String(e);
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

  /** Closes every client (server shutdown). */
  async closeAll() {
    await Promise.all([...this.clients.keys()].map((k) => this.drop(k)));
  }

  get size() {
    return this.clients.size;
  }
}
