import { randomUUID } from 'node:crypto';
import type { ChatMessage, ModelParams } from '../../../schemas/model';
import type { TemplateType } from '../../../schemas/prompt';
import type { DebugUsage, PromptDebugEvent } from '../../../schemas/prompt-debug';
import { ErrorCode } from '../../../schemas/errors';
import type { ServerContext } from '../context';
import { requireMembership } from '../context';
import { AppError, badRequest } from '../errors';
import { ModelService } from '../providers/model-service';
import { ModelError, toModelError } from '../providers/errors';
import * as models from './models';
import { getPrompt, parseTemplate } from './prompts';
import { renderTemplate, TemplateRenderError } from './prompt-render';
import { TemplateSyntaxError, templateVariables } from './prompt-templates';
import type { Scope } from './workspace-resources';

/**
 * The prompt debug view's server side (spec 2 prompt-add debug view, 7.5 prompts): a debug run
 * renders the template with the values given and streams the model's answer; optimization asks a
 * model to rewrite the template keeping its placeholders; question generation asks for test
 * questions. Any member of the workspace may call them. Nothing is stored.
 *
 * The model is the one given, else the stored prompt's, else the tenant's default LLM; none, or
 * one that is not usable (provider without credentials, model unknown or disabled), is
 * VALIDATION-1000 before anything streams.
 */

export interface ModelChoice {
  provider: string;
  name: string;
  params?: ModelParams;
}

// ------------------------------------------------------------------ running debug messages

interface Running {
  tenantId: string;
  userId: string;
  workspaceId: string;
  controller: AbortController;
  /** Set when the stream ended; kept a while so a late stop answers `stopped: false`. */
  endedAt?: number;
}

/** How long an ended message is remembered (a stop racing the end is not an error). */
const ENDED_TTL_MS = 10 * 60_000;
const MAX_ENDED = 2_000;
/** Debug runs one user may have going at once (each holds a model call). */
export const MAX_RUNNING_PER_USER = 5;

/**
 * Debug messages of this process: a stop finds the stream by its message id. Only the user who
 * started it, in the same tenant and workspace, may stop it.
 */
export class DebugRegistry {
  private readonly items = new Map<string, Running>();

  start(id: string, s: Scope): AbortController {
    let mine = 0;
    for (const r of this.items.values()) if (r.endedAt === undefined && r.userId === s.caller.userId && r.tenantId === s.caller.tenantId) mine++;
    if (mine >= MAX_RUNNING_PER_USER) throw badRequest(`At most ${MAX_RUNNING_PER_USER} debug runs at once: stop one or wait for it to end`);
    const controller = new AbortController();
    this.items.set(id, { tenantId: s.caller.tenantId, userId: s.caller.userId, workspaceId: s.workspaceId, controller });
    return controller;
  }

  end(id: string) {
    const r = this.items.get(id);
    if (r && r.endedAt === undefined) r.endedAt = Date.now();
    this.prune();
  }

  /** true: stopped now; false: it had already ended. Unknown or someone else's: VALIDATION-1000. */
  stop(id: string, s: Scope): boolean {
    const r = this.items.get(id);
    if (!r || r.tenantId !== s.caller.tenantId || r.userId !== s.caller.userId || r.workspaceId !== s.workspaceId) {
      throw badRequest('The debug message does not exist or you have no permission', { id });
    }
    if (r.endedAt !== undefined || r.controller.signal.aborted) return false;
    r.controller.abort(new ModelError('cancelled', 'Stopped by the user'));
    return true;
  }

  /** Running messages (not the remembered ended ones). */
  running(): number {
    let n = 0;
    for (const r of this.items.values()) if (r.endedAt === undefined) n++;
    return n;
  }

  stopAll() {
    for (const r of this.items.values()) if (r.endedAt === undefined) r.controller.abort(new ModelError('cancelled', 'The server is shutting down'));
  }

  private prune() {
    const now = Date.now();
    for (const [id, r] of this.items) {
      if (r.endedAt !== undefined && (now - r.endedAt > ENDED_TTL_MS || this.items.size > MAX_ENDED)) this.items.delete(id);
    }
  }
}

// ------------------------------------------------------------------ model resolution

const NO_MODEL =
  'No model is configured: pick a model in the debug panel, or ask an administrator to configure a model provider and a default LLM (System > Models)';

/** The model to call: given, else the stored prompt's, else the tenant's default; checked usable. */
export async function resolveModel(ctx: ServerContext, s: Scope, given: ModelChoice | undefined, promptId?: string): Promise<ModelChoice> {
  let choice: ModelChoice | undefined = given;
  // A prompt id is checked even when a model is given: it must be a prompt of this workspace.
  const saved = promptId ? (await getPrompt(ctx, s, promptId)).model : null;
  if (!choice && saved) choice = { provider: saved.provider, name: saved.name };
  if (!choice) {
    const d = await models.getDefault(ctx, s.caller.tenantId, 'llm');
    if (d) choice = { provider: d.provider, name: d.model };
  }
  if (!choice) throw badRequest(NO_MODEL, [{ path: 'body/model', message: NO_MODEL }]);
  try {
    await models.assertAvailable(ctx, s.caller.tenantId, choice.provider, choice.name, 'llm');
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const message = `The model '${choice.provider}/${choice.name}' cannot be used: ${e.message}. Configure the provider and enable the model (System > Models), or pick another model`;
    throw badRequest(message, [{ path: 'body/model', message }]);
  }
  return choice;
}

/** A model failure of a call that answers JSON: VALIDATION-1000 for setup problems, else SYSTEM-1500. */
function modelFailure(e: unknown): AppError {
  const me = toModelError(e);
  const status = catalogueCodeOf(me) === ErrorCode.PARAM ? 400 : 502;
  return new AppError(status, catalogueCodeOf(me), `The model failed (${me.code}): ${me.message}`, { model_error: me.code });
}

export function catalogueCodeOf(e: ModelError) {
  return ['not_configured', 'model_disabled', 'model_not_found', 'unauthorized', 'bad_request', 'unsupported'].includes(e.code) ? ErrorCode.PARAM : ErrorCode.INTERNAL;
}

/** The model's whole answer (not streamed); a model failure as an AppError (see modelFailure). */
export async function complete(ctx: ServerContext, s: Scope, model: ModelChoice, messages: ChatMessage[], signal?: AbortSignal): Promise<string> {
  const svc = new ModelService(ctx);
  let text = '';
  try {
    for await (const ev of svc.chat({ tenantId: s.caller.tenantId, provider: model.provider, model: model.name, messages, params: model.params, signal })) {
      if (ev.type === 'text') text += ev.text;
    }
  } catch (e) {
    throw modelFailure(e);
  }
  return text;
}

// ------------------------------------------------------------------ debug run

export interface DebugInput {
  prompt_id?: string;
  content: string;
  template_type: TemplateType;
  variables: Record<string, string>;
  model?: ModelChoice;
  query?: string;
}

export interface StartedDebug {
  messageId: string;
  controller: AbortController;
  events: AsyncGenerator<PromptDebugEvent>;
}

/** The rendered template; missing values are VALIDATION-1000 listing the variables. */
export function renderForDebug(type: TemplateType, content: string, values: Record<string, string>): string {
  const names = parseTemplate(type, content);
  const missing = names.filter((n) => !Object.hasOwn(values, n));
  if (missing.length) {
    throw badRequest(
      `Values are missing for the variables: ${missing.join(', ')}`,
      missing.map((n) => ({ path: `body/variables/${n}`, message: 'This form field is required!' })),
    );
  }
  try {
    return renderTemplate(type, content, values);
  } catch (e) {
    if (e instanceof TemplateRenderError) throw badRequest(`The template could not be rendered: ${e.message}`, [{ path: 'body/content', message: e.message }]);
    throw e;
  }
}

/**
 * Checks everything (membership, template, values, model), then answers the message's events; the
 * model is called when the events are read. With a query the rendered prompt is the system message
 * and the query the user's; without, the rendered prompt is the user's message.
 */
export async function startDebug(ctx: ServerContext, s: Scope, registry: DebugRegistry, input: DebugInput): Promise<StartedDebug> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const rendered = renderForDebug(input.template_type, input.content, input.variables);
  const model = await resolveModel(ctx, s, input.model, input.prompt_id);
  const messages: ChatMessage[] = input.query?.trim()
    ? [
        { role: 'system', content: rendered },
        { role: 'user', content: input.query },
      ]
    : [{ role: 'user', content: rendered }];
  const messageId = randomUUID();
  const controller = registry.start(messageId, s);
  const svc = new ModelService(ctx);

  async function* events(): AsyncGenerator<PromptDebugEvent> {
    const started = Date.now();
    let answer = '';
    let usage: DebugUsage | null = null;
    try {
      yield { type: 'message_created', message_id: messageId, rendered_prompt: rendered, model: { provider: model.provider, name: model.name } };
      try {
        const stream = svc.chat({
          tenantId: s.caller.tenantId,
          provider: model.provider,
          model: model.name,
          messages,
          params: model.params,
          signal: controller.signal,
        });
        for await (const ev of stream) {
          if (controller.signal.aborted) break;
          if (ev.type === 'text') {
            answer += ev.text;
            yield { type: 'text_chunk', message_id: messageId, text: ev.text };
          } else if (ev.type === 'usage') usage = ev.usage;
        }
      } catch (e) {
        if (!controller.signal.aborted) {
          const me = toModelError(e);
          yield { type: 'error', message_id: messageId, code: catalogueCodeOf(me), model_error: me.code, message: me.message, answer };
          return;
        }
      }
      const status = controller.signal.aborted ? 'stopped' : 'succeeded';
      yield { type: 'message_end', message_id: messageId, status, answer, usage, elapsed_ms: Date.now() - started };
    } finally {
      registry.end(messageId);
    }
  }
  return { messageId, controller, events: events() };
}

export const debugFrame = (e: PromptDebugEvent) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`;

// ------------------------------------------------------------------ optimization

/** Placeholders as the template type writes them, for the model's instructions and errors. */
const placeholder = (type: TemplateType, name: string) => (type === 'jinja2' ? `{{ ${name} }}` : `{${name}}`);

/** The model's answer without a wrapping code fence or quotes. */
export function unwrapAnswer(text: string): string {
  let t = text.trim();
  const fence = /^```[\w-]*\n([\s\S]*?)\n?```$/.exec(t);
  if (fence) t = fence[1].trim();
  return t;
}

export interface OptimizeInput {
  content: string;
  template_type: TemplateType;
  model?: ModelChoice;
  instruction?: string;
}

/**
 * A model rewrites the template. The answer must be a valid template of the same type with exactly
 * the same variables; otherwise VALIDATION-1000 says which were dropped or added, and nothing is
 * changed (the caller decides whether to accept a rewrite).
 */
export async function optimizePrompt(ctx: ServerContext, s: Scope, input: OptimizeInput): Promise<{ content: string }> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const names = parseTemplate(input.template_type, input.content);
  const model = await resolveModel(ctx, s, input.model);
  const syntax =
    input.template_type === 'jinja2'
      ? 'It is a Jinja2 template: keep every {{ ... }} expression and {% ... %} tag working.'
      : 'It is a Python f-string template: placeholders are {name}; literal braces must be written doubled as {{ and }}.';
  const kept = names.length
    ? `Keep each of these placeholders exactly as written, each at least once, and add no new placeholders: ${names.map((n) => placeholder(input.template_type, n)).join(', ')}.`
    : 'The template has no placeholders: add none.';
  const system = [
    'You are an expert prompt engineer. Rewrite the prompt template the user sends so that it is clearer, better structured and more effective for a large language model, in the same language as the original.',
    syntax,
    kept,
    input.instruction ? `The author asks: ${input.instruction}` : '',
    'Answer with the rewritten template only: no explanation, no preface, no code fence.',
  ]
    .filter(Boolean)
    .join('\n');
  const answer = unwrapAnswer(await complete(ctx, s, model, [{ role: 'system', content: system }, { role: 'user', content: input.content }]));
  if (!answer) throw badRequest('The model answered with an empty prompt; nothing was changed. Try again or pick another model', { missing: [], added: [] });
  let got: string[];
  try {
    got = templateVariables(input.template_type, answer);
  } catch (e) {
    if (e instanceof TemplateSyntaxError) {
      throw badRequest(`The model's rewrite is not a valid ${input.template_type} template (${e.message}); nothing was changed. Try again or pick another model`, {
        missing: [],
        added: [],
        content: answer,
      });
    }
    throw e;
  }
  const missing = names.filter((n) => !got.includes(n));
  const added = got.filter((n) => !names.includes(n));
  if (missing.length || added.length) {
    const parts = [
      missing.length ? `dropped ${missing.map((n) => placeholder(input.template_type, n)).join(', ')}` : '',
      added.length ? `added ${added.map((n) => placeholder(input.template_type, n)).join(', ')}` : '',
    ].filter(Boolean);
    throw badRequest(`The model's rewrite ${parts.join(' and ')}; nothing was changed. Try again or pick another model`, { missing, added, content: answer });
  }
  return { content: answer };
}

// ------------------------------------------------------------------ question generation

export interface GenerateQuestionInput {
  content: string;
  template_type: TemplateType;
  variables?: Record<string, string>;
  model?: ModelChoice;
  count: number;
}

/**
 * The questions out of a model's answer: a JSON array of strings (or of objects with a
 * `question`), possibly inside a code fence or after some words; else numbered or bulleted lines.
 */
export function parseQuestions(text: string, count: number): string[] {
  const clean = (xs: unknown[]) =>
    xs
      .map((x) => (typeof x === 'string' ? x : x && typeof x === 'object' && typeof (x as { question?: unknown }).question === 'string' ? (x as { question: string }).question : ''))
      .map((q) => q.trim())
      .filter(Boolean);
  const tryJson = (s: string): unknown[] | undefined => {
    try {
      const v = JSON.parse(s) as unknown;
      if (Array.isArray(v)) return v;
      if (v && typeof v === 'object') {
        const inner = Object.values(v).find(Array.isArray);
        if (inner) return inner as unknown[];
      }
    } catch {
      /* not JSON */
    }
    return undefined;
  };
  const body = unwrapAnswer(text);
  let found = tryJson(body);
  if (!found) {
    // The first '[' to the last ']': the array inside prose or a fence.
    const a = body.indexOf('[');
    const b = body.lastIndexOf(']');
    if (a >= 0 && b > a) found = tryJson(body.slice(a, b + 1));
  }
  let questions = found ? clean(found) : [];
  if (!questions.length) {
    questions = body
      .split('\n')
      .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)、]|Q\d*[:.])\s*/, '').replace(/^["“]|["”],?$/g, '').trim())
      .filter((l) => l && !/^[[\]{}]$/.test(l));
  }
  const unique = [...new Set(questions)].map((q) => q.slice(0, 1000));
  return unique.slice(0, count);
}

export async function generateQuestions(ctx: ServerContext, s: Scope, input: GenerateQuestionInput): Promise<{ questions: string[] }> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const names = parseTemplate(input.template_type, input.content);
  const model = await resolveModel(ctx, s, input.model);
  const values = Object.entries(input.variables ?? {}).filter(([k, v]) => names.includes(k) && v.trim());
  const system = [
    `You write test questions for a prompt. Propose ${input.count} different, realistic questions or requests a user could send to an assistant that runs the prompt below, covering typical and edge cases, in the same language as the prompt.`,
    'Answer with a JSON array of strings only, for example ["first question", "second question"]. No explanation, no code fence.',
  ].join('\n');
  const user = [
    'Prompt:',
    input.content,
    values.length ? `\nValues of its variables:\n${values.map(([k, v]) => `- ${k}: ${v}`).join('\n')}` : '',
  ].join('\n');
  const answer = await complete(ctx, s, model, [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ]);
  const questions = parseQuestions(answer, input.count);
  if (!questions.length) throw badRequest('The model proposed no questions that could be read; try again or pick another model', { answer: answer.slice(0, 500) });
  return { questions };
}
