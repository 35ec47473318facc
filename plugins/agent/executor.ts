import { defineNodeExecutor, NodeExecutionError, type ChatMessage, type ExecutionContext, type KnowledgeChunk, type TokenUsage, type ToolDefinition } from '../../src/plugin-sdk';
import { addUsage, chat, memoryMessages, personaOf, requireModels, usageOutput, visionImages } from '../shared/exec/model-call';
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
  /** A hand-off to a team member that continues the turn in this node. */
  peer?: Agent;
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

/** Runs one knowledge search of an agent's bases for the model. */
async function searchKnowledge(ctx: ExecutionContext<AgentConfig>, config: AgentConfig, args: Record<string, unknown>): Promise<string> {
  const text = toText(args.query).trim();
  if (!text) throw new NodeExecutionError('AGENT-KNOWLEDGE-QUERY', 'The search needs a non-empty "query"');
  const { knowledgeIds, knowledgeTopK, knowledgeMinScore } = config;
  const chunks = await ctx.services.knowledge!.retrieve(
    { datasetIds: knowledgeIds, text, topK: knowledgeTopK, mode: 'hybrid', ...(knowledgeMinScore > 0 ? { scoreThreshold: knowledgeMinScore } : {}) },
    { signal: ctx.signal },
  );
  return knowledgeResultText(chunks);
}

/** Hand-offs one turn of an agent team may take; the agent answering after the last one is offered none. */
export const HANDOFF_LIMIT = 5;

/** An agent of the chain: the node itself, or a team member it handed off to (`ctx.peer`). */
interface Agent {
  id: string;
  title: string;
  config: AgentConfig;
}

/** What the chain has done so far in this turn. */
interface Chain {
  /** Agents that ran, in order (none is offered again: a team never hands back within a turn). */
  visited: Set<string>;
  /** Hand-offs taken. */
  hops: number;
}

/**
 * The functions the model may call: the enabled tools, then one per hand-off target. In a team
 * run (`ctx.peer`), a target that is a detached agent continues the turn in this node (`peer`);
 * agents already in the chain are not offered, nor any target once {@link HANDOFF_LIMIT} is reached.
 */
async function offer(ctx: ExecutionContext<AgentConfig>, agent: Agent, chain?: Chain): Promise<Map<string, Offered>> {
  const { config } = agent;
  const offered = new Map<string, Offered>();
  const add = (o: Offered) => {
    let name = safeName(o.definition.name);
    for (let n = 2; offered.has(name); n++) name = safeName(`${o.definition.name}_${n}`);
    offered.set(name, { ...o, definition: { ...o.definition, name } });
  };
  for (const t of config.tools) {
    if (!t.enabled || !t.providerId || !t.name) continue;
    const ref: ToolRef = t.type === 'mcp' ? { type: 'mcp', serverId: t.providerId, name: t.name } : { type: 'tool', provider: t.providerId, name: t.name };
    add({ definition: await describeTool(ref, ctx.services, ctx.signal), ref });
  }
  if (config.knowledgeIds.length) {
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
  if (chain && chain.hops >= HANDOFF_LIMIT) return offered;
  for (const id of config.handoffs) {
    if (id === agent.id || chain?.visited.has(id)) continue;
    const target = chain ? ctx.peer?.(id) : undefined;
    const peer = target?.kind === 'agent' ? target : undefined;
    const about = peer ? `"${peer.title || id}"${(peer.config as AgentConfig).handoffDescription?.trim() ? ` (${(peer.config as AgentConfig).handoffDescription.trim()})` : ''}` : `"${id}"`;
    add({
      definition: {
        name: `${HANDOFF_PREFIX}${id}`,
        description: `Hand the conversation to the agent ${about} when it is better suited to answer. Say nothing else.`,
        parameters: { type: 'object', properties: { reason: { type: 'string', description: 'Why it should take over' } } },
      },
      handoff: id,
      ...(peer ? { peer: { id, title: peer.title, config: peer.config as AgentConfig } } : {}),
    });
  }
  return offered;
}

type Step = { agent?: string; tool: string; arguments: Record<string, unknown>; result?: string; error?: string };

/** One agent's part of the turn. */
interface AgentTurn {
  text: string;
  steps: Step[];
  usage?: TokenUsage;
  /** The hand-off it called, if any (`peer`: the team member that takes over in this node). */
  handoff?: { to: string; reason: string; peer?: Agent };
}

/**
 * One agent's function-calling loop. `note` (a hand-off) goes after its instructions; `say`
 * streams its text.
 */
async function runAgent(ctx: ExecutionContext<AgentConfig>, agent: Agent, opts: { chain?: Chain; note: string; say: (text: string) => void }): Promise<AgentTurn> {
  const { config } = agent;
  const { variables } = ctx;
  // A team member's missing model is named after it, not after this node.
  const models = requireModels(agent.id === ctx.node.id ? ctx : { ...ctx, node: { ...ctx.node, title: agent.title } }, config.model);
  const offered = await offer(ctx, agent, opts.chain);
  const tools = [...offered.values()].map((o) => o.definition);
  const instructions = [variables.render(config.instructions).trim(), opts.note, personaOf(ctx)].filter(Boolean).join('\n\n');
  const images = visionImages(ctx, config);
  const messages: ChatMessage[] = [
    ...(instructions ? [{ role: 'system' as const, content: instructions }] : []),
    ...(await memoryMessages(ctx, config)),
    { role: 'user', content: toText(variables.get(config.query)), ...(images.length ? { images } : {}) },
  ];
  const streaming: ExecutionContext = { ...ctx, signal: ctx.signal, emitChunk: opts.say };
  const turn: AgentTurn = { text: '', steps: [] };
  const tag = opts.chain ? { agent: agent.id } : {};

  for (let round = 0; ; round++) {
    const last = round >= config.maxIterations;
    if (last) messages.push({ role: 'user', content: 'The step limit is reached: answer now with what you have, without calling tools.' });
    const r = await chat(streaming, models, config.model, messages, { tools: last ? [] : tools, stream: true });
    turn.usage = addUsage(turn.usage, r.usage);
    turn.text += r.text;
    const calls = last ? [] : (r.toolCalls ?? []);
    if (!calls.length) break;
    messages.push({ role: 'assistant', content: r.text, toolCalls: calls });
    for (const call of calls) {
      const o = offered.get(call.name);
      if (o?.handoff) {
        turn.handoff = { to: o.handoff, reason: toText(call.arguments?.reason).trim(), ...(o.peer ? { peer: o.peer } : {}) };
        turn.steps.push({ ...tag, tool: call.name, arguments: call.arguments, result: `handed off to ${o.handoff}` });
        break;
      }
      let content: string;
      try {
        if (o?.knowledge) content = await searchKnowledge(ctx, config, call.arguments ?? {});
        else if (!o?.ref) throw new NodeExecutionError('AGENT-TOOL-UNKNOWN', `There is no tool "${call.name}"`);
        else content = (await callTool(o.ref, call.arguments ?? {}, ctx.services, ctx.signal)).text;
        turn.steps.push({ ...tag, tool: call.name, arguments: call.arguments, result: content });
      } catch (e) {
        // A stop or timeout ends the agent; a tool's own failure goes back to the model to recover from.
        if (ctx.signal.aborted) throw e;
        content = `Error: ${e instanceof Error ? e.message : String(e)}`;
        turn.steps.push({ ...tag, tool: call.name, arguments: call.arguments, error: content });
      }
      messages.push({ role: 'tool', toolCallId: call.id, content });
    }
    if (turn.handoff) break;
  }
  return turn;
}

/** One hand-off as the agents after it are told about it. */
function handoffLine(from: Agent, to: Agent, turn: AgentTurn): string {
  const reason = turn.handoff?.reason ? ` because: ${turn.handoff.reason}` : '';
  const said = turn.text.trim() ? ` It had told the user: "${turn.text.trim()}"` : '';
  return `The agent "${from.title || from.id}" handed this conversation to "${to.title || to.id}"${reason}.${said}`;
}

/** What the agent taking over is told: the hand-offs of this turn, then what it is to do. */
const handoffNote = (lines: readonly string[], to: Agent) => `${lines.join('\n')}\nYou are "${to.title || to.id}" now: answer the user's message yourself.`;

/**
 * A model with tools in a function-calling loop (with knowledge bases, one more function:
 * `search_knowledge(query)`, so the agent retrieves when it needs to): each round the model answers or asks for tool
 * calls, whose results go back to it, for at most `maxIterations` rounds (then one last call
 * without tools asks it to answer with what it has).
 *
 * Hand-off: the model is offered `transfer_to_<agentId>` functions.
 * - Agent team run (the flow has detached agents, `ctx.peer`): calling one whose target is a
 *   detached agent continues the turn in this node with that agent, on the same user message, told
 *   who handed over and why. It may hand off again, at most {@link HANDOFF_LIMIT} times a turn and
 *   never back to an agent already in the chain (those functions are not offered, so the last agent
 *   answers). The text streams as each agent writes it, so `text` is what the user saw (in the usual
 *   case, a hand-off call with no text, exactly the last agent's answer); `agents` traces the chain,
 *   `answered_by` names the agent that answered; usage is summed.
 * - Otherwise (and for a target that is a scheduled node), calling one ends this agent with
 *   `handoff_to` set to that id; the flow routes on it (an if-else after the agent, one case per target).
 */
export const agentExecutor = defineNodeExecutor(agentPlugin, {
  async execute(ctx) {
    const self: Agent = { id: ctx.node.id, title: ctx.node.title, config: ctx.config };
    if (!ctx.peer) {
      const turn = await runAgent(ctx, self, { note: '', say: (t) => ctx.emitChunk(t) });
      return {
        outputs: { text: turn.text, handoff_to: turn.handoff?.to ?? '', usage: usageOutput(turn.usage), steps: turn.steps },
        ...(turn.usage ? { usage: turn.usage } : {}),
      };
    }

    const chain: Chain = { visited: new Set([self.id]), hops: 0 };
    const agents: { id: string; title: string; text: string; handoff_to?: string; reason?: string }[] = [];
    const steps: Step[] = [];
    let usage: TokenUsage | undefined;
    let text = '';
    let agent = self;
    let note = '';
    const lines: string[] = [];
    for (;;) {
      // Between agents that both speak, a blank line, sent with the next agent's first piece.
      const gap = text && !text.endsWith('\n') ? '\n\n' : '';
      let pending = gap;
      const say = (t: string) => {
        if (!t) return;
        ctx.emitChunk(pending + t);
        pending = '';
      };
      const turn = await runAgent(ctx, agent, { chain, note, say });
      if (turn.text) text += gap + turn.text;
      usage = addUsage(usage, turn.usage);
      steps.push(...turn.steps);
      agents.push({
        id: agent.id,
        title: agent.title,
        text: turn.text,
        ...(turn.handoff ? { handoff_to: turn.handoff.to, ...(turn.handoff.reason ? { reason: turn.handoff.reason } : {}) } : {}),
      });
      const next = turn.handoff?.peer;
      if (!next) {
        return {
          outputs: {
            text,
            handoff_to: turn.handoff?.to ?? '',
            answered_by: turn.handoff ? '' : agent.id,
            usage: usageOutput(usage),
            steps,
            agents,
          },
          ...(usage ? { usage } : {}),
        };
      }
      lines.push(handoffLine(agent, next, turn));
      note = handoffNote(lines, next);
      chain.hops++;
      chain.visited.add(next.id);
      agent = next;
    }
  },
});

export default agentExecutor;
