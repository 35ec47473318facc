import { z } from 'zod';
import { defineNodePlugin, type PluginIssue, type ValueType } from '../../src/plugin-sdk';
import { checkNames, validPorts, VariableNameField } from '../shared/variables';
import { commonTexts, mergeTexts } from '../shared/texts';
import { dify } from './dify';
import { namesSummary } from '../shared/summary';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const START_WIDGETS = {
  /** Rows of the start form's fields. */
  formFields: 'form-fields',
} as const;

/** Field types of the start form (what the user fills in before a run). */
export const START_FIELD_TYPES = ['text', 'paragraph', 'select', 'number', 'file', 'file-list'] as const;
export type StartFieldType = (typeof START_FIELD_TYPES)[number];

/** The value type each field type gives downstream nodes. */
export const START_FIELD_VALUE_TYPES: Record<StartFieldType, ValueType> = {
  text: 'string',
  paragraph: 'string',
  select: 'string',
  number: 'number',
  file: 'file',
  'file-list': 'array[file]',
};

export const StartField = z.object({
  name: VariableNameField.default(''),
  label: z.string().max(100).default('').meta({ label: 'fields.label' }),
  type: z.enum(START_FIELD_TYPES).default('text').meta({ label: 'fields.type', optionLabels: 'fieldTypes' }),
  required: z.boolean().default(true).meta({ label: 'fields.required' }),
  /** Text fields: the longest answer accepted. */
  max_length: z.number().int().min(1).max(100_000).optional(),
  /** Select fields: the choices. */
  options: z.array(z.string().max(200)).max(100).default([]),
  /** File fields: accepted extensions (`.pdf`); empty: any. */
  allowed_extensions: z.array(z.string().max(20)).default([]),
  /** File lists: how many files at most. */
  max_files: z.number().int().min(1).max(100).optional(),
});
export type StartField = z.infer<typeof StartField>;

const configSchema = z.object({
  variables: z.array(StartField).max(100).default([]).meta({ label: 'fields.variables', widget: START_WIDGETS.formFields }),
});
export type StartConfig = z.infer<typeof configSchema>;

function validate(config: StartConfig): PluginIssue[] {
  const out = checkNames(config.variables, 'variables');
  config.variables.forEach((v, i) => {
    if (v.type === 'select' && !v.options.some((o) => o.trim())) {
      out.push({ key: 'issues.optionsEmpty', params: { name: v.name || `#${i + 1}` }, path: ['variables', i, 'options'] });
    }
  });
  return out;
}

/**
 * The entry of every flow: the form the user fills in. Its outputs are the form's fields, typed by
 * field type (the `sys.*` variables are there besides).
 */
export const startPlugin = defineNodePlugin({
  kind: 'start',
  dify,
  version: 1,
  category: 'basic',
  icon: { lucide: 'house' },
  color: 'var(--color-primary, #2563eb)',
  i18n: mergeTexts(commonTexts, {
    zh: {
      title: '开始',
      description: '流程的入口，定义用户需要填写的输入',
      fields: { variables: '输入字段' },
      fieldTypes: { text: '文本', paragraph: '段落', select: '下拉选项', number: '数字', file: '单文件', 'file-list': '文件列表' },
      issues: { optionsEmpty: '下拉字段 {{name}} 还没有选项' },
    },
    en: {
      title: 'Start',
      description: 'Where the flow begins: the inputs the user fills in',
      fields: { variables: 'Input fields' },
      fieldTypes: { text: 'Text', paragraph: 'Paragraph', select: 'Select', number: 'Number', file: 'Single file', 'file-list': 'File list' },
      issues: { optionsEmpty: 'The select field {{name}} has no options yet' },
    },
  }),
  configSchema,
  outputs: (config) => validPorts(config.variables, (v) => ({ type: START_FIELD_VALUE_TYPES[v.type], label: v.label || undefined, required: v.required })),
  targetHandle: false,
  singleton: true,
  deletable: false,
  parents: ['root'],
  summary: (config) => namesSummary(config.variables.map((v) => v.name)),
  validate: (node) => validate(node.config),
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default startPlugin;
