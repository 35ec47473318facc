/** CONSOLE prompts group (spec 3 "Prompt", 7.5, 9): prompts and the variable parser of both template types. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import { ParseVariablesResult, Prompt, PromptCreateBody, PromptListQuery, PromptUpdateBody, type TemplateType } from '../../schemas/prompt';
import {
  DebugStopResult,
  GenerateQuestionResult,
  OptimizePromptResult,
  PromptDebugEvent,
  type GenerateQuestionBody,
  type OptimizePromptBody,
  type PromptDebugBody,
} from '../../schemas/prompt-debug';
import { call, request, type Endpoint, type RequestOptions } from './request';
import { readSseFrames } from './sse';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/prompts';
export const promptEndpoints = {
  list: { method: 'GET', url: base, name: 'prompts.list' },
  create: { method: 'POST', url: base, name: 'prompts.create' },
  update: { method: 'PUT', url: base, name: 'prompts.update' },
  parseVariables: { method: 'POST', url: `${base}/:template_type/parse-variables`, name: 'prompts.parseVariables' },
  get: { method: 'GET', url: `${base}/:id`, name: 'prompts.get' },
  remove: { method: 'DELETE', url: `${base}/:id`, name: 'prompts.remove' },
  debug: { method: 'POST', url: `${base}/completion-messages`, name: 'prompts.debug' },
  stopDebug: { method: 'POST', url: `${base}/completion-messages/:id/stop`, name: 'prompts.stopDebug' },
  optimize: { method: 'POST', url: `${base}/optimization_prompt`, name: 'prompts.optimize' },
  generateQuestion: { method: 'POST', url: `${base}/generate_question`, name: 'prompts.generateQuestion' },
} as const satisfies Record<string, Endpoint>;

export type PromptListParams = Partial<z.input<typeof PromptListQuery>>;
export type PromptCreateInput = z.input<typeof PromptCreateBody>;
export type PromptUpdateInput = z.input<typeof PromptUpdateBody>;

/** Prompts of the session's project space, last changed first. */
export const listPrompts = (q: PromptListParams = {}, opts?: Opts) => call(page(Prompt), promptEndpoints.list, { ...q }, opts);

/** Creates a prompt (owner, admin); variables left out are parsed from the content. */
export const createPrompt = (body: PromptCreateInput, opts?: Opts) => call(Prompt, promptEndpoints.create, body, opts);

/** Changes a prompt (owner, admin). */
export const updatePrompt = (body: PromptUpdateInput, opts?: Opts) => call(Prompt, promptEndpoints.update, body, opts);

/**
 * The variable names of a template, in order of first appearance. An invalid template rejects with
 * VALIDATION-1000 whose `data` is one TemplateIssue (line, column, offset).
 */
export const parsePromptVariables = (template_type: TemplateType, content: string, opts?: Opts) =>
  call(ParseVariablesResult, promptEndpoints.parseVariables, { template_type, content }, opts);

export const getPrompt = (id: string, opts?: Opts) => call(Prompt, promptEndpoints.get, { id }, opts);

/** Deletes a prompt (owner, admin). */
export const deletePrompt = (id: string, opts?: Opts) => call(z.null(), promptEndpoints.remove, { id }, opts);

export type { PromptDebugEvent, PromptDebugBody, OptimizePromptBody, GenerateQuestionBody } from '../../schemas/prompt-debug';

/**
 * A debug run of a template: yields `message_created` (its `message_id` is what
 * {@link stopPromptDebug} takes), the `text_chunk`s, then `message_end` or `error`. An error before
 * the stream (missing values, no model) rejects like any call. Aborting `opts.signal` closes the
 * connection, which also stops the model call on the server.
 * @example
 * for await (const e of streamPromptDebug({ content: 'Hi {name}', variables: { name: 'Ada' } }, { workspaceId })) if (e.type === 'text_chunk') out += e.text;
 */
export async function* streamPromptDebug(body: PromptDebugBody, opts: Opts = {}): AsyncGenerator<PromptDebugEvent> {
  const res = await request(promptEndpoints.debug, { ...body }, { ...opts, responseType: 'stream', headers: { Accept: 'text/event-stream', ...opts.headers } });
  for await (const frame of readSseFrames(res, opts.signal)) {
    let data: unknown;
    try {
      data = JSON.parse(frame.data);
    } catch {
      continue;
    }
    const parsed = PromptDebugEvent.safeParse(data);
    if (parsed.success) yield parsed.data;
  }
}

/** Stops a debug run the caller started (`stopped: false` when it had already ended). */
export const stopPromptDebug = (id: string, opts?: Opts) => call(DebugStopResult, promptEndpoints.stopDebug, { id }, opts);

/** A model rewrites the template keeping its placeholders; a rewrite that loses one is refused (VALIDATION-1000). */
export const optimizePrompt = (body: OptimizePromptBody, opts?: Opts) => call(OptimizePromptResult, promptEndpoints.optimize, { ...body }, opts);

/** Test questions a model proposes for the template. */
export const generatePromptQuestions = (body: GenerateQuestionBody, opts?: Opts) => call(GenerateQuestionResult, promptEndpoints.generateQuestion, { ...body }, opts);
