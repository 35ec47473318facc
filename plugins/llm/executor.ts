import { defineNodeExecutor, NodeExecutionError, type ChatMessage, type ExecutionContext, type VariableReader } from '../../src/plugin-sdk';
import { chat, chatParameters, memoryMessages, MODEL_ERRORS, parseJsonLoose, personaOf, requireModels, usageOutput, visionImages, withImages, withPersona } from '../shared/exec/model-call';
import { toText } from '../shared/exec/text';
import { coerceValue, paramsJsonSchema } from '../shared/exec/typed-values';
import { CONTEXT_PLACEHOLDER, llmPlugin, type LlmConfig } from './manifest';

/** A prompt with its references rendered and `{{#context#}}` replaced by the context text. */
export function renderPrompt(text: string, variables: VariableReader, context: string): string {
  // Split first: the placeholder looks like a reference to a node "context" and would render as ''.
  return text
    .split(CONTEXT_PLACEHOLDER)
    .map((part) => variables.render(part))
    .join(context);
}

/** Context from a knowledge-retrieval result (its passages' content) or any other value as text. */
function contextText(value: unknown): string {
  if (Array.isArray(value)) {
    return value
      .map((x) => (typeof x === 'object' && x !== null && typeof (x as { content?: unknown }).content === 'string' ? (x as { content: string }).content : toText(x)))
      .join('\n\n');
  }
  return toText(value);
}

/** The messages: prompts in order, the remembered turns before the last user prompt, vision's images on that prompt. */
async function buildMessages(ctx: ExecutionContext<LlmConfig>, config: LlmConfig): Promise<ChatMessage[]> {
  const context = config.contextEnabled ? contextText(ctx.variables.get(config.context)) : '';
  const prompts: ChatMessage[] = config.prompts
    .map((p) => ({ role: p.role, content: renderPrompt(p.text, ctx.variables, context) }))
    .filter((m) => m.content.trim());
  if (config.structuredOutputEnabled) {
    const schema = JSON.stringify(paramsJsonSchema(config.structuredOutput));
    prompts.unshift({ role: 'system', content: `Answer with one JSON object only, no prose and no code fences, matching this JSON Schema:\n${schema}` });
  }
  const memory = await memoryMessages(ctx, config);
  const persona = personaOf(ctx);
  const images = visionImages(ctx, config);
  if (!memory.length) return withImages(withPersona(prompts, persona), images);
  const lastUser = prompts.map((m) => m.role).lastIndexOf('user');
  const at = lastUser >= 0 ? lastUser : prompts.length;
  return withImages(withPersona([...prompts.slice(0, at), ...memory, ...prompts.slice(at)], persona), images);
}

/** The structured output as declared, or a clear error naming what did not fit. */
function structured(config: LlmConfig, text: string): Record<string, unknown> {
  const parsed = parseJsonLoose(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new NodeExecutionError(MODEL_ERRORS.OUTPUT_INVALID, 'The model did not answer with a JSON object', { text: text.slice(0, 500) });
  }
  const obj = parsed as Record<string, unknown>;
  const out: Record<string, unknown> = { ...obj };
  for (const f of config.structuredOutput) {
    if (!f.name) continue;
    const v = obj[f.name];
    if (v === undefined || v === null) {
      if (f.required) throw new NodeExecutionError(MODEL_ERRORS.OUTPUT_INVALID, `The model's JSON has no "${f.name}"`, { text: text.slice(0, 500) });
      continue;
    }
    const c = coerceValue(v, f.type);
    if (!c.ok) throw new NodeExecutionError(MODEL_ERRORS.OUTPUT_INVALID, `"${f.name}" in the model's JSON should be ${f.type}`, { text: text.slice(0, 500) });
    out[f.name] = c.value;
  }
  return out;
}

/**
 * Calls the model with the rendered prompts (context, memory), streams its text as chunks (an
 * answer node quoting `text` passes them on), and parses structured output when asked.
 */
export const llmExecutor = defineNodeExecutor(llmPlugin, {
  async execute(ctx) {
    const { config } = ctx;
    const models = requireModels(ctx, config.model);
    const messages = await buildMessages(ctx, config);
    const parameters = chatParameters(config.model.params, config.structuredOutputEnabled ? { response_format: 'json_object' } : {});
    const r = await chat(ctx, models, config.model, messages, { parameters, stream: true });
    const outputs: Record<string, unknown> = { text: r.text, reasoning_content: r.reasoning ?? '', usage: usageOutput(r.usage) };
    if (config.structuredOutputEnabled) outputs.structured_output = structured(config, r.text);
    return { outputs, ...(r.usage ? { usage: r.usage } : {}) };
  },
});

export default llmExecutor;
