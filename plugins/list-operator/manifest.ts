import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, Template, type FlowNode, type PluginIssue, type PortContext, type ValueType } from '../../src/plugin-sdk';
import { FILE_KEYS, FileCondition, UNARY_OPERATORS, conditionTexts } from '../shared/conditions';
import { mergeTexts } from '../shared/texts';
import { dify } from './dify';

/** The widgets of this kind's view (view.tsx): the filter rows and the file property to sort by. */
export const LIST_OPERATOR_WIDGETS = { filters: 'list-operator.filters', fileKey: 'list-operator.file-key' } as const;

/** The properties of a file that filters and sorting can use (shared with the if-else's file tests). */
export { FILE_KEYS };

/** One filter on the list's items: the item itself (`key` empty) or one of a file's properties. */
export const ListFilter = FileCondition;
export type ListFilter = z.infer<typeof ListFilter>;

const configSchema = z.object({
  /** The array to work on. */
  variable: MaybeSelector.default([]).meta({ label: 'fields.variable', widget: NODE_WIDGETS.variable, order: 0 }),
  filterEnabled: z.boolean().default(false).meta({ label: 'fields.filterEnabled', order: 10 }),
  filters: z.array(ListFilter).max(20).default([]).meta({ label: 'fields.filters', widget: LIST_OPERATOR_WIDGETS.filters, order: 11, visibleWhen: { field: 'filterEnabled', equals: true } }),
  extractEnabled: z.boolean().default(false).meta({ label: 'fields.extractEnabled', order: 20 }),
  /** 1-based position of the one item kept (Dify's `serial`); may be a `{{#…#}}` reference. */
  extractIndex: Template.default('1').meta({ label: 'fields.extractIndex', order: 21, visibleWhen: { field: 'extractEnabled', equals: true } }),
  sortEnabled: z.boolean().default(false).meta({ label: 'fields.sortEnabled', order: 30 }),
  /** '' sorts by the item; for files one of their properties. */
  sortKey: z.string().max(64).default('').meta({ label: 'fields.sortKey', widget: LIST_OPERATOR_WIDGETS.fileKey, order: 31, visibleWhen: { field: 'sortEnabled', equals: true } }),
  sortOrder: z.enum(['asc', 'desc']).default('asc').meta({ label: 'fields.sortOrder', order: 32, visibleWhen: { field: 'sortEnabled', equals: true } }),
  limitEnabled: z.boolean().default(false).meta({ label: 'fields.limitEnabled', order: 40 }),
  /** The first this many items are kept. */
  limit: z.number().int().min(1).max(10_000).default(10).meta({ label: 'fields.limit', order: 41, visibleWhen: { field: 'limitEnabled', equals: true } }),
});
export type ListOperatorConfig = z.infer<typeof configSchema>;

/** The array's type when known (an array of text otherwise), and its item type. */
function listTypes(config: ListOperatorConfig, ctx: PortContext): [ValueType, ValueType] {
  const t = isSelector(config.variable) ? ctx.typeOf(config.variable) : undefined;
  if (t?.startsWith('array[')) return [t, t.slice(6, -1) as ValueType];
  return ['array[string]', 'string'];
}

function outputs(config: ListOperatorConfig, ctx: PortContext) {
  const [type, item] = listTypes(config, ctx);
  return [
    { name: 'result', type, labelKey: 'outputs.result' },
    { name: 'first_record', type: item, labelKey: 'outputs.firstRecord' },
    { name: 'last_record', type: item, labelKey: 'outputs.lastRecord' },
  ];
}

function validate(node: FlowNode<ListOperatorConfig>): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [];
  if (!isSelector(c.variable)) out.push({ key: 'issues.variableMissing', path: ['variable'] });
  if (c.filterEnabled) {
    if (!c.filters.length) out.push({ key: 'issues.filtersEmpty', path: ['filters'] });
    c.filters.forEach((f, i) => {
      if (!UNARY_OPERATORS.includes(f.operator) && !f.value.trim()) out.push({ key: 'conditions.issues.valueMissing', params: { index: i + 1 }, path: ['filters', i, 'value'] });
    });
  }
  if (c.extractEnabled && !c.extractIndex.trim()) out.push({ key: 'issues.extractIndexEmpty', path: ['extractIndex'] });
  return out;
}

/** Filters, sorts, cuts and picks from an array (Dify's list operator). */
export const listOperatorPlugin = defineNodePlugin({
  kind: 'list-operator',
  dify,
  version: 1,
  category: 'transform',
  icon: { lucide: 'list-filter' },
  color: '#0891b2',
  i18n: mergeTexts(conditionTexts, {
    zh: {
      title: '列表操作',
      description: '对数组做过滤、排序、截取或取出某一项',
      fields: {
        variable: '输入数组',
        filterEnabled: '过滤',
        filters: '过滤条件（全部满足）',
        extractEnabled: '取出第 N 项',
        extractIndex: '第几项（从 1 开始）',
        sortEnabled: '排序',
        sortKey: '排序依据',
        sortOrder: '顺序',
        limitEnabled: '只取前 N 项',
        limit: 'N',
      },
      outputs: { result: '结果数组', firstRecord: '第一项', lastRecord: '最后一项' },
      issues: { variableMissing: '请选择要处理的数组', filtersEmpty: '已开启过滤，但没有条件', extractIndexEmpty: '请填写要取出第几项' },
    },
    en: {
      title: 'List operator',
      description: 'Filters, sorts, limits or picks one item of an array',
      fields: {
        variable: 'Array',
        filterEnabled: 'Filter',
        filters: 'Filter conditions (all must hold)',
        extractEnabled: 'Pick the Nth item',
        extractIndex: 'Item number (from 1)',
        sortEnabled: 'Sort',
        sortKey: 'Sort by',
        sortOrder: 'Order',
        limitEnabled: 'Keep the first N',
        limit: 'N',
      },
      outputs: { result: 'Result', firstRecord: 'First item', lastRecord: 'Last item' },
      issues: { variableMissing: 'Choose the array to work on', filtersEmpty: 'Filtering is on but has no conditions', extractIndexEmpty: 'Say which item to pick' },
    },
  }),
  configSchema,
  outputs,
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default listOperatorPlugin;
