import { z } from 'zod';
import { FILE_LIST_TEST_OPERATORS, FILE_PROPERTIES, isSelector, MaybeSelector, Template, type PluginI18n, type PluginIssue } from '../../src/plugin-sdk';

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

export const LogicalOperator = z.enum(['and', 'or']);

/** The properties of a file that conditions, filters and sorting can use (read by `fileProperty`). */
export const FILE_KEYS = FILE_PROPERTIES;

/** A test on one property of a file (a list operator's filter, a file-list condition's sub-test). */
export const FileCondition = z.object({
  id: z.string().max(64).optional(),
  /** '' compares the item itself (a list operator on a list that is not files); else one of FILE_KEYS. */
  key: z.string().max(64).default(''),
  operator: z.enum(COMPARISON_OPERATORS).default('contains'),
  /** Text or number as text; may hold `{{#…#}}` references. Ignored by unary operators. */
  value: Template.default(''),
});
export type FileCondition = z.infer<typeof FileCondition>;

/** The operators of a file-list condition that test its files (Dify's sub-variable condition). */
export const FILE_LIST_OPERATORS = FILE_LIST_TEST_OPERATORS as readonly ComparisonOperator[];

export const Condition = z.object({
  id: z.string().max(64).default(''),
  selector: MaybeSelector.default([]),
  operator: z.enum(COMPARISON_OPERATORS).default('contains'),
  /** Text or number as text; may hold `{{#…#}}` references. Ignored by unary operators. */
  value: Template.default(''),
  /**
   * On a list of files with "contains" / "not contains": the list contains (or not) a file for which
   * these tests hold (Dify's `sub_variable_condition`); `value` is then unused.
   */
  fileConditions: z.object({ logicalOperator: LogicalOperator.default('and'), conditions: z.array(FileCondition).max(20).default([]) }).optional(),
});
export type Condition = z.infer<typeof Condition>;

/** Whether a condition tests the files of its list rather than comparing with its value. */
export const testsFiles = (c: Pick<Condition, 'operator' | 'fileConditions'>) => !!c.fileConditions?.conditions.length && FILE_LIST_OPERATORS.includes(c.operator);

/** Issues of one list of conditions at `base` (e.g. `['cases', 0, 'conditions']`). */
export function checkConditions(conditions: readonly Condition[], base: (string | number)[], emptyKey?: string): PluginIssue[] {
  const out: PluginIssue[] = [];
  if (!conditions.length && emptyKey) out.push({ key: emptyKey, path: base });
  conditions.forEach((c, i) => {
    const at = [...base, i];
    if (!isSelector(c.selector)) out.push({ key: 'conditions.issues.variableMissing', params: { index: i + 1 }, path: [...at, 'selector'] });
    if (UNARY_OPERATORS.includes(c.operator)) return;
    if (testsFiles(c)) {
      c.fileConditions!.conditions.forEach((f, j) => {
        if (!UNARY_OPERATORS.includes(f.operator) && !f.value.trim()) out.push({ key: 'conditions.issues.fileValueMissing', params: { index: i + 1, test: j + 1 }, path: [...at, 'fileConditions', 'conditions', j, 'value'] });
      });
      return;
    }
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
        fileValueMissing: '第 {{index}} 个条件的第 {{test}} 项文件检查缺少比较值',
      },
      files: '其中有文件满足',
      fileTests: '第 {{index}} 个条件的文件检查',
      addFileTest: '添加文件检查',
      fileLogic: '第 {{index}} 个条件的文件检查如何组合',
      fileOperator: '第 {{index}} 项文件检查的运算符',
      fileValue: '第 {{index}} 项文件检查的比较值',
    },
    fileKeys: { item: '项本身', name: '文件名', type: '类型', extension: '扩展名', mime_type: 'MIME 类型', size: '大小', transfer_method: '上传方式', url: 'URL' },
    rows: { fileKey: '文件属性 {{index}}' },
  },
  en: {
    conditions: {
      logicalOperators: { and: 'AND', or: 'OR' },
      operators: ops(enOps),
      issues: {
        variableMissing: 'Condition {{index}} has no variable',
        valueMissing: 'Condition {{index}} has no value to compare with',
        valueNotNumber: 'Condition {{index}} should compare with a number',
        fileValueMissing: 'Test {{test}} on the files of condition {{index}} has no value to compare with',
      },
      files: 'with a file where',
      fileTests: 'File tests of condition {{index}}',
      addFileTest: 'Add a file test',
      fileLogic: 'How the file tests of condition {{index}} combine',
      fileOperator: 'Operator of file test {{index}}',
      fileValue: 'Value of file test {{index}}',
    },
    fileKeys: { item: 'The item itself', name: 'Name', type: 'Type', extension: 'Extension', mime_type: 'MIME type', size: 'Size', transfer_method: 'Transfer method', url: 'URL' },
    rows: { fileKey: 'File property {{index}}' },
  },
} satisfies PluginI18n;
