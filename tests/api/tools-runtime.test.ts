import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio, DEFAULT_TENANT_ID, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, setUpWorkspaces, type Who } from './workspace-fixture';
import { createApp, flow, parseSse, RUNS, textInput } from './runs-kit';
import { toolExecutor } from '../../plugins/tool/executor';
import { toolPlugin } from '../../plugins/tool/manifest';
import { mcpExecutor } from '../../plugins/mcp/executor';
import { mcpPlugin } from '../../plugins/mcp/manifest';
import type { ExecutionContext, ExecutorServices } from '../../src/plugin-sdk/executor';
import type { NodeConfig } from '../../schemas/flow';
import { eq } from 'drizzle-orm';
import { tools } from '../../src/server/db/schema';
import { closeMcpClients, createMcpService, createToolService } from '../../src/server/tools/runtime';
// @ts-expect-error a plain .mjs fixture without types
import { createMcpServer } from '../fixtures/mcp-server.mjs';

// Function tests and tool runs against a real local HTTP server, and MCP against real MCP servers
// (the fixture over stdio, and the SDK's streamable HTTP server on a local port).

// The operator allows the node binary that runs the stdio fixture (tests/fixtures/mcp-server.mjs).
const h = useStudio({ mcpStdioCommands: process.execPath });
const URL = '/api/v1/console/tools';
let f: Fixture;
let apiBase = '';
let mcpUrl = '';
const servers: http.Server[] = [];

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> = {}) {
  return h.call(method, url, { ...opts, token: f.u[who].token, workspaceId: f.wsA });
}

async function listen(handler: http.RequestListener): Promise<string> {
  const server = http.createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'toolrt');
  // Echoes what it got, as JSON; /status/:n answers that status.
  apiBase = await listen((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const u = new globalThis.URL(req.url ?? '/', 'http://x');
      const status = /^\/status\/(\d+)$/.exec(u.pathname)?.[1];
      res.writeHead(status ? Number(status) : 200, { 'content-type': 'application/json', 'x-echo': 'yes' });
      res.end(JSON.stringify({ method: req.method, path: u.pathname, query: Object.fromEntries(u.searchParams), headers: req.headers, body: Buffer.concat(chunks).toString() }));
    });
  });
  mcpUrl = `${await listen(async (req, res) => {
    // Stateless streamable HTTP: a server and a transport per request.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const server = createMcpServer('http');
    res.on('close', () => void transport.close().then(() => server.close()));
    await server.connect(transport);
    await transport.handleRequest(req, res);
  })}/mcp`;
  // Both local servers are opened by host:port in the outbound allow-list, as an operator would.
  h.allowOutbound(apiBase, mcpUrl);
});

afterAll(async () => {
  await closeMcpClients(h.studio.ctx);
  // Keep-alive sockets of the MCP HTTP client would hold close() open until they time out.
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

const credential = async (identifier: string, ak: string, sk: string) => expectOk(await call('POST', '/api/v1/console/credentials', 'owner', { body: { identifier, ak, sk } })).id as string;

describe('function test (POST /tools/:id/functions/:fid/test)', () => {
  let toolId = '';
  beforeAll(async () => {
    toolId = expectOk(await call('POST', URL, 'owner', { body: { name: 'Echo API' } })).id;
  });

  const addFn = async (body: Record<string, unknown>) => expectOk(await call('POST', `${URL}/${toolId}/functions`, 'owner', { body })).id as string;
  const test = async (fid: string, inputs: Record<string, unknown>, who: Who = 'member') => expectOk(await call('POST', `${URL}/${toolId}/functions/${fid}/test`, who, { body: { inputs } }));

  it('is refused by the outbound policy for a loopback URL the allow-list does not open', async () => {
    const opened = h.studio.ctx.settings.outboundAllow;
    const fid = await addFn({ name: 'blocked', url: `${apiBase}/x` });
    h.studio.ctx.settings.outboundAllow = [];
    try {
      const r = await test(fid, {});
      expect(r).toMatchObject({ ok: false, status: 0, error: { code: 'NETWORK-1000' } });
    } finally {
      h.studio.ctx.settings.outboundAllow = opened;
    }
    expect(await test(fid, {})).toMatchObject({ ok: true, status: 200, error: null });
  });

  it('puts path, query, header and json body inputs where the rows say', async () => {
    const fid = await addFn({
      name: 'create_item',
      method: 'POST',
      url: `${apiBase}/items/{group}`,
      params: [
        { param_key: 'group', data_type: 'string', request_type: 'query_path', is_not_null: true },
        { param_key: 'dry', data_type: 'string', request_type: 'query_params', default_value: 'no' },
      ],
      headers: [{ param_key: 'X-Trace', data_type: 'string', param_value: 'trace-{group}' }],
      body_subtype: 'json',
      body: [{ param_key: 'data', data_type: 'object', request_type: 'body', request_subtype: 'json', children: [{ param_key: 'title', data_type: 'string' }, { param_key: 'qty', data_type: 'integer' }, { param_key: 'ok', data_type: 'boolean' }] }],
    });
    const r = await test(fid, { group: 'a b', title: 'Pen', qty: '3', ok: 'true' });
    expect(r.status).toBe(200);
    expect(r.headers['x-echo']).toBe('yes');
    expect(r.request.url).toBe(`${apiBase}/items/a%20b?dry=no`);
    const echo = JSON.parse(r.body);
    expect(echo).toMatchObject({ method: 'POST', path: '/items/a%20b', query: { dry: 'no' }, headers: { 'x-trace': 'trace-a b', 'content-type': 'application/json' } });
    expect(JSON.parse(echo.body)).toEqual({ title: 'Pen', qty: 3, ok: true });
    expect(typeof r.elapsed_ms).toBe('number');
    // A required path parameter without a value: an error result, nothing sent.
    expect(await test(fid, {})).toMatchObject({ ok: false, error: { code: 'TOOL-INPUT-MISSING' } });
  });

  it('sends array rows of a json body as arrays when the inputs are text (a JSON array, or one item)', async () => {
    const fid = await addFn({
      name: 'arrays',
      method: 'POST',
      url: `${apiBase}/orders`,
      body_subtype: 'json',
      body: [
        {
          param_key: 'data',
          data_type: 'object',
          request_type: 'body',
          request_subtype: 'json',
          children: [
            { param_key: 'tags', data_type: 'string', is_array: true },
            { param_key: 'qty', data_type: 'integer', is_array: true },
            { param_key: 'items', data_type: 'object', is_array: true, children: [{ param_key: 'sku', data_type: 'string' }] },
            { param_key: 'customer', data_type: 'object', children: [{ param_key: 'name', data_type: 'string' }] },
          ],
        },
      ],
    });
    const echo = JSON.parse((await test(fid, { tags: '["a","b"]', qty: '[1,"2"]', items: '[{"sku":"x"}]', customer: '{"name":"Ann"}' })).body);
    expect(JSON.parse(echo.body)).toEqual({ tags: ['a', 'b'], qty: [1, 2], items: [{ sku: 'x' }], customer: { name: 'Ann' } });
    const one = JSON.parse((await test(fid, { tags: 'solo', qty: '7' })).body);
    expect(JSON.parse(one.body)).toEqual({ tags: ['solo'], qty: [7], customer: {} });
  });

  it('sends form bodies', async () => {
    const fid = await addFn({ name: 'form', method: 'POST', url: `${apiBase}/form`, body_subtype: 'x-www-form-urlencoded', body: [{ param_key: 'a', data_type: 'string', request_type: 'body', request_subtype: 'x-www-form-urlencoded' }] });
    const echo = JSON.parse((await test(fid, { a: 'x&y' })).body);
    expect(echo.body).toBe('a=x%26y');
    expect(echo.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('sends query_string and path bodies in the URL (GET too), and refuses them malformed (spec 9 body types)', async () => {
    const qs = await addFn({ name: 'qs', method: 'GET', url: `${apiBase}/search`, body_subtype: 'query_string', body: [{ param_key: 'q', data_type: 'string', request_type: 'body', request_subtype: 'query_string' }] });
    const echoQs = JSON.parse((await test(qs, { q: 'a b&c' })).body);
    expect(echoQs).toMatchObject({ method: 'GET', path: '/search', query: { q: 'a b&c' }, body: '' });
    const pathFn = await addFn({ name: 'by_path', method: 'DELETE', url: `${apiBase}/items/{id}`, body_subtype: 'path', body: [{ param_key: 'id', data_type: 'integer', request_type: 'body', request_subtype: 'path' }] });
    const echoPath = JSON.parse((await test(pathFn, { id: 'x/1' })).body);
    expect(echoPath).toMatchObject({ method: 'DELETE', path: '/items/x%2F1', body: '' });
    // Bad input changes nothing: a path field without its {key}, a json-only type, an unknown body type.
    const before = expectOk(await call('GET', `${URL}/${toolId}`, 'owner')).functions.length;
    const noPlaceholder = await call('POST', `${URL}/${toolId}/functions`, 'owner', { body: { name: 'bad_path', url: `${apiBase}/items`, body_subtype: 'path', body: [{ param_key: 'id', data_type: 'string' }] } });
    expectCode(noPlaceholder, 400, 'VALIDATION-1000');
    expect(JSON.stringify(noPlaceholder.body.data)).toContain('placeholder');
    expectCode(await call('POST', `${URL}/${toolId}/functions`, 'owner', { body: { name: 'bad_type', url: `${apiBase}/x`, body_subtype: 'query_string', body: [{ param_key: 'b', data_type: 'boolean' }] } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/${toolId}/functions`, 'owner', { body: { name: 'bad_sub', url: `${apiBase}/x`, body_subtype: 'query', body: [] } }), 400, 'VALIDATION-1000');
    // A member may test but not add functions.
    expectCode(await call('POST', `${URL}/${toolId}/functions`, 'member', { body: { name: 'm_qs', url: `${apiBase}/x`, body_subtype: 'query_string' } }), 403, 'PERMISSION-1000');
    expect(expectOk(await call('GET', `${URL}/${toolId}`, 'owner')).functions.length).toBe(before);
  });

  it('authenticates with the credential: API key in header or query, bearer, basic', async () => {
    const cred = await credential('echo-key', 'user-1', 'secret-123');
    const headerFn = await addFn({ name: 'key_header', url: `${apiBase}/a`, auth: { type: 'api_key', location: 'header', key: 'X-Api-Key', credential_id: cred } });
    const queryFn = await addFn({ name: 'key_query', url: `${apiBase}/a`, auth: { type: 'api_key', location: 'query', key: 'api_key', credential_id: cred } });
    const bearerFn = await addFn({ name: 'bearer', url: `${apiBase}/a`, auth: { type: 'bearer', credential_id: cred } });
    const basicFn = await addFn({ name: 'basic', url: `${apiBase}/a`, auth: { type: 'basic', credential_id: cred } });
    expect(JSON.parse((await test(headerFn, {})).body).headers['x-api-key']).toBe('secret-123');
    const q = await test(queryFn, {});
    expect(JSON.parse(q.body).query.api_key).toBe('secret-123');
    expect(q.request.url).toBe(`${apiBase}/a?api_key=******`);
    expect(JSON.parse((await test(bearerFn, {})).body).headers.authorization).toBe('Bearer secret-123');
    expect(JSON.parse((await test(basicFn, {})).body).headers.authorization).toBe(`Basic ${Buffer.from('user-1:secret-123').toString('base64')}`);
    // The credential gone: a clear error, no request.
    expectOk(await call('DELETE', `/api/v1/console/credentials/${cred}`, 'owner'));
    expect(await test(bearerFn, {})).toMatchObject({ ok: false, error: { code: 'TOOL-CREDENTIAL-MISSING' } });
  });

  it('checks membership and the ids', async () => {
    const fid = await addFn({ name: 'ids', url: `${apiBase}/a` });
    expectCode(await h.call('POST', `${URL}/${toolId}/functions/${fid}/test`, { token: f.u.outsider.token, workspaceId: f.wsA, body: { inputs: {} } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/${toolId}/functions/${f.wsA}/test`, 'owner', { body: { inputs: {} } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/${toolId}/functions/${fid}/test`, 'owner', { body: { inputs: 'x' } }), 400, 'VALIDATION-1000');
  });
});

const reader = { get: () => undefined, has: () => false, render: (t: string) => t };

function ctxFor<C extends NodeConfig>(config: C, services: ExecutorServices): ExecutionContext<C> {
  return {
    runId: 'run-1',
    mode: 'workflow',
    node: { id: 'n1', kind: 'x', title: 'n1' },
    config,
    inputs: {},
    runInputs: {},
    variables: reader,
    signal: AbortSignal.timeout(30_000),
    attempt: 0,
    emitChunk: () => undefined,
    waiting: () => undefined,
    assign: () => undefined,
    services,
  };
}

const errorOf = (p: Promise<unknown>) => p.then(() => ({ code: 'none', message: '' }), (e: { code: string; message: string }) => e);

describe('ToolService through the tool executor', () => {
  it('runs a custom function by id or name, a built-in tool, and fails clearly otherwise', async () => {
    const tool = expectOk(await call('POST', URL, 'owner', { body: { name: 'Runtime API' } }));
    const fn = expectOk(await call('POST', `${URL}/${tool.id}/functions`, 'owner', { body: { name: 'lookup', url: `${apiBase}/lookup`, params: [{ param_key: 'city', data_type: 'string', request_type: 'query_params', is_not_null: true, description: 'City name' }] } }));
    const services: ExecutorServices = { tools: createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA }) };
    const params = [{ name: 'city', source: 'text', text: 'Paris' }];
    for (const functionId of [fn.id, 'lookup']) {
      const out = await toolExecutor.execute(ctxFor(toolPlugin.configSchema.parse({ toolId: tool.id, functionId, params }), services));
      expect((out.outputs.json as { query: unknown }[])[0].query).toEqual({ city: 'Paris' });
    }
    expect(await services.tools!.describe!({ provider: tool.id, name: 'lookup' }, { signal: AbortSignal.timeout(5000) })).toEqual({
      name: 'lookup',
      description: `GET ${apiBase}/lookup`,
      parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
    });
    const calc = await toolExecutor.execute(ctxFor(toolPlugin.configSchema.parse({ toolId: 'builtin', functionId: 'calculator', params: [{ name: 'expression', text: '2*21' }] }), services));
    expect(calc.outputs.text).toBe('42');
    // Another workspace cannot reach the tool.
    const other = { tools: createToolService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsB }) };
    expect(await errorOf(Promise.resolve(toolExecutor.execute(ctxFor(toolPlugin.configSchema.parse({ toolId: tool.id, functionId: 'lookup' }), other))))).toMatchObject({ code: 'TOOL-NOT-FOUND' });
    // A 4xx answer fails the node with the status.
    const bad = expectOk(await call('POST', `${URL}/${tool.id}/functions`, 'owner', { body: { name: 'gone', url: `${apiBase}/status/404` } }));
    expect(await errorOf(Promise.resolve(toolExecutor.execute(ctxFor(toolPlugin.configSchema.parse({ toolId: tool.id, functionId: bad.id }), services))))).toMatchObject({ code: 'TOOL-HTTP-STATUS' });
  });
});

describe('MCP tools', () => {
  const stdioConfig = { mcpServers: { 'Local Math': { command: process.execPath, args: [path.resolve('tests/fixtures/mcp-server.mjs')] } } };

  it('adds a stdio server, lists its tools live, switches them, and runs one through the mcp executor', async () => {
    const t = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: stdioConfig, intro: 'math' } }));
    expect(t).toMatchObject({ type: 'mcp', name: 'Local Math', function_count: 0, mcp_enabled: [] });
    const listed = expectOk(await call('GET', `${URL}/${t.id}/mcp-tools`, 'member'));
    expect(listed.tools.map((x: { name: string; enabled: boolean }) => [x.name, x.enabled])).toEqual([
      ['add', false],
      ['echo', false],
      ['fail', false],
    ]);
    expect(listed.tools[0].input_schema).toMatchObject({ type: 'object', properties: { a: { type: 'number' } } });
    const services: ExecutorServices = { mcp: createMcpService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA }) };
    const run = (toolName: string, args: { name: string; text: string }[]) => Promise.resolve(mcpExecutor.execute(ctxFor(mcpPlugin.configSchema.parse({ serverId: t.id, toolName, args }), services)));
    expect(await errorOf(run('add', []))).toMatchObject({ code: 'MCP-TOOL-DISABLED' });
    expectCode(await call('PUT', `${URL}/${t.id}/mcp-tools/add`, 'member', { body: { enabled: true } }), 403, 'PERMISSION-1000');
    const on = expectOk(await call('PUT', `${URL}/${t.id}/mcp-tools/add`, 'owner', { body: { enabled: true } }));
    expect(on).toMatchObject({ mcp_enabled: ['add'], function_count: 1 });
    expectOk(await call('PUT', `${URL}/${t.id}/mcp-tools/fail`, 'owner', { body: { enabled: true } }));
    // Typed arguments (a node's text params would arrive as strings): straight through the service.
    const sum = await services.mcp!.callTool({ serverId: t.id, name: 'add' }, { a: 2, b: 40 }, { signal: AbortSignal.timeout(20_000) });
    expect(sum).toMatchObject({ content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 }, isError: false });
    expect(await errorOf(run('fail', []))).toMatchObject({ code: 'MCP-TOOL-ERROR', message: 'it broke' });
    expect(await services.mcp!.describeTool!({ serverId: t.id, name: 'add' }, { signal: AbortSignal.timeout(20_000) })).toMatchObject({ name: 'add', description: 'Adds two numbers' });
    const off = expectOk(await call('PUT', `${URL}/${t.id}/mcp-tools/add`, 'owner', { body: { enabled: false } }));
    expect(off.mcp_enabled).toEqual(['fail']);
  });

  it('talks streamable HTTP, and runs a tool through the executor', async () => {
    const secret = 'Bearer very-secret-token-123456';
    const t = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Remote Echo': { url: mcpUrl, headers: { authorization: secret } } } } } }));
    // Header and env values are masked in answers; the masked value sent back keeps the stored one.
    expect(t.mcp_config.mcpServers['Remote Echo'].headers.authorization).toBe('Bear****3456');
    expectOk(await call('PUT', URL, 'owner', { body: { id: t.id, mcp_config: t.mcp_config } }));
    const [row] = await h.studio.ctx.db.select().from(tools).where(eq(tools.id, t.id));
    expect(JSON.stringify(row.mcpConfig)).toContain(secret);
    const listed = expectOk(await call('GET', `${URL}/${t.id}/mcp-tools`, 'owner'));
    expect(listed.tools.find((x: { name: string }) => x.name === 'echo').description).toBe('Echoes the text (http)');
    expectOk(await call('PUT', `${URL}/${t.id}/mcp-tools/echo`, 'owner', { body: { enabled: true } }));
    const services: ExecutorServices = { mcp: createMcpService(h.studio.ctx, { tenantId: DEFAULT_TENANT_ID, workspaceId: f.wsA }) };
    const out = await mcpExecutor.execute(ctxFor(mcpPlugin.configSchema.parse({ serverId: t.id, toolName: 'echo', args: [{ name: 'text', text: 'hi' }] }), services));
    expect(out.outputs.text).toBe('http: hi');
  });

  it('answers a clear error when the server cannot start or is refused', async () => {
    const crash = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { Crashing: { command: process.execPath, args: [path.resolve('tests/fixtures/mcp-server.mjs')], env: { MCP_FIXTURE_CRASH: '1' } } } } } }));
    const r = await call('GET', `${URL}/${crash.id}/mcp-tools`, 'owner');
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toMatch(/Could not connect to the MCP server.*refusing to start/);
    expect(r.body.data).toEqual({ mcp_code: 'MCP-CONNECT-FAILED' });
    // A loopback port the allow-list does not open.
    const remote = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { Blocked: { url: 'http://127.0.0.1:9/mcp' } } } } }));
    const blocked = await call('GET', `${URL}/${remote.id}/mcp-tools`, 'owner');
    expectCode(blocked, 400, 'NETWORK-1000');
    expect(blocked.body.data).toEqual({ mcp_code: 'NETWORK-1000', host: '127.0.0.1', port: 9 });
    // Opened but nothing there: the one "could not connect" answer.
    h.allowOutbound('127.0.0.1:9');
    const down = await call('GET', `${URL}/${remote.id}/mcp-tools`, 'owner');
    expectCode(down, 400, 'NETWORK-1001');
    expect(down.body).toMatchObject({ msg: 'Could not connect to the MCP server at 127.0.0.1:9', data: { mcp_code: 'NETWORK-1001' } });
  });

  it('validates the config JSON and the role', async () => {
    for (const config of [{}, { mcpServers: {} }, { mcpServers: { a: { command: '' } } }, { mcpServers: { a: { url: 'ftp://x' } } }, { mcpServers: { a: { url: 'https://x.example' }, b: { url: 'https://y.example' } } }, { mcpServers: { a: { command: 'x', extra: 1 } } }]) {
      expectCode(await call('POST', `${URL}/mcp`, 'owner', { body: { config } }), 400, 'VALIDATION-1000');
    }
    expectCode(await call('POST', `${URL}/mcp`, 'member', { body: { config: stdioConfig } }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', `${URL}/mcp`, 'owner', { body: { config: stdioConfig } }), 400, 'VALIDATION-1001');
  });
});

describe('tools inside a draft run (the server wires tools and MCP into every run)', () => {
  it('runs a workflow whose tool node calls a custom function and whose mcp node calls an MCP tool', async () => {
    const tool = expectOk(await call('POST', URL, 'owner', { body: { name: 'Run API' } }));
    const fn = expectOk(await call('POST', `${URL}/${tool.id}/functions`, 'owner', { body: { name: 'weather', url: `${apiBase}/weather`, params: [{ param_key: 'city', data_type: 'string', request_type: 'query_params', is_not_null: true }] } }));
    const mcp = expectOk(await call('POST', `${URL}/mcp`, 'owner', { body: { config: { mcpServers: { 'Run Math': { command: process.execPath, args: [path.resolve('tests/fixtures/mcp-server.mjs')] } } } } }));
    expectOk(await call('PUT', `${URL}/${mcp.id}/mcp-tools/echo`, 'owner', { body: { enabled: true } }));
    const doc = flow(
      [
        ['s', 'start', { variables: [textInput('city')] }],
        ['t', 'tool', { toolId: tool.id, functionId: fn.id, params: [{ name: 'city', source: 'text', text: '{{#s.city#}}' }] }],
        ['m', 'mcp', { serverId: mcp.id, toolName: 'echo', args: [{ name: 'text', text: 'from {{#s.city#}}' }] }],
        ['e', 'end', { outputs: [{ name: 'api', selector: ['t', 'json'] }, { name: 'mcp', selector: ['m', 'text'] }] }],
      ],
      [
        ['s', 't'],
        ['t', 'm'],
        ['m', 'e'],
      ],
    );
    const appId = await createApp(h, f.u.member.token, f.wsA, 'Tool run', doc);
    const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: f.u.member.token, workspaceId: f.wsA, body: { inputs: { city: 'Oslo' } } });
    expect(r.status, r.raw.body).toBe(200);
    const last = parseSse(r.raw.body).at(-1) as unknown as { type: string; outputs: { api: { query: unknown }[]; mcp: string } };
    expect(last.type, r.raw.body).toBe('run_finished');
    expect(last.outputs.api[0].query).toEqual({ city: 'Oslo' });
    expect(last.outputs.mcp).toContain('from Oslo');
  });
});
