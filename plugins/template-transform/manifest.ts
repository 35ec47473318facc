import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, type FlowNode, type PluginIssue } from '../../src/plugin-sdk';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, checkSelectors, NamedSelector } from '../shared/variables';
import { dify } from './dify';
import { firstLines } from '../shared/summary';

const configSchema = z.object({
  inputs: z.array(NamedSelector).max(50).default([{ name: 'arg1', selector: [] }]).meta({ label: 'fields.inputs', widget: NODE_WIDGETS.inputVariables, order: 0 }),
  /** A Jinja2 template over the inputs by name (`{{ arg1 }}`, `{% for %}` …). */
  template: z.string().max(100_000).default('{{ arg1 }}').meta({ label: 'fields.template', widget: 'code', language: 'jinja2', order: 1 }),
});
export type TemplateTransformConfig = z.infer<typeof configSchema>;

function validate(node: FlowNode<TemplateTransformConfig>): PluginIssue[] {
  const c = node.config;
  const out = [...checkNames(c.inputs, 'inputs'), ...checkSelectors(c.inputs, 'inputs')];
  if (!c.template.trim()) out.push({ key: 'issues.templateEmpty', path: ['template'] });
  // Unbalanced delimiters are the most common template mistake; the runtime reports the rest.
  const count = (s: string) => c.template.split(s).length - 1;
  if (count('{{') !== count('}}') || count('{%') !== count('%}')) out.push({ key: 'issues.templateUnbalanced', path: ['template'] });
  return out;
}

/** Renders a Jinja2 template over its inputs into one string. */
export const templateTransformPlugin = defineNodePlugin({
  kind: 'template-transform',
  dify,
  version: 1,
  category: 'transform',
  icon: { lucide: 'file-code-2' },
  color: '#2563eb',
  i18n: mergeTexts(commonTexts, {
    zh: {
      title: '模板转换',
      description: '用 Jinja2 模板把变量拼成文本',
      fields: { inputs: '输入变量', template: '模板' },
      outputs: { output: '转换结果' },
      issues: { templateEmpty: '模板为空', templateUnbalanced: '模板中的双花括号或 {% %} 没有成对出现' },
    },
    en: {
      title: 'Template',
      description: 'Renders variables into text with a Jinja2 template',
      fields: { inputs: 'Input variables', template: 'Template' },
      outputs: { output: 'Rendered text' },
      issues: { templateEmpty: 'The template is empty', templateUnbalanced: 'The template has unmatched double braces or {% %}' },
    },
  }),
  configSchema,
  outputs: [{ name: 'output', type: 'string', labelKey: 'outputs.output' }],
  summary: (config) => firstLines(config.template),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default templateTransformPlugin;
