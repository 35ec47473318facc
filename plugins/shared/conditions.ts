import { z } from 'zod';
import { isSelector, MaybeSelector, Template, type PluginI18n, type PluginIssue } from '../../src/plugin-sdk';

/**
 * Conditions of if-else cases and loop break conditions: `variable <operator> value`. The operator
 * strings are Dify's, so Dify DSL files import as they are.
 */
export const COMPARISON_OPERATORS = [
  'contains',
  'not contains',
  'start with',
  'end with',
  'is',
  'is not',
  'empty',
  'not empty',
  '=',
  '≠',
  '>',
  '<',
  '≥',
  '≤',
  'in',
  'not in',
  'all of',
  'null',
  'not null',
  'exists',
  'not exists',
] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];

/** Operators that take no value. */
export const UNARY_OPERATORS: readonly ComparisonOperator[] = ['empty', 'not empty', 'null', 'not null', 'exists', 'not exists'];
/** Operators that compare numbers. */
export const NUMBER_OPERATORS: readonly ComparisonOperator[] = ['=', '≠', '>', '<', '≥', '≤'];

/** i18n keys of operators (`conditions.operators.<index>`: the symbols make poor keys). */
export const operatorLabels: Record<string, string> = Object.fromEntries(COMPARISON_OPERATORS.map((op, i) => [op, `conditions.operators.o${i}`]));

export const Condition = z.object({
  id: z.string().max(64).default(''),
  selector: MaybeSelector.default([]),
  operator: z.enum(COMPARISON_OPERATORS).default('contains'),
  /** Text or number as text; may hold `{{#…#}}` references. Ignored by unary operators. */
  value: Template.default(''),
});
export type Condition = z.infer<typeof Condition>;

export const LogicalOperator = z.enum(['and', 'or']);

/** Issues of one list of conditions at `base` (e.g. `['cases', 0, 'conditions']`). */
export function checkConditions(conditions: readonly Condition[], base: (string | number)[], emptyKey?: string): PluginIssue[] {
  const out: PluginIssue[] = [];
  if (!conditions.length && emptyKey) out.push({ key: emptyKey, path: base });
  conditions.forEach((c, i) => {
    const at = [...base, i];
    if (!isSelector(c.selector)) out.push({ key: 'conditions.issues.variableMissing', params: { index: i + 1 }, path: [...at, 'selector'] });
    if (UNARY_OPERATORS.includes(c.operator)) return;
    if (!c.value.trim()) out.push({ key: 'conditions.issues.valueMissing', params: { index: i + 1 }, path: [...at, 'value'] });
    else if (NUMBER_OPERATORS.includes(c.operator) && !c.value.includes('{{#') && !Number.isFinite(Number(c.value))) {
      out.push({ key: 'conditions.issues.valueNotNumber', params: { index: i + 1 }, path: [...at, 'value'] });
    }
  });
  return out;
}

const zhOps = ['包含', '不包含', '开始是', '结束是', '是', '不是', '为空', '不为空', '=', '≠', '>', '<', '≥', '≤', '在列表中', '不在列表中', '全部包含', '为 null', '不为 null', '存在', '不存在'];
const enOps = ['contains', 'does not contain', 'starts with', 'ends with', 'is', 'is not', 'is empty', 'is not empty', '=', '≠', '>', '<', '≥', '≤', 'is in', 'is not in', 'has all of', 'is null', 'is not null', 'exists', 'does not exist'];
const ops = (names: string[]) => Object.fromEntries(names.map((n, i) => [`o${i}`, n]));

export const conditionTexts = {
  zh: {
    conditions: {
      logicalOperators: { and: '且', or: '或' },
      operators: ops(zhOps),
      issues: {
        variableMissing: '第 {{index}} 个条件未选择变量',
        valueMissing: '第 {{index}} 个条件缺少比较值',
        valueNotNumber: '第 {{index}} 个条件的比较值应为数字',
      },
    },
  },
  en: {
    conditions: {
      logicalOperators: { and: 'AND', or: 'OR' },
      operators: ops(enOps),
      issues: {
        variableMissing: 'Condition {{index}} has no variable',
        valueMissing: 'Condition {{index}} has no value to compare with',
        valueNotNumber: 'Condition {{index}} should compare with a number',
      },
    },
  },
} satisfies PluginI18n;
