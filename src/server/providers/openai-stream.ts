import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { APICallError, InvalidPromptError } from 'ai';
import { prepareCallSettings, prepareRetries } from 'ai/internal';
import type { PolicyClient } from '../http/policy-fetch';
import type { ChatEvent, ChatMessage, ModelParams, TokenUsage } from '../../../schemas/model';
import { ModelError, toModelError } from './errors';
import { mark } from '../runs/first-token-trace';

/**
 * A plain-text chat streamed from an OpenAI-compatible provider, on Node streams: the request
 * through the outbound policy's client (kept-alive node:http), the SSE answer split into lines and
 * parsed here. The `ai` SDK's provider does the same through fetch and four layers of web streams
 * (the body's ReadableStream, a TextDecoderStream, an event-source parser and two TransformStreams
 * with a zod check per chunk), which measured as the largest part of a portal chat's main-thread
 * time. Chats with tools or images keep the SDK's provider (model-service.ts decides).
 *
 * The wire is the SDK provider's, so answers and errors are the same: its request body (system
 * messages first, user and assistant content as strings, `stream_options.include_usage`), its
 * usage counting (input and output tokens, the total their sum), its finish reasons, its error
 * values (APICallError with the status and the provider's body, `isRetryable` for 408, 409, 429
 * and 5xx and for a connection that failed) and its retries before the answer starts (the SDK's
 * own `prepareRetries`: exponential back-off, Retry-After).
 */

export interface OpenAiTextRequest {
  baseUrl: string;
  apiKey?: string;
  model: string;
  messages: ChatMessage[];
  params?: ModelParams;
  signal?: AbortSignal;
  maxRetries?: number;
}

/** True when the SDK-free client can send these messages: text only (no images, tool calls or tool results). */
export function isPlainText(messages: ChatMessage[]): boolean {
  for (const m of messages) {
    if (m.role === 'tool') return false;
    if (m.role === 'user' && m.images?.length) return false;
    if (m.role === 'assistant' && m.tool_calls?.length) return false;
  }
  return true;
}

/** The SDK's mapping of a provider's finish_reason (`refusal` text makes a stop a content filter). */
function finishReasonOf(raw: string, refused: boolean): string {
  switch (raw) {
    case 'stop':
      return refused ? 'content-filter' : 'stop';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    case 'function_call':
    case 'tool_calls':
      return 'tool-calls';
    default:
      return 'other';
  }
}

const retryable = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** The request body the SDK's OpenAI-compatible chat model sends for the same call (undefined fields drop out). */
function bodyOf(req: OpenAiTextRequest) {
  const p = req.params ?? {};
  const settings = prepareCallSettings({
    temperature: p.temperature,
    topP: p.top_p,
    frequencyPenalty: p.frequency_penalty,
    presencePenalty: p.presence_penalty,
    maxOutputTokens: p.max_tokens,
    stopSequences: p.stop?.length ? p.stop : undefined,
  });
  // Leading system messages are the flow's system prompt, sent as one (as streamChat gives them to the SDK).
  const lead = req.messages.findIndex((m) => m.role !== 'system');
  const head = lead < 0 ? req.messages : req.messages.slice(0, lead);
  const rest = lead < 0 ? [] : req.messages.slice(lead);
  if (!rest.length) throw new InvalidPromptError({ prompt: undefined, message: 'messages must not be empty' });
  const system = head.map((m) => m.content).join('\n\n');
  return {
    model: req.model,
    max_tokens: settings.maxOutputTokens,
    temperature: settings.temperature,
    top_p: settings.topP,
    frequency_penalty: settings.frequencyPenalty,
    presence_penalty: settings.presencePenalty,
    response_format: p.response_format === 'json_object' ? { type: 'json_object' } : undefined,
    stop: settings.stopSequences,
    seed: settings.seed,
    messages: [...(system ? [{ role: 'system', content: system }] : []), ...rest.map((m) => ({ role: m.role, content: m.content }))],
    stream: true,
    stream_options: { include_usage: true },
  };
}

async function textOf(body: Readable): Promise<string> {
  let s = '';
  body.setEncoding('utf8');
  for await (const c of body) s += c as string;
  return s;
}

/** The provider's answer to the request, once its status says the stream starts; APICallError otherwise. */
async function open(client: PolicyClient, req: OpenAiTextRequest, body: ReturnType<typeof bodyOf>): Promise<Readable> {
  const url = `${req.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (req.apiKey) headers.authorization = `Bearer ${req.apiKey}`;
  let res;
  try {
    res = await client.request(url, { method: 'POST', headers, body: JSON.stringify(body), signal: req.signal });
  } catch (e) {
    // As the SDK's handleFetchError: a connection that failed is retried; a refusal or an abort is not.
    if (e instanceof TypeError && e.message === 'fetch failed' && e.cause != null) {
      throw new APICallError({ message: `Cannot connect to API: ${(e.cause as Error).message}`, cause: e.cause, url, requestBodyValues: body, isRetryable: true });
    }
    throw e;
  }
  if (res.status >= 200 && res.status < 300) return res.body;
  const text = await textOf(res.body).catch(() => '');
  const headersOut = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
  let message = res.statusText || `HTTP ${res.status}`;
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof j.error?.message === 'string') message = j.error.message;
  } catch {}
  throw new APICallError({ message, url, requestBodyValues: body, statusCode: res.status, responseHeaders: headersOut, responseBody: text, isRetryable: retryable(res.status) });
}

/** The `data:` payloads of an SSE stream, one per event, as they arrive. */
async function* sseData(body: Readable): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let buffer = '';
  let data: string[] = [];
  for await (const chunk of body) {
    buffer += decoder.write(chunk as Buffer);
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      let line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        if (data.length) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
    }
  }
  if (data.length) yield data.join('\n');
}

interface Chunk {
  error?: { message?: unknown } | string;
  usage?: { prompt_tokens?: number | null; completion_tokens?: number | null } | null;
  choices?: { delta?: { content?: unknown; refusal?: unknown } | null; finish_reason?: string | null }[];
}

/** Text of a delta's content: a string, or the text parts of an array (reasoning parts are not the answer). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let s = '';
  for (const part of content as { type?: unknown; text?: unknown }[]) if (part?.type === 'text' && typeof part.text === 'string') s += part.text;
  return s;
}

/** Streams a plain-text chat (see the top of the file); errors are thrown as ModelError. */
export async function* streamOpenAiText(client: PolicyClient, req: OpenAiTextRequest): AsyncGenerator<ChatEvent> {
  let body: Readable | undefined;
  try {
    const sent = bodyOf(req);
    const { retry } = prepareRetries({ maxRetries: req.maxRetries ?? 2, abortSignal: req.signal });
    body = await retry(() => open(client, req, sent));
    mark('headers');
    let usage: Chunk['usage'];
    let finish: string | undefined;
    let refused = false;
    for await (const data of sseData(body)) {
      if (data === '[DONE]') continue;
      let chunk: Chunk;
      try {
        chunk = JSON.parse(data) as Chunk;
      } catch {
        throw new ModelError('provider_error', `The provider sent a chunk that is not JSON: ${data.slice(0, 200)}`);
      }
      if (chunk.error !== undefined) {
        const e = chunk.error;
        throw new ModelError('provider_error', typeof e === 'string' ? e : typeof e?.message === 'string' ? e.message : JSON.stringify(e));
      }
      if (chunk.usage != null) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (choice?.finish_reason != null) finish = choice.finish_reason;
      const delta = choice?.delta;
      if (!delta) continue;
      const text = contentText(delta.content);
      if (text) {
        mark('text');
        yield { type: 'text', text };
      }
      if (typeof delta.refusal === 'string' && delta.refusal) {
        refused = true;
        yield { type: 'text', text: delta.refusal };
      }
    }
    if (finish === undefined) throw new ModelError('provider_error', 'Response stream ended without a finish reason.');
    const prompt = usage?.prompt_tokens ?? 0;
    const completion = usage?.completion_tokens ?? 0;
    const tokens: TokenUsage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
    yield { type: 'usage', usage: tokens };
    yield { type: 'finish', reason: finishReasonOf(finish, refused) };
  } catch (e) {
    if (req.signal?.aborted && !(e instanceof ModelError)) throw new ModelError('cancelled', 'The call was stopped');
    throw toModelError(e);
  } finally {
    // Stopped early (the consumer returned, or an error): the connection is not read to its end.
    if (body && !body.readableEnded) body.destroy();
  }
}
