import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, ValueType, type FlowNode, type PluginIssue, type Port, type PortContext } from '../../src/plugin-sdk';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, validPorts, VariableNameField } from '../shared/variables';
import { dify } from './dify';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const AGGREGATOR_WIDGETS = {
  /** Groups `[{ name, outputType, selectors }]`. */
  variableGroups: 'variable-groups',
  /** A list of selectors. */
  variableList: 'variable-list',
} as const;

/** `auto`: the type of the first chosen variable. */
export const AggregatorType = z.enum(['auto', ...ValueType.options]);

export const AggregatorGroup = z.object({
  name: VariableNameField.default(''),
  outputType: AggregatorType.default('auto'),
  selectors: z.array(MaybeSelector).max(50).default([]),
});
export type AggregatorGroup = z.infer<typeof AggregatorGroup>;

const configSchema = z.object({
  outputType: AggregatorType.default('auto').meta({ label: 'fields.outputType', optionLabels: 'types', order: 0, visibleWhen: { field: 'groupsEnabled', equals: false } }),
  selectors: z
    .array(MaybeSelector)
    .max(50)
    .default([])
    .meta({ label: 'fields.selectors', help: 'fields.selectorsHelp', widget: AGGREGATOR_WIDGETS.variableList, order: 1, visibleWhen: { field: 'groupsEnabled', equals: false } }),
  groupsEnabled: z.boolean().default(false).meta({ label: 'fields.groupsEnabled', order: 2 }),
  groups: z.array(AggregatorGroup).max(50).default([]).meta({ label: 'fields.groups', widget: AGGREGATOR_WIDGETS.variableGroups, order: 3, visibleWhen: { field: 'groupsEnabled', equals: true } }),
});
export type VariableAggregatorConfig = z.infer<typeof configSchema>;

function resolveType(type: z.infer<typeof AggregatorType>, selectors: readonly string[][], ctx: PortContext): ValueType {
  if (type !== 'auto') return type;
  const first = selectors.find((s) => isSelector(s));
  return (first && ctx.typeOf(first)) || 'string';
}

/** `output`, or one object per group holding its `output`. */
function outputs(config: VariableAggregatorConfig, ctx: PortContext): Port[] {
  if (!config.groupsEnabled) return [{ name: 'output', type: resolveType(config.outputType, config.selectors, ctx), labelKey: 'outputs.output' }];
  return validPorts(config.groups, (g) => ({ type: 'object', children: [{ name: 'output', type: resolveType(g.outputType, g.selectors, ctx) }] }));
}

function checkList(selectors: readonly string[][], base: (string | number)[]): PluginIssue[] {
  const out: PluginIssue[] = [];
  if (!selectors.some((s) => isSelector(s))) out.push({ key: 'issues.selectorsEmpty', path: base });
  const seen = new Set<string>();
  selectors.forEach((s, i) => {
    const key = s.join('.');
    if (key && seen.has(key)) out.push({ key: 'issues.selectorDuplicate', params: { reference: key }, path: [...base, i], severity: 'warning' });
    seen.add(key);
  });
  return out;
}

function validate(node: FlowNode<VariableAggregatorConfig>): PluginIssue[] {
  const c = node.config;
  if (!c.groupsEnabled) return checkList(c.selectors, ['selectors']);
  const out = [...checkNames(c.groups, 'groups')];
  if (!c.groups.length) out.push({ key: 'issues.groupsEmpty', path: ['groups'] });
  c.groups.forEach((g, i) => out.push(...checkList(g.selectors, ['groups', i, 'selectors'])));
  return out;
}

/**
 * Joins branches: outputs the first of its variables that has a value (the one whose branch ran).
 * Its output type is chosen or taken from the first variable; the type check against every
 * variable is the variable picker's, which knows the types.
 */
export const variableAggregatorPlugin = defineNodePlugin({
  kind: 'variable-aggregator',
  dify,
  version: 1,
  category: 'transform',
  icon: { lucide: 'combine' },
  color: '#0d9488',
  i18n: mergeTexts(commonTexts, {
    zh: {
      title: '变量聚合器',
      description: '把多个分支的变量合成一个，供后续节点使用',
      fields: {
        outputType: '输出类型',
        selectors: '变量',
        selectorsHelp: '取第一个有值的变量，通常每个分支一个',
        groupsEnabled: '分组',
        groups: '分组',
      },
      types: { auto: '自动（第一个变量的类型）', ...commonTexts.zh.valueTypes },
      outputs: { output: '聚合结果' },
      issues: { selectorsEmpty: '请添加要聚合的变量', selectorDuplicate: '变量 {{reference}} 重复', groupsEmpty: '已开启分组，请添加分组' },
    },
    en: {
      title: 'Variable aggregator',
      description: 'Joins the variables of several branches into one for later nodes',
      fields: {
        outputType: 'Output type',
        selectors: 'Variables',
        selectorsHelp: 'The first variable that has a value wins; usually one per branch',
        groupsEnabled: 'Groups',
        groups: 'Groups',
      },
      types: { auto: 'Automatic (type of the first variable)', ...commonTexts.en.valueTypes },
      outputs: { output: 'Aggregated value' },
      issues: { selectorsEmpty: 'Add the variables to aggregate', selectorDuplicate: 'The variable {{reference}} appears twice', groupsEmpty: 'Groups are on: add a group' },
    },
  }),
  configSchema,
  outputs,
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default variableAggregatorPlugin;
