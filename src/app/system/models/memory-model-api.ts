/**
 * An in-memory {@link ModelAdminApi} for stories and tests: three providers (OpenAI, Anthropic,
 * Ollama) with the server's rules (masked keys, enabled by default, defaults only among available
 * models, removal clears defaults), failures as the server's ApiErrors, and a credential test that
 * accepts only {@link MEMORY_GOOD_KEY}.
 *
 * @example
 * const api = createMemoryModelApi({ configured: { openai: 'sk-…' } });
 * <ModelAdminApiContext value={api}><ModelsPage /></ModelAdminApiContext>
 */
import { maskApiKey, type CredentialField, type DefaultModel, type Model, type ModelProvider, type ModelType } from '../../../../schemas/model';
import { MODEL_TYPES } from '../../../../schemas/model';
import { ApiError } from '../../../api/request';
import type { ModelAdminApi } from './model-api';

export const MEMORY_GOOD_KEY = 'sk-good-0000000000000000';

export interface MemoryModelOptions {
  /** Providers configured at start, with their key. */
  configured?: Record<string, string>;
  defaults?: DefaultModel[];
  latencyMs?: number;
  /** The provider list never answers (loading state). */
  neverLoads?: boolean;
  /** The provider list fails (error state). */
  listFails?: boolean;
}

export interface MemoryModelApi extends ModelAdminApi {
  calls: { method: string; args: unknown[] }[];
  keys: Map<string, { base_url: string; api_key: string }>;
}

const fields = (urlRequired: boolean, keyRequired: boolean, def?: string): CredentialField[] => [
  { name: 'base_url', label: 'models:fields.baseUrl', type: 'text', required: urlRequired, ...(def ? { default: def } : {}) },
  { name: 'api_key', label: 'models:fields.apiKey', type: 'secret', required: keyRequired },
];
const llm = (model: string, label: string, features: Model['features'] = ['tool-call', 'streaming']): Model => ({
  model,
  label,
  model_type: 'llm',
  features,
  context_size: 128_000,
  max_output_tokens: 8192,
  fetch_from: 'predefined',
  enabled: true,
});

function catalogue(): { provider: ModelProvider; models: Model[] }[] {
  const p = (provider: string, label: string, protocol: ModelProvider['protocol'], types: ModelType[], base: string, f: CredentialField[]): ModelProvider => ({
    provider,
    label,
    description: `models:providers.${provider}`,
    protocol,
    supported_model_types: types,
    credential_fields: f,
    default_base_url: base,
    configured: false,
  });
  return [
    {
      provider: p('openai', 'OpenAI', 'openai-compatible', ['llm', 'text-embedding'], 'https://api.openai.com/v1', fields(false, false, 'https://api.openai.com/v1')),
      models: [
        llm('gpt-4o', 'GPT-4o', ['tool-call', 'vision', 'streaming']),
        llm('gpt-4o-mini', 'GPT-4o mini', ['tool-call', 'vision', 'streaming']),
        { ...llm('text-embedding-3-small', 'text-embedding-3-small', []), model_type: 'text-embedding', max_output_tokens: 0, context_size: 8191 },
      ],
    },
    {
      provider: p('anthropic', 'Anthropic', 'anthropic', ['llm'], 'https://api.anthropic.com/v1', [fields(false, true)[1], fields(false, true)[0]]),
      models: [llm('claude-sonnet-4-5', 'Claude Sonnet 4.5', ['tool-call', 'vision', 'streaming'])],
    },
    { provider: p('ollama', 'Ollama', 'openai-compatible', ['llm', 'text-embedding'], 'http://localhost:11434/v1', fields(false, false, 'http://localhost:11434/v1')), models: [] },
  ];
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
const param = (msg: string) => new ApiError({ status: 400, code: 'VALIDATION-1000', msg });

export function createMemoryModelApi(opts: MemoryModelOptions = {}): MemoryModelApi {
  const cat = catalogue();
  const keys = new Map<string, { base_url: string; api_key: string }>();
  for (const [provider, key] of Object.entries(opts.configured ?? {})) {
    keys.set(provider, { base_url: cat.find((c) => c.provider.provider === provider)!.provider.default_base_url, api_key: key });
  }
  let defaults: DefaultModel[] = [...(opts.defaults ?? [])];
  const calls: MemoryModelApi['calls'] = [];
  const latency = opts.latencyMs ?? 10;
  const entry = (provider: string) => {
    const c = cat.find((x) => x.provider.provider === provider);
    if (!c) throw param('Model provider does not exist or you have no permission');
    return c;
  };
  const find = (provider: string, m: { model: string; model_type: ModelType }) => {
    const model = entry(provider).models.find((x) => x.model === m.model && x.model_type === m.model_type);
    if (!model) throw param('Model does not exist or you have no permission');
    return model;
  };
  const credsOut = (provider: string) => {
    const k = keys.get(provider);
    return { provider, configured: !!k, credentials: k ? { base_url: k.base_url, api_key: maskApiKey(k.api_key) } : null, updated_at: k ? '2026-11-20T08:00:00.000Z' : null };
  };
  const dropDefaults = (pred: (d: DefaultModel) => boolean) => {
    defaults = defaults.filter((d) => !pred(d));
  };
  const step = async <T>(method: string, args: unknown[], fn: () => T): Promise<T> => {
    calls.push({ method, args });
    await wait(latency);
    return fn();
  };

  return {
    calls,
    keys,
    listProviders: async () => {
      calls.push({ method: 'listProviders', args: [] });
      if (opts.neverLoads) return new Promise<never>(() => {});
      await wait(latency);
      if (opts.listFails) throw new ApiError({ status: 500, code: 'SYSTEM-1500', msg: 'Server error' });
      return cat.map((c) => ({ ...c.provider, configured: keys.has(c.provider.provider) }));
    },
    getCredentials: (provider) => step('getCredentials', [provider], () => (entry(provider), credsOut(provider))),
    saveCredentials: (provider, c) =>
      step('saveCredentials', [provider, c], () => {
        const e = entry(provider).provider;
        const stored = keys.get(provider);
        const api_key = stored && c.api_key === maskApiKey(stored.api_key) ? stored.api_key : (c.api_key ?? '');
        if (e.protocol === 'anthropic' && !api_key) throw new ApiError({ status: 400, code: 'VALIDATION-1000', msg: 'Parameter error', data: [{ path: 'credentials.api_key', message: 'This form field is required!' }] });
        keys.set(provider, { base_url: c.base_url || e.default_base_url, api_key });
        return credsOut(provider);
      }),
    deleteCredentials: (provider) =>
      step('deleteCredentials', [provider], () => {
        if (!keys.delete(provider)) throw param('Model provider credentials does not exist or you have no permission');
        dropDefaults((d) => d.provider === provider);
        return null;
      }),
    validateCredentials: (provider, body) =>
      step('validateCredentials', [provider, body], () => {
        const stored = keys.get(provider);
        const key = body.credentials?.api_key;
        const plain = stored && (key === undefined || key === maskApiKey(stored.api_key)) ? stored.api_key : key;
        if (!body.model && !entry(provider).models.some((m) => m.model_type === 'llm')) throw param('Parameter error: model Name a model to test with');
        return plain === MEMORY_GOOD_KEY
          ? { ok: true, elapsed_ms: 42 }
          : { ok: false, error_code: 'unauthorized' as const, message: 'The provider refused the key: Incorrect API key provided', elapsed_ms: 40 };
      }),
    listModels: (provider) => step('listModels', [provider], () => entry(provider).models.map((m) => ({ ...m }))),
    setModelEnabled: (provider, m, enabled) =>
      step('setModelEnabled', [provider, m, enabled], () => {
        const model = find(provider, m);
        model.enabled = enabled;
        if (!enabled) dropDefaults((d) => d.provider === provider && d.model === m.model && d.model_type === m.model_type);
        return { ...model };
      }),
    addCustomModel: (provider, body) =>
      step('addCustomModel', [provider, body], () => {
        const e = entry(provider);
        const model_type = body.model_type ?? 'llm';
        if (e.models.some((m) => m.model === body.model && m.model_type === model_type)) {
          throw new ApiError({ status: 400, code: 'VALIDATION-1001', msg: `The model '${body.model}' already exists for this provider` });
        }
        const m: Model = {
          model: body.model,
          label: body.label || body.model,
          model_type,
          features: body.features ?? ['streaming'],
          context_size: Number(body.context_size ?? 4096),
          max_output_tokens: Number(body.max_output_tokens ?? 4096),
          fetch_from: 'custom',
          enabled: true,
        };
        e.models.push(m);
        return { ...m };
      }),
    deleteCustomModel: (provider, m) =>
      step('deleteCustomModel', [provider, m], () => {
        const e = entry(provider);
        const i = e.models.findIndex((x) => x.model === m.model && x.model_type === m.model_type && x.fetch_from === 'custom');
        if (i < 0) throw param('Custom model does not exist or you have no permission');
        e.models.splice(i, 1);
        dropDefaults((d) => d.provider === provider && d.model === m.model && d.model_type === m.model_type);
        return null;
      }),
    listAvailable: (modelType) =>
      step('listAvailable', [modelType], () =>
        cat
          .filter((c) => keys.has(c.provider.provider))
          .map((c) => ({ provider: c.provider.provider, label: c.provider.label, models: c.models.filter((m) => m.enabled && m.model_type === modelType).map(({ enabled: _e, ...info }) => info) }))
          .filter((p) => p.models.length > 0),
      ),
    listDefaults: () => step('listDefaults', [], () => MODEL_TYPES.map((t) => ({ model_type: t, default: defaults.find((d) => d.model_type === t) ?? null }))),
    setDefault: (body) =>
      step('setDefault', [body], () => {
        if (!keys.has(body.provider)) throw param('Model provider credentials does not exist or you have no permission');
        const m = find(body.provider, body);
        if (!m.enabled) throw param(`The model '${body.model}' is disabled`);
        dropDefaults((d) => d.model_type === body.model_type);
        defaults.push(body);
        return body;
      }),
  };
}
