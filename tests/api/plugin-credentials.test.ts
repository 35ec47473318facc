import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../scripts/plugin-pack';
import { createUser } from '../../src/server/services/users';
import { pluginCredentials, tenants } from '../../src/server/db/schema';
import { DEFAULT_TENANT_ID, useStudio, type Harness } from './harness';
import { multipartBody, useTempDataDir } from './knowledge-kit';
import { configureProvider, createApp, flow, model, parseSse, RUNS, scriptedOpenAi, textInput } from './runs-kit';
import { expectCode, expectOk, PASSWORD } from './workspace-fixture';

// Plugin credentials (issue 24) on the real server: one set per tenant and plugin, checked against
// the plugin's schema, stored encrypted, answered masked, given in clear only to the plugin's
// executor at run time; and the plugin's version history from its installs and upgrades.

const h = useStudio();
useTempDataDir(h);
const ADMIN_PLUGINS = '/api/v1/admin/plugins';
const CREDS = (id: string) => `/api/v1/console/plugins/${id}/credentials`;
const KEY = 'sk-signer-0123456789abcdef';
let tenantAdmin = '';
let user = '';
let foreignAdmin = '';
let workspaceId = '';

const send = async (token: string, url: string, bytes: Buffer) => {
  const { payload, contentType } = await multipartBody({}, { name: 'plugin.tgz', bytes });
  return h.call('POST', url, { token, body: payload, headers: { 'content-type': contentType } });
};

const signFlow = () =>
  flow(
    [
      ['s', 'start', { variables: [textInput('text')] }],
      ['sg', 'signer', { source: ['s', 'text'] }],
      ['e', 'end', { outputs: [{ name: 'signed', selector: ['sg', 'signed'] }, { name: 'key_length', selector: ['sg', 'key_length'] }] }],
    ],
    [
      ['s', 'sg'],
      ['sg', 'e'],
    ],
  );

const run = async (h: Harness, appId: string, text: string) => {
  const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text } } });
  expect(r.status, r.raw.body).toBe(200);
  return parseSse(r.raw.body).at(-1);
};

const storedRows = () => h.studio.ctx.db.select().from(pluginCredentials);

beforeAll(async () => {
  const tenantB = randomUUID();
  await h.studio.ctx.db.insert(tenants).values({ id: tenantB, name: 'credentials tenant B' });
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'pc_tadmin', password: PASSWORD, role: 'tenant_admin' });
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'pc_user', password: PASSWORD, role: 'user' });
  await createUser(h.studio.ctx.db, { tenantId: tenantB, username: 'pc_badmin', password: PASSWORD, role: 'tenant_admin' });
  tenantAdmin = await h.login('pc_tadmin', PASSWORD);
  user = await h.login('pc_user', PASSWORD);
  foreignAdmin = await h.login('pc_badmin', PASSWORD, tenantB);
  workspaceId = expectOk(await h.call('POST', '/api/v1/console/workspaces', { token: user, body: { name: 'signer space' } })).id;
  expectOk(await send(h.adminToken, `${ADMIN_PLUGINS}/install`, (await packPlugin('tests/fixtures/plugins/signer')).bytes));
}, 90_000);

describe('plugin credentials', () => {
  it("give the plugin's schema from its manifest, secrets marked", async () => {
    const r = expectOk(await h.call('GET', `${CREDS('weft.signer')}-schema`, { token: tenantAdmin }));
    expect(r.plugin_id).toBe('weft.signer');
    expect(r.schema).toMatchObject({ type: 'object', required: ['signature', 'api_key'], properties: { signature: { type: 'string' }, api_key: { type: 'string', secret: true }, region: { enum: ['cn', 'eu'] } } });
    expectCode(await h.call('GET', `${CREDS('weft.nothing')}-schema`, { token: tenantAdmin }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${CREDS('Not An Id')}-schema`, { token: tenantAdmin }), 400, 'VALIDATION-1000');
  });

  it('are for tenant and super admins: a user gets 403 whatever it sends, and nothing changes', async () => {
    expectCode(await h.call('GET', `${CREDS('weft.signer')}-schema`, { token: user }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', CREDS('weft.signer'), { token: user }), 403, 'PERMISSION-1000');
    expectCode(await h.call('POST', CREDS('weft.signer'), { token: user, body: { values: { signature: 'x', api_key: KEY } } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('POST', CREDS('weft.signer'), { token: user, body: { nonsense: 1 } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', CREDS('weft.signer'), { token: user }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', CREDS('weft.signer')), 401, 'AUTH-1001');
    expect(await storedRows()).toEqual([]);
  });

  it('refuse values the schema does not admit with field issues, and store nothing', async () => {
    const missing = await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME' } } });
    expectCode(missing, 400, 'VALIDATION-1000');
    expect(missing.body.data).toEqual([expect.objectContaining({ path: 'body/values/api_key' })]);
    const short = await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: 'short' } } });
    expectCode(short, 400, 'VALIDATION-1000');
    expect(short.body.data).toEqual([expect.objectContaining({ path: 'body/values/api_key', rule: 'too_small', origin: 'string', limit: 8 })]);
    const unknown = await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: KEY, password: 'x' } } });
    expectCode(unknown, 400, 'VALIDATION-1000');
    expect(unknown.body.data).toEqual([expect.objectContaining({ path: 'body/values/password' })]);
    expectCode(await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: KEY, region: 'mars' } } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: { nested: true } } } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: {} }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: KEY } } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', CREDS('weft.nothing'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: KEY } } }), 400, 'VALIDATION-1000');
    expect(await storedRows()).toEqual([]);
    expect(expectOk(await h.call('GET', CREDS('weft.signer'), { token: tenantAdmin }))).toBeNull();
  });

  let appId = '';

  it('reach the executor at run time, stored encrypted and answered masked', async () => {
    appId = await createApp(h, user, workspaceId, 'signer app', signFlow());
    // Without credentials the node says what is missing.
    const before = await run(h, appId, 'hello');
    expect(before).toMatchObject({ type: 'run_failed' });
    expect(JSON.stringify(before)).toContain('SIGNER-NO-CREDENTIALS');

    const created = expectOk(await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: KEY, region: null } } }));
    expect(created).toMatchObject({ plugin_id: 'weft.signer', values: { signature: 'ACME', api_key: 'sk-s****cdef' }, secret_fields: ['api_key'], updated_by: 'pc_tadmin' });
    expect(JSON.stringify(created)).not.toContain(KEY);
    expect(expectOk(await h.call('GET', CREDS('weft.signer'), { token: tenantAdmin }))).toMatchObject({ values: { signature: 'ACME', api_key: 'sk-s****cdef' } });
    expectCode(await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'Again', api_key: KEY } } }), 400, 'VALIDATION-1001');
    const rows = await storedRows();
    expect(rows).toHaveLength(1);
    expect(rows[0].valuesEnc).toMatch(/^v1:/);
    expect(rows[0].valuesEnc).not.toContain(KEY);
    expect(rows[0].valuesEnc).not.toContain('ACME');

    expect(await run(h, appId, 'hello')).toMatchObject({ type: 'run_finished', outputs: { signed: 'hello — ACME', key_length: KEY.length } });
  });

  it('change keeping a secret sent back masked, and a super admin manages them too', async () => {
    const changed = expectOk(await h.call('PUT', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME Ltd', api_key: 'sk-s****cdef', region: 'eu' } } }));
    expect(changed.values).toEqual({ signature: 'ACME Ltd', api_key: 'sk-s****cdef', region: 'eu' });
    expect(await run(h, appId, 'hi')).toMatchObject({ type: 'run_finished', outputs: { signed: 'hi — ACME Ltd', key_length: KEY.length } });
    // A bad change changes nothing.
    expectCode(await h.call('PUT', CREDS('weft.signer'), { token: h.adminToken, body: { values: { signature: '', api_key: 'sk-s****cdef' } } }), 400, 'VALIDATION-1000');
    expect(await run(h, appId, 'hi')).toMatchObject({ outputs: { signed: 'hi — ACME Ltd' } });
    const next = expectOk(await h.call('PUT', CREDS('weft.signer'), { token: h.adminToken, body: { values: { signature: 'ACME Ltd', api_key: 'another-key-1234' } } }));
    expect(next).toMatchObject({ values: { api_key: 'anot****1234' }, updated_by: 'admin' });
    expect(await run(h, appId, 'hi')).toMatchObject({ outputs: { key_length: 16 } });
  });

  it("are the caller's tenant's: another tenant neither sees nor changes them", async () => {
    expect(expectOk(await h.call('GET', CREDS('weft.signer'), { token: foreignAdmin }))).toBeNull();
    expectCode(await h.call('PUT', CREDS('weft.signer'), { token: foreignAdmin, body: { values: { signature: 'B', api_key: 'b-key-123456' } } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', CREDS('weft.signer'), { token: foreignAdmin }), 400, 'VALIDATION-1000');
    // Its own set is its own.
    expectOk(await h.call('POST', CREDS('weft.signer'), { token: foreignAdmin, body: { values: { signature: 'B', api_key: 'b-key-123456' } } }));
    expect(await run(h, appId, 'hi')).toMatchObject({ outputs: { signed: 'hi — ACME Ltd', key_length: 16 } });
    expectOk(await h.call('DELETE', CREDS('weft.signer'), { token: foreignAdmin }));
    expect(expectOk(await h.call('GET', CREDS('weft.signer'), { token: tenantAdmin }))).toMatchObject({ values: { signature: 'ACME Ltd' } });
  });

  it("are out of reach of another plugin's executor: asking for the Signer's kind is refused with a code", async () => {
    expectOk(await send(h.adminToken, `${ADMIN_PLUGINS}/install`, (await packPlugin('tests/fixtures/plugins/peeker')).bytes));
    const peek = flow(
      [
        ['s', 'start'],
        ['p', 'peeker', {}],
        ['e', 'end', { outputs: [{ name: 'found', selector: ['p', 'found'] }] }],
      ],
      [
        ['s', 'p'],
        ['p', 'e'],
      ],
    );
    const peekApp = await createApp(h, user, workspaceId, 'peeker app', peek);
    const r = await h.call('POST', `${RUNS(peekApp)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: {} } });
    const last = parseSse(r.raw.body).at(-1);
    expect(JSON.stringify(last)).not.toContain('ACME');
    expect(last).toMatchObject({ type: 'run_failed', error: { code: 'PLUGIN-CREDENTIALS-FOREIGN', nodeId: 'p' } });
    // The Signer's own executor still gets its set.
    expect(await run(h, appId, 'hi')).toMatchObject({ type: 'run_finished', outputs: { signed: 'hi — ACME Ltd' } });
    expectOk(await h.call('DELETE', `${ADMIN_PLUGINS}/weft.peeker`, { token: h.adminToken, query: { force: 'true' } }));
  });

  // The plugin's tool (tests/fixtures/plugins/signer/tools/sign_text.ts) from a workflow's tool node.
  const toolFlow = flow(
    [
      ['s', 'start', { variables: [textInput('text')] }],
      ['t', 'tool', { toolId: 'weft.signer', functionId: 'sign_text', params: [{ name: 'text', source: 'variable', selector: ['s', 'text'] }] }],
      ['e', 'end', { outputs: [{ name: 'json', selector: ['t', 'json'] }, { name: 'text', selector: ['t', 'text'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

  it("run a plugin package's tool from a tool node in the sandbox, with its own plugin's credentials", async () => {
    const toolApp = await createApp(h, user, workspaceId, 'signer tool app', toolFlow);
    const r = await h.call('POST', `${RUNS(toolApp)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: 'hello' } } });
    const events = parseSse(r.raw.body);
    const signed = { signed: 'hello — ACME Ltd', key_length: 16 };
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', outputs: { json: [signed] } });
    // The run log's node record holds the tool's result.
    expect(events.find((e) => e.type === 'node_finished' && (e as { nodeId?: string }).nodeId === 't')).toMatchObject({ outputs: { json: [signed] } });

    // A tool that throws: a coded error naming the tool, with the tool's own message.
    const thrown = parseSse((await h.call('POST', `${RUNS(toolApp)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: '<b>x</b>' } } })).raw.body).at(-1);
    expect(thrown).toMatchObject({ type: 'run_failed', error: { code: 'PLUGIN-TOOL-FAILED', nodeId: 't' } });
    expect((thrown as { error: { message: string } }).error.message).toContain('weft.signer/sign_text: The text may not hold markup');
    // Arguments its schema refuses never reach its code.
    const bad = await createApp(h, user, workspaceId, 'signer tool bad args', {
      ...toolFlow,
      nodes: toolFlow.nodes.map((n) => (n.id === 't' ? { ...n, config: { ...n.config, params: [{ name: 'text', source: 'text', text: '' }] } } : n)),
    });
    const refused = parseSse((await h.call('POST', `${RUNS(bad)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: 'x' } } })).raw.body).at(-1);
    expect(refused).toMatchObject({ type: 'run_failed', error: { code: 'PLUGIN-TOOL-INPUT', nodeId: 't' } });
  });

  it("offer a plugin package's tool to an agent, which calls it", async () => {
    const llm = await scriptedOpenAi((body) => {
      const toolMessage = body.messages.find((m: { role: string }) => m.role === 'tool');
      return toolMessage ? `Done: ${toolMessage.content}` : { tool: 'sign_text', args: '{"text":"from the agent"}' };
    });
    try {
      await configureProvider(h, 'openai', llm.baseUrl);
      const agentApp = await createApp(
        h,
        user,
        workspaceId,
        'signer agent',
        flow(
          [
            ['s', 'start'],
            ['a', 'agent', { model: model('openai', 'gpt-4o-mini'), instructions: 'Sign it.', tools: [{ type: 'tool', providerId: 'weft.signer', name: 'sign_text' }] }],
            ['ans', 'answer', { answer: '{{#a.text#}}' }],
          ],
          [
            ['s', 'a'],
            ['a', 'ans'],
          ],
          'agent',
        ),
      );
      const r = await h.call('POST', `${RUNS(agentApp)}/draft/chat-messages`, { token: user, workspaceId, body: { query: 'Sign please' } });
      const last = parseSse(r.raw.body).at(-1) as { type: string; answer?: string };
      expect(last.type, JSON.stringify(last)).toBe('run_finished');
      expect(last.answer).toContain('from the agent — ACME Ltd');
      expect(llm.requests[0].body.tools[0].function).toMatchObject({ name: 'sign_text', parameters: { type: 'object', required: ['text'] } });
    } finally {
      await llm.close();
    }
  });

  it('delete, and go with the plugin when it is deleted', async () => {
    expectOk(await h.call('DELETE', CREDS('weft.signer'), { token: tenantAdmin }));
    expectCode(await h.call('DELETE', CREDS('weft.signer'), { token: tenantAdmin }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', CREDS('weft.signer'), { token: tenantAdmin }))).toBeNull();
    expectOk(await h.call('POST', CREDS('weft.signer'), { token: tenantAdmin, body: { values: { signature: 'ACME', api_key: KEY } } }));
    expectOk(await h.call('DELETE', `${ADMIN_PLUGINS}/weft.signer`, { token: h.adminToken, query: { force: 'true' } }));
    expect(await storedRows()).toEqual([]);
    expect(await h.studio.ctx.db.select().from(pluginCredentials).where(eq(pluginCredentials.pluginId, 'weft.signer'))).toEqual([]);
    expectCode(await h.call('GET', CREDS('weft.signer'), { token: tenantAdmin }), 400, 'VALIDATION-1000');
  });
});

describe('plugin version history', () => {
  it('lists each install and upgrade, newest first, on the detail', async () => {
    expectOk(await send(h.adminToken, `${ADMIN_PLUGINS}/install`, (await packPlugin('plugins/examples/text-stats')).bytes));
    // The example declares credentials (plugins/examples/text-stats/credentials.ts); its v2 fixture none.
    expect(expectOk(await h.call('GET', `${ADMIN_PLUGINS}/weft.text-stats`, { token: h.adminToken })).credentials_schema).toMatchObject({ properties: { api_key: { secret: true } } });
    expectOk(await send(h.adminToken, `${ADMIN_PLUGINS}/weft.text-stats/upgrade`, (await packPlugin('tests/fixtures/plugins/text-stats-v2')).bytes));
    const detail = expectOk(await h.call('GET', `${ADMIN_PLUGINS}/weft.text-stats`, { token: h.adminToken }));
    expect(detail.history.map((v: { version: string; action: string; by: string }) => [v.version, v.action, v.by])).toEqual([
      ['2.0.0', 'upgrade', 'admin'],
      ['1.0.0', 'install', 'admin'],
    ]);
    expect(detail.credentials_schema).toBeNull();
    expectCode(await h.call('POST', CREDS('weft.text-stats'), { token: tenantAdmin, body: { values: { api_key: KEY } } }), 400, 'PLUGIN-CREDENTIALS-NONE');
    // A refused upgrade leaves no record.
    expectCode(await send(h.adminToken, `${ADMIN_PLUGINS}/weft.text-stats/upgrade`, Buffer.from('not a package')), 400, 'PLUGIN-1000');
    expect(expectOk(await h.call('GET', `${ADMIN_PLUGINS}/weft.text-stats`, { token: h.adminToken })).history).toHaveLength(2);
  });
});
