import type { z } from 'zod';
import { getUiMeta } from '../../../schemas/ui';
import {
  credentialSchemaOf,
  MAX_STOP_SEQUENCES,
  type CredentialField,
  type ModelFeature,
  type ModelInfo,
  type ModelType,
  type ParameterRule,
  type ParameterSuggestion,
  type Protocol,
} from '../../../schemas/model';

/**
 * The model provider catalogue: which providers Weft can talk to, their predefined models and the
 * parameter rules of each. A provider is a preset of one wire protocol; adding a provider that
 * speaks an existing protocol is one entry here (no new client code).
 */
export interface CatalogueProvider {
  provider: string;
  label: string;
  /** i18n key. */
  description: string;
  protocol: Protocol;
  supported_model_types: ModelType[];
  /** Base URL used when the credentials leave it empty ('' : the admin must give one). */
  default_base_url: string;
  models: ModelInfo[];
  /** The voices of its tts models, where they are not OpenAI's (src/server/speech OPENAI_VOICES). */
  tts_voices?: readonly string[];
}

const CHAT: ModelFeature[] = ['tool-call', 'streaming'];
const CHAT_VISION: ModelFeature[] = ['tool-call', 'vision', 'streaming'];

const llm = (model: string, label: string, features: ModelFeature[], context_size: number, max_output_tokens: number): ModelInfo => ({
  model,
  label,
  model_type: 'llm',
  features,
  context_size,
  max_output_tokens,
  fetch_from: 'predefined',
});
/** A tts or speech2text model: no context window, no parameters. */
const audio = (model: string, label: string, model_type: 'tts' | 'speech2text'): ModelInfo => ({ model, label, model_type, features: [], context_size: 0, max_output_tokens: 0, fetch_from: 'predefined' });
const embedding = (model: string, label: string, context_size: number): ModelInfo => ({
  model,
  label,
  model_type: 'text-embedding',
  features: [],
  context_size,
  max_output_tokens: 0,
  fetch_from: 'predefined',
});

/** Local and self-hosted servers: no predefined models, the admin adds what the server runs. */
const selfHosted = (provider: string, label: string, default_base_url: string, extraTypes: ModelType[] = []): CatalogueProvider => ({
  provider,
  label,
  description: `models:providers.${provider}`,
  protocol: 'openai-compatible',
  supported_model_types: ['llm', 'text-embedding', ...extraTypes],
  default_base_url,
  models: [],
});

export const CATALOGUE: readonly CatalogueProvider[] = [
  {
    provider: 'openai',
    label: 'OpenAI',
    description: 'models:providers.openai',
    protocol: 'openai-compatible',
    supported_model_types: ['llm', 'text-embedding', 'speech2text', 'tts'],
    default_base_url: 'https://api.openai.com/v1',
    models: [
      llm('gpt-4.1', 'GPT-4.1', CHAT_VISION, 1_047_576, 32_768),
      llm('gpt-4.1-mini', 'GPT-4.1 mini', CHAT_VISION, 1_047_576, 32_768),
      llm('gpt-4o', 'GPT-4o', CHAT_VISION, 128_000, 16_384),
      llm('gpt-4o-mini', 'GPT-4o mini', CHAT_VISION, 128_000, 16_384),
      embedding('text-embedding-3-small', 'text-embedding-3-small', 8191),
      embedding('text-embedding-3-large', 'text-embedding-3-large', 8191),
      audio('gpt-4o-mini-tts', 'gpt-4o-mini-tts', 'tts'),
      audio('tts-1', 'TTS-1', 'tts'),
      audio('tts-1-hd', 'TTS-1 HD', 'tts'),
      audio('gpt-4o-mini-transcribe', 'gpt-4o-mini-transcribe', 'speech2text'),
      audio('gpt-4o-transcribe', 'gpt-4o-transcribe', 'speech2text'),
      audio('whisper-1', 'Whisper', 'speech2text'),
    ],
  },
  {
    provider: 'anthropic',
    label: 'Anthropic',
    description: 'models:providers.anthropic',
    protocol: 'anthropic',
    supported_model_types: ['llm'],
    default_base_url: 'https://api.anthropic.com/v1',
    models: [
      llm('claude-sonnet-4-5', 'Claude Sonnet 4.5', CHAT_VISION, 200_000, 64_000),
      llm('claude-opus-4-1', 'Claude Opus 4.1', CHAT_VISION, 200_000, 32_000),
      llm('claude-haiku-4-5', 'Claude Haiku 4.5', CHAT_VISION, 200_000, 64_000),
    ],
  },
  {
    provider: 'deepseek',
    label: 'DeepSeek',
    description: 'models:providers.deepseek',
    protocol: 'openai-compatible',
    supported_model_types: ['llm'],
    default_base_url: 'https://api.deepseek.com/v1',
    models: [llm('deepseek-chat', 'DeepSeek-V3', CHAT, 128_000, 8192), llm('deepseek-reasoner', 'DeepSeek-R1', ['streaming'], 128_000, 65_536)],
  },
  {
    provider: 'qwen',
    label: 'Qwen (DashScope compatible mode)',
    description: 'models:providers.qwen',
    protocol: 'openai-compatible',
    supported_model_types: ['llm', 'text-embedding'],
    default_base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1',
    models: [
      llm('qwen-max', 'Qwen-Max', CHAT, 32_768, 8192),
      llm('qwen-plus', 'Qwen-Plus', CHAT, 131_072, 8192),
      llm('qwen-turbo', 'Qwen-Turbo', CHAT, 1_000_000, 8192),
      llm('qwen-vl-max', 'Qwen-VL-Max', CHAT_VISION, 131_072, 8192),
      embedding('text-embedding-v3', 'text-embedding-v3', 8192),
    ],
  },
  // vLLM and generic OpenAI-compatible servers (Jina, Xinference, TEI...) also serve POST /rerank;
  // vLLM serves Whisper-style /audio/transcriptions, generic ones (LocalAI, Xinference, speaches) also /audio/speech.
  selfHosted('vllm', 'vLLM', 'http://localhost:8000/v1', ['rerank', 'speech2text']),
  selfHosted('ollama', 'Ollama', 'http://localhost:11434/v1'),
  selfHosted('lmstudio', 'LM Studio', 'http://localhost:1234/v1'),
  selfHosted('openai_api_compatible', 'OpenAI-API-compatible', '', ['rerank', 'speech2text', 'tts']),
];

export function providerOf(id: string): CatalogueProvider | undefined {
  return CATALOGUE.find((p) => p.provider === id);
}

/** The credential form of a provider, described for the client (from the protocol's zod schema). */
export function credentialFieldsOf(p: CatalogueProvider): CredentialField[] {
  const shape = credentialSchemaOf(p.protocol).shape as Record<string, z.ZodType>;
  return Object.entries(shape).map(([name, s]) => {
    const meta = getUiMeta(s);
    // A base URL is required only where the catalogue has no default to fall back on.
    const required = name === 'base_url' ? !p.default_base_url : !s.safeParse(undefined).success && !s.safeParse('').success;
    return {
      name,
      label: meta.label ?? name,
      type: meta.widget === 'secret' ? 'secret' : 'text',
      required,
      ...(name === 'base_url' && p.default_base_url ? { default: p.default_base_url } : {}),
    };
  });
}

const rule = (r: ParameterRule): ParameterRule => r;

/**
 * Parameter rules of a model (spec 5: temperature, top-p, frequency and presence penalty in
 * -2.0..2.0, at most 4 stop sequences). Anthropic takes temperature 0..1 and no penalties or
 * response format; only llm models have parameters.
 */
export function parameterRulesOf(p: CatalogueProvider, model: ModelInfo): ParameterRule[] {
  if (model.model_type !== 'llm') return [];
  const anthropic = p.protocol === 'anthropic';
  const maxTokens = model.max_output_tokens || 4096;
  const rules: ParameterRule[] = [
    rule({ name: 'temperature', label: 'models:params.temperature', help: 'models:params.temperatureHelp', type: 'float', min: 0, max: anthropic ? 1 : 2, precision: 2, default: anthropic ? 1 : 0.7 }),
    rule({ name: 'top_p', label: 'models:params.top_p', help: 'models:params.top_pHelp', type: 'float', min: 0, max: 1, precision: 2, default: 1 }),
  ];
  if (!anthropic) {
    for (const name of ['frequency_penalty', 'presence_penalty'] as const) {
      rules.push(rule({ name, label: `models:params.${name}`, help: `models:params.${name}Help`, type: 'float', min: -2, max: 2, precision: 1, default: 0 }));
    }
  }
  rules.push(
    rule({ name: 'max_tokens', label: 'models:params.max_tokens', help: 'models:params.max_tokensHelp', type: 'int', min: 1, max: maxTokens, default: Math.min(4096, maxTokens) }),
    rule({ name: 'stop', label: 'models:params.stop', help: 'models:params.stopHelp', type: 'text-list', max_items: MAX_STOP_SEQUENCES, default: [] }),
  );
  if (!anthropic) {
    rules.push(rule({ name: 'response_format', label: 'models:params.response_format', help: 'models:params.response_formatHelp', type: 'select', options: ['text', 'json_object'], default: 'text' }));
  }
  return rules;
}

/** Presets of temperature and top-p, clamped to the model's rules. */
export function parameterSuggestionsOf(rules: ParameterRule[]): ParameterSuggestion[] {
  if (rules.length === 0) return [];
  const maxTemp = rules.find((r) => r.name === 'temperature')?.max ?? 1;
  const presets: [ParameterSuggestion['name'], number, number][] = [
    ['precise', 0.2, 0.75],
    ['balanced', 0.5, 0.85],
    ['creative', 0.8, 0.9],
  ];
  return presets.map(([name, temp, topP]) => ({
    name,
    label: `models:suggestions.${name}`,
    params: { temperature: Math.min(temp, maxTemp), top_p: topP },
  }));
}
