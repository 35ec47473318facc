import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio, DEFAULT_TENANT_ID, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';
import { tools } from '../../src/server/db/schema';
import { closeMcpClients, createMcpService } from '../../src/server/tools/runtime';

// Issue 20, finding 1: stdio MCP servers start processes on the host, so only the operator may
// allow them (WEFT_MCP_STDIO_COMMANDS, or the super admin's list in the system area). A project
// space's owner — any user who creates a space — gets remote MCP servers only.

const FIXTURE = path.resolve('tests/fixtures/mcp-server.mjs');
// The operator allows exactly the node binary that runs the test fixture, nothing else.
const h = useStudio({ mcpStdioCommands: process.execPath });
const URL = '/api/v1/console/tools';
let f: Fixture;
let dir = '';

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> = {}) {
  return h.call(method, url, { ...opts, token: f.u[who].token, workspaceId: f.wsA });
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'stdio');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-stdio-'));
});

afterAll(async () => {
  await closeMcpClients(h.studio.ctx);
  fs.rmSync(dir, { recursive: true, force: true });
});

const attack = (proof: string) => ({ mcpServers: { x: { command: 'sh', args: ['-c', `id > ${proof}`] } } });
/** As the API stored configs before the rule (zod's defaults filled in). */
const stored = (proof: string) => ({ mcpServers: { x: { command: 'sh', args: ['-c', `id > ${proof}`], env: {} } } });

/** A tool row as an earlier version stored it (before the rule existed). */
async function legacyTool(name: string, config: Record<string, unknown>): Promise<string> {
  const id = randomUUID();
  await h.studio.ctx.db.insert(tools).values({ id, tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA, type: 'mcp', name, intro: '', icon: { icon: 'globe', iconColor: '#E0E7FF' }, auth: { type: 'none' }, mcpConfig: config, mcpEnabled: ['x'], createdBy: f.u.owner.id });
  return id;
}

describe('the attack of the issue', () => {
  it('a project-space owner cannot create an MCP tool that runs a shell command, and nothing runs', async () => {
    const proof = path.join(dir, 'proof.txt');
    const r = await call('POST', `${URL}/mcp`, 'owner', { body: { config: attack(proof) } });
    expectCode(r, 400, 'MCP-1000');
    expect(r.body.data).toMatchObject({ reason: 'command', command: 'sh' });
    // Nothing was stored: the list holds no such tool.
    const list = expectOk(await call('GET', URL, 'owner', { query: { type: 'mcp' } }));
    expect(list.items.map((t: { name: string }) => t.name)).not.toContain('x');
    expect(fs.existsSync(proof)).toBe(false);
  });

  it('an existing stdio tool whose command is not allowed is never started: list, detail, live tools and runs', async () => {
    const proof = path.join(dir, 'legacy-proof.txt');
    const id = await legacyTool('Legacy shell', stored(proof));
    const detail = expectOk(await call('GET', `${URL}/${id}`, 'member'));
    expect(detail.mcp_policy).toEqual({ allowed: false, reason: 'command' });
    const listed = expectOk(await call('GET', URL, 'member', { query: { type: 'mcp' } }));
    expect(listed.items.find((t: { id: string }) => t.id === id).mcp_policy).toEqual({ allowed: false, reason: 'command' });
    const live = await call('GET', `${URL}/${id}/mcp-tools`, 'owner');
    expectCode(live, 400, 'MCP-1000');
    const mcp = createMcpService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA });
    const err = await mcp.callTool({ serverId: id, name: 'x' }, {}, { signal: AbortSignal.timeout(5000) }).then(
      () => null,
      (e: { code: string; message: string }) => e,
    );
    expect(err).toMatchObject({ code: 'MCP-1000' });
    expect(err!.message).toMatch(/may not start the stdio MCP command "sh"/);
    expect(fs.existsSync(proof)).toBe(false);
  });

  it('an update cannot turn a remote MCP tool into a host command', async () => {
    const proof = path.join(dir, 'update-proof.txt');
    const t = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Remote one': { url: 'https://mcp.example.com/mcp' } } } } }));
    expect(t.mcp_policy).toEqual({ allowed: true, reason: null });
    expectCode(await call('PUT', URL, 'owner', { body: { id: t.id, mcp_config: attack(proof) } }), 400, 'MCP-1000');
    const after = expectOk(await call('GET', `${URL}/${t.id}`, 'owner'));
    expect(after.mcp_config).toEqual({ mcpServers: { 'Remote one': { url: 'https://mcp.example.com/mcp', headers: {} } } });
    expect(fs.existsSync(proof)).toBe(false);
  });
});

describe('commands the operator allows', () => {
  it('start and list their tools', async () => {
    const t = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Allowed math': { command: process.execPath, args: [FIXTURE] } } } } }));
    expect(t.mcp_policy).toEqual({ allowed: true, reason: null });
    const listed = expectOk(await call('GET', `${URL}/${t.id}/mcp-tools`, 'member'));
    expect(listed.tools.map((x: { name: string }) => x.name)).toEqual(['add', 'echo', 'fail']);
  });

  it('cannot be turned into something else through env or cwd', async () => {
    const evil = path.join(dir, 'evil.cjs');
    const proof = path.join(dir, 'env-proof.txt');
    fs.writeFileSync(evil, `require('fs').writeFileSync(${JSON.stringify(proof)}, 'ran')`);
    for (const env of [{ NODE_OPTIONS: `--require ${evil}` }, { LD_PRELOAD: '/tmp/x.so' }, { PATH: dir }, { DYLD_INSERT_LIBRARIES: '/tmp/x.dylib' }, { PYTHONPATH: dir }, { npm_config_registry: 'http://evil.example' }]) {
      const r = await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Env trick': { command: process.execPath, args: [FIXTURE], env } } } } });
      expectCode(r, 400, 'MCP-1000');
      expect(r.body.data).toMatchObject({ reason: 'env', name: Object.keys(env)[0] });
    }
    const cwd = await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Cwd trick': { command: process.execPath, args: [FIXTURE], cwd: dir } } } } });
    expectCode(cwd, 400, 'MCP-1000');
    expect(cwd.body.data).toMatchObject({ reason: 'cwd' });
    // Ordinary variables (API keys and the like) are fine.
    expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Env ok': { command: process.execPath, args: [FIXTURE], env: { MCP_FIXTURE_LABEL: 'env', GITHUB_TOKEN: 'x' } } } } } }));
    expect(fs.existsSync(proof)).toBe(false);
  });

  it('follow the operator: a command taken off the list stops, one the super admin adds starts', async () => {
    const t = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Switch math': { command: process.execPath, args: [FIXTURE] } } } } }));
    h.studio.ctx.settings.mcpStdioCommands = [];
    try {
      expect(expectOk(await call('GET', `${URL}/${t.id}`, 'owner')).mcp_policy).toEqual({ allowed: false, reason: 'command' });
      expectCode(await call('GET', `${URL}/${t.id}/mcp-tools`, 'owner'), 400, 'MCP-1000');
      const policy = expectOk(await h.call('GET', '/api/v1/admin/security/network-policy', { token: h.adminToken }));
      expectOk(await h.call('PUT', '/api/v1/admin/security/network-policy', { token: h.adminToken, body: { allow: policy.stored.allow, mcp_stdio_commands: [process.execPath] } }));
      expect(expectOk(await call('GET', `${URL}/${t.id}`, 'owner')).mcp_policy).toEqual({ allowed: true, reason: null });
      expect(expectOk(await call('GET', `${URL}/${t.id}/mcp-tools`, 'owner')).tools).toHaveLength(3);
    } finally {
      h.studio.ctx.settings.mcpStdioCommands = [process.execPath];
      expectOk(await h.call('PUT', '/api/v1/admin/security/network-policy', { token: h.adminToken, body: { allow: [], mcp_stdio_commands: [] } }));
    }
  });
});
