import { bool, list, oneOf, rec, sel, str, text, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { memory, model, runSettings, vision } from '../shared/dify';

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const template = data.prompt_template;
  const messages = (Array.isArray(template) ? template : [template]).filter(Boolean).map((x) => {
    const m = rec(x);
    const jinja = m.edition_type === 'jinja2';
    if (jinja) ctx.warn('jinjaPrompt', { node: ctx.node });
    return { role: oneOf(m.role, ['system', 'user', 'assistant'] as const, 'user'), text: text(jinja ? (m.jinja2_text ?? m.text) : m.text, ctx) };
  });
  const question = askedQuestion(data.memory, messages, ctx);
  if (question !== undefined) messages.push({ role: 'user', text: question });
  const context = rec(data.context);
  const schema = rec(rec(data.structured_output).schema);
  const required = list(schema.required);
  const structuredOutput = Object.entries(rec(schema.properties)).map(([name, p]) => ({
    name,
    type: jsonSchemaType(rec(p)),
    description: str(rec(p).description).slice(0, 1000),
    required: required.includes(name),
  }));
  return {
    model: model(data.model),
    prompts: messages,
    contextEnabled: bool(context.enabled),
    context: sel(context.variable_selector, ctx),
    ...memory(data.memory),
    ...vision(data.vision, ctx),
    structuredOutputEnabled: bool(data.structured_output_enabled),
    structuredOutput,
    ...runSettings(data),
  };
}

/**
 * With memory on, Dify sends the user's turn after the remembered ones: `memory.query_prompt_template`,
 * or `{{#sys.query#}}` in a chatflow when the template is empty. Our prompts hold every message, so that
 * turn becomes the last user prompt (unless the prompts already ask `{{#sys.query#}}` and there is no
 * template: that file asked the question itself).
 */
function askedQuestion(v: unknown, messages: readonly { text: string }[], ctx: DifyImportContext): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const template = text(rec(v).query_prompt_template, ctx);
  if (template.trim()) return template;
  if (ctx.mode !== 'chatflow' || messages.some((m) => m.text.includes('{{#sys.query#}}'))) return undefined;
  return '{{#sys.query#}}';
}

/** A JSON Schema property → one of the types a model can be asked for. */
function jsonSchemaType(p: Record<string, unknown>): string {
  const t = str(p.type);
  if (t === 'integer') return 'number';
  if (t === 'array') {
    const item = str(rec(p.items).type);
    return `array[${item === 'integer' ? 'number' : oneOf(item, ['string', 'number', 'boolean', 'object'] as const, 'string')}]`;
  }
  return oneOf(t, ['string', 'number', 'boolean', 'object'] as const, 'string');
}

/** Dify's LLM node: prompts (Jinja ones kept as text, with a warning), context, memory, vision, structured output. */
export const dify: DifyImportHook = { types: ['llm'], import: fromDify };
