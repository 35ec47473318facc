import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, MISSING, setUpWorkspaces, type Who } from './workspace-fixture';
import { appDrafts } from '../../src/server/db/schema';
import { createEmptyFlow } from '../../schemas/flow';

const h = useStudio();
const URL = '/api/v1/console/tools';
let f: Fixture;

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

const create = async (body: Record<string, unknown>, who: Who = 'owner', ws?: string) => expectOk(await call('POST', URL, who, { body, ws }));
const names = async (query: Record<string, string | number> = {}, who: Who = 'owner') => (expectOk(await call('GET', URL, who, { query })).items as { name: string }[]).map((t) => t.name);

const FN = {
  name: 'get_weather',
  description: 'Weather of a city',
  method: 'GET',
  url: 'https://api.example.com/weather/{city}',
  params: [
    { param_key: 'city', data_type: 'string', request_type: 'query_path', is_not_null: true },
    { param_key: 'units', data_type: 'string', request_type: 'query_params', default_value: 'metric' },
  ],
  response: [{ param_key: 'temp', data_type: 'decimal' }],
};

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'tool');
});

describe('tools CRUD', () => {
  it('creates a custom tool (owner, admin) with defaults, and reads it with its counts', async () => {
    const t = await create({ name: '  Weather  ', intro: 'Forecasts' });
    expect(t).toMatchObject({ name: 'Weather', intro: 'Forecasts', type: 'custom', status: 'draft', function_count: 0, reference_count: 0, auth: { type: 'none' }, workspace_id: f.wsA, published_version: 0, install_method: 'manual' });
    expect(t.icon.icon).toBe('wrench');
    const byAdmin = await create({ name: 'Maps' }, 'admin');
    expect(byAdmin.created_by).toBe(f.u.admin.id);
    const detail = expectOk(await call('GET', `${URL}/${t.id}`, 'member'));
    expect(detail).toMatchObject({ id: t.id, functions: [] });
  });

  it('refuses bad input, an id, duplicates and ordinary members, creating nothing', async () => {
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(51) }, { name: 'Bad', intro: 'i'.repeat(501) }, { name: 'Bad2', auth: { type: 'bearer' } }, { name: 'Bad3', extra: 1 }]) {
      expectCode(await call('POST', URL, 'owner', { body }), 400, 'VALIDATION-1000');
    }
    expectCode(await call('POST', URL, 'owner', { body: { id: randomUUID(), name: 'WithId' } }), 400, 'VALIDATION-1002');
    expectCode(await call('POST', URL, 'owner', { body: { name: 'weather' } }), 400, 'VALIDATION-1001');
    expectCode(await call('POST', URL, 'member', { body: { name: 'ByMember' } }), 403, 'PERMISSION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { name: 'Auth', auth: { type: 'bearer', credential_id: MISSING } } }), 400, 'VALIDATION-1000');
    expect(await names({ name: 'Bad' })).toEqual([]);
    expect(await names({ name: 'ByMember' })).toEqual([]);
  });

  it('checks the workspace header and membership', async () => {
    expectCode(await call('GET', URL, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('GET', URL, 'owner', { ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'foreign'), 400, 'VALIDATION-1000');
    const t = await create({ name: 'Private' });
    expectCode(await call('GET', `${URL}/${t.id}`, 'owner', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/not-a-uuid`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${t.id}`, 'outsider', { ws: f.wsC }), 400, 'VALIDATION-1000');
  });

  it('lists with search, type filter, paging and the page_size maximum', async () => {
    expect(await names({ name: 'weath' })).toEqual(['Weather']);
    const all = expectOk(await call('GET', URL, 'member', { query: { page_size: 1 } }));
    expect(all.items).toHaveLength(1);
    expect(all.total).toBeGreaterThanOrEqual(3);
    expect(await names({ type: 'mcp' })).toEqual([]);
    expectCode(await call('GET', URL, 'owner', { query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectCode(await call('GET', URL, 'owner', { query: { type: 'bogus' } }), 400, 'VALIDATION-1000');
  });

  it('updates fields, refuses an empty update, a missing id and a taken name', async () => {
    const t = await create({ name: 'Renamable' });
    const u = expectOk(await call('PUT', URL, 'admin', { body: { id: t.id, name: 'Renamed', intro: 'new' } }));
    expect(u).toMatchObject({ name: 'Renamed', intro: 'new' });
    expectCode(await call('PUT', URL, 'owner', { body: { id: t.id } }), 400, 'VALIDATION-1012');
    expectCode(await call('PUT', URL, 'owner', { body: { name: 'x' } }), 400, 'VALIDATION-1003');
    expectCode(await call('PUT', URL, 'owner', { body: { id: t.id, name: 'WEATHER' } }), 400, 'VALIDATION-1001');
    expectCode(await call('PUT', URL, 'member', { body: { id: t.id, name: 'Nope' } }), 403, 'PERMISSION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: t.id, mcp_config: { mcpServers: { a: { url: 'https://x.example/mcp' } } } } }), 400, 'VALIDATION-1000');
  });
});

describe('functions', () => {
  let toolId = '';
  beforeAll(async () => {
    toolId = (await create({ name: 'Fn Tool' })).id;
  });

  it('adds, reads, changes and deletes a function; counts follow', async () => {
    const fn = expectOk(await call('POST', `${URL}/${toolId}/functions`, 'owner', { body: FN }));
    expect(fn).toMatchObject({ name: 'get_weather', method: 'GET', auth: { type: 'none' }, body_subtype: 'json', enabled: true, params: FN.params });
    expect(expectOk(await call('GET', `${URL}/${toolId}/functions/${fn.id}`, 'member'))).toEqual(fn);
    expect(expectOk(await call('GET', `${URL}/${toolId}`, 'member')).function_count).toBe(1);
    const body = [{ param_key: 'data', data_type: 'object', request_type: 'body', request_subtype: 'json', children: [{ param_key: 'q', data_type: 'string' }] }];
    const changed = expectOk(await call('PUT', `${URL}/${toolId}/functions`, 'admin', { body: { id: fn.id, method: 'POST', body, description: 'changed' } }));
    expect(changed).toMatchObject({ method: 'POST', description: 'changed', body });
    expectCode(await call('POST', `${URL}/${toolId}/functions`, 'owner', { body: { ...FN, name: 'GET_WEATHER' } }), 400, 'VALIDATION-1001');
    expectOk(await call('DELETE', `${URL}/${toolId}/functions/${fn.id}`, 'owner'));
    expectCode(await call('GET', `${URL}/${toolId}/functions/${fn.id}`, 'owner'), 400, 'VALIDATION-1000');
  });

  it('validates the parameter tables with the spec 5 rules and refuses members', async () => {
    const bad = [
      { ...FN, name: 'bad key', url: 'https://x.example' },
      { ...FN, url: 'ftp://x' },
      { ...FN, params: [{ param_key: 'a-b', data_type: 'string' }] },
      { ...FN, params: [{ param_key: 'a', data_type: 'object' }] },
      { ...FN, headers: [{ param_key: 'X-Key', data_type: 'string' }] },
      { ...FN, body_subtype: 'form-data', body: [{ param_key: 'flag', data_type: 'boolean' }] },
      { ...FN, method: 'TRACE' },
    ];
    for (const body of bad) expectCode(await call('POST', `${URL}/${toolId}/functions`, 'owner', { body }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/${toolId}/functions`, 'member', { body: FN }), 403, 'PERMISSION-1000');
    expect(expectOk(await call('GET', `${URL}/${toolId}`, 'owner')).functions).toEqual([]);
  });
});

describe('publish, versions, references, delete', () => {
  it('publishes with a version snapshot, unpublishes, and lists versions newest first', async () => {
    const t = await create({ name: 'Publishable' });
    expectCode(await call('POST', `${URL}/${t.id}/publish`, 'owner', { body: {} }), 400, 'VALIDATION-1000');
    expectOk(await call('POST', `${URL}/${t.id}/functions`, 'owner', { body: FN }));
    const p1 = expectOk(await call('POST', `${URL}/${t.id}/publish`, 'owner', { body: { note: 'first' } }));
    expect(p1).toMatchObject({ status: 'published', published_version: 1 });
    expectCode(await call('POST', `${URL}/${t.id}/publish`, 'member', { body: {} }), 403, 'PERMISSION-1000');
    const down = expectOk(await call('POST', `${URL}/${t.id}/unpublish`, 'admin'));
    expect(down.status).toBe('draft');
    expectCode(await call('POST', `${URL}/${t.id}/unpublish`, 'admin'), 400, 'VALIDATION-1000');
    expectOk(await call('POST', `${URL}/${t.id}/publish`, 'owner', { body: { note: 'second' } }));
    const versions = expectOk(await call('GET', `${URL}/${t.id}/versions`, 'member'));
    expect(versions.map((v: { version: number; note: string }) => [v.version, v.note])).toEqual([
      [2, 'second'],
      [1, 'first'],
    ]);
  });

  it('counts apps whose draft uses the tool (tool, mcp and agent nodes) and refuses to delete it then', async () => {
    const t = await create({ name: 'Referenced' });
    const other = await create({ name: 'Unreferenced' });
    const app = expectOk(await call('POST', '/api/v1/console/apps', 'owner', { body: { name: 'Uses tool', description: 'd', type: 'workflow', icon: { icon: 'bot' } } }));
    const app2 = expectOk(await call('POST', '/api/v1/console/apps', 'owner', { body: { name: 'Agent app', description: 'd', type: 'workflow', icon: { icon: 'bot' } } }));
    const doc = createEmptyFlow('workflow');
    const withTool = { ...doc, nodes: [...doc.nodes, { id: 't1', kind: 'tool', kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: { toolId: t.id, functionId: 'x' } }] };
    const withAgent = { ...doc, nodes: [...doc.nodes, { id: 'a1', kind: 'agent', kindVersion: 1, title: '', position: { x: 0, y: 0 }, config: { tools: [{ type: 'tool', providerId: t.id, name: 'x' }] } }] };
    await h.studio.ctx.db.update(appDrafts).set({ document: withTool }).where(eq(appDrafts.appId, app.id));
    await h.studio.ctx.db.update(appDrafts).set({ document: withAgent }).where(eq(appDrafts.appId, app2.id));
    const listed = expectOk(await call('GET', URL, 'owner', { query: { name: 'referenced' } })).items as { name: string; reference_count: number }[];
    expect(Object.fromEntries(listed.map((x) => [x.name, x.reference_count]))).toEqual({ Referenced: 2, Unreferenced: 0 });
    const refused = await call('DELETE', `${URL}/${t.id}`, 'owner');
    expectCode(refused, 400, 'VALIDATION-1000');
    expect(refused.body.data).toEqual({ reference_count: 2 });
    expectCode(await call('DELETE', `${URL}/${other.id}`, 'member'), 403, 'PERMISSION-1000');
    expectOk(await call('DELETE', `${URL}/${other.id}`, 'owner'));
    expectCode(await call('GET', `${URL}/${other.id}`, 'owner'), 400, 'VALIDATION-1000');
  });
});

describe('built-in tools', () => {
  it('lists the inner tools to any member', async () => {
    const r = expectOk(await call('GET', `${URL}/builtin`, 'member'));
    expect(r.provider).toBe('builtin');
    expect(r.tools.map((x: { name: string }) => x.name)).toEqual(['current_time', 'calculator', 'webpage_reader']);
    expectCode(await call('GET', `${URL}/builtin`, 'owner', { ws: f.wsC }), 400, 'VALIDATION-1000');
  });
});

describe('workflow tools', () => {
  it('offers a workflow app with its start fields as parameters; refuses other modes and foreign apps', async () => {
    const app = expectOk(await call('POST', '/api/v1/console/apps', 'owner', { body: { name: 'Translate flow', description: 'Translates text', type: 'workflow', icon: { icon: 'bot' } } }));
    const doc = createEmptyFlow('workflow');
    doc.nodes[0].config = {
      variables: [
        { name: 'text', label: 'Text', type: 'paragraph', required: true, options: [] },
        { name: 'count', label: 'Count', type: 'number', required: false, options: [] },
        { name: 'lang', label: 'Language', type: 'select', required: true, options: ['en', 'zh'] },
      ],
    };
    await h.studio.ctx.db.update(appDrafts).set({ document: doc }).where(eq(appDrafts.appId, app.id));
    // A workflow tool runs the app's latest published version: publish first.
    expectOk(await call('POST', `/api/v1/console/apps/${app.id}/publish`, 'owner', { body: { version: 'v1' } }));
    const t = expectOk(await call('POST', `${URL}/workflow`, 'owner', { body: { app_id: app.id } }));
    expect(t).toMatchObject({ type: 'workflow', name: 'Translate flow', intro: 'Translates text', workflow_app_id: app.id, function_count: 1, install_method: 'workflow' });
    const detail = expectOk(await call('GET', `${URL}/${t.id}`, 'owner'));
    expect(detail.functions[0].name).toBe('run');
    expect(detail.functions[0].params).toEqual([
      { param_key: 'text', param_name: 'Text', description: 'Text', data_type: 'string', optional_values: '', is_not_null: true, request_type: 'query_params' },
      { param_key: 'count', param_name: 'Count', description: 'Count', data_type: 'decimal', optional_values: '', is_not_null: false, request_type: 'query_params' },
      { param_key: 'lang', param_name: 'Language', description: 'Language', data_type: 'string', optional_values: 'en,zh', is_not_null: true, request_type: 'query_params' },
    ]);
    expectCode(await call('PUT', `${URL}/${t.id}/functions`, 'owner', { body: { id: detail.functions[0].id, url: 'https://x.example' } }), 400, 'VALIDATION-1000');
    // The app's start form changes and is published: the tool's parameters follow.
    doc.nodes[0].config = { variables: [{ name: 'query', label: '', type: 'text', required: false, options: [] }] };
    await h.studio.ctx.db.update(appDrafts).set({ document: doc, revision: 2 }).where(eq(appDrafts.appId, app.id));
    expectOk(await call('POST', `/api/v1/console/apps/${app.id}/publish`, 'owner', { body: { version: 'v2' } }));
    expect(expectOk(await call('GET', `${URL}/${t.id}`, 'member')).functions[0].params).toEqual([
      { param_key: 'query', param_name: 'query', description: '', data_type: 'string', optional_values: '', is_not_null: false, request_type: 'query_params' },
    ]);
    const chat = expectOk(await call('POST', '/api/v1/console/apps', 'owner', { body: { name: 'Chat app', description: 'd', type: 'chatflow', icon: { icon: 'bot' } } }));
    expectCode(await call('POST', `${URL}/workflow`, 'owner', { body: { app_id: chat.id } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/workflow`, 'owner', { body: { app_id: app.id }, ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', `${URL}/workflow`, 'member', { body: { app_id: app.id, name: 'Other' } }), 403, 'PERMISSION-1000');
  });
});
