import type { ChatImage as ServerImage, ChatMessage as ServerMessage, ModelParams as Params } from '../../../schemas/model';
import { ModelParams } from '../../../schemas/model';
import { NodeExecutionError, type ChatImage, type ChatMessage, type ModelService, type ToolCall } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { ModelService as ProviderModels } from '../providers/model-service';
import { ModelError, modelNodeCode } from '../providers/errors';
import { imageForModel } from '../providers/images/image-fit';
import { fileBytes, readableFile } from '../services/files';
import { mark } from './first-token-trace';

/**
 * The executors' model service (`services.models`, plugin-sdk shape) over the server's provider
 * ModelService, bound to one tenant: messages and parameters mapped to the provider layer's shapes,
 * the stream's text passed to `onChunk` as it arrives, and model errors turned into
 * NodeExecutionError with code `MODEL-<code>` (e.g. `MODEL-unauthorized`) for the trace. Images
 * (vision) are files the run's user (`userId`) may read, sent at their detail (see imageForModel);
 * without a user, a message with images fails.
 */
export function createRunModelService(ctx: ServerContext, tenantId: string, userId?: string): ModelService {
  const provider = new ProviderModels(ctx);
  return {
    async chat(req, { signal, onChunk }) {
      mark('model');
      const params = toParams(req.parameters);
      const messages = toServerMessages(req.messages, await loadImages(ctx, { tenantId, userId }, req.messages));
      let text = '';
      const toolCalls: ToolCall[] = [];
      let usage: { promptTokens: number; completionTokens: number; totalTokens: number } | undefined;
      let finishReason: string | undefined;
      try {
        const stream = provider.chat({
          tenantId,
          provider: req.provider,
          model: req.model,
          messages,
          params,
          tools: req.tools?.map((t) => ({ name: t.name, description: t.description ?? '', parameters: t.parameters })),
          signal,
        });
        for await (const ev of stream) {
          if (ev.type === 'text') {
            text += ev.text;
            onChunk?.(ev.text);
          } else if (ev.type === 'tool-call') toolCalls.push(ev.call);
          else if (ev.type === 'usage')
            usage = { promptTokens: ev.usage.prompt_tokens, completionTokens: ev.usage.completion_tokens, totalTokens: ev.usage.total_tokens };
          else if (ev.type === 'finish') finishReason = ev.reason;
        }
      } catch (e) {
        // A stop surfaces as the run's abort reason; keep the signal's reason so the engine sees it.
        if (signal.aborted) throw signal.reason ?? e;
        if (e instanceof ModelError) throw new NodeExecutionError(modelNodeCode(e), e.message, e.status !== undefined ? { status: e.status } : undefined);
        throw e;
      }
      return { text, ...(toolCalls.length ? { toolCalls } : {}), ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) };
    },
    async embed(input, { signal }) {
      try {
        return (await provider.embed({ tenantId, provider: input.provider, model: input.model, texts: input.texts, signal })).embeddings;
      } catch (e) {
        if (e instanceof ModelError) throw new NodeExecutionError(modelNodeCode(e), e.message);
        throw e;
      }
    },
  };
}

/** The node's parameters, checked with the provider layer's schema (unknown keys are dropped). */
function toParams(raw: Record<string, unknown> | undefined): Params | undefined {
  if (!raw) return undefined;
  const known = Object.fromEntries(Object.entries(raw).filter(([k]) => k in ModelParams.shape));
  const parsed = ModelParams.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new NodeExecutionError('MODEL-bad_request', `Model parameter ${issue.path.join('.')}: ${issue.message}`);
  }
  return parsed.data;
}

/** The error of an image the run cannot send (the trace shows the code). */
export const VISION_FILE_ERROR = 'VISION-FILE';

/**
 * The bytes of the messages' images, by file id, as the model gets them: each file read as the
 * run's user (the same rule as a download: theirs, their project space's, or sent in their
 * conversation), images only, fitted to their detail. A file that cannot be read fails the call.
 */
async function loadImages(ctx: ServerContext, who: { tenantId: string; userId?: string }, messages: ChatMessage[]): Promise<Map<string, ServerImage>> {
  const out = new Map<string, ServerImage>();
  const wanted = new Map<string, ChatImage>();
  for (const m of messages) for (const i of m.images ?? []) wanted.set(`${i.fileId}\n${i.detail}`, i);
  for (const [key, image] of wanted) {
    const cannot = (why: string) => new NodeExecutionError(VISION_FILE_ERROR, `The image ${image.fileId} cannot be sent to the model: ${why}`);
    if (!who.userId) throw cannot('this call has no user to read it as');
    let row;
    try {
      row = await readableFile(ctx, { tenantId: who.tenantId, userId: who.userId }, image.fileId);
    } catch {
      throw cannot('it does not exist or this run may not read it');
    }
    // Documents and other files in the vision variable are not images: they are left out.
    if (!row.mimeType.startsWith('image/')) continue;
    const fitted = imageForModel(await fileBytes(ctx, row), row.mimeType, image.detail);
    out.set(key, fitted);
  }
  return out;
}

/** The plugin SDK's messages to the provider layer's (a tool answer carries the tool's name there; images their loaded bytes). */
export function toServerMessages(messages: ChatMessage[], images: ReadonlyMap<string, ServerImage> = new Map()): ServerMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((m): ServerMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user': {
        const loaded = (m.images ?? []).map((i) => images.get(`${i.fileId}\n${i.detail}`)).filter((i): i is ServerImage => Boolean(i));
        return loaded.length ? { role: 'user', content: m.content, images: loaded } : { role: 'user', content: m.content };
      }
      case 'assistant':
        for (const c of m.toolCalls ?? []) toolNames.set(c.id, c.name);
        return m.toolCalls?.length ? { role: 'assistant', content: m.content, tool_calls: m.toolCalls } : { role: 'assistant', content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId ?? '', name: toolNames.get(m.toolCallId ?? '') ?? 'tool', content: m.content };
    }
  });
}
