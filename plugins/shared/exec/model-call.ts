import { isChatMode, isSelector, memoryTurns, NodeExecutionError, type MemoryConfig, type ChatImage, type ChatMessage, type ChatResult, type ExecutionContext, type ModelService, type TokenUsage } from '../../../src/plugin-sdk';
import type { CompletionParams, ModelRef } from '../model';

/**
 * What the model-calling executors (llm, question-classifier, parameter-extractor, agent) share:
 * the model service check, completion parameters, memory, usage and lenient JSON reading.
 */

/** Error codes of model calls (the trace shows them; the browser maps them to texts). */
export const MODEL_ERRORS = {
  UNAVAILABLE: 'MODEL-UNAVAILABLE',
  NOT_CONFIGURED: 'MODEL-NOT-CONFIGURED',
  OUTPUT_INVALID: 'MODEL-OUTPUT-INVALID',
} as const;

/** The model service, or a clear error when the server gave none or no model is chosen. */
export function requireModels(ctx: ExecutionContext, model: ModelRef): ModelService {
  const models = ctx.services.models;
  if (!models) throw new NodeExecutionError(MODEL_ERRORS.UNAVAILABLE, 'No model service is available to this run');
  if (!model.provider || !model.name) throw new NodeExecutionError(MODEL_ERRORS.NOT_CONFIGURED, `Node "${ctx.node.title}" has no model chosen`);
  return models;
}

/** The parameters the user set, without the defaults that mean "leave it to the model". */
export function chatParameters(params: CompletionParams, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    if (k === 'stop' && Array.isArray(v) && !v.length) continue;
    if (k === 'response_format' && v === 'text') continue;
    out[k] = v;
  }
  return { ...out, ...overrides };
}

/** Dify's usage output names. */
export const usageOutput = (u?: TokenUsage) => ({
  prompt_tokens: u?.promptTokens ?? 0,
  completion_tokens: u?.completionTokens ?? 0,
  total_tokens: u?.totalTokens ?? 0,
});

/** Adds up the usage of several calls (agent rounds, an extractor's retry). */
export function addUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (!a) return b;
  if (!b) return a;
  return { promptTokens: a.promptTokens + b.promptTokens, completionTokens: a.completionTokens + b.completionTokens, totalTokens: a.totalTokens + b.totalTokens };
}

/**
 * The conversation's last turns when memory is on, the run is a conversation and the server
 * offers the history; otherwise none (a workflow has no conversation).
 */
export async function memoryMessages(ctx: ExecutionContext, config: MemoryConfig): Promise<ChatMessage[]> {
  const turns = memoryTurns(config);
  if (!turns || !isChatMode(ctx.mode) || !ctx.services.memory) return [];
  const conversationId = ctx.variables.get(['sys', 'conversation_id']);
  if (typeof conversationId !== 'string' || !conversationId) return [];
  return ctx.services.memory.history({ conversationId, turns }, { signal: ctx.signal });
}

/** The most images one model call carries (the common provider limit is about this; more is cost, not sight). */
export const VISION_MAX_IMAGES = 10;

/** A file's id from a file value: `{ file_id }` (run bodies) or `{ id }` (the start form). */
function fileIdOf(v: unknown): string | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const o = v as { file_id?: unknown; id?: unknown; type?: unknown; mime_type?: unknown };
  const type = typeof o.mime_type === 'string' ? o.mime_type : typeof o.type === 'string' ? o.type : '';
  // A file that says it is not an image is left out (the server checks the stored type anyway).
  if (type && type !== 'image' && !type.startsWith('image/')) return undefined;
  const id = o.file_id ?? o.id;
  return typeof id === 'string' && id ? id : undefined;
}

/**
 * The images vision sends with the user's message: the files of the vision variable (one file or a
 * list), each at the node's detail (`low`: fit in 512×512, `high`: as uploaded); none when vision is
 * off. The server reads them as the run's user, and sends only images.
 */
export function visionImages(ctx: ExecutionContext, config: { visionEnabled?: boolean; visionFiles?: string[]; visionDetail?: 'low' | 'high' }): ChatImage[] {
  if (!config.visionEnabled || !isSelector(config.visionFiles)) return [];
  const value = ctx.variables.get(config.visionFiles);
  const ids = (Array.isArray(value) ? value : [value]).map(fileIdOf).filter((id): id is string => Boolean(id));
  const detail = config.visionDetail ?? 'high';
  return [...new Set(ids)].slice(0, VISION_MAX_IMAGES).map((fileId) => ({ fileId, detail }));
}

/** `messages` with `images` on the last user message (a user message of its own when there is none). */
export function withImages(messages: ChatMessage[], images: ChatImage[]): ChatMessage[] {
  if (!images.length) return messages;
  const at = messages.map((m) => m.role).lastIndexOf('user');
  if (at < 0) return [...messages, { role: 'user', content: '', images }];
  return messages.map((m, i) => (i === at ? { ...m, images: [...(m.images ?? []), ...images] } : m));
}

/**
 * The character the end user set for the conversation in the portal (`sys.persona`), '' without one.
 * The LLM and agent nodes add it to their system instructions, after the builder's own.
 */
export function personaOf(ctx: ExecutionContext): string {
  const v = ctx.variables.get(['sys', 'persona']);
  return typeof v === 'string' ? v.trim() : '';
}

/** `messages` with the persona added: to the first system message, or as one before the rest. */
export function withPersona(messages: ChatMessage[], persona: string): ChatMessage[] {
  if (!persona) return messages;
  const at = messages.findIndex((m) => m.role === 'system');
  if (at < 0) return [{ role: 'system', content: persona }, ...messages];
  return messages.map((m, i) => (i === at ? { ...m, content: `${m.content}\n\n${persona}` } : m));
}

/** Calls the model, streaming its text as the node's chunks when `stream` is set. */
export function chat(
  ctx: ExecutionContext,
  models: ModelService,
  model: ModelRef,
  messages: ChatMessage[],
  extra: { parameters?: Record<string, unknown>; tools?: Parameters<ModelService['chat']>[0]['tools']; stream?: boolean } = {},
): Promise<ChatResult> {
  return models.chat(
    {
      provider: model.provider,
      model: model.name,
      messages,
      parameters: extra.parameters ?? chatParameters(model.params),
      ...(extra.tools?.length ? { tools: extra.tools } : {}),
    },
    { signal: ctx.signal, ...(extra.stream ? { onChunk: (t: string) => ctx.emitChunk(t) } : {}) },
  );
}

/**
 * The JSON a model wrote: the whole text, a fenced block, or the first `{…}` / `[…]` in it.
 * Undefined when there is none (models often wrap JSON in prose).
 */
export function parseJsonLoose(text: string): unknown {
  const tries = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) tries.push(fenced[1].trim());
  for (const [open, close] of [
    ['{', '}'],
    ['[', ']'],
  ]) {
    const a = text.indexOf(open);
    const b = text.lastIndexOf(close);
    if (a >= 0 && b > a) tries.push(text.slice(a, b + 1));
  }
  for (const t of tries) {
    try {
      return JSON.parse(t);
    } catch {
      // Try the next candidate.
    }
  }
  return undefined;
}
