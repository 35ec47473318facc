import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useStudio, DEFAULT_TENANT_ID } from './harness';
import { configureRequest } from '../../src/api/request';
import { signIn } from '../../src/api/auth';
import { createWorkspace } from '../../src/api/workspaces';
import * as tools from '../../src/api/tools';
import { closeMcpClients } from '../../src/server/tools/runtime';
import { workspaceResources } from '../../src/app/screens/app/workspace-resources';

// The client functions of src/api/tools.ts against the real server: paths, bodies and answers parse.

// The operator allows the node binary that runs the stdio MCP fixture.
const h = useStudio({ mcpStdioCommands: process.execPath });
let echo: http.Server;
let echoUrl = '';
beforeAll(async () => {
  await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.studio.app.server.address() as AddressInfo;
  configureRequest({ baseUrl: `http://127.0.0.1:${port}` });
  echo = http.createServer((req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url })));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  h.allowOutbound(echoUrl);
});
afterAll(async () => {
  await closeMcpClients(h.studio.ctx);
  echo.closeAllConnections();
  await new Promise((r) => echo.close(r));
});

it('every tools endpoint function parses the real answers', async () => {
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' });
  const ws = await createWorkspace({ name: 'Tools client' });
  const o = { workspaceId: ws.id };
  expect((await tools.listBuiltinTools(o)).tools).toHaveLength(3);
  const t = await tools.createTool({ name: 'Client tool' }, o);
  expect((await tools.updateTool({ id: t.id, intro: 'hi' }, o)).intro).toBe('hi');
  const fn = await tools.createFunction(t.id, { name: 'ping', url: `${echoUrl}/ping`, params: [{ param_key: 'q', data_type: 'string', request_type: 'query_params' }] }, o);
  expect((await tools.getFunction(t.id, fn.id, o)).name).toBe('ping');
  expect((await tools.updateFunction(t.id, { id: fn.id, description: 'd' }, o)).description).toBe('d');
  const r = await tools.testFunction(t.id, fn.id, { q: 'x' }, o);
  expect(r).toMatchObject({ ok: true, status: 200 });
  expect(JSON.parse(r.body).url).toBe('/ping?q=x');
  expect((await tools.getTool(t.id, o)).functions).toHaveLength(1);
  expect((await tools.publishTool(t.id, 'v1', o)).published_version).toBe(1);
  expect((await tools.listToolVersions(t.id, o))[0].note).toBe('v1');
  expect((await tools.unpublishTool(t.id, o)).status).toBe('draft');
  expect((await tools.listTools({ name: 'client', page_size: 5 }, o)).items.map((x) => x.name)).toEqual(['Client tool']);
  const imported = await tools.importOpenApi({ document: JSON.stringify({ swagger: '2.0', info: { title: 'Tiny' }, host: 'tiny.example.com', paths: { '/a': { get: { operationId: 'getA' } } } }) }, o);
  expect(imported.function_count).toBe(1);
  const mcp = await tools.createMcpTool({ config: { mcpServers: { Fixture: { command: process.execPath, args: [path.resolve('tests/fixtures/mcp-server.mjs')] } } } }, o);
  expect((await tools.listMcpTools(mcp.id, o)).tools.map((x) => x.name)).toEqual(['add', 'echo', 'fail']);
  expect((await tools.toggleMcpTool(mcp.id, 'echo', true, o)).mcp_enabled).toEqual(['echo']);
  // The canvas pickers' sources.
  const res = workspaceResources(ws.id, { builtinTools: 'Built-in' });
  const signal = AbortSignal.timeout(10_000);
  const options = await res.tools!.list({ signal });
  expect(options.map((x) => x.name)).toEqual(['Tiny', 'Client tool', 'Built-in']);
  expect(options[1].functions).toEqual([{ id: fn.id, name: 'ping', description: 'd', parameters: [{ name: 'q', type: 'string', required: false }] }]);
  expect(await res.mcpServers!.list({ signal })).toEqual([{ id: mcp.id, name: 'Fixture', tools: [{ id: 'echo', name: 'echo' }] }]);
  expect(await tools.deleteFunction(t.id, fn.id, o)).toBeNull();
  expect(await tools.deleteTool(t.id, o)).toBeNull();
  await expect(tools.createWorkflowTool({ app_id: ws.id }, { ...o, reaction: 'silent' })).rejects.toMatchObject({ code: 'VALIDATION-1000' });
});
