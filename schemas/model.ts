import { z } from 'zod';

/**
 * Model providers and models (spec 3 "model lists by type ... each with a default model; parameter
 * rules are keyed by provider and model", 7.4 admin models, 7.5 console models). A provider of the
 * catalogue speaks one wire protocol (`openai-compatible` or `anthropic`); presets such as DeepSeek
 * or Ollama are openai-compatible with their own default base URL and predefined models.
 *
 * Keys (`api_key`) are stored encrypted and answered only masked (see {@link maskApiKey}).
 */

export const MODEL_TYPES = ['llm', 'text-embedding', 'rerank', 'speech2text', 'tts'] as const;
export const ModelType = z.enum(MODEL_TYPES).meta({ label: 'models:fields.modelType', optionLabels: 'models:types' });
export type ModelType = z.infer<typeof ModelType>;

export const MODEL_FEATURES = ['tool-call', 'vision', 'streaming'] as const;
export const ModelFeature = z.enum(MODEL_FEATURES);
export type ModelFeature = z.infer<typeof ModelFeature>;

export const PROTOCOLS = ['openai-compatible', 'anthropic'] as const;
export const Protocol = z.enum(PROTOCOLS);
export type Protocol = z.infer<typeof Protocol>;

/** A provider id of the catalogue: lower case, digits, `_` and `-`. */
export const ProviderId = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'unknown provider');
/** A model name as the provider knows it (`gpt-4o-mini`, `qwen2.5:7b`, `org/model`). */
export const ModelName = z.string().trim().min(1, 'This form field is required!').max(200, 'exceeds maximum length 200');

const REQUIRED = 'This form field is required!';
const MASK = '******';

/** The masked form of a key as answers show it: first and last 4 characters of long keys. */
export function maskApiKey(key: string): string {
  if (!key) return '';
  return key.length >= 16 ? `${key.slice(0, 4)}****${key.slice(-4)}` : MASK;
}

// ------------------------------------------------------------------------------------------------
// Credential forms (one zod object per protocol; the screen renders them with SchemaForm)

const baseUrl = z
  .url({ protocol: /^https?$/, message: 'must be an http(s) URL' })
  .max(500)
  .meta({ label: 'models:fields.baseUrl', placeholder: 'models:fields.baseUrlPlaceholder', help: 'models:fields.baseUrlHelp', order: 1 });
const apiKey = z.string().trim().max(500).meta({ label: 'models:fields.apiKey', widget: 'secret', order: 2 });

/**
 * OpenAI-compatible endpoints: a base URL (…/v1) and a key (local servers such as Ollama take none).
 * The base URL may be left out where the catalogue has a default for the provider.
 */
export const OpenAiCompatibleCredentials = z.object({
  base_url: baseUrl.optional(),
  api_key: apiKey.default(''),
});
/** Anthropic's Messages API: a key, and a base URL for a proxy or gateway. */
export const AnthropicCredentials = z.object({
  api_key: apiKey.min(1, REQUIRED),
  base_url: baseUrl.optional(),
});
export const credentialSchemaOf = (p: Protocol) => (p === 'anthropic' ? AnthropicCredentials : OpenAiCompatibleCredentials);
export type ProviderCredentials = { base_url?: string; api_key: string };

/** One field of a provider's credential form, as the catalogue answer describes it. */
export const CredentialField = z.object({
  name: z.string(),
  /** i18n key. */
  label: z.string(),
  type: z.enum(['text', 'secret']),
  required: z.boolean(),
  default: z.string().optional(),
});
export type CredentialField = z.infer<typeof CredentialField>;

// ------------------------------------------------------------------------------------------------
// Models and parameter rules

/** What the server knows about a model (predefined in the catalogue or added by an admin). */
export const ModelInfo = z.object({
  model: ModelName,
  /** Display name (brand text, not translated). */
  label: z.string(),
  model_type: ModelType,
  features: z.array(ModelFeature),
  /** Context window in tokens (0: unknown). */
  context_size: z.number().int().min(0),
  /** Largest answer in tokens (the max_tokens rule's maximum; 0: unknown). */
  max_output_tokens: z.number().int().min(0),
  fetch_from: z.enum(['predefined', 'custom']),
});
export type ModelInfo = z.infer<typeof ModelInfo>;

/** A model of a provider in a tenant. */
export const Model = ModelInfo.extend({ enabled: z.boolean() });
export type Model = z.infer<typeof Model>;

export const PARAMETER_NAMES = ['temperature', 'top_p', 'frequency_penalty', 'presence_penalty', 'max_tokens', 'stop', 'response_format'] as const;
export const ParameterName = z.enum(PARAMETER_NAMES);

/** How a model parameter shows and what it accepts (spec 5 "Model settings"). */
export const ParameterRule = z.object({
  name: ParameterName,
  /** i18n keys. */
  label: z.string(),
  help: z.string(),
  type: z.enum(['float', 'int', 'text-list', 'select']),
  min: z.number().optional(),
  max: z.number().optional(),
  precision: z.number().int().optional(),
  default: z.union([z.number(), z.string(), z.array(z.string())]).optional(),
  /** text-list: at most this many entries. */
  max_items: z.number().int().optional(),
  options: z.array(z.string()).optional(),
});
export type ParameterRule = z.infer<typeof ParameterRule>;

export const MAX_STOP_SEQUENCES = 4;

/** The parameters a node or prompt stores for a model call (every field optional: provider default). */
export const ModelParams = z.object({
  temperature: z.number().min(0).max(2).optional(),
  top_p: z.number().min(0).max(1).optional(),
  frequency_penalty: z.number().min(-2).max(2).optional(),
  presence_penalty: z.number().min(-2).max(2).optional(),
  max_tokens: z.number().int().min(1).max(1_000_000).optional(),
  stop: z.array(z.string().min(1).max(100)).max(MAX_STOP_SEQUENCES, `at most ${MAX_STOP_SEQUENCES} stop sequences`).optional(),
  response_format: z.enum(['text', 'json_object']).optional(),
});
export type ModelParams = z.infer<typeof ModelParams>;

/** A named preset of parameters (model-parameter-suggestions): precise, balanced, creative. */
export const ParameterSuggestion = z.object({
  name: z.enum(['precise', 'balanced', 'creative']),
  /** i18n key. */
  label: z.string(),
  params: ModelParams,
});
export type ParameterSuggestion = z.infer<typeof ParameterSuggestion>;

// ------------------------------------------------------------------------------------------------
// Providers

/** A provider of the catalogue, with the tenant's state. */
export const ModelProvider = z.object({
  provider: ProviderId,
  /** Brand name, not translated. */
  label: z.string(),
  /** i18n key of a one-line description. */
  description: z.string(),
  protocol: Protocol,
  supported_model_types: z.array(ModelType),
  credential_fields: z.array(CredentialField),
  default_base_url: z.string(),
  /** The tenant has saved credentials for it. */
  configured: z.boolean(),
});
export type ModelProvider = z.infer<typeof ModelProvider>;

/** Saved credentials as answers show them: the key masked, never plain. */
export const ProviderCredentialsOut = z.object({
  provider: ProviderId,
  configured: z.boolean(),
  credentials: z.object({ base_url: z.string(), api_key: z.string() }).nullable(),
  updated_at: z.string().nullable(),
});
export type ProviderCredentialsOut = z.infer<typeof ProviderCredentialsOut>;

/** Save credentials; an api_key equal to its masked form keeps the stored key. */
export const CredentialsSaveBody = z.object({ credentials: z.record(z.string(), z.string()) });
/**
 * Test credentials: the form's values (masked key: the stored one), and the model to try. Without
 * `model_type` the named model's own type (from the provider's models) decides how it is tried
 * (a tts model speaks a word, a speech2text one writes down silence); an unlisted one is an llm.
 */
export const CredentialsValidateBody = z.object({
  credentials: z.record(z.string(), z.string()).optional(),
  model: ModelName.optional(),
  model_type: z.enum(['llm', 'text-embedding', 'tts', 'speech2text']).optional(),
});

/** Why a provider call failed: stable codes the UI and the engine read. */
export const MODEL_ERROR_CODES = [
  'not_configured',
  'model_disabled',
  'unauthorized',
  'model_not_found',
  'rate_limited',
  'unreachable',
  /** The base URL's host is not allowed by the server's outbound network policy (nothing was sent). */
  'not_allowed',
  'timeout',
  /** The caller's signal stopped the call (stop button, run cancelled). */
  'cancelled',
  'bad_request',
  'provider_error',
  'unsupported',
] as const;
export const ModelErrorCode = z.enum(MODEL_ERROR_CODES);
export type ModelErrorCode = z.infer<typeof ModelErrorCode>;

export const CredentialsTestResult = z.object({
  ok: z.boolean(),
  error_code: ModelErrorCode.optional(),
  message: z.string().optional(),
  elapsed_ms: z.number().int(),
});
export type CredentialsTestResult = z.infer<typeof CredentialsTestResult>;

export const ModelListQuery = z.object({ model_type: ModelType.optional() });
export const ModelToggleBody = z.object({ model: ModelName, model_type: ModelType });

/** An admin-added model (vLLM, Ollama, a new release the catalogue does not list yet). */
export const CustomModelBody = z.object({
  model: ModelName.meta({ label: 'models:fields.model', placeholder: 'models:fields.modelPlaceholder', order: 1 }),
  model_type: ModelType.default('llm').meta({ label: 'models:fields.modelType', optionLabels: 'models:types', order: 2 }),
  label: z.string().trim().max(100).default('').meta({ label: 'models:fields.label', order: 3 }),
  features: z.array(ModelFeature).default(['streaming']).meta({ label: 'models:fields.features', optionLabels: 'models:features', order: 4 }),
  context_size: z.coerce.number().int().min(0).max(10_000_000).default(4096).meta({ label: 'models:fields.contextSize', order: 5 }),
  max_output_tokens: z.coerce.number().int().min(0).max(1_000_000).default(4096).meta({ label: 'models:fields.maxOutputTokens', order: 6 }),
});
export type CustomModelBody = z.output<typeof CustomModelBody>;
export const CustomModelDeleteQuery = z.object({ model: ModelName, model_type: ModelType });

/** Enabled models of configured providers for one type (`available`). */
export const AvailableProvider = z.object({
  provider: ProviderId,
  label: z.string(),
  models: z.array(ModelInfo),
});
export type AvailableProvider = z.infer<typeof AvailableProvider>;
export const AvailableQuery = z.object({ model_type: ModelType.default('llm') });

export const DefaultModel = z.object({ model_type: ModelType, provider: ProviderId, model: ModelName });
export type DefaultModel = z.infer<typeof DefaultModel>;
export const DefaultModelQuery = z.object({ model_type: ModelType.default('llm') });

/** Query of parameter-rules and model-parameter-suggestions. */
export const ParameterRulesQuery = z.object({ provider: ProviderId, model: ModelName, model_type: ModelType.default('llm') });

// ------------------------------------------------------------------------------------------------
// Calls (used by the engine through ModelService, not over HTTP)

export const ToolCall = z.object({ id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()) });
export type ToolCall = z.infer<typeof ToolCall>;

/**
 * An image of a user message: its bytes and media type, and the detail a vision model looks at it
 * with (spec 9 image modes; OpenAI-style providers get it as `image_url.detail`).
 */
export interface ChatImage {
  data: Uint8Array;
  mediaType: string;
  detail?: 'low' | 'high';
}

/** A chat message in Weft's own shape (mapped to each protocol by ModelService); an image is a URL or bytes. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string; images?: (string | ChatImage)[] }
  | { role: 'assistant'; content: string; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; name: string; content: string };

/** A tool the model may call: a name, a description and a JSON schema of its arguments. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** What a streaming chat yields, in order: text deltas and tool calls, then one usage, then finish. */
export type ChatEvent =
  | { type: 'text'; text: string }
  | { type: 'tool-call'; call: ToolCall }
  | { type: 'usage'; usage: TokenUsage }
  | { type: 'finish'; reason: string };
