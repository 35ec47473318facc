import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useStudio } from './harness';
import { modelProviderCredentials } from '../../src/server/db/schema';

/** The model endpoints of spec 7.4 (admin) and 7.5 (console): success, bad input, roles, tenants. */

const h = useStudio();
const A = '/api/v1/admin/models';
const C = '/api/v1/console/models';
const PASSWORD = 'Passw0rd123';
const KEY = 'sk-live-abcdefghijklmnop1234';
const tok = {} as Record<'ta' | 'plain' | 'acme', string>;
let acmeId: string;

function expectCode(r: { status: number; body: { code: unknown } }, status: number, code: string | number) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.code).toBe(code);
}
const as = (token: string) => ({
  get: (url: string, query?: Record<string, string>) => h.call('GET', url, { token, query }),
  post: (url: string, body: unknown) => h.call('POST', url, { token, body }),
  put: (url: string, body: unknown) => h.call('PUT', url, { token, body }),
  del: (url: string, query?: Record<string, string>) => h.call('DELETE', url, { token, query }),
});

beforeAll(async () => {
  for (const [username, role] of [
    ['ta', 'tenant_admin'],
    ['plain', 'user'],
  ] as const) {
    expect((await h.call('POST', '/api/v1/admin/users', { token: h.adminToken, body: { username, password: PASSWORD, role } })).status).toBe(200);
    tok[username] = await h.login(username, PASSWORD);
  }
  const t = await h.call('POST', '/api/v1/admin/tenants', { token: h.adminToken, body: { name: 'Acme', admin_username: 'acme_admin', password: PASSWORD } });
  acmeId = t.body.data.id;
  tok.acme = await h.login('acme_admin', PASSWORD, acmeId);
});

describe('GET /admin/models/model-providers', () => {
  it('lists the catalogue with credential forms, nothing configured yet', async () => {
    const r = await as(h.adminToken).get(`${A}/model-providers`);
    expectCode(r, 200, 0);
    const ids = r.body.data.map((p: { provider: string }) => p.provider);
    expect(ids).toEqual(expect.arrayContaining(['openai', 'anthropic', 'deepseek', 'qwen', 'vllm', 'ollama', 'lmstudio', 'openai_api_compatible']));
    const openai = r.body.data.find((p: { provider: string }) => p.provider === 'openai');
    expect(openai).toMatchObject({ protocol: 'openai-compatible', configured: false, default_base_url: 'https://api.openai.com/v1', supported_model_types: ['llm', 'text-embedding', 'speech2text', 'tts'] });
    expect(openai.credential_fields).toEqual([
      { name: 'base_url', label: 'models:fields.baseUrl', type: 'text', required: false, default: 'https://api.openai.com/v1' },
      { name: 'api_key', label: 'models:fields.apiKey', type: 'secret', required: false },
    ]);
    const generic = r.body.data.find((p: { provider: string }) => p.provider === 'openai_api_compatible');
    expect(generic.credential_fields[0]).toMatchObject({ name: 'base_url', required: true });
    const anthropic = r.body.data.find((p: { provider: string }) => p.provider === 'anthropic');
    expect(anthropic.credential_fields.find((f: { name: string }) => f.name === 'api_key')).toMatchObject({ required: true, type: 'secret' });
  });

  it('is for super and tenant admins only', async () => {
    expectCode(await as(tok.ta).get(`${A}/model-providers`), 200, 0);
    expectCode(await as(tok.plain).get(`${A}/model-providers`), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', `${A}/model-providers`), 401, 'AUTH-1001');
  });
});

describe('credentials', () => {
  const url = `${A}/model-providers/openai/credentials`;

  it('saves the key encrypted and answers it only masked', async () => {
    expect((await as(h.adminToken).get(url)).body.data).toEqual({ provider: 'openai', configured: false, credentials: null, updated_at: null });
    const r = await as(h.adminToken).post(url, { credentials: { api_key: KEY } });
    expectCode(r, 200, 0);
    expect(r.body.data).toMatchObject({ provider: 'openai', configured: true, credentials: { base_url: 'https://api.openai.com/v1', api_key: 'sk-l****1234' } });
    expect(JSON.stringify((await as(h.adminToken).get(url)).body)).not.toContain(KEY);
    const [row] = await h.studio.ctx.db.select().from(modelProviderCredentials).where(eq(modelProviderCredentials.provider, 'openai'));
    expect(row.secretEnc.startsWith('v1:')).toBe(true);
    expect(row.secretEnc).not.toContain(KEY);
    const providers = await as(h.adminToken).get(`${A}/model-providers`);
    expect(providers.body.data.find((p: { provider: string }) => p.provider === 'openai').configured).toBe(true);
  });

  it('keeps the stored key when the masked one comes back, and changes the base URL', async () => {
    const r = await as(tok.ta).post(url, { credentials: { base_url: 'https://proxy.example.com/v1', api_key: 'sk-l****1234' } });
    expectCode(r, 200, 0);
    expect(r.body.data.credentials).toEqual({ base_url: 'https://proxy.example.com/v1', api_key: 'sk-l****1234' });
    const [row] = await h.studio.ctx.db.select().from(modelProviderCredentials).where(eq(modelProviderCredentials.provider, 'openai'));
    expect(row.config.base_url).toBe('https://proxy.example.com/v1');
  });

  it('refuses bad input without changing anything', async () => {
    expectCode(await as(h.adminToken).post(url, { credentials: { base_url: 'not a url', api_key: KEY } }), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).post(url, {}), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).post(`${A}/model-providers/anthropic/credentials`, { credentials: { api_key: '' } }), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).post(`${A}/model-providers/openai_api_compatible/credentials`, { credentials: { api_key: KEY } }), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).post(`${A}/model-providers/nope/credentials`, { credentials: { api_key: KEY } }), 400, 'VALIDATION-1000');
    expect((await as(h.adminToken).get(url)).body.data.credentials.base_url).toBe('https://proxy.example.com/v1');
  });

  it('is refused to plain users and invisible to another tenant', async () => {
    expectCode(await as(tok.plain).get(url), 403, 'PERMISSION-1000');
    expectCode(await as(tok.plain).post(url, { credentials: { api_key: KEY } }), 403, 'PERMISSION-1000');
    expectCode(await as(tok.plain).del(url), 403, 'PERMISSION-1000');
    expect((await as(tok.acme).get(url)).body.data.configured).toBe(false);
    expectCode(await as(tok.acme).del(url), 400, 'VALIDATION-1000');
    expect((await as(h.adminToken).get(url)).body.data.configured).toBe(true);
  });
});

describe('models, enable/disable, custom models', () => {
  const base = `${A}/model-providers/openai`;

  it('lists predefined models, enabled by default, filtered by type', async () => {
    const r = await as(h.adminToken).get(`${base}/models`, { model_type: 'text-embedding' });
    expectCode(r, 200, 0);
    expect(r.body.data.map((m: { model: string }) => m.model)).toEqual(['text-embedding-3-small', 'text-embedding-3-large']);
    const all = await as(h.adminToken).get(`${base}/models`);
    expect(all.body.data.find((m: { model: string }) => m.model === 'gpt-4o-mini')).toMatchObject({ model_type: 'llm', enabled: true, fetch_from: 'predefined', features: ['tool-call', 'vision', 'streaming'] });
    expectCode(await as(h.adminToken).get(`${base}/models`, { model_type: 'image' }), 400, 'VALIDATION-1000');
  });

  it('disables and enables a model', async () => {
    const off = await as(h.adminToken).put(`${base}/models/disable`, { model: 'gpt-4o', model_type: 'llm' });
    expectCode(off, 200, 0);
    expect(off.body.data).toMatchObject({ model: 'gpt-4o', enabled: false });
    const avail = await as(tok.plain).get(`${C}/available`, { model_type: 'llm' });
    expect(avail.body.data[0].models.map((m: { model: string }) => m.model)).not.toContain('gpt-4o');
    expect((await as(h.adminToken).put(`${base}/models/enable`, { model: 'gpt-4o', model_type: 'llm' })).body.data.enabled).toBe(true);
    expectCode(await as(h.adminToken).put(`${base}/models/enable`, { model: 'gpt-9', model_type: 'llm' }), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).put(`${base}/models/enable`, { model: '', model_type: 'llm' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.plain).put(`${base}/models/disable`, { model: 'gpt-4o', model_type: 'llm' }), 403, 'PERMISSION-1000');
  });

  it('adds, lists and deletes custom models', async () => {
    const url = `${A}/model-providers/ollama/models/model-custom`;
    const r = await as(tok.ta).post(url, { model: 'qwen2.5:7b', features: ['tool-call', 'streaming'], context_size: 32768 });
    expectCode(r, 200, 0);
    expect(r.body.data).toEqual({ model: 'qwen2.5:7b', label: 'qwen2.5:7b', model_type: 'llm', features: ['tool-call', 'streaming'], context_size: 32768, max_output_tokens: 4096, fetch_from: 'custom', enabled: true });
    expectCode(await as(tok.ta).post(url, { model: 'qwen2.5:7b' }), 400, 'VALIDATION-1001');
    expectCode(await as(tok.ta).post(url, { model: 'x', model_type: 'tts' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.ta).post(url, { model: 'x', features: ['telepathy'] }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.ta).post(url, { model: 'x', context_size: -1 }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.plain).post(url, { model: 'y' }), 403, 'PERMISSION-1000');
    expect((await as(tok.ta).get(url)).body.data.map((m: { model: string }) => m.model)).toEqual(['qwen2.5:7b']);
    // Another tenant sees none of it and cannot delete it.
    expect((await as(tok.acme).get(url)).body.data).toEqual([]);
    expectCode(await as(tok.acme).del(url, { model: 'qwen2.5:7b', model_type: 'llm' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.ta).del(url, { model: 'qwen2.5:7b' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.ta).del(url, { model: 'qwen2.5:7b', model_type: 'llm' }), 200, 0);
    expect((await as(tok.ta).get(url)).body.data).toEqual([]);
  });
});

describe('available and tenant defaults', () => {
  it('lists only configured providers’ enabled models, per tenant, for any signed-in user', async () => {
    const r = await as(tok.plain).get(`${C}/available`, { model_type: 'llm' });
    expectCode(r, 200, 0);
    expect(r.body.data.map((p: { provider: string }) => p.provider)).toEqual(['openai']);
    expect((await as(h.adminToken).get(`${A}/available`, { model_type: 'text-embedding' })).body.data[0].models).toHaveLength(2);
    expect((await as(tok.acme).get(`${C}/available`)).body.data).toEqual([]);
    expectCode(await as(tok.plain).get(`${A}/available`), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', `${C}/available`), 401, 'AUTH-1001');
    expectCode(await as(tok.plain).get(`${C}/available`, { model_type: 'video' }), 400, 'VALIDATION-1000');
  });

  it('sets and reads the default of each type', async () => {
    expect((await as(tok.plain).get(`${C}/tenant-default`, { model_type: 'llm' })).body.data).toBeNull();
    const body = { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' };
    expectCode(await as(tok.ta).put(`${A}/tenant-default`, body), 200, 0);
    expect((await as(tok.plain).get(`${C}/tenant-default`, { model_type: 'llm' })).body.data).toEqual(body);
    expect((await as(h.adminToken).get(`${A}/tenant-default`)).body.data).toEqual(body);
    const all = await as(h.adminToken).get(`${A}/tenant-default/all`);
    expect(all.body.data).toHaveLength(5);
    expect(all.body.data[0]).toEqual({ model_type: 'llm', default: body });
    expect(all.body.data[1]).toEqual({ model_type: 'text-embedding', default: null });
  });

  it('refuses a default that cannot run, a plain user and another tenant’s provider', async () => {
    expectCode(await as(h.adminToken).put(`${A}/tenant-default`, { model_type: 'llm', provider: 'deepseek', model: 'deepseek-chat' }), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).put(`${A}/tenant-default`, { model_type: 'llm', provider: 'openai', model: 'text-embedding-3-small' }), 400, 'VALIDATION-1000');
    expectCode(await as(h.adminToken).put(`${A}/tenant-default`, { model_type: 'llm', provider: 'openai' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.plain).put(`${A}/tenant-default`, { model_type: 'llm', provider: 'openai', model: 'gpt-4o' }), 403, 'PERMISSION-1000');
    expectCode(await as(tok.acme).put(`${A}/tenant-default`, { model_type: 'llm', provider: 'openai', model: 'gpt-4o' }), 400, 'VALIDATION-1000');
    expect((await as(tok.acme).get(`${A}/tenant-default/all`)).body.data.every((d: { default: unknown }) => d.default === null)).toBe(true);
  });

  it('drops the default when its model is disabled or its credentials removed', async () => {
    await as(h.adminToken).put(`${A}/model-providers/openai/models/disable`, { model: 'gpt-4o-mini', model_type: 'llm' });
    expect((await as(h.adminToken).get(`${A}/tenant-default`)).body.data).toBeNull();
    await as(h.adminToken).put(`${A}/model-providers/openai/models/enable`, { model: 'gpt-4o-mini', model_type: 'llm' });
    expectCode(await as(h.adminToken).put(`${A}/tenant-default`, { model_type: 'text-embedding', provider: 'openai', model: 'text-embedding-3-small' }), 200, 0);
    expectCode(await as(h.adminToken).del(`${A}/model-providers/openai/credentials`), 200, 0);
    expect((await as(h.adminToken).get(`${A}/tenant-default`, { model_type: 'text-embedding' })).body.data).toBeNull();
    expect((await as(tok.plain).get(`${C}/available`)).body.data).toEqual([]);
  });
});

describe('parameter rules and suggestions (console)', () => {
  it('gives the OpenAI-style rules with the spec ranges', async () => {
    const r = await as(tok.plain).get(`${C}/parameter-rules`, { provider: 'openai', model: 'gpt-4o', model_type: 'llm' });
    expectCode(r, 200, 0);
    const byName = Object.fromEntries(r.body.data.map((x: { name: string }) => [x.name, x]));
    expect(Object.keys(byName)).toEqual(['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'max_tokens', 'stop', 'response_format']);
    expect(byName.frequency_penalty).toMatchObject({ min: -2, max: 2 });
    expect(byName.presence_penalty).toMatchObject({ min: -2, max: 2 });
    expect(byName.stop).toMatchObject({ type: 'text-list', max_items: 4 });
    expect(byName.max_tokens).toMatchObject({ type: 'int', min: 1, max: 16384 });
    expect(byName.response_format.options).toEqual(['text', 'json_object']);
  });

  it('gives Anthropic its own rules and none for embedding models', async () => {
    const r = await as(tok.plain).get(`${C}/parameter-rules`, { provider: 'anthropic', model: 'claude-sonnet-4-5' });
    expect(r.body.data.map((x: { name: string }) => x.name)).toEqual(['temperature', 'top_p', 'max_tokens', 'stop']);
    expect(r.body.data[0]).toMatchObject({ max: 1 });
    const emb = await as(tok.plain).get(`${C}/parameter-rules`, { provider: 'openai', model: 'text-embedding-3-small', model_type: 'text-embedding' });
    expect(emb.body.data).toEqual([]);
  });

  it('suggests presets within the rules', async () => {
    const r = await as(tok.plain).get(`${C}/model-parameter-suggestions`, { provider: 'anthropic', model: 'claude-haiku-4-5' });
    expectCode(r, 200, 0);
    expect(r.body.data.map((s: { name: string }) => s.name)).toEqual(['precise', 'balanced', 'creative']);
    expect(r.body.data.every((s: { params: { temperature: number } }) => s.params.temperature <= 1)).toBe(true);
  });

  it('refuses unknown providers and models, missing queries and anonymous callers', async () => {
    expectCode(await as(tok.plain).get(`${C}/parameter-rules`, { provider: 'nope', model: 'x' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.plain).get(`${C}/parameter-rules`, { provider: 'openai', model: 'gpt-99' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.plain).get(`${C}/parameter-rules`, { provider: 'openai' }), 400, 'VALIDATION-1000');
    expectCode(await as(tok.plain).get(`${C}/model-parameter-suggestions`, { model: 'gpt-4o' }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${C}/parameter-rules`, { query: { provider: 'openai', model: 'gpt-4o' } }), 401, 'AUTH-1001');
  });
});
