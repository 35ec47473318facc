import { z } from 'zod';
import { ModelErrorCode, ModelName, ModelParams, ProviderId } from './model';
import { MAX_PROMPT_CONTENT, MAX_VARIABLES, TemplateType } from './prompt';

/**
 * The prompt debug view (spec 2 "prompt-add/{promptId?}: … a debug view also exists", 7.5 prompts:
 * completion-messages and its stop, optimization_prompt, generate_question). A debug run renders the
 * template with the variables' values and streams the model's answer as SSE; nothing is stored.
 */

export const MAX_VARIABLE_VALUE = 20_000;
export const MAX_QUERY = 5_000;
export const MAX_INSTRUCTION = 2_000;
export const MAX_QUESTIONS = 10;

const REQUIRED = 'This form field is required!';

/** The model of a debug call; left out: the prompt's own model, then the tenant's default LLM. */
export const DebugModel = z
  .object({
    provider: ProviderId,
    name: ModelName,
    params: ModelParams.default({}),
  })
  .strict();
export type DebugModel = z.input<typeof DebugModel>;

const content = z
  .string()
  .max(MAX_PROMPT_CONTENT, `exceeds maximum length ${MAX_PROMPT_CONTENT}`)
  .refine((s) => s.trim().length > 0, REQUIRED);

export const PromptDebugBody = z
  .object({
    /** The stored prompt being edited (its model is the fallback); the content sent is what runs. */
    prompt_id: z.string().optional(),
    content,
    template_type: TemplateType.default('f-string'),
    /** Values by variable name; every variable of the template needs one (may be ''). */
    variables: z
      .record(z.string().max(64), z.string().max(MAX_VARIABLE_VALUE, `exceeds maximum length ${MAX_VARIABLE_VALUE}`))
      .refine((v) => Object.keys(v).length <= MAX_VARIABLES, `At most ${MAX_VARIABLES} variables`)
      .default({}),
    model: DebugModel.optional(),
    /** A user message after the rendered prompt (then the prompt is the system message). */
    query: z.string().max(MAX_QUERY, `exceeds maximum length ${MAX_QUERY}`).optional(),
  })
  .strict();
export type PromptDebugBody = z.input<typeof PromptDebugBody>;

export const DebugUsage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int(), total_tokens: z.number().int() });
export type DebugUsage = z.infer<typeof DebugUsage>;

/**
 * The frames of a debug stream (`event: <type>`, `data: <json with type>`): `message_created` first
 * (its id is what stop takes), then `text_chunk`s in order, then `message_end` (succeeded or
 * stopped, with the whole answer and the usage) or `error` (a catalogue code, and the model's
 * error code when the model failed).
 */
export const PromptDebugEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message_created'),
    message_id: z.string(),
    rendered_prompt: z.string(),
    model: z.object({ provider: z.string(), name: z.string() }),
  }),
  z.object({ type: z.literal('text_chunk'), message_id: z.string(), text: z.string() }),
  z.object({
    type: z.literal('message_end'),
    message_id: z.string(),
    status: z.enum(['succeeded', 'stopped']),
    answer: z.string(),
    usage: DebugUsage.nullable(),
    elapsed_ms: z.number().int(),
  }),
  z.object({
    type: z.literal('error'),
    message_id: z.string(),
    code: z.string(),
    model_error: ModelErrorCode.optional(),
    message: z.string(),
    answer: z.string(),
  }),
]);
export type PromptDebugEvent = z.infer<typeof PromptDebugEvent>;

export const DebugStopParams = z.object({ id: z.string().describe('The message_id of message_created') });
export const DebugStopResult = z.object({ stopped: z.boolean() });

export const OptimizePromptBody = z
  .object({
    content,
    template_type: TemplateType.default('f-string'),
    model: DebugModel.optional(),
    /** What to improve ("shorter", "more formal"); left out: clarity and structure. */
    instruction: z.string().trim().max(MAX_INSTRUCTION, `exceeds maximum length ${MAX_INSTRUCTION}`).optional(),
  })
  .strict();
export type OptimizePromptBody = z.input<typeof OptimizePromptBody>;
export const OptimizePromptResult = z.object({ content: z.string() });

export const GenerateQuestionBody = z
  .object({
    content,
    template_type: TemplateType.default('f-string'),
    /** Values of the variables, shown to the model as context. */
    variables: z.record(z.string().max(64), z.string().max(MAX_VARIABLE_VALUE)).optional(),
    model: DebugModel.optional(),
    count: z.number().int().min(1, 'at least 1').max(MAX_QUESTIONS, `at most ${MAX_QUESTIONS}`).default(3),
  })
  .strict();
export type GenerateQuestionBody = z.input<typeof GenerateQuestionBody>;
export const GenerateQuestionResult = z.object({ questions: z.array(z.string()) });
