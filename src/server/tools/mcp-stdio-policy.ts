import type { ServerContext } from '../context';
import { AppError } from '../errors';
import { ErrorCode } from '../../../schemas/errors';
import type { McpConfigDocument, McpPolicy, McpServerConfig } from '../../../schemas/tool';
import { isStdio, MCP_ERRORS, McpConnectError } from './mcp-client';

/**
 * Which stdio MCP servers this server may start. A stdio server is a process on the host, running
 * as the server's user, next to the database that holds every tenant's keys: no tenant setting may
 * start one. Only the operator allows commands (WEFT_MCP_STDIO_COMMANDS, or the super admin's list
 * in the system area), by exact name or path. A tenant keeps the arguments, but cannot turn an
 * allowed command into something else: environment variables that load code or change where
 * programs and packages come from are refused, and so is a working directory of its choosing.
 * Project spaces otherwise get remote MCP servers (streamable HTTP, SSE) through the outbound policy.
 */

export type StdioRefusal = { reason: 'command'; command: string } | { reason: 'env'; name: string } | { reason: 'cwd' };

/** Names a tenant may not set: loaders, interpreters' and package managers' options and paths. */
const DENIED_NAMES = new Set([
  'PATH',
  'HOME',
  'ENV',
  'BASH_ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'IFS',
  'PS4',
  'PROMPT_COMMAND',
  'CDPATH',
  'CLASSPATH',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'RESOLV_HOST_CONF',
  'RES_OPTIONS',
  'LOCALDOMAIN',
  'TMPDIR',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'OPENSSL_CONF',
  'CURL_CA_BUNDLE',
  'REQUESTS_CA_BUNDLE',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'NO_PROXY',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'BROWSER',
  'MANPAGER',
  'LESSOPEN',
  'LESSCLOSE',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'GIT_ASKPASS',
  'DOCKER_HOST',
  'DOCKER_CONFIG',
  'GOPATH',
  'GOROOT',
  'GOFLAGS',
  'GOPROXY',
  'GOTOOLCHAIN',
  'GOENV',
  'GOBIN',
  'R_LIBS',
  'R_PROFILE',
  'R_ENVIRON',
]);
const DENIED_PREFIXES = ['LD_', 'DYLD_', 'NODE_', 'NPM_CONFIG_', 'NPX_', 'YARN_', 'PNPM_', 'BUN_', 'DENO_', 'PYTHON', 'PIP_', 'UV_', 'PIPX_', 'CONDA', 'PERL', 'RUBY', 'GEM_', 'BUNDLE_', 'JAVA_', '_JAVA_', 'JDK_', 'MAVEN_', 'GRADLE_', 'GIT_', 'BASH_FUNC_', 'MALLOC_', 'GLIBC_', 'LUA_', 'PHP', 'CARGO_', 'RUST', 'DOTNET_', 'COREHOST_', 'JULIA_', 'ELECTRON_', 'CHROME_', 'PUPPETEER_', 'PLAYWRIGHT_'];
const NAME_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether a tenant may give this environment variable to an allowed command. */
export function envNameAllowed(name: string): boolean {
  if (!NAME_RE.test(name)) return false;
  const upper = name.toUpperCase();
  if (DENIED_NAMES.has(upper)) return false;
  // Proxies of any tool: where its downloads and requests really go.
  if (/_PROXY$/.test(upper)) return false;
  return !DENIED_PREFIXES.some((p) => upper.startsWith(p));
}

/** Why this server config may not start here (null: it may, or it is a remote server). */
export function stdioRefusal(config: McpServerConfig, allowed: ReadonlySet<string>): StdioRefusal | null {
  if (!isStdio(config)) return null;
  if (!allowed.has(config.command)) return { reason: 'command', command: config.command };
  const bad = Object.keys(config.env ?? {}).find((n) => !envNameAllowed(n));
  if (bad !== undefined) return { reason: 'env', name: bad };
  if (config.cwd !== undefined && config.cwd !== '') return { reason: 'cwd' };
  return null;
}

function refusalMessage(r: StdioRefusal): string {
  switch (r.reason) {
    case 'command':
      return `This server may not start the stdio MCP command "${r.command}": the operator allows commands (WEFT_MCP_STDIO_COMMANDS or System > Security); use a remote MCP server (streamable HTTP or SSE) instead`;
    case 'env':
      return `The environment variable ${r.name} may not be set for a stdio MCP server: it would change what the command runs`;
    case 'cwd':
      return 'A stdio MCP server may not set its working directory here';
  }
}

/** The server's one config of an MCP document (the document holds exactly one). */
const serverIn = (doc: McpConfigDocument | null | undefined): McpServerConfig | undefined => (doc ? Object.values(doc.mcpServers)[0] : undefined);

/** The MCP state of a tool for list and detail answers: whether it may run here, and why not. */
export function mcpPolicyOf(doc: McpConfigDocument | null | undefined, allowed: ReadonlySet<string>): McpPolicy {
  const server = serverIn(doc);
  const refusal = server ? stdioRefusal(server, allowed) : null;
  return { allowed: !refusal, reason: refusal?.reason ?? null };
}

/** Create and update: a stdio server that may not start here is refused (MCP-1000), nothing stored. */
export async function assertMcpConfigAllowed(ctx: ServerContext, doc: McpConfigDocument): Promise<void> {
  const server = serverIn(doc);
  if (!server || !isStdio(server)) return;
  const refusal = stdioRefusal(server, await ctx.outbound.stdioCommands());
  if (refusal) throw new AppError(400, ErrorCode.MCP_STDIO_NOT_ALLOWED, refusalMessage(refusal), refusal);
}

/** For the MCP clients: refuses, before anything starts, a stdio server that may not run here. */
export const stdioGate = (ctx: ServerContext) => async (config: Extract<McpServerConfig, { command: string }>) => {
  const refusal = stdioRefusal(config, await ctx.outbound.stdioCommands());
  if (refusal) throw new McpConnectError(MCP_ERRORS.STDIO_NOT_ALLOWED, refusalMessage(refusal), refusal);
};
