import { defineNodeExecutor, NodeExecutionError, type ChatMessage, type ExecutionContext, type KnowledgeChunk, type TokenUsage, type ToolDefinition } from '../../src/plugin-sdk';
import { addUsage, chat, memoryMessages, requireModels, usageOutput } from '../shared/exec/model-call';
import { toText } from '../shared/exec/text';
import { callTool, describeTool, type ToolRef } from '../shared/exec/tools';
import { agentPlugin, type AgentConfig } from './manifest';

/** Tool names a model accepts (OpenAI's rule, the strictest of the providers). */
const safeName = (s: string) => s.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';

/** Prefix of the hand-off functions offered to the model. */
export const HANDOFF_PREFIX = 'transfer_to_';

/** The function offered to the model when the agent has knowledge bases. */
export const KNOWLEDGE_TOOL = 'search_knowledge';
/** Bounds of what one knowledge search hands back to the model (characters). */
export const KNOWLEDGE_SEGMENT_MAX = 2000;
export const KNOWLEDGE_RESULT_MAX = 8000;

interface Offered {
  definition: ToolDefinition;
  ref?: ToolRef;
  /** A hand-off function: the agent node it hands to. */
  handoff?: string;
  /** The knowledge search function. */
  knowledge?: true;
}

/**
 * What a knowledge search returns to the model: the matched segments, best first, numbered with
 * their score and source, each cut at {@link KNOWLEDGE_SEGMENT_MAX} and all at
 * {@link KNOWLEDGE_RESULT_MAX} characters.
 */
export function knowledgeResultText(chunks: readonly KnowledgeChunk[]): string {
  if (!chunks.length) return 'No relevant knowledge was found.';
  let out = '';
  for (const [i, c] of chunks.entries()) {
    const content = c.content.length > KNOWLEDGE_SEGMENT_MAX ? `${c.content.slice(0, KNOWLEDGE_SEGMENT_MAX)}…` : c.content;
    const head = `[${i + 1}] score ${c.score.toFixed(3)}${c.title ? ` · ${c.title}` : ''}`;
    const part = `${i ? '\n\n' : ''}${head}\n${content}`;
    if (out.length + part.length > KNOWLEDGE_RESULT_MAX) {
      out += `${i ? '\n\n' : ''}(${chunks.length - i} more results left out)`;
      break;
    }
    out += part;
  }
  return out;
}

/** Runs one knowledge search of the agent's bases for the model. */
async function searchKnowledge(ctx: ExecutionContext<AgentConfig>, args: Record<string, unknown>): Promise<string> {
  const text = toText(args.query).trim();
  if (!text) throw new NodeExecutionError('AGENT-KNOWLEDGE-QUERY', 'The search needs a non-empty "query"');
  const { knowledgeIds, knowledgeTopK, knowledgeMinScore } = ctx.config;
  const chunks = await ctx.services.knowledge!.retrieve(
    { datasetIds: knowledgeIds, text, topK: knowledgeTopK, mode: 'hybrid', ...(knowledgeMinScore > 0 ? { scoreThreshold: knowledgeMinScore } : {}) },
    { signal: ctx.signal },
  );
  return knowledgeResultText(chunks);
}

/** The functions the model may call: the enabled tools, then one per hand-off target. */
async function offer(ctx: ExecutionContext<AgentConfig>): Promise<Map<string, Offered>> {
  const offered = new Map<string, Offered>();
  const add = (o: Offered) => {
    let name = safeName(o.definition.name);
    for (let n = 2; offered.has(name); n++) name = safeName(`${o.definition.name}_${n}`);
    offered.set(name, { ...o, definition: { ...o.definition, name } });
  };
  for (const t of ctx.config.tools) {
    if (!t.enabled || !t.providerId || !t.name) continue;
    const ref: ToolRef = t.type === 'mcp' ? { type: 'mcp', serverId: t.providerId, name: t.name } : { type: 'tool', provider: t.providerId, name: t.name };
    add({ definition: await describeTool(ref, ctx.services, ctx.signal), ref });
  }
  if (ctx.config.knowledgeIds.length) {
    // As the knowledge-retrieval node: without the service the agent would answer without its knowledge.
    if (!ctx.services.knowledge) throw new NodeExecutionError('KNOWLEDGE-UNAVAILABLE', 'Knowledge retrieval is not available on this server, so this agent cannot search its knowledge bases');
    add({
      definition: {
        name: KNOWLEDGE_TOOL,
        description: 'Search the knowledge bases of this agent. Call it whenever the answer may depend on their content; it returns the most relevant passages with their scores.',
        parameters: { type: 'object', properties: { query: { type: 'string', description: 'What to look for, as a question or key words' } }, required: ['query'] },
      },
      knowledge: true,
    });
  }
  for (const id of ctx.config.handoffs) {
    if (id === ctx.node.id) continue;
    add({
      definition: {
        name: `${HANDOFF_PREFIX}${id}`,
        description: `Hand the conversation to the agent "${id}" when it is better suited to answer. Say nothing else.`,
        parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why it should take over' } } },
      },
      handoff: id,
    });
  }
  return offered;
}

/**
 * A model with tools in a function-calling loop (with knowledge bases, one more function:
 * `search_knowledge(query)`, so the agent retrieves when it needs to): each round the model answers or asks for tool
 * calls, whose results go back to it, for at most `maxIterations` rounds (then one last call
 * without tools asks it to answer with what it has).
 *
 * Hand-off (agent teams): the model is offered `transfer_to_<agentId>` functions; calling one ends
 * this agent with `handoff_to` set to that id. The engine routes by handles and an agent has only
 * `source`, so the flow routes on `handoff_to` (an if-else after the agent, one case per target).
 */
export const agentExecutor = defineNodeExecutor(agentPlugin, {
  async execute(ctx) {
    const { config, variables } = ctx;
    const models = requireModels(ctx, config.model);
    const offered = await offer(ctx);
    const tools = [...offered.values()].map((o) => o.definition);
    const instructions = variables.render(config.instructions).trim();
    const messages: ChatMessage[] = [
      ...(instructions ? [{ role: 'system' as const, content: instructions }] : []),
      ...(await memoryMessages(ctx, config)),
      { role: 'user', content: toText(variables.get(config.query)) },
    ];
    let usage: TokenUsage | undefined;
    let text = '';
    const steps: { tool: string; arguments: Record<string, unknown>; result?: string; error?: string }[] = [];
    let handoffTo = '';

    for (let round = 0; ; round++) {
      const last = round >= config.maxIterations;
      if (last) messages.push({ role: 'user', content: 'The step limit is reached: answer now with what you have, without calling tools.' });
      const r = await chat(ctx, models, config.model, messages, { tools: last ? [] : tools, stream: true });
      usage = addUsage(usage, r.usage);
      text += r.text;
      const calls = last ? [] : (r.toolCalls ?? []);
      if (!calls.length) break;
      messages.push({ role: 'assistant', content: r.text, toolCalls: calls });
      for (const call of calls) {
        const o = offered.get(call.name);
        if (o?.handoff) {
          handoffTo = o.handoff;
          steps.push({ tool: call.name, arguments: call.arguments, result: `handed off to ${o.handoff}` });
          break;
        }
        let content: string;
        try {
          if (o?.knowledge) content = await searchKnowledge(ctx, call.arguments ?? {});
          else if (!o?.ref) throw new NodeExecutionError('AGENT-TOOL-UNKNOWN', `There is no tool "${call.name}"`);
          else content = (await callTool(o.ref, call.arguments ?? {}, ctx.services, ctx.signal)).text;
          steps.push({ tool: call.name, arguments: call.arguments, result: content });
        } catch (e) {
          // A stop or timeout ends the agent; a tool's own failure goes back to the model to recover from.
          if (ctx.signal.aborted) throw e;
          content = `Error: ${e instanceof Error ? e.message : String(e)}`;
          steps.push({ tool: call.name, arguments: call.arguments, error: content });
        }
        messages.push({ role: 'tool', toolCallId: call.id, content });
      }
      if (handoffTo) break;
    }
    return {
      outputs: { text, handoff_to: handoffTo, usage: usageOutput(usage), steps },
      ...(usage ? { usage } : {}),
    };
  },
});
