import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio, DEFAULT_TENANT_ID } from './harness';
import { expectCode, expectOk, PASSWORD } from './workspace-fixture';
import { createUser } from '../../src/server/services/users';
import { createOutboundPolicy } from '../../src/server/security/outbound-policy';

// The operator's side of the outbound policy: WEFT_OUTBOUND_ALLOW and WEFT_MCP_STDIO_COMMANDS from
// the environment (read-only on screen), and the lists a super admin keeps in the system area.

const h = useStudio({ outboundAllow: '10.20.0.0/16, db.corp.example:1521', mcpStdioCommands: '/usr/local/bin/mcp-files' });
const URL = '/api/v1/admin/security/network-policy';
let tenantAdmin = '';
let user = '';
let workspaceId = '';
let target: net.Server;
let port = 0;
let connections = 0;
const sockets = new Set<net.Socket>();

beforeAll(async () => {
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'np_tadmin', password: PASSWORD, role: 'tenant_admin' });
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'np_user', password: PASSWORD, role: 'user' });
  tenantAdmin = await h.login('np_tadmin', PASSWORD);
  user = await h.login('np_user', PASSWORD);
  workspaceId = expectOk(await h.call('POST', '/api/v1/console/workspaces', { token: user, body: { name: 'np space' } })).id;
  target = net.createServer((s) => {
    connections++;
    sockets.add(s);
    s.on('error', () => undefined);
    s.resume();
    s.end('nope');
  });
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  port = (target.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => target.close(r));
});

const check = () =>
  h.call('POST', '/api/v1/console/databases/check-connection', {
    token: user,
    workspaceId,
    body: { type: 'postgresql', host: '127.0.0.1', port, account: 'a', password: 'b', database: '', sid: '' },
  });

describe('GET/PUT /admin/security/network-policy', () => {
  it('is for super admins only', async () => {
    for (const token of [tenantAdmin, user]) {
      expectCode(await h.call('GET', URL, { token }), 403, 'PERMISSION-1000');
      expectCode(await h.call('PUT', URL, { token, body: { allow: ['127.0.0.1'], mcp_stdio_commands: ['sh'] } }), 403, 'PERMISSION-1000');
    }
    expectCode(await h.call('GET', URL), 401, 'AUTH-1001');
    // Nothing changed.
    expect(expectOk(await h.call('GET', URL, { token: h.adminToken })).stored).toEqual({ allow: [], mcp_stdio_commands: [] });
  });

  it('shows the environment entries read-only beside the stored ones', async () => {
    const got = expectOk(await h.call('GET', URL, { token: h.adminToken }));
    expect(got).toMatchObject({
      env: { allow: ['10.20.0.0/16', 'db.corp.example:1521'], mcp_stdio_commands: ['/usr/local/bin/mcp-files'], allow_private: false },
      stored: { allow: [], mcp_stdio_commands: [] },
    });
  });

  it('validates every entry, with the field that is wrong', async () => {
    for (const [body, field] of [
      [{ allow: ['127.0.0.1', '10.0.0.0/33'], mcp_stdio_commands: [] }, 'allow/1'],
      [{ allow: ['300.1.1.1'], mcp_stdio_commands: [] }, 'allow/0'],
      [{ allow: ['host:99999'], mcp_stdio_commands: [] }, 'allow/0'],
      [{ allow: ['http://example.com'], mcp_stdio_commands: [] }, 'allow/0'],
      [{ allow: ['fe80::1'], mcp_stdio_commands: [] }, 'allow/0'],
      [{ allow: [], mcp_stdio_commands: ['ok', ''] }, 'mcp_stdio_commands/1'],
      [{ allow: [], mcp_stdio_commands: ['node --require x'] }, 'mcp_stdio_commands/0'],
    ] as const) {
      const r = await h.call('PUT', URL, { token: h.adminToken, body });
      expectCode(r, 400, 'VALIDATION-1000');
      expect(JSON.stringify(r.body.data)).toContain(field);
    }
    expect(expectOk(await h.call('GET', URL, { token: h.adminToken })).stored).toEqual({ allow: [], mcp_stdio_commands: [] });
  });

  it('takes effect at once here, and within seconds in another process on the same database', async () => {
    // Another server process: its own policy on the same database, with a short reload interval.
    const other = createOutboundPolicy({ db: h.studio.ctx.db, settings: h.studio.ctx.settings, reloadMs: 200 });
    await expect(other.admit('127.0.0.1', port, 'database')).rejects.toMatchObject({ code: 'NETWORK-1000' });
    expectCode(await check(), 400, 'NETWORK-1000');
    expect(connections).toBe(0);

    const saved = expectOk(await h.call('PUT', URL, { token: h.adminToken, body: { allow: [` 127.0.0.1:${port} `, '[fd00:1::]/64:443', '*.svc.example'], mcp_stdio_commands: ['/opt/mcp/bin/files'] } }));
    expect(saved.stored).toEqual({ allow: [`127.0.0.1:${port}`, '[fd00:1::]/64:443', '*.svc.example'], mcp_stdio_commands: ['/opt/mcp/bin/files'] });
    expect(saved.updated_by).toBe('admin');
    expect(expectOk(await check())).toMatchObject({ status: 'failed', code: 'unreachable' });
    expect(connections).toBe(1);

    await new Promise((r) => setTimeout(r, 300));
    await expect(other.admit('127.0.0.1', port, 'database')).resolves.toMatchObject({ address: '127.0.0.1' });
    // Another port of the same host stays closed.
    await expect(other.admit('127.0.0.1', port + 1, 'database')).rejects.toMatchObject({ code: 'NETWORK-1000' });

    expectOk(await h.call('PUT', URL, { token: h.adminToken, body: { allow: [], mcp_stdio_commands: [] } }));
    expectCode(await check(), 400, 'NETWORK-1000');
    expect(connections).toBe(1);
  });
});
