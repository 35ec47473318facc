import type { FlowDocument } from '../../schemas/flow';
import { compile, type ExecutionPlan, type RunOptions } from '../../src/engine';
import { createExecutorRegistry, createNodeRegistry, type ChatRequest, type ChatResult, type HttpClient, type ModelService, type ToolService } from '../../src/plugin-sdk';
import { BUILTIN_TOOL_PROVIDER, createBuiltinToolService } from '../../src/server/tools/builtin';
import { loadBuiltinKinds } from '../../src/server/plugins/builtins';
import { begin } from './kit';

/**
 * Helpers for scenarios over the built-in kinds: the real registries (manifests and executors),
 * compile with the registry's checks on, and fake services (the production ones have their own
 * tests; these implement the same interfaces with scripted answers).
 */

export { flow, is } from './kit';

const builtins = await loadBuiltinKinds();
export const registries = { nodes: createNodeRegistry(builtins.plugins), executors: createExecutorRegistry(builtins.executors) };

/** Compiles with the registry's checks, so every test flow is also a valid document. */
export function planOfBuiltin(doc: FlowDocument): ExecutionPlan {
  const c = compile(doc, registries);
  if (!c.ok) throw new Error(`Flow does not compile: ${c.issues.map((i) => `${i.code} ${i.nodeId ?? ''} ${i.message}`).join('; ')}`);
  return c.plan;
}

export function runBuiltin(doc: FlowDocument, opts: RunOptions = {}) {
  return begin(planOfBuiltin(doc), opts);
}

/**
 * A tool service with the server's built-in tools (provider `builtin`), other providers handed to
 * `others`: executors reach built-in tools only through `services.tools`, as in the server.
 */
export function withBuiltinTools(others?: ToolService, http?: HttpClient): ToolService {
  const builtin = createBuiltinToolService({ http });
  const pick = (provider: string) => (provider === BUILTIN_TOOL_PROVIDER || !others ? builtin : others);
  return {
    call: (ref, args, opts) => pick(ref.provider).call(ref, args, opts),
    describe: async (ref, opts) => pick(ref.provider).describe?.(ref, opts),
  };
}

/** A model reply: text (streamed in `chunks` when given), tool calls, usage. */
export type Reply = Partial<ChatResult> & { chunks?: string[] };

/**
 * A model service answering each request with `script(request, callIndex)`; records the requests.
 * Streams the reply's chunks through `onChunk` one macrotask apart (like a real stream).
 */
export function fakeModels(script: (req: ChatRequest, call: number) => Reply) {
  const requests: ChatRequest[] = [];
  const service: ModelService = {
    async chat(req, { signal, onChunk }) {
      requests.push(structuredClone(req));
      const reply = script(req, requests.length - 1);
      const chunks = reply.chunks ?? (reply.text ? [reply.text] : []);
      for (const c of chunks) {
        await new Promise((r) => setTimeout(r, 0));
        if (signal.aborted) throw signal.reason;
        onChunk?.(c);
      }
      return {
        text: reply.text ?? chunks.join(''),
        ...(reply.toolCalls ? { toolCalls: reply.toolCalls } : {}),
        usage: reply.usage ?? { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      };
    },
  };
  return { service, requests };
}

export const model = { provider: 'fake', name: 'fake-1', mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } };

