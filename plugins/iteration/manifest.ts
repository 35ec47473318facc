import { z } from 'zod';
import { arrayOf, defineNodePlugin, elementType, isArrayType, isSelector, MaybeSelector, NODE_WIDGETS, type FlowGraph, type FlowNode, type PluginIssue, type Port, type PortContext, type ValueType } from '../../src/plugin-sdk';
import { mergeTexts } from '../shared/texts';
import { dify } from './dify';

export const ITERATION_ERROR_MODES = ['terminated', 'remove-abnormal-output', 'continue-on-error'] as const;

const configSchema = z.object({
  iterator: MaybeSelector.default([]).meta({ label: 'fields.iterator', help: 'fields.iteratorHelp', widget: NODE_WIDGETS.arrayVariable, order: 0 }),
  /** An output of a node inside the iteration, collected from each round. */
  output: MaybeSelector.default([]).meta({ label: 'fields.output', help: 'fields.outputHelp', widget: NODE_WIDGETS.variable, order: 1 }),
  parallel: z.boolean().default(false).meta({ label: 'fields.parallel', order: 2 }),
  maxParallelism: z.number().int().min(1).max(10).default(10).meta({ label: 'fields.maxParallelism', order: 3, visibleWhen: { field: 'parallel', equals: true } }),
  errorMode: z.enum(ITERATION_ERROR_MODES).default('terminated').meta({ label: 'fields.errorMode', optionLabels: 'errorModes', order: 4 }),
  /** When each round yields an array, join them into one array instead of an array of arrays. */
  flattenOutput: z.boolean().default(true).meta({ label: 'fields.flattenOutput', order: 5 }),
});
export type IterationConfig = z.infer<typeof configSchema>;

/** What nodes inside see: the current element and its index. */
function innerOutputs(config: IterationConfig, ctx: PortContext): Port[] {
  const t = isSelector(config.iterator) ? ctx.typeOf(config.iterator) : undefined;
  return [
    { name: 'item', type: (t && elementType(t)) ?? 'string', labelKey: 'outputs.item' },
    { name: 'index', type: 'number', labelKey: 'outputs.index' },
  ];
}

/** The rounds' outputs as an array (arrays of arrays have no value type: they become objects unless flattened). */
function outputs(config: IterationConfig, ctx: PortContext): Port[] {
  const t: ValueType | undefined = isSelector(config.output) ? ctx.typeOf(config.output) : undefined;
  const type = !t ? 'array[string]' : isArrayType(t) ? (config.flattenOutput ? t : 'array[object]') : arrayOf(t);
  return [{ name: 'output', type, labelKey: 'outputs.output' }];
}

const isInside = (graph: FlowGraph, id: string, containerId: string) => {
  for (let n = graph.node(id), d = 0; n?.parentId && d < 64; n = graph.node(n.parentId), d++) if (n.parentId === containerId) return true;
  return false;
};

function validate(node: FlowNode<IterationConfig>, graph: FlowGraph): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [];
  if (!isSelector(c.iterator)) out.push({ key: 'issues.iteratorMissing', path: ['iterator'] });
  if (!isSelector(c.output)) out.push({ key: 'issues.outputMissing', path: ['output'] });
  else if (!isInside(graph, c.output[0], node.id)) out.push({ key: 'issues.outputNotInside', path: ['output'] });
  if (!graph.children(node.id).some((n) => n.kind !== 'iteration-start')) out.push({ key: 'issues.bodyEmpty', severity: 'warning' });
  return out;
}

/** Runs the nodes inside once per element of an array (in order or in parallel) and collects an output. */
export const iterationPlugin = defineNodePlugin({
  kind: 'iteration',
  dify,
  version: 1,
  category: 'container',
  icon: { lucide: 'repeat-2' },
  color: '#0891b2',
  i18n: mergeTexts({
    zh: {
      title: '迭代',
      description: '对数组的每个元素运行一遍内部节点，并收集结果',
      fields: {
        iterator: '输入数组',
        iteratorHelp: '要逐个处理的数组变量',
        output: '输出变量',
        outputHelp: '每一轮收集的内部节点输出',
        parallel: '并行',
        maxParallelism: '最大并行数',
        errorMode: '出错时',
        flattenOutput: '展平输出',
      },
      errorModes: { terminated: '终止', 'remove-abnormal-output': '忽略出错的结果', 'continue-on-error': '继续并保留空结果' },
      outputs: { item: '当前元素', index: '当前序号', output: '结果数组' },
      issues: {
        iteratorMissing: '请选择输入数组',
        outputMissing: '请选择输出变量',
        outputNotInside: '输出变量应来自迭代内部的节点',
        bodyEmpty: '迭代内部还没有节点',
      },
    },
    en: {
      title: 'Iteration',
      description: 'Runs the nodes inside once per element of an array and collects the results',
      fields: {
        iterator: 'Input array',
        iteratorHelp: 'The array variable to go through',
        output: 'Output variable',
        outputHelp: 'The output of an inner node collected from each round',
        parallel: 'Parallel',
        maxParallelism: 'Maximum parallel rounds',
        errorMode: 'On error',
        flattenOutput: 'Flatten the output',
      },
      errorModes: { terminated: 'Stop', 'remove-abnormal-output': 'Drop failed results', 'continue-on-error': 'Go on, keeping empty results' },
      outputs: { item: 'Current element', index: 'Current index', output: 'Results' },
      issues: {
        iteratorMissing: 'Choose the input array',
        outputMissing: 'Choose the output variable',
        outputNotInside: 'The output variable should come from a node inside the iteration',
        bodyEmpty: 'The iteration has no nodes inside yet',
      },
    },
  }),
  configSchema,
  innerOutputs,
  outputs,
  container: { startKind: 'iteration-start', defaultSize: { width: 640, height: 260 } },
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default iterationPlugin;
