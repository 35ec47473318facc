import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../scripts/plugin-pack';
import { createUser } from '../../src/server/services/users';
import { modelProviderCredentials, pluginCredentials, tenants } from '../../src/server/db/schema';
import { encryptSecret } from '../../src/server/security/secrets';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { multipartBody, useTempDataDir } from './knowledge-kit';
import { expectCode, expectOk, PASSWORD } from './workspace-fixture';

// System › Tools (spec 7.4 admin tools) and System › Resources on the real server: built-in and
// plugin tools, a plugin tool's credentials (its plugin's, per tenant), and the resource figures.

const h = useStudio();
useTempDataDir(h);
const TOOLS = '/api/v1/admin/tools';
const RESOURCE = '/api/v1/admin/system/resource';
const SIGN = 'weft.signer/sign_text';
const KEY = 'tool-key-0123456789';
let tenantAdmin = '';
let user = '';
let foreignAdmin = '';
let userId = '';

beforeAll(async () => {
  const tenantB = randomUUID();
  await h.studio.ctx.db.insert(tenants).values({ id: tenantB, name: 'tools tenant B' });
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'at_tadmin', password: PASSWORD, role: 'tenant_admin' });
  userId = (await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'at_user', password: PASSWORD, role: 'user' })).id;
  await createUser(h.studio.ctx.db, { tenantId: tenantB, username: 'at_badmin', password: PASSWORD, role: 'tenant_admin' });
  tenantAdmin = await h.login('at_tadmin', PASSWORD);
  user = await h.login('at_user', PASSWORD);
  foreignAdmin = await h.login('at_badmin', PASSWORD, tenantB);
  const { payload, contentType } = await multipartBody({}, { name: 'plugin.tgz', bytes: (await packPlugin('tests/fixtures/plugins/signer')).bytes });
  expectOk(await h.call('POST', '/api/v1/admin/plugins/install', { token: h.adminToken, body: payload, headers: { 'content-type': contentType } }));
}, 90_000);

describe('admin tools', () => {
  it('are for tenant and super admins: a user gets 403 whatever it sends', async () => {
    expectCode(await h.call('GET', TOOLS, { token: user }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', `${TOOLS}/detail`, { token: user, query: { tool_id: 'nonsense' } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('PUT', `${TOOLS}/credentials`, { token: user, query: { tool_id: SIGN }, body: { values: { signature: 'x', api_key: KEY } } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('DELETE', `${TOOLS}/credentials`, { token: user, query: { tool_id: SIGN } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', TOOLS), 401, 'AUTH-1001');
    expect(await h.studio.ctx.db.select().from(pluginCredentials)).toEqual([]);
  });

  it('list the built-in tools and the tools installed plugins list', async () => {
    const list = expectOk(await h.call('GET', TOOLS, { token: tenantAdmin }));
    expect(list.map((t: { id: string }) => t.id)).toEqual(['builtin/current_time', 'builtin/calculator', 'builtin/webpage_reader', SIGN]);
    expect(list[1]).toMatchObject({ provider: 'builtin', name: 'calculator', source: 'builtin', plugin: null, needs_credentials: false, credentials_set: false });
    expect(list[3]).toMatchObject({ provider: 'weft.signer', name: 'sign_text', source: 'plugin', plugin: { id: 'weft.signer', name: 'Signer', version: '1.0.0', state: 'active' }, needs_credentials: true, credentials_set: false });
    expect(expectOk(await h.call('GET', TOOLS, { token: h.adminToken }))).toHaveLength(4);
  });

  it('give one tool with its parameters and credentials schema; a bad or unknown id is VALIDATION-1000', async () => {
    const calc = expectOk(await h.call('GET', `${TOOLS}/detail`, { token: tenantAdmin, query: { tool_id: 'builtin/calculator' } }));
    expect(calc).toMatchObject({ id: 'builtin/calculator', parameters: { type: 'object', required: ['expression'] }, credentials_schema: null });
    const sign = expectOk(await h.call('GET', `${TOOLS}/detail`, { token: tenantAdmin, query: { tool_id: SIGN } }));
    expect(sign.credentials_schema).toMatchObject({ properties: { api_key: { secret: true } } });
    // The arguments' schema the package declares (tests/fixtures/plugins/signer/plugin.json).
    expect(sign.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expectCode(await h.call('GET', `${TOOLS}/detail`, { token: tenantAdmin, query: { tool_id: 'builtin/nothing' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${TOOLS}/detail`, { token: tenantAdmin, query: { tool_id: '../etc' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${TOOLS}/detail`, { token: tenantAdmin }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', `${TOOLS}/credentials-schema`, { token: tenantAdmin, query: { tool_id: 'builtin/calculator' } }))).toEqual({ plugin_id: 'builtin', schema: null });
    expect(expectOk(await h.call('GET', `${TOOLS}/credentials-schema`, { token: tenantAdmin, query: { tool_id: SIGN } })).schema).toMatchObject({ required: ['signature', 'api_key'] });
  });

  it('refuse credentials for a tool that takes none, and bad values, changing nothing', async () => {
    expect(expectOk(await h.call('GET', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: 'builtin/calculator' } }))).toBeNull();
    expectCode(await h.call('PUT', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: 'builtin/calculator' }, body: { values: { api_key: KEY } } }), 400, 'PLUGIN-CREDENTIALS-NONE');
    expectCode(await h.call('DELETE', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: 'builtin/calculator' } }), 400, 'PLUGIN-CREDENTIALS-NONE');
    const bad = await h.call('PUT', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN }, body: { values: { signature: 'ACME' } } });
    expectCode(bad, 400, 'VALIDATION-1000');
    expect(bad.body.data).toEqual([expect.objectContaining({ path: 'body/values/api_key' })]);
    expectCode(await h.call('PUT', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN }, body: { values: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN } }), 400, 'VALIDATION-1000');
    expect(await h.studio.ctx.db.select().from(pluginCredentials)).toEqual([]);
  });

  it("set a plugin tool's credentials (its plugin's), masked, for the caller's tenant only", async () => {
    const set = expectOk(await h.call('PUT', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN }, body: { values: { signature: 'ACME', api_key: KEY } } }));
    expect(set).toMatchObject({ plugin_id: 'weft.signer', values: { signature: 'ACME', api_key: 'tool****6789' } });
    expect(JSON.stringify(set)).not.toContain(KEY);
    // The same set as on the plugin's page.
    expect(expectOk(await h.call('GET', '/api/v1/console/plugins/weft.signer/credentials', { token: tenantAdmin })).values).toEqual(set.values);
    // PUT again changes them; the masked secret keeps its value.
    const again = expectOk(await h.call('PUT', `${TOOLS}/credentials`, { token: h.adminToken, query: { tool_id: SIGN }, body: { values: { signature: 'ACME 2', api_key: 'tool****6789' } } }));
    expect(again.values).toEqual({ signature: 'ACME 2', api_key: 'tool****6789' });
    expect(expectOk(await h.call('GET', TOOLS, { token: tenantAdmin })).find((t: { id: string }) => t.id === SIGN).credentials_set).toBe(true);

    // Another tenant sees none, and cannot delete this one.
    expect(expectOk(await h.call('GET', TOOLS, { token: foreignAdmin })).find((t: { id: string }) => t.id === SIGN).credentials_set).toBe(false);
    expect(expectOk(await h.call('GET', `${TOOLS}/credentials`, { token: foreignAdmin, query: { tool_id: SIGN } }))).toBeNull();
    expectCode(await h.call('DELETE', `${TOOLS}/credentials`, { token: foreignAdmin, query: { tool_id: SIGN } }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN } })).values.signature).toBe('ACME 2');

    expectOk(await h.call('DELETE', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN } }));
    expect(expectOk(await h.call('GET', `${TOOLS}/credentials`, { token: tenantAdmin, query: { tool_id: SIGN } }))).toBeNull();
  });
});

describe('system resources', () => {
  it('are for super admins only', async () => {
    expectCode(await h.call('GET', RESOURCE, { token: tenantAdmin }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', RESOURCE, { token: user }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', RESOURCE), 401, 'AUTH-1001');
  });

  it('give the database and file sizes, queues, providers, plugins, memory and uptime', async () => {
    await h.studio.ctx.db.insert(modelProviderCredentials).values({ id: randomUUID(), tenantId: DEFAULT_TENANT_ID, provider: 'openai', secretEnc: encryptSecret(h.studio.ctx.secretKey, 'sk-x'), updatedBy: userId });
    const r = expectOk(await h.call('GET', RESOURCE, { token: h.adminToken }));
    expect(r.database.kind).toBe(process.env.DATABASE_URL ? 'server' : 'embedded');
    expect(r.database.size_bytes).toBeGreaterThan(1_000_000);
    expect(r.files).toEqual({ count: 0, size_bytes: 0 });
    expect(r.knowledge_queue).toEqual({ queued: 0, running: 0, failed: 0, busy_workers: 0 });
    expect(r.sandbox.workers).toBeGreaterThan(0);
    expect(r.model_providers).toEqual([{ provider: 'openai', tenants: 1 }]);
    expect(r.plugins).toEqual({ installed: 1, active: 1, failed: 0 });
    expect(r.process.uptime_seconds).toBeGreaterThanOrEqual(0);
    expect(r.process.rss_bytes).toBeGreaterThan(r.process.heap_used_bytes);
    expect(r.process.node_version).toBe(process.version);
  });
});
