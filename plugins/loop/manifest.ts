import { z } from 'zod';
import { defineNodePlugin, isSelector, matchesValueType, MaybeSelector, NODE_WIDGETS, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkConditions, Condition, conditionTexts, LogicalOperator } from '../shared/conditions';
import { commonTexts, mergeTexts } from '../shared/texts';
import { checkNames, validPorts, valueTypeField, VariableNameField } from '../shared/variables';
import { dify } from './dify';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const LOOP_WIDGETS = {
  /** Loop variables `[{ name, type, source, value | selector }]`. */
  loopVariables: 'loop-variables',
} as const;

/** The most rounds a loop may be set to run. */
export const MAX_LOOP_COUNT = 1000;

/** A variable that lives across the rounds (`[loopId, name]`), changed by variable assigners inside. */
export const LoopVariable = z.object({
  name: VariableNameField.default(''),
  type: valueTypeField(),
  /** The first value: a constant, or taken from a variable before the loop starts. */
  source: z.enum(['constant', 'variable']).default('constant'),
  value: z.unknown().optional(),
  selector: MaybeSelector.default([]),
});
export type LoopVariable = z.infer<typeof LoopVariable>;

const configSchema = z.object({
  loopVariables: z.array(LoopVariable).max(50).default([]).meta({ label: 'fields.loopVariables', widget: LOOP_WIDGETS.loopVariables, order: 0 }),
  breakConditions: z
    .array(Condition)
    .max(50)
    .default([])
    .meta({ label: 'fields.breakConditions', help: 'fields.breakConditionsHelp', widget: NODE_WIDGETS.conditions, order: 1 }),
  logicalOperator: LogicalOperator.default('and').meta({ label: 'fields.logicalOperator', optionLabels: 'conditions.logicalOperators', order: 2 }),
  maxCount: z.number().int().min(1).max(MAX_LOOP_COUNT).default(10).meta({ label: 'fields.maxCount', order: 3 }),
});
export type LoopConfig = z.infer<typeof configSchema>;

const variablePorts = (config: LoopConfig): Port[] => validPorts(config.loopVariables, (v) => ({ type: v.type }));

function validate(node: FlowNode<LoopConfig>): PluginIssue[] {
  const c = node.config;
  const out = [...checkNames(c.loopVariables, 'loopVariables')];
  c.loopVariables.forEach((v, i) => {
    const path = ['loopVariables', i];
    if (v.name === 'index') out.push({ key: 'issues.nameReserved', params: { name: v.name }, path: [...path, 'name'] });
    if (v.source === 'variable' && !isSelector(v.selector)) out.push({ key: 'issues.selectorEmpty', params: { name: v.name || `#${i + 1}` }, path: [...path, 'selector'] });
    if (v.source === 'constant' && v.value !== undefined && !matchesValueType(v.value, v.type)) {
      out.push({ key: 'issues.valueType', params: { name: v.name, type: v.type }, path: [...path, 'value'] });
    }
  });
  if (!c.breakConditions.length) out.push({ key: 'issues.noBreakCondition', params: { count: c.maxCount }, path: ['breakConditions'], severity: 'warning' });
  out.push(...checkConditions(c.breakConditions, ['breakConditions']));
  return out;
}

/**
 * Runs the nodes inside round after round until the break conditions hold (checked after each
 * round) or `maxCount` rounds have run. Nodes inside see the loop variables and the round's index.
 */
export const loopPlugin = defineNodePlugin({
  kind: 'loop',
  dify,
  version: 1,
  category: 'container',
  icon: { lucide: 'refresh-cw' },
  color: '#0891b2',
  i18n: mergeTexts(commonTexts, conditionTexts, {
    zh: {
      title: '循环',
      description: '重复运行内部节点，直到满足退出条件',
      fields: {
        loopVariables: '循环变量',
        breakConditions: '退出条件',
        breakConditionsHelp: '每轮结束后检查，满足即退出循环',
        logicalOperator: '条件关系',
        maxCount: '最大循环次数',
      },
      outputs: { index: '当前轮次' },
      issues: {
        nameReserved: '变量名 {{name}} 为保留名',
        valueType: '循环变量 {{name}} 的初始值应为 {{type}}',
        noBreakCondition: '没有退出条件，循环将运行 {{count}} 次',
      },
    },
    en: {
      title: 'Loop',
      description: 'Runs the nodes inside again and again until the break conditions hold',
      fields: {
        loopVariables: 'Loop variables',
        breakConditions: 'Break conditions',
        breakConditionsHelp: 'Checked after each round; the loop ends when they hold',
        logicalOperator: 'Conditions must',
        maxCount: 'Maximum rounds',
      },
      outputs: { index: 'Round' },
      issues: {
        nameReserved: 'The name {{name}} is reserved',
        valueType: 'The first value of the loop variable {{name}} should be of type {{type}}',
        noBreakCondition: 'There is no break condition, so the loop runs {{count}} times',
      },
    },
  }),
  configSchema,
  innerOutputs: (config) => [...variablePorts(config), { name: 'index', type: 'number', labelKey: 'outputs.index' }],
  outputs: variablePorts,
  container: { startKind: 'loop-start', breakCondition: true, defaultSize: { width: 640, height: 260 } },
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default loopPlugin;
