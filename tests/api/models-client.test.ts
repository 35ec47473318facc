import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { useStudio, DEFAULT_TENANT_ID } from './harness';
import { fakeOpenAi, GOOD_KEY, type FakeServer } from './fake-providers';
import { configureRequest } from '../../src/api/request';
import { signIn } from '../../src/api/auth';
import * as models from '../../src/api/models';

/** The client's models group (src/api/models.ts) against the real server: URLs, bodies and answer schemas agree. */

const h = useStudio();
let fake: FakeServer;
beforeAll(async () => {
  fake = await fakeOpenAi();
  h.allowOutbound(fake.baseUrl);
  await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.studio.app.server.address() as AddressInfo;
  configureRequest({ baseUrl: `http://127.0.0.1:${port}` });
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' });
});
afterAll(async () => {
  await fake?.close();
});

it('every model endpoint function parses the real answer', async () => {
  const providers = await models.listModelProviders();
  expect(providers.find((p) => p.provider === 'vllm')).toMatchObject({ configured: false });

  const saved = await models.saveProviderCredentials('vllm', { base_url: fake.baseUrl, api_key: GOOD_KEY });
  expect(saved.credentials).toEqual({ base_url: fake.baseUrl, api_key: 'sk-t****7890' });
  expect((await models.getProviderCredentials('vllm')).configured).toBe(true);

  const added = await models.addCustomModel('vllm', { model: 'fake-chat', features: ['tool-call', 'streaming'] });
  expect(added).toMatchObject({ model: 'fake-chat', fetch_from: 'custom', enabled: true });
  expect((await models.listCustomModels('vllm')).map((m) => m.model)).toEqual(['fake-chat']);
  expect(await models.listProviderModels('vllm', 'llm')).toHaveLength(1);

  const test = await models.validateProviderCredentials('vllm', { credentials: { base_url: fake.baseUrl, api_key: saved.credentials!.api_key }, model: 'fake-chat' });
  expect(test.ok).toBe(true);

  expect((await models.setModelEnabled('vllm', { model: 'fake-chat', model_type: 'llm' }, false)).enabled).toBe(false);
  expect(await models.listAvailableModels('llm')).toEqual([]);
  expect((await models.setModelEnabled('vllm', { model: 'fake-chat', model_type: 'llm' }, true)).enabled).toBe(true);
  expect((await models.availableModels('llm'))[0].models[0].model).toBe('fake-chat');

  expect(await models.setTenantDefault({ model_type: 'llm', provider: 'vllm', model: 'fake-chat' })).toEqual({ model_type: 'llm', provider: 'vllm', model: 'fake-chat' });
  expect((await models.listTenantDefaults())[0].default?.model).toBe('fake-chat');
  expect((await models.tenantDefaultModel('llm'))?.provider).toBe('vllm');

  const rules = await models.parameterRules({ provider: 'vllm', model: 'fake-chat' });
  expect(rules.map((r) => r.name)).toContain('presence_penalty');
  expect((await models.parameterSuggestions({ provider: 'vllm', model: 'fake-chat' })).map((s) => s.name)).toEqual(['precise', 'balanced', 'creative']);

  expect(await models.deleteCustomModel('vllm', { model: 'fake-chat', model_type: 'llm' })).toBeNull();
  expect(await models.deleteProviderCredentials('vllm')).toBeNull();
  expect((await models.getProviderCredentials('vllm')).configured).toBe(false);
});
