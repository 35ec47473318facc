import { AGENT_BUILDER_LIMITS, GeneratedAgent, type GeneratedVariable, type OptimizeEvent } from '../../../schemas/agent-builder';
import { FEATURE_LIMITS, parseTextReferences, VARIABLE_NAME_RE } from '../../../schemas/flow';
import type { ChatMessage } from '../../../schemas/model';
import { requireMembership } from '../context';
import { badRequest } from '../errors';
import { ModelService } from '../providers/model-service';
import { toModelError } from '../providers/errors';
import { appView, BUILDERS } from './apps';
import { catalogueCodeOf, complete, resolveModel, unwrapAnswer } from './prompt-debug';
import type { Scope } from './workspace-resources';
import type { ServerContext } from '../context';

/**
 * The agent builder's AI calls (schemas/agent-builder.ts): optimizing the instructions (streamed)
 * and a first configuration from a description. The model is the tenant's default LLM, checked
 * usable before anything streams (none: VALIDATION-1000 saying so, as the prompt debug view's
 * calls do: services/prompt-debug.ts, whose model resolution and completion they reuse). Builders
 * of the app's project space only; nothing is stored.
 */

/** The app must be the caller's project space's, and the caller a builder there. */
async function checkApp(ctx: ServerContext, s: Scope, appId: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  await appView(ctx, s, appId);
}

const refsOf = (text: string) => [...new Set(parseTextReferences(text).map((r) => r.text))];

const OPTIMIZE_SYSTEM = [
  'You are an expert prompt engineer. The user sends the instructions (system prompt) of an AI assistant. Rewrite them so that the assistant does its job better: a clear role, its goals, how it works step by step, what it must and must not do, the tone and the format of its answers.',
  'Write in the same language as the original. Keep every reference written as {{#...#}} exactly as it is (they are filled in at run time) and add no new ones.',
  'Answer with the new instructions only: no preface, no explanation, no code fence.',
].join('\n');

export interface StartedOptimize {
  controller: AbortController;
  events: AsyncGenerator<OptimizeEvent>;
}

/**
 * Checks the app, the caller and the model, then answers the stream's events (the model is called
 * as they are read). The end event names the references the rewrite dropped or added.
 */
export async function startOptimize(ctx: ServerContext, s: Scope, appId: string, input: { instructions: string; goal: string }): Promise<StartedOptimize> {
  await checkApp(ctx, s, appId);
  const model = await resolveModel(ctx, s, undefined);
  const controller = new AbortController();
  const user = input.goal ? `What the assistant should achieve, or what to improve: ${input.goal}\n\nInstructions:\n${input.instructions}` : input.instructions;
  const messages: ChatMessage[] = [
    { role: 'system', content: OPTIMIZE_SYSTEM },
    { role: 'user', content: user },
  ];

  async function* events(): AsyncGenerator<OptimizeEvent> {
    yield { type: 'optimize_started', model: { provider: model.provider, name: model.name } };
    let text = '';
    try {
      const stream = new ModelService(ctx).chat({ tenantId: s.caller.tenantId, provider: model.provider, model: model.name, messages, signal: controller.signal });
      for await (const ev of stream) {
        if (ev.type !== 'text') continue;
        text += ev.text;
        yield { type: 'text_chunk', text: ev.text };
      }
    } catch (e) {
      if (controller.signal.aborted) return;
      const me = toModelError(e);
      yield { type: 'error', code: catalogueCodeOf(me), model_error: me.code, message: me.message };
      return;
    }
    const result = unwrapAnswer(text);
    if (!result) {
      yield { type: 'error', code: 'VALIDATION-1000', message: 'The model answered with empty instructions; nothing was changed. Try again' };
      return;
    }
    const before = refsOf(input.instructions);
    const after = refsOf(result);
    yield { type: 'optimize_end', text: result, dropped: before.filter((r) => !after.includes(r)), added: after.filter((r) => !before.includes(r)) };
  }
  return { controller, events: events() };
}

export const optimizeFrame = (e: OptimizeEvent) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

// ------------------------------------------------------------------ generation

const GENERATE_SYSTEM = [
  'You design AI assistants. From the description the user gives, write a first configuration as ONE JSON object with these keys:',
  '- "instructions": the assistant\'s system prompt (role, goals, way of working, limits, tone and answer format), several short paragraphs or a list;',
  '- "opening_statement": the first message the assistant shows a user, one or two sentences;',
  `- "suggested_questions": ${AGENT_BUILDER_LIMITS.questionsMax - 2} to ${AGENT_BUILDER_LIMITS.questionsMax} short questions a user could start with;`,
  `- "variables": at most ${AGENT_BUILDER_LIMITS.variablesMax} inputs the user fills in before chatting, only if the assistant truly needs them (often none): objects with "name" (letters, digits and _), "label", "type" ("text", "paragraph", "select" or "number"), "required" (true or false) and "options" (the choices of a "select", else []). The instructions quote an input as {{#start.NAME#}}.`,
  'Write every text in the language of the description. Answer with the JSON object only, no code fence.',
].join('\n');

/** The first JSON object in a model's answer (models often wrap JSON in prose or a fence). */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  const body = unwrapAnswer(text);
  for (const candidate of [body, body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1)]) {
    try {
      const v = JSON.parse(candidate) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    } catch {
      // The next candidate.
    }
  }
  return undefined;
}

const str = (v: unknown, max: number) => (typeof v === 'string' ? v.trim().slice(0, max) : '');

/** The variables a model proposed, made valid: names fixed or dropped, types and options kept in bounds. */
function variablesOf(v: unknown): GeneratedVariable[] {
  if (!Array.isArray(v)) return [];
  const out: GeneratedVariable[] = [];
  for (const x of v) {
    if (!x || typeof x !== 'object') continue;
    const o = x as Record<string, unknown>;
    const name = str(o.name, 64).replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1');
    if (!VARIABLE_NAME_RE.test(name) || out.some((y) => y.name === name)) continue;
    const type = (['text', 'paragraph', 'select', 'number'] as const).find((t) => t === o.type) ?? 'text';
    const options = Array.isArray(o.options) ? o.options.map((x2) => str(x2, 200)).filter(Boolean).slice(0, 20) : [];
    if (type === 'select' && !options.length) continue;
    out.push({ name, label: str(o.label, 100) || name, type, required: o.required !== false, options: type === 'select' ? options : [] });
    if (out.length >= AGENT_BUILDER_LIMITS.variablesMax) break;
  }
  return out;
}

/**
 * A first configuration from a description. The model's JSON is read leniently and made valid;
 * an answer without instructions is VALIDATION-1000 (nothing to offer), a model failure as in
 * the prompt debug view.
 */
export async function generateAgent(ctx: ServerContext, s: Scope, appId: string, input: { description: string }): Promise<GeneratedAgent> {
  await checkApp(ctx, s, appId);
  const model = await resolveModel(ctx, s, undefined);
  const answer = await complete(ctx, s, model, [
    { role: 'system', content: GENERATE_SYSTEM },
    { role: 'user', content: input.description },
  ]);
  const o = jsonObjectOf(answer) ?? {};
  const instructions = str(o.instructions, AGENT_BUILDER_LIMITS.instructionsMax);
  if (!instructions) throw badRequest('The model did not answer with a configuration that could be read; nothing was changed. Try again', { answer: answer.slice(0, 500) });
  const questions = Array.isArray(o.suggested_questions) ? o.suggested_questions.map((q) => str(q, FEATURE_LIMITS.suggestedQuestionMax)).filter(Boolean) : [];
  return GeneratedAgent.parse({
    instructions,
    opening_statement: str(o.opening_statement, FEATURE_LIMITS.openingStatementMax),
    suggested_questions: [...new Set(questions)].slice(0, AGENT_BUILDER_LIMITS.questionsMax),
    variables: variablesOf(o.variables),
  });
}
