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
