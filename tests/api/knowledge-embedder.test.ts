import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useStudio, DEFAULT_TENANT_ID } from './harness';
import { fakeOpenAi, GOOD_KEY, type FakeServer } from './fake-providers';
import { createEmbedder, EMBED_BATCH_SIZE, embedderForTenant } from '../../src/server/knowledge/embedder';
import { embedBuiltin } from '../../src/server/knowledge/embed-builtin';

/** The knowledge embedder against a real OpenAI-compatible HTTP server and the tenant's model settings. */

const h = useStudio();
const ADMIN_URL = '/api/v1/admin/models';
const call = (method: string, url: string, body?: unknown) => h.call(method, `${ADMIN_URL}${url}`, { token: h.adminToken, body });
let oa: FakeServer;

beforeAll(async () => {
  oa = await fakeOpenAi();
  h.allowOutbound(oa.baseUrl);
});
afterAll(async () => {
  await oa?.close();
});

describe('knowledge embedder', () => {
  it('uses the builtin embedding while the tenant has no default text-embedding model', async () => {
    const e = await embedderForTenant(h.studio.ctx, DEFAULT_TENANT_ID);
    expect(e.embedding).toBeNull();
    expect(e).toMatchObject({ id: 'builtin', dim: 256 });
    expect(await e.embed(['知识库'])).toEqual(embedBuiltin(['知识库']));
    expect(createEmbedder(h.studio.ctx, DEFAULT_TENANT_ID, { embedding: null }).id).toBe('builtin');
  });

  it("follows the tenant's default model and calls the provider in batches", async () => {
    expect((await call('POST', '/model-providers/openai_api_compatible/credentials', { credentials: { base_url: oa.baseUrl, api_key: GOOD_KEY } })).status).toBe(200);
    const added = await call('POST', '/model-providers/openai_api_compatible/models/model-custom', { model: 'fake-embed', model_type: 'text-embedding', features: [] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const set = await call('PUT', '/tenant-default', { model_type: 'text-embedding', provider: 'openai_api_compatible', model: 'fake-embed' });
    expect(set.status, JSON.stringify(set.body)).toBe(200);

    const e = await embedderForTenant(h.studio.ctx, DEFAULT_TENANT_ID);
    expect(e.embedding).toEqual({ provider: 'openai_api_compatible', model: 'fake-embed' });
    expect(e.id).toBe('openai_api_compatible/fake-embed');
    expect(e.dim).toBeNull();

    const texts = Array.from({ length: EMBED_BATCH_SIZE * 2 + 5 }, (_, i) => 'x'.repeat(i % 7) + '段');
    texts[3] = '   ';
    oa.requests.length = 0;
    const vectors = await e.embed(texts);
    const embedCalls = oa.requests.filter((r) => r.path === '/v1/embeddings');
    expect(embedCalls.map((r) => r.body.input.length)).toEqual([EMBED_BATCH_SIZE, EMBED_BATCH_SIZE, 5]);
    expect(embedCalls[0]!.body.model).toBe('fake-embed');
    // The fake answers [text length, index within the request, 0.5]: order is kept across batches.
    expect(vectors).toHaveLength(texts.length);
    expect(vectors[EMBED_BATCH_SIZE + 1]).toEqual([texts[EMBED_BATCH_SIZE + 1]!.length, 1, 0.5]);
    expect(vectors[3]).toEqual([1, 3, 0.5]); // a blank text is sent as one space
    expect(e.dim).toBe(3);
  });

  it('stops before calling the provider when the signal is aborted, and reports provider errors', async () => {
    const e = createEmbedder(h.studio.ctx, DEFAULT_TENANT_ID, { embedding: { provider: 'openai_api_compatible', model: 'fake-embed' } });
    oa.requests.length = 0;
    await expect(e.embed(['a'], AbortSignal.abort())).rejects.toThrow();
    expect(oa.requests).toHaveLength(0);
    const missing = createEmbedder(h.studio.ctx, DEFAULT_TENANT_ID, { embedding: { provider: 'openai_api_compatible', model: 'not-added' } });
    await expect(missing.embed(['a'])).rejects.toThrow(/not-added/);
  });
});
