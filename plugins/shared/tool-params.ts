import { z } from 'zod';
import { isSelector, MaybeSelector, Template, type PluginI18n, type PluginIssue } from '../../src/plugin-sdk';
import { checkNames, VariableNameField } from './variables';

/**
 * Arguments of a tool or MCP call: each parameter takes a variable, or a text that may hold
 * `{{#…#}}` references (a constant is a text without any).
 */
export const ToolParam = z.object({
  name: VariableNameField.default(''),
  source: z.enum(['variable', 'text']).default('text'),
  selector: MaybeSelector.default([]),
  text: Template.default(''),
});
export type ToolParam = z.infer<typeof ToolParam>;

/** Names, and a variable for each parameter that takes one. */
export function checkToolParams(params: readonly ToolParam[], field: string): PluginIssue[] {
  return [
    ...checkNames(params, field),
    ...params.flatMap((p, i) =>
      p.source === 'variable' && !isSelector(p.selector)
        ? [{ key: 'issues.selectorEmpty', params: { name: p.name || `#${i + 1}` }, path: [field, i, 'selector'] }]
        : [],
    ),
  ];
}

/** Outputs every tool call has (Dify's: text, files, json). */
export const toolOutputs = () => [
  { name: 'text', type: 'string' as const, labelKey: 'toolOutputs.text' },
  { name: 'files', type: 'array[file]' as const, labelKey: 'toolOutputs.files' },
  { name: 'json', type: 'array[object]' as const, labelKey: 'toolOutputs.json' },
];

export const toolTexts = {
  zh: { toolOutputs: { text: '文本结果', files: '文件', json: 'JSON 结果' }, paramSources: { variable: '变量', text: '文本' } },
  en: { toolOutputs: { text: 'Text result', files: 'Files', json: 'JSON result' }, paramSources: { variable: 'Variable', text: 'Text' } },
} satisfies PluginI18n;
