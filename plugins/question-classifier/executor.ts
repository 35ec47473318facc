import { defineNodeExecutor, type ChatMessage } from '../../src/plugin-sdk';
import { chat, chatParameters, memoryMessages, parseJsonLoose, requireModels, usageOutput } from '../shared/exec/model-call';
import { toText } from '../shared/exec/text';
import { questionClassifierPlugin, type QuestionClassifierConfig } from './manifest';

type QuestionClass = QuestionClassifierConfig['classes'][number];

/** The system prompt: the classes by id, and the one answer shape accepted. */
function systemPrompt(config: QuestionClassifierConfig, instruction: string): string {
  const classes = config.classes.map((c) => `- id: ${JSON.stringify(c.id)}, class: ${JSON.stringify(c.name)}`).join('\n');
  return [
    'You sort the user input into exactly one of these classes:',
    classes,
    instruction ? `Extra instructions:\n${instruction}` : '',
    'Answer with one JSON object only: {"class_id": "<id of the class>"}',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The class the model chose: by id in its JSON, else by id or name anywhere in its answer, else
 * the first class (a classifier always takes a branch, as in Dify).
 */
export function pickClass(classes: readonly QuestionClass[], answer: string): QuestionClass {
  const parsed = parseJsonLoose(answer);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const o = parsed as Record<string, unknown>;
    const id = toText(o.class_id ?? o.id ?? o.category_id).trim();
    const byId = classes.find((c) => c.id === id);
    if (byId) return byId;
    const name = toText(o.class_name ?? o.category_name ?? o.class).trim().toLowerCase();
    const byName = name && classes.find((c) => c.name.trim().toLowerCase() === name);
    if (byName) return byName;
  }
  const t = answer.trim().toLowerCase();
  return classes.find((c) => c.id.toLowerCase() === t) ?? classes.find((c) => c.name.trim() && t.includes(c.name.trim().toLowerCase())) ?? classes[0];
}

/** Asks the model for the class of the query and takes that class's branch (handle = class id). */
export const questionClassifierExecutor = defineNodeExecutor(questionClassifierPlugin, {
  async execute(ctx) {
    const { config, variables } = ctx;
    const models = requireModels(ctx, config.model);
    const query = toText(variables.get(config.query));
    const messages: ChatMessage[] = [
      { role: 'system', content: systemPrompt(config, variables.render(config.instruction).trim()) },
      ...(await memoryMessages(ctx, config)),
      { role: 'user', content: query },
    ];
    // Low temperature: the same question should land in the same class.
    const parameters = chatParameters(config.model.params, { temperature: 0, response_format: 'json_object' });
    const r = await chat(ctx, models, config.model, messages, { parameters });
    const chosen = pickClass(config.classes, r.text);
    return {
      outputs: { class_name: chosen.name, class_id: chosen.id, usage: usageOutput(r.usage) },
      handle: chosen.id,
      ...(r.usage ? { usage: r.usage } : {}),
    };
  },
});

export default questionClassifierExecutor;
