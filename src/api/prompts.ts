/** CONSOLE prompts group (spec 3 "Prompt", 7.5, 9): prompts and the variable parser of both template types. */
import { z } from 'zod';
import { page } from '../../schemas/common';
import { ParseVariablesResult, Prompt, PromptCreateBody, PromptListQuery, PromptUpdateBody, type TemplateType } from '../../schemas/prompt';
import { call, type Endpoint, type RequestOptions } from './request';

type Opts = Omit<RequestOptions, 'responseType' | 'schema'>;

const base = '/api/v1/console/prompts';
export const promptEndpoints = {
  list: { method: 'GET', url: base, name: 'prompts.list' },
  create: { method: 'POST', url: base, name: 'prompts.create' },
  update: { method: 'PUT', url: base, name: 'prompts.update' },
  parseVariables: { method: 'POST', url: `${base}/:template_type/parse-variables`, name: 'prompts.parseVariables' },
  get: { method: 'GET', url: `${base}/:id`, name: 'prompts.get' },
  remove: { method: 'DELETE', url: `${base}/:id`, name: 'prompts.remove' },
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
