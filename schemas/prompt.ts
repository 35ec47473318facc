import { z } from 'zod';
import { Id, Timestamp } from './common';
import { needsId, noId, pageNumber, pageSize } from './guards';

/**
 * Prompts of a project space (spec 3 "Prompt: name, description, tags, content, variables, model";
 * 5 tag input rules; 7.5 prompts; 9 template types and scenes).
 *
 * UI metadata (`.meta`): `label`/`help`/`placeholder` are i18n keys, `widget` picks the form
 * widget, `options` the choices of a select, `order` the form order, `column` the table column
 * (false: not a column).
 */

export const TEMPLATE_TYPES = ['jinja2', 'f-string'] as const;
export const TemplateType = z.enum(TEMPLATE_TYPES);
export type TemplateType = z.infer<typeof TemplateType>;

export const PROMPT_SCENES = ['llm_chain', 'retrieval_chain', 'extract_chain', 'analysis_chain'] as const;
export const PromptScene = z.enum(PROMPT_SCENES);
export type PromptScene = z.infer<typeof PromptScene>;

export const PROMPT_PAGE_MAX = 1000;
/** Tag input (spec 5): at most 5 tags, each up to 20 characters. */
export const MAX_TAGS = 5;
export const MAX_TAG_LENGTH = 20;
export const MAX_PROMPT_CONTENT = 50_000;
export const MAX_VARIABLES = 100;

/** A variable name: a letter (any script) or underscore, then letters, digits or underscores. */
export const VARIABLE_NAME_RE = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]*$/u;

const REQUIRED = 'This form field is required!';

export const PromptVariable = z.object({
  name: z
    .string()
    .min(1, REQUIRED)
    .max(64, 'exceeds maximum length 64')
    .regex(VARIABLE_NAME_RE, 'Variable names start with a letter or underscore and hold letters, digits and underscores')
    .meta({ label: 'prompt.variable.name', widget: 'text' }),
  description: z.string().trim().max(200, 'exceeds maximum length 200').default('').meta({ label: 'prompt.variable.description', widget: 'text' }),
  default: z.string().max(5000, 'exceeds maximum length 5000').default('').meta({ label: 'prompt.variable.default', widget: 'text' }),
});
export type PromptVariable = z.infer<typeof PromptVariable>;

/** A reference to a configured model; the model providers are another issue's work. */
export const PromptModel = z.object({
  provider: z.string().trim().min(1, REQUIRED).max(100),
  name: z.string().trim().min(1, REQUIRED).max(200),
});
export type PromptModel = z.infer<typeof PromptModel>;

const name = z
  .string()
  .trim()
  .min(1, REQUIRED)
  .max(50, 'exceeds maximum length 50')
  .meta({ label: 'prompt.name', placeholder: 'prompt.namePlaceholder', widget: 'text', order: 1 });
const description = z
  .string()
  .trim()
  .max(500, 'exceeds maximum length 500')
  .meta({ label: 'prompt.description', widget: 'textarea', order: 2 });
const tags = z
  .array(z.string().trim().min(1, REQUIRED).max(MAX_TAG_LENGTH, `exceeds maximum length ${MAX_TAG_LENGTH}`))
  .max(MAX_TAGS, `At most ${MAX_TAGS} tags`)
  .refine((t) => new Set(t).size === t.length, 'Tags must be different')
  .meta({ label: 'prompt.tags', widget: 'tags', maxTags: MAX_TAGS, maxTagLength: MAX_TAG_LENGTH, order: 3 });
const content = z
  .string()
  .max(MAX_PROMPT_CONTENT, `exceeds maximum length ${MAX_PROMPT_CONTENT}`)
  .refine((s) => s.trim().length > 0, REQUIRED)
  .meta({ label: 'prompt.content', widget: 'code', language: 'prompt', order: 6 });
const templateType = TemplateType.meta({
  label: 'prompt.templateType',
  widget: 'select',
  options: TEMPLATE_TYPES.map((value) => ({ value, label: `prompt.templateTypes.${value}` })),
  order: 4,
});
const scene = PromptScene.meta({
  label: 'prompt.scene',
  widget: 'select',
  options: PROMPT_SCENES.map((value) => ({ value, label: `prompt.scenes.${value}` })),
  order: 5,
});
const variables = z
  .array(PromptVariable)
  .max(MAX_VARIABLES)
  .refine((v) => new Set(v.map((x) => x.name)).size === v.length, 'Variable names must be unique')
  .meta({ label: 'prompt.variables', widget: 'variables', help: 'prompt.variablesHelp', order: 7 });
const model = PromptModel.nullable().meta({ label: 'prompt.model', widget: 'model-picker', modelType: 'llm', order: 8 });

export const Prompt = z
  .object({
    id: Id.meta({ column: false }),
    workspace_id: Id.meta({ column: false }),
    name: z.string().meta({ label: 'prompt.name', column: { order: 1, width: 180 } }),
    description: z.string().meta({ label: 'prompt.description', column: { order: 2 } }),
    tags: z.array(z.string()).meta({ label: 'prompt.tags', widget: 'tags', column: { order: 3, width: 200 } }),
    content: z.string().meta({ label: 'prompt.content', widget: 'code', column: false }),
    template_type: TemplateType.meta({ label: 'prompt.templateType', column: { order: 4, width: 110 } }),
    scene: PromptScene.meta({ label: 'prompt.scene', column: { order: 5, width: 130 } }),
    variables: z.array(PromptVariable).meta({ label: 'prompt.variables', column: false }),
    model: PromptModel.nullable().meta({ label: 'prompt.model', column: false }),
    created_by: Id.meta({ column: false }),
    created_at: Timestamp.meta({ label: 'common.createdAt', widget: 'datetime', column: false }),
    updated_at: Timestamp.meta({ label: 'common.updatedAt', widget: 'datetime', column: { order: 6, width: 170 } }),
  })
  .meta({ title: 'prompt.title' });
export type Prompt = z.infer<typeof Prompt>;

export const PromptListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(PROMPT_PAGE_MAX),
  /** Substring of the name, case-insensitive. */
  name: z.string().trim().max(64).optional().meta({ label: 'prompt.name', widget: 'search' }),
  /** Prompts carrying this tag (exact). */
  tag: z.string().trim().max(MAX_TAG_LENGTH).optional().meta({ label: 'prompt.tags', widget: 'select' }),
  scene: PromptScene.optional().meta({ label: 'prompt.scene', widget: 'select' }),
});

/** Variables left out are parsed from the content (in order of first appearance). */
export const PromptCreateBody = z
  .object({
    ...noId,
    name,
    description: description.default(''),
    tags: tags.default([]),
    content,
    template_type: templateType.default('f-string'),
    scene: scene.default('llm_chain'),
    variables: variables.optional(),
    model: model.optional(),
  })
  .strict();
export type PromptCreateBody = z.input<typeof PromptCreateBody>;

/**
 * Fields left out stay. When the content or template type changes and no variables are given, the
 * variables are parsed again, keeping the description and default of names that remain.
 */
export const PromptUpdateBody = z
  .object({
    ...needsId,
    name: name.optional(),
    description: description.optional(),
    tags: tags.optional(),
    content: content.optional(),
    template_type: templateType.optional(),
    scene: scene.optional(),
    variables: variables.optional(),
    model: model.optional(),
  })
  .strict();
export type PromptUpdateBody = z.input<typeof PromptUpdateBody>;

export const ParseVariablesParams = z.object({ template_type: TemplateType });
export const ParseVariablesBody = z.object({ content: z.string().max(MAX_PROMPT_CONTENT, `exceeds maximum length ${MAX_PROMPT_CONTENT}`) }).strict();
export const ParseVariablesResult = z.object({ variables: z.array(z.string()) });

/**
 * Where a template is invalid: `data` of the VALIDATION-1000 answer is one FieldIssue with the
 * position (1-based line and column, 0-based offset into the content).
 */
export const TemplateIssue = z.object({
  path: z.string(),
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  offset: z.number().int(),
});
export type TemplateIssue = z.infer<typeof TemplateIssue>;
