import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { runEvents, runs } from '../../src/server/db/schema';
import { runEventLog } from '../../src/server/runs/event-log';
import { useStudio } from './harness';
import { createKey as createAppKey, expectDifyError, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { chatFlow } from './public-kit';
import { createApp, textInput } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// A project space's MCP endpoint (issue 22): the owner chooses the published workflow apps offered
// and manages the space's keys; an MCP client (the SDK's, over Streamable HTTP) lists them as tools
// with input schemas from their start forms and calls them; the runs are stored with source `mcp`.

const h = useStudio();
let f: Fixture;
let base = '';
let sayer = '';
let counter = '';
let spaceKey = { id: '', secret: '' };
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });
const MCP = (ws: string) => `/api/v1/console/workspaces/${ws}/mcp`;

async function connect(secret: string, ws = f.wsA): Promise<Client> {
  const client = new Client({ name: 'weft-test', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp/${ws}`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
  return client;
}

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'mcp');
  sayer = await publishedApp(h, owner(), 'Sayer', sayFlow('said {{ word }}'));
  const doc = sayFlow('{{ word }} x{{ times }}');
  doc.nodes[0]!.config = { variables: [textInput('word'), { name: 'times', label: 'How many times', type: 'number', required: false, options: [], allowed_extensions: [] }] };
  doc.nodes[1]!.config = { inputs: [{ name: 'word', selector: ['s', 'word'] }, { name: 'times', selector: ['s', 'times'] }], template: '{{ word }} x{{ times }}' };
  counter = await publishedApp(h, owner(), '计数 Counter', doc);
  base = await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => undefined);

describe('the MCP exposure and its keys (console)', () => {
  it('is off until the owner turns it on with published workflow apps of the space', async () => {
    expect(expectOk(await h.call('GET', MCP(f.wsA), { token: f.u.member.token }))).toEqual({ enabled: false, app_ids: [], endpoint: `/v1/mcp/${f.wsA}` });
    expectCode(await h.call('PUT', MCP(f.wsA), { token: f.u.admin.token, body: { enabled: true, app_ids: [sayer] } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', MCP(f.wsA), { token: f.u.outsider.token }), 400, 'VALIDATION-1000');
    const chat = await publishedApp(h, owner(), 'A chat', chatFlow('Bot'));
    const unpublished = await createApp(h, owner().token, owner().workspaceId, 'Not yet', sayFlow());
    const elsewhere = await publishedApp(h, { token: f.u.owner.token, workspaceId: f.wsB }, 'Elsewhere', sayFlow());
    for (const id of [chat, unpublished, elsewhere]) {
      expectCode(await h.call('PUT', MCP(f.wsA), { token: f.u.owner.token, body: { enabled: true, app_ids: [sayer, id] } }), 400, 'VALIDATION-1000');
    }
    expect(expectOk(await h.call('GET', MCP(f.wsA), { token: f.u.owner.token })).enabled).toBe(false);
    const on = expectOk(await h.call('PUT', MCP(f.wsA), { token: f.u.owner.token, body: { enabled: true, app_ids: [sayer, counter] } }));
    expect(on).toEqual({ enabled: true, app_ids: [sayer, counter], endpoint: `/v1/mcp/${f.wsA}` });
  });

  it('space keys: the owner creates and revokes, members list them masked', async () => {
    expectCode(await h.call('POST', `${MCP(f.wsA)}/keys`, { token: f.u.admin.token, body: { name: 'agent' } }), 403, 'PERMISSION-1000');
    const created = expectOk(await h.call('POST', `${MCP(f.wsA)}/keys`, { token: f.u.owner.token, body: { name: 'agent' } }));
    spaceKey = created;
    const list = expectOk(await h.call('GET', `${MCP(f.wsA)}/keys`, { token: f.u.member.token }));
    expect(list.map((k: { id: string; masked: string }) => [k.id, k.masked])).toEqual([[created.id, created.masked]]);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    // A space key is not an app key.
    expectDifyError(await v1(h, created.secret, 'GET', '/info'), 401, 'AUTH-1007');
  });
});

describe('the MCP endpoint, with the SDK client', () => {
  it('lists the offered apps as tools with input schemas from their start forms', async () => {
    const client = await connect(spaceKey.secret);
    try {
      const { tools } = await client.listTools();
      const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
      expect(Object.keys(byName).sort()).toEqual(['Counter', 'Sayer']);
      expect(byName.Sayer).toMatchObject({ title: 'Sayer', inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'] } });
      expect(byName.Counter!.inputSchema).toMatchObject({ properties: { word: { type: 'string' }, times: { type: 'number', description: 'How many times' } }, required: ['word'] });
    } finally {
      await client.close();
    }
  });

  it('runs the app for a call and answers its outputs; the run is stored with source mcp', async () => {
    const client = await connect(spaceKey.secret);
    try {
      const r = await client.callTool({ name: 'Sayer', arguments: { word: 'hello' } });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ said: 'said hello' });
      expect(JSON.parse((r.content as { text: string }[])[0]!.text)).toEqual({ said: 'said hello' });
      const c = await client.callTool({ name: 'Counter', arguments: { word: 'hey', times: 3 } });
      expect(c.structuredContent).toEqual({ said: 'hey x3' });
      const bad = await client.callTool({ name: 'Sayer', arguments: {} }).catch((e: Error) => ({ isError: true, content: [{ text: e.message }] }));
      expect(bad.isError).toBe(true);
    } finally {
      await client.close();
    }
    const stored = await h.studio.ctx.db.select().from(runs).where(and(eq(runs.appId, sayer), eq(runs.source, 'mcp')));
    expect(stored.length).toBe(1);
    expect(stored[0]).toMatchObject({ status: 'succeeded', endUser: 'mcp:agent', outputs: { said: 'said hello' } });
    // A tool call answers when its run ends, so nothing can resume its stream: none is logged.
    await runEventLog(h.studio.ctx).flush();
    expect(await h.studio.ctx.db.select({ seq: runEvents.seq }).from(runEvents).where(eq(runEvents.runId, stored[0]!.id))).toEqual([]);
    const log = expectOk(await h.call('GET', `/api/v1/console/apps/${sayer}/runs`, { ...owner(), query: { source: 'mcp' } }));
    expect(log.list.map((x: { source: string; created_by_name: string }) => [x.source, x.created_by_name])).toEqual([['mcp', 'mcp:agent']]);
  });

  it('refuses an app key, another space’s key, a revoked key (401) and a space that turned MCP off (404)', async () => {
    const appKey = (await createAppKey(h, owner(), sayer)).secret;
    const post = (secret: string, ws = f.wsA) =>
      fetch(`${base}/v1/mcp/${ws}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await post(appKey)).status).toBe(401);
    const other = expectOk(await h.call('POST', `${MCP(f.wsB)}/keys`, { token: f.u.owner.token, body: { name: 'b' } }));
    expect((await post(other.secret)).status).toBe(401);
    expect((await post(other.secret, f.wsB)).status).toBe(404);
    expect((await post(spaceKey.secret)).status).toBe(200);
    expectOk(await h.call('PUT', MCP(f.wsA), { token: f.u.owner.token, body: { enabled: false, app_ids: [sayer] } }));
    const off = await post(spaceKey.secret);
    expect(off.status).toBe(404);
    expect(await off.json()).toMatchObject({ code: 'SYSTEM-1404', status: 404 });
    expectOk(await h.call('DELETE', `${MCP(f.wsA)}/keys/${spaceKey.id}`, { token: f.u.owner.token }));
    expect((await post(spaceKey.secret)).status).toBe(401);
  });
});
