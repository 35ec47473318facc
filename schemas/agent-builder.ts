import { z } from 'zod';
import { FEATURE_LIMITS, type FlowDocument, VariableName } from './flow';
import { ModelErrorCode } from './model';

/**
 * The agent builder's AI calls (spec 2 "agent-builder … The base view includes AI optimization"):
 * `POST /console/apps/{app_id}/agent-builder/optimize` streams an improved version of the agent's
 * instructions (SSE, {@link OptimizeEvent}); `…/generate` writes a first configuration from a
 * sentence. Both use the tenant's default LLM; nothing is stored (the builder decides what to keep).
 */

export const AGENT_BUILDER_LIMITS = {
  /** The instructions sent for optimizing (the agent's own field has no smaller limit in practice). */
  instructionsMax: 20_000,
  goalMax: 2_000,
  descriptionMax: 2_000,
  /** What a generated configuration holds at most. */
  questionsMax: 5,
  variablesMax: 5,
} as const;

const REQUIRED = 'This form field is required!';

export const OptimizeInstructionsBody = z
  .object({
    /** The instructions as they are now (references `{{#node.field#}}` are kept by the rewrite). */
    instructions: z
      .string()
      .max(AGENT_BUILDER_LIMITS.instructionsMax, `exceeds maximum length ${AGENT_BUILDER_LIMITS.instructionsMax}`)
      .refine((s) => s.trim().length > 0, REQUIRED),
    /** What the builder wants the agent to achieve, or what to improve; empty: clarity and structure. */
    goal: z.string().trim().max(AGENT_BUILDER_LIMITS.goalMax, `exceeds maximum length ${AGENT_BUILDER_LIMITS.goalMax}`).default(''),
  })
  .strict();
export type OptimizeInstructionsBody = z.input<typeof OptimizeInstructionsBody>;

/**
 * The frames of an optimization stream (`event: <type>`, `data: <json with type>`): `optimize_started`
 * (the model used), `text_chunk`s of the new instructions in order, then `optimize_end` with the
 * whole text and the references the rewrite dropped or added (the builder is warned before it
 * accepts), or `error` (a catalogue code, and the model's error code when the model failed).
 */
export const OptimizeEvent = z.discriminatedUnion('type', [
  z.object({ type: z.literal('optimize_started'), model: z.object({ provider: z.string(), name: z.string() }) }),
  z.object({ type: z.literal('text_chunk'), text: z.string() }),
  z.object({
    type: z.literal('optimize_end'),
    text: z.string(),
    /** References (`{{#start.topic#}}`) of the old instructions the new ones lack. */
    dropped: z.array(z.string()),
    /** References the new instructions have that the old ones did not. */
    added: z.array(z.string()),
  }),
  z.object({ type: z.literal('error'), code: z.string(), model_error: ModelErrorCode.optional(), message: z.string() }),
]);
export type OptimizeEvent = z.infer<typeof OptimizeEvent>;

export const GenerateAgentBody = z
  .object({
    /** What the agent is for, in a sentence or a few. */
    description: z
      .string()
      .trim()
      .max(AGENT_BUILDER_LIMITS.descriptionMax, `exceeds maximum length ${AGENT_BUILDER_LIMITS.descriptionMax}`)
      .refine((s) => s.length > 0, REQUIRED),
  })
  .strict();
export type GenerateAgentBody = z.input<typeof GenerateAgentBody>;

/** A user-input variable of a generated configuration (a start form field). */
export const GeneratedVariable = z.object({
  name: VariableName,
  label: z.string().max(100),
  type: z.enum(['text', 'paragraph', 'select', 'number']),
  required: z.boolean(),
  options: z.array(z.string().max(200)).max(20),
});
export type GeneratedVariable = z.infer<typeof GeneratedVariable>;

/** A first configuration: instructions (which may quote the variables as `{{#start.name#}}`), the opening and its questions. */
export const GeneratedAgent = z.object({
  instructions: z.string(),
  opening_statement: z.string().max(FEATURE_LIMITS.openingStatementMax),
  suggested_questions: z.array(z.string().max(FEATURE_LIMITS.suggestedQuestionMax)).max(AGENT_BUILDER_LIMITS.questionsMax),
  variables: z.array(GeneratedVariable).max(AGENT_BUILDER_LIMITS.variablesMax),
});
export type GeneratedAgent = z.infer<typeof GeneratedAgent>;

export const AgentBuilderParams = z.object({ app_id: z.string().max(64).describe('App id') });

/** The node ids of a zero-code agent: its start, agent and answer nodes. */
export interface ZeroCodeNodes {
  start: string;
  agent: string;
  answer: string;
}

/**
 * The nodes the agent builder edits, when the flow is a zero-code agent: an agent app not turned
 * into a canvas flow whose flow is exactly start → agent → answer (sticky notes aside); undefined
 * otherwise (the app opens in the canvas).
 * @example zeroCodeNodes(emptyFlowDocument('agent')) // { start: 'start', agent: 'agent', answer: 'answer' }
 */
export function zeroCodeNodes(doc: Pick<FlowDocument, 'mode' | 'nodes' | 'edges' | 'editor'>): ZeroCodeNodes | undefined {
  if (doc.mode !== 'agent' || doc.editor === 'canvas') return undefined;
  const nodes = doc.nodes.filter((n) => n.kind !== 'note');
  const one = (kind: string) => {
    const of = nodes.filter((n) => n.kind === kind);
    return of.length === 1 && !of[0].parentId ? of[0].id : undefined;
  };
  const start = one('start');
  const agent = one('agent');
  const answer = one('answer');
  if (!start || !agent || !answer || nodes.length !== 3 || doc.edges.length !== 2) return undefined;
  const linked = (from: string, to: string) => doc.edges.some((e) => e.source === from && e.target === to);
  return linked(start, agent) && linked(agent, answer) ? { start, agent, answer } : undefined;
}
