import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS } from '../../src/plugin-sdk';
import { checkNames, checkSelectors, NamedSelector } from '../shared/variables';
import { commonTexts, mergeTexts } from '../shared/texts';
import { namedSelectors } from '../shared/dify';
import { namesSummary } from '../shared/summary';

const configSchema = z.object({
  outputs: z.array(NamedSelector).max(100).default([]).meta({ label: 'fields.outputs', widget: NODE_WIDGETS.inputVariables }),
});
export type EndConfig = z.infer<typeof configSchema>;

/** The end of a workflow: which values the run returns, under which names. */
export const endPlugin = defineNodePlugin({
  kind: 'end',
  dify: { types: ['end'], import: (data, ctx) => ({ outputs: namedSelectors(data.outputs, ctx) }) },
  version: 1,
  category: 'basic',
  icon: { lucide: 'flag' },
  color: 'var(--color-warning, #f59e0b)',
  i18n: mergeTexts(commonTexts, {
    zh: { title: '结束', description: '工作流的终点，定义运行返回的结果', fields: { outputs: '输出变量' }, issues: { outputsEmpty: '结束节点还没有输出变量' } },
    en: { title: 'End', description: 'Where a workflow ends: the results the run returns', fields: { outputs: 'Output variables' }, issues: { outputsEmpty: 'The end node returns no variables yet' } },
  }),
  configSchema,
  // Chat modes reply with answer nodes; only a workflow returns named results.
  modes: ['workflow'],
  sourceHandles: [],
  summary: (config) => namesSummary(config.outputs.map((o) => o.name)),
  validate: (node) => [
    ...(node.config.outputs.length ? [] : [{ key: 'issues.outputsEmpty', path: ['outputs'], severity: 'warning' as const }]),
    ...checkNames(node.config.outputs, 'outputs'),
    ...checkSelectors(node.config.outputs, 'outputs'),
  ],
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default endPlugin;
