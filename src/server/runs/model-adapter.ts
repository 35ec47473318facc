import type { ChatMessage as ServerMessage, ModelParams as Params } from '../../../schemas/model';
import { ModelParams } from '../../../schemas/model';
import { NodeExecutionError, type ChatMessage, type ModelService, type ToolCall } from '../../plugin-sdk/executor';
import type { ServerContext } from '../context';
import { ModelService as ProviderModels } from '../providers/model-service';
import { ModelError, modelNodeCode } from '../providers/errors';

/**
 * The executors' model service (`services.models`, plugin-sdk shape) over the server's provider
 * ModelService, bound to one tenant: messages and parameters mapped to the provider layer's shapes,
 * the stream's text passed to `onChunk` as it arrives, and model errors turned into
 * NodeExecutionError with code `MODEL-<code>` (e.g. `MODEL-unauthorized`) for the trace.
 */
export function createRunModelService(ctx: Pick<ServerContext, 'db' | 'secretKey' | 'outbound'>, tenantId: string): ModelService {
  const provider = new ProviderModels(ctx);
  return {
    async chat(req, { signal, onChunk }) {
      const params = toParams(req.parameters);
      let text = '';
      const toolCalls: ToolCall[] = [];
      let usage: { promptTokens: number; completionTokens: number; totalTokens: number } | undefined;
      let finishReason: string | undefined;
      try {
        const stream = provider.chat({
          tenantId,
          provider: req.provider,
          model: req.model,
          messages: toServerMessages(req.messages),
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

/** The plugin SDK's messages to the provider layer's (a tool answer carries the tool's name there). */
export function toServerMessages(messages: ChatMessage[]): ServerMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((m): ServerMessage => {
    switch (m.role) {
      case 'system':
        return { role: 'system', content: m.content };
      case 'user':
        return { role: 'user', content: m.content };
      case 'assistant':
        for (const c of m.toolCalls ?? []) toolNames.set(c.id, c.name);
        return m.toolCalls?.length ? { role: 'assistant', content: m.content, tool_calls: m.toolCalls } : { role: 'assistant', content: m.content };
      case 'tool':
        return { role: 'tool', tool_call_id: m.toolCallId ?? '', name: toolNames.get(m.toolCallId ?? '') ?? 'tool', content: m.content };
    }
  });
}
