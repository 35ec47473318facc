import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { embedMany, generateText, InvalidPromptError, jsonSchema, tool, type EmbeddingModel, type ImagePart, type LanguageModel, type ModelMessage, type ToolSet } from 'ai';
import { asLanguageModelUsage, convertToLanguageModelPrompt, prepareCallSettings, prepareRetries, prepareToolsAndToolChoice } from 'ai/internal';
import type { ServerContext } from '../context';
import * as models from '../services/models';
import { providerOf, type CatalogueProvider } from './catalogue';
import { ModelError, toModelError } from './errors';
import { createGuardedHttpClient } from '../http/guarded-client';
import { createPolicyClient, type PolicyClient } from '../http/policy-fetch';
import { isPlainText, streamOpenAiText } from './openai-stream';
import { openAiSpeech, openAiTranscription } from './openai-audio';
import { TEST_WAV } from '../speech/test-audio';
import type { OutboundPolicy } from '../security/outbound-policy';
import type { ChatEvent, ChatImage, ChatMessage, CredentialsTestResult, ModelParams, ModelType, ProviderCredentials, TokenUsage, ToolSpec } from '../../../schemas/model';

/**
 * ModelService: the one way server code talks to models. It resolves the tenant's credentials
 * (decrypted only here), checks that the model is enabled, and calls the provider through the `ai`
 * SDK's provider for the catalogue entry's protocol (plain-text OpenAI-compatible chats through
 * openai-stream.ts, the same wire without the SDK's web streams). The engine's llm, agent and
 * classifier nodes and the knowledge embedder use it.
 *
 * @example
 * const svc = new ModelService(ctx);
 * for await (const ev of svc.chat({ tenantId, provider: 'openai', model: 'gpt-4o-mini',
 *   messages: [{ role: 'user', content: 'Hi' }], params: { temperature: 0.2 } })) {
 *   if (ev.type === 'text') process.stdout.write(ev.text);
 * }
 */

export interface ChatRequest {
  tenantId: string;
  provider: string;
  model: string;
  messages: ChatMessage[];
  params?: ModelParams;
  tools?: ToolSpec[];
  signal?: AbortSignal;
  /** Retries of a failed request before the first chunk (default 2). */
  maxRetries?: number;
}

export interface EmbedRequest {
  tenantId: string;
  provider: string;
  model: string;
  texts: string[];
  signal?: AbortSignal;
}

export interface EmbedResult {
  embeddings: number[][];
  usage: { tokens: number };
}

type Credentials = Required<ProviderCredentials>;
type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound' | 'exclusiveDb'>;

/**
 * What a process's model calls go out through, per outbound policy (one per server): the fetch every
 * provider SDK is given (kept-alive connections, each request admitted by the policy), the download
 * of image URLs a model cannot fetch itself, and the model objects by provider, credentials and
 * model: making one (the SDK provider and its model) costs about 0.6 ms, paid before every first
 * token otherwise. They hold only their settings, so calls share them; new credentials make a new
 * key. The oldest goes past MODEL_CACHE_MAX.
 */
interface Outbound {
  fetch: typeof fetch;
  /** The same connections as `fetch`, answering with Node streams (openai-stream.ts). */
  client: PolicyClient;
  download: DownloadFunction;
  languageModels: Map<string, ProviderModel>;
}
const outbounds = new WeakMap<OutboundPolicy, Outbound>();
const MODEL_CACHE_MAX = 256;

function outboundOf(policy: OutboundPolicy): Outbound {
  let o = outbounds.get(policy);
  if (!o) {
    const images = createGuardedHttpClient({ policy, purpose: 'model', maxResponseBytes: 20 * 1024 * 1024 });
    const client = createPolicyClient(policy, 'model');
    o = {
      fetch: client.fetch,
      client,
      // The SDK would fetch these itself, past the policy: through the guarded client instead.
      download: (requests) =>
        Promise.all(
          requests.map(async ({ url, isUrlSupportedByModel }) => {
            if (isUrlSupportedByModel) return null;
            const res = await images.request({ method: 'GET', url: url.href, timeoutMs: 30_000 });
            if (res.status >= 400) throw new ModelError('bad_request', `The image ${url.href} answered with status ${res.status}`);
            return { data: res.bytes, mediaType: res.contentType.split(';')[0] || undefined };
          }),
        ),
      languageModels: new Map(),
    };
    outbounds.set(policy, o);
  }
  return o;
}

function languageModel(policy: OutboundPolicy, p: CatalogueProvider, creds: Credentials, model: string): ProviderModel {
  const { fetch, languageModels } = outboundOf(policy);
  const key = JSON.stringify([p.protocol, p.provider, creds.base_url, creds.api_key, model]);
  let m = languageModels.get(key);
  if (!m) {
    m =
      p.protocol === 'anthropic'
        ? createAnthropic({ apiKey: creds.api_key, baseURL: creds.base_url, fetch })(model)
        : createOpenAICompatible({ name: p.provider, baseURL: creds.base_url, apiKey: creds.api_key || undefined, includeUsage: true, fetch }).chatModel(model);
    if (languageModels.size >= MODEL_CACHE_MAX) languageModels.delete(languageModels.keys().next().value!);
    languageModels.set(key, m);
  }
  return m;
}

function embeddingModel(policy: OutboundPolicy, p: CatalogueProvider, creds: Credentials, model: string): EmbeddingModel {
  if (p.protocol === 'anthropic') throw new ModelError('unsupported', `${p.label} serves no embedding models`);
  return createOpenAICompatible({ name: p.provider, baseURL: creds.base_url, apiKey: creds.api_key || undefined, fetch: outboundOf(policy).fetch }).embeddingModel(model);
}

/**
 * One image part. Bytes carry their detail for OpenAI-style providers: the SDK's OpenAI-compatible
 * provider spreads a part's `openaiCompatible` options over the part it writes, so the whole
 * `image_url` (the data URL the SDK would write, with `detail`) is given there; Anthropic has no detail.
 */
function imagePart(image: string | ChatImage): ImagePart {
  if (typeof image === 'string') return { type: 'image', image: new URL(image) };
  const part: ImagePart = { type: 'image', image: image.data, mediaType: image.mediaType };
  if (!image.detail) return part;
  const url = `data:${image.mediaType};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.length).toString('base64')}`;
  return { ...part, providerOptions: { openaiCompatible: { image_url: { url, detail: image.detail } } } };
}

/** The fetch of the model providers (rerank calls it too): admitted by the policy, kept-alive. */
export const modelFetch = (policy: OutboundPolicy) => outboundOf(policy).fetch;

/** Weft's messages to the SDK's; system messages stay in the list (both protocols accept that). */
export function toModelMessages(messages: ChatMessage[]): ModelMessage[] {
  return messages.map((m): ModelMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        if (!m.images?.length) return { role: 'user', content: m.content };
        return { role: 'user', content: [...(m.content ? [{ type: 'text' as const, text: m.content }] : []), ...m.images.map(imagePart)] };
      case 'assistant':
        if (!m.tool_calls?.length) return { role: 'assistant', content: m.content };
        return {
          role: 'assistant',
          content: [
            ...(m.content ? [{ type: 'text' as const, text: m.content }] : []),
            ...m.tool_calls.map((c) => ({ type: 'tool-call' as const, toolCallId: c.id, toolName: c.name, input: c.arguments })),
          ],
        };
      case 'tool':
        return { role: 'tool', content: [{ type: 'tool-result', toolCallId: m.tool_call_id, toolName: m.name, output: { type: 'text', value: m.content } }] };
    }
  });
}

function toolSet(tools: ToolSpec[] | undefined): ToolSet | undefined {
  if (!tools?.length) return undefined;
  // No execute: the SDK reports the call and stops; the engine runs the tool and calls again.
  return Object.fromEntries(tools.map((t) => [t.name, tool({ description: t.description, inputSchema: jsonSchema(t.parameters as never) })]));
}

function callSettings(params: ModelParams | undefined) {
  const p = params ?? {};
  return {
    temperature: p.temperature,
    topP: p.top_p,
    frequencyPenalty: p.frequency_penalty,
    presencePenalty: p.presence_penalty,
    maxOutputTokens: p.max_tokens,
    stopSequences: p.stop?.length ? p.stop : undefined,
  };
}

const usageOf = (u: { inputTokens?: number; outputTokens?: number; totalTokens?: number } | undefined): TokenUsage => {
  const prompt = u?.inputTokens ?? 0;
  const completion = u?.outputTokens ?? 0;
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: u?.totalTokens ?? prompt + completion };
};

/** How long a resolved model (credentials, enabled state) is used without asking the database. */
const RESOLVE_TTL_MS = 2_000;
type Resolved = { p: NonNullable<ReturnType<typeof providerOf>>; creds: Credentials };
/** Per database (one per server; tests run several): key tenant/provider/type/model. */
const resolvedCaches = new WeakMap<object, Map<string, { at: number; generation: number; value: Promise<Resolved> }>>();

export class ModelService {
  constructor(private readonly ctx: Ctx) {}

  /**
   * Resolved models for a moment: a run's first token should not wait for three queries and a
   * decryption each time. Writes in this process drop entries at once (modelsGeneration); writes
   * in another process are seen within RESOLVE_TTL_MS (the embedded database has no other process:
   * there an entry lasts until a write drops it).
   */

  /** The catalogue entry and plain credentials of an available model; ModelError otherwise. */
  private resolve(tenantId: string, provider: string, model: string, type: ModelType): Promise<Resolved> {
    const key = `${tenantId}\n${provider}\n${type}\n${model}`;
    const generation = models.modelsGeneration(tenantId);
    let cache = resolvedCaches.get(this.ctx.db);
    if (!cache) resolvedCaches.set(this.ctx.db, (cache = new Map()));
    const resolved = cache;
    const hit = resolved.get(key);
    if (hit && hit.generation === generation && (this.ctx.exclusiveDb || Date.now() - hit.at < RESOLVE_TTL_MS)) return hit.value;
    const value = this.resolveNow(tenantId, provider, model, type);
    resolved.set(key, { at: Date.now(), generation, value });
    // Failures are not kept: the admin may be fixing the setup right now.
    value.catch(() => resolved.get(key)?.value === value && resolved.delete(key));
    if (resolved.size > 500) resolved.delete(resolved.keys().next().value!);
    return value;
  }

  private async resolveNow(tenantId: string, provider: string, model: string, type: ModelType): Promise<Resolved> {
    const p = providerOf(provider);
    if (!p) throw new ModelError('not_configured', `Unknown model provider '${provider}'`);
    const creds = await models.providerCredentials(this.ctx, tenantId, provider);
    if (!creds) throw new ModelError('not_configured', `The model provider '${p.label}' has no credentials in this tenant`);
    const all = await models.listModels(this.ctx, tenantId, provider, type);
    const m = all.find((x) => x.model === model);
    if (!m) throw new ModelError('model_not_found', `The model '${model}' is not configured for '${p.label}'`);
    if (!m.enabled) throw new ModelError('model_disabled', `The model '${model}' is disabled`);
    return { p, creds };
  }

  /**
   * Streams a chat completion: text deltas and tool calls as they arrive, then the token usage and
   * the finish reason. Errors (before or during the stream) are thrown as ModelError.
   */
  async *chat(req: ChatRequest): AsyncGenerator<ChatEvent> {
    const { p, creds } = await this.resolve(req.tenantId, req.provider, req.model, 'llm');
    // Text chats (a portal's, an llm node's) skip the SDK's web streams; tools and images keep it.
    if (p.protocol === 'openai-compatible' && !req.tools?.length && isPlainText(req.messages)) {
      yield* streamOpenAiText(outboundOf(this.ctx.outbound).client, { baseUrl: creds.base_url, apiKey: creds.api_key || undefined, model: req.model, messages: req.messages, params: req.params, signal: req.signal, maxRetries: req.maxRetries });
      return;
    }
    yield* streamChat(languageModel(this.ctx.outbound, p, creds, req.model), { ...req, download: outboundOf(this.ctx.outbound).download });
  }

  /** Embeds texts in one or more requests (the SDK splits by the model's batch limit). */
  async embed(req: EmbedRequest): Promise<EmbedResult> {
    const { p, creds } = await this.resolve(req.tenantId, req.provider, req.model, 'text-embedding');
    try {
      const r = await embedMany({ model: embeddingModel(this.ctx.outbound, p, creds, req.model), values: req.texts, abortSignal: req.signal, maxRetries: 2 });
      return { embeddings: r.embeddings, usage: { tokens: r.usage?.tokens ?? 0 } };
    } catch (e) {
      throw toModelError(e);
    }
  }

  /** Speech of a text by a tts model (OpenAI's /audio/speech; the Anthropic protocol has none). */
  async speech(req: { tenantId: string; provider: string; model: string; input: string; voice: string; speed?: number; signal?: AbortSignal }) {
    const { p, creds } = await this.resolve(req.tenantId, req.provider, req.model, 'tts');
    if (p.protocol !== 'openai-compatible') throw new ModelError('unsupported', `${p.label} serves no speech models`);
    return openAiSpeech(outboundOf(this.ctx.outbound).fetch, { baseUrl: creds.base_url, apiKey: creds.api_key || undefined, ...req });
  }

  /** The text of a recording by a speech2text model (OpenAI's /audio/transcriptions). */
  async transcription(req: { tenantId: string; provider: string; model: string; audio: Uint8Array; mime: string; language?: string; signal?: AbortSignal }) {
    const { p, creds } = await this.resolve(req.tenantId, req.provider, req.model, 'speech2text');
    if (p.protocol !== 'openai-compatible') throw new ModelError('unsupported', `${p.label} serves no speech-to-text models`);
    return openAiTranscription(outboundOf(this.ctx.outbound).fetch, { baseUrl: creds.base_url, apiKey: creds.api_key || undefined, ...req });
  }

  /**
   * Tries credentials with the smallest real request (one output token, one short embedding, one
   * spoken word or a tenth of a second of silence to transcribe),
   * without retries and with a 20 s limit. Never throws: the answer says what went wrong.
   */
  async testCredentials(provider: string, creds: Credentials, model: string, type: 'llm' | 'text-embedding' | 'tts' | 'speech2text'): Promise<CredentialsTestResult> {
    const p = providerOf(provider);
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    try {
      if (!p) throw new ModelError('not_configured', `Unknown model provider '${provider}'`);
      const abortSignal = AbortSignal.timeout(20_000);
      if (type === 'text-embedding') {
        await embedMany({ model: embeddingModel(this.ctx.outbound, p, creds, model), values: ['ping'], maxRetries: 0, abortSignal });
      } else if ((type === 'tts' || type === 'speech2text') && p.protocol !== 'openai-compatible') {
        throw new ModelError('unsupported', `${p.label} serves no speech models`);
      } else if (type === 'tts') {
        // One word in the voice every OpenAI-compatible server knows.
        await openAiSpeech(outboundOf(this.ctx.outbound).fetch, { baseUrl: creds.base_url, apiKey: creds.api_key || undefined, model, input: 'ping', voice: 'alloy', signal: abortSignal });
      } else if (type === 'speech2text') {
        // A tenth of a second of silence: the smallest recording a server accepts.
        await openAiTranscription(outboundOf(this.ctx.outbound).fetch, { baseUrl: creds.base_url, apiKey: creds.api_key || undefined, model, audio: TEST_WAV, mime: 'audio/wav', signal: abortSignal });
      } else {
        await generateText({ model: languageModel(this.ctx.outbound, p, creds, model), prompt: 'ping', maxOutputTokens: 1, maxRetries: 0, abortSignal });
      }
      return { ok: true, elapsed_ms: elapsed() };
    } catch (e) {
      const err = toModelError(e);
      return { ok: false, error_code: err.code, message: err.message, elapsed_ms: elapsed() };
    }
  }
}

/** The streaming part of chat, apart so tests and the benchmark can drive any LanguageModel. */
/** A model the providers make (the SDK's provider interface, V3). */
type ProviderModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
/** How the SDK gets an image URL the model cannot fetch itself (ai/internal's DownloadFunction). */
type DownloadFunction = NonNullable<Parameters<typeof convertToLanguageModelPrompt>[0]['download']>;

/**
 * Streams one chat call through the provider's own `doStream` (the wire protocol is the SDK
 * provider's), prepared with the SDK's own steps (`ai/internal`: prompt standardising and
 * conversion, tools, call settings, retries). `streamText` would add a layer of transform streams
 * and step bookkeeping that costs 1.5 to 3.5 ms before the first token (measured), and the engine
 * runs the tools and steps itself.
 */
export async function* streamChat(
  model: ProviderModel,
  req: Pick<ChatRequest, 'messages' | 'params' | 'tools' | 'signal' | 'maxRetries'> & { download?: DownloadFunction },
): AsyncGenerator<ChatEvent> {
  // Leading system messages are the flow's system prompt: give them as `system`. Later ones (rare,
  // written by the flow author too) stay in place, which the SDK allows only when asked.
  const lead = req.messages.findIndex((m) => m.role !== 'system');
  const head = lead < 0 ? req.messages : req.messages.slice(0, lead);
  const system = head.map((m) => m.content).join('\n\n') || undefined;
  try {
    // The SDK's standardizePrompt would check these messages against its zod schema, built anew on
    // every call (1 to 2 ms before the first token, measured); toModelMessages makes them to that
    // schema's type, so only its one rule the types do not carry is checked here.
    const messages = toModelMessages(lead < 0 ? [] : req.messages.slice(lead));
    if (!messages.length) throw new InvalidPromptError({ prompt: undefined, message: 'messages must not be empty' });
    const standardized = { system, messages };
    const prompt = await convertToLanguageModelPrompt({ prompt: standardized, supportedUrls: await model.supportedUrls, download: req.download, abortSignal: req.signal });
    const { tools, toolChoice } = await prepareToolsAndToolChoice({ tools: toolSet(req.tools), toolChoice: undefined, activeTools: undefined });
    const settings = prepareCallSettings(callSettings(req.params));
    const { retry } = prepareRetries({ maxRetries: req.maxRetries ?? 2, abortSignal: req.signal });
    const { stream } = await retry(() =>
      model.doStream({
        ...settings,
        prompt,
        tools,
        toolChoice,
        ...(req.params?.response_format === 'json_object' ? { responseFormat: { type: 'json' as const } } : {}),
        abortSignal: req.signal,
        includeRawChunks: false,
      }),
    );
    const reader = stream.getReader();
    try {
      for (;;) {
        const { done, value: part } = await reader.read();
        if (done) break;
        switch (part.type) {
          case 'text-delta':
            if (part.delta) yield { type: 'text', text: part.delta };
            break;
          case 'tool-call':
            yield { type: 'tool-call', call: { id: part.toolCallId, name: part.toolName, arguments: toolInput(part.toolName, part.input) } };
            break;
          case 'error':
            throw part.error;
          case 'finish':
            yield { type: 'usage', usage: usageOf(asLanguageModelUsage(part.usage)) };
            yield { type: 'finish', reason: part.finishReason.unified };
            break;
        }
      }
    } finally {
      reader.releaseLock();
    }
  } catch (e) {
    if (req.signal?.aborted && !(e instanceof ModelError)) throw new ModelError('cancelled', 'The call was stopped');
    throw toModelError(e);
  }
}

/** A tool call's arguments: the JSON object the model wrote (an empty text is no arguments). */
function toolInput(name: string, input: string): Record<string, unknown> {
  if (!input.trim()) return {};
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch {
    throw new ModelError('provider_error', `The model called the tool "${name}" with arguments that are not JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ModelError('provider_error', `The model called the tool "${name}" with arguments that are not an object`);
  return value as Record<string, unknown>;
}
