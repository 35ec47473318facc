import { z } from 'zod';
import { defineNodePlugin, isArrayType, isSelector, MaybeSelector, selectorNamespace, type FlowGraph, type FlowNode, type PluginIssue, type ValueType } from '../../src/plugin-sdk';
import { mergeTexts } from '../shared/texts';
import { dify } from './dify';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const ASSIGNER_WIDGETS = {
  /** Assignment rows: target, operation, value. */
  assignments: 'assignments',
} as const;

/** Dify's operation names (DSL files import as they are). */
export const ASSIGN_OPERATIONS = ['over-write', 'clear', 'set', 'append', 'extend', 'remove-first', 'remove-last', '+=', '-=', '*=', '/='] as const;
export type AssignOperation = (typeof ASSIGN_OPERATIONS)[number];

/** Operations that take no value. */
export const VALUELESS_OPERATIONS: readonly AssignOperation[] = ['clear', 'remove-first', 'remove-last'];
const NUMBER_OPERATIONS: readonly AssignOperation[] = ['+=', '-=', '*=', '/='];
const ARRAY_OPERATIONS: readonly AssignOperation[] = ['append', 'extend', 'remove-first', 'remove-last'];

export const Assignment = z.object({
  /** A conversation variable, or a loop variable of an enclosing loop (`[loopId, name]`). */
  target: MaybeSelector.default([]),
  operation: z.enum(ASSIGN_OPERATIONS).default('over-write'),
  /** Where the new value comes from: another variable, or the constant `value`. */
  source: z.enum(['variable', 'constant']).default('variable'),
  selector: MaybeSelector.default([]),
  value: z.unknown().optional(),
});
export type Assignment = z.infer<typeof Assignment>;

const configSchema = z.object({
  assignments: z.array(Assignment).max(50).default([]).meta({ label: 'fields.assignments', widget: ASSIGNER_WIDGETS.assignments }),
});
export type VariableAssignerConfig = z.infer<typeof configSchema>;

/** The type of a target, when the document says it (conversation variables). */
function targetType(target: readonly string[], graph: FlowGraph): ValueType | undefined {
  if (selectorNamespace(target) !== 'conversation') return undefined;
  return graph.document.variables.conversation.find((v) => v.name === target[1])?.type;
}

/** Whether `containerId` is a loop that holds the node (at any depth). */
function insideLoop(graph: FlowGraph, node: FlowNode, containerId: string): boolean {
  for (let p = node.parentId ? graph.node(node.parentId) : undefined, d = 0; p && d < 64; p = p.parentId ? graph.node(p.parentId) : undefined, d++) {
    if (p.id === containerId) return p.kind === 'loop';
  }
  return false;
}

function validate(node: FlowNode<VariableAssignerConfig>, graph: FlowGraph): PluginIssue[] {
  const out: PluginIssue[] = [];
  if (!node.config.assignments.length) out.push({ key: 'issues.assignmentsEmpty', path: ['assignments'] });
  node.config.assignments.forEach((a, i) => {
    const at = ['assignments', i];
    const index = i + 1;
    if (!isSelector(a.target)) {
      out.push({ key: 'issues.targetMissing', params: { index }, path: [...at, 'target'] });
      return;
    }
    const ns = selectorNamespace(a.target);
    if (ns !== 'conversation' && !(ns === 'node' && insideLoop(graph, node, a.target[0]))) {
      out.push({ key: 'issues.targetNotWritable', params: { reference: a.target.join('.') }, path: [...at, 'target'] });
    }
    const type = targetType(a.target, graph);
    if (type && NUMBER_OPERATIONS.includes(a.operation) && type !== 'number') {
      out.push({ key: 'issues.operationNeedsNumber', params: { index }, path: [...at, 'operation'] });
    }
    if (type && ARRAY_OPERATIONS.includes(a.operation) && !isArrayType(type)) {
      out.push({ key: 'issues.operationNeedsArray', params: { index }, path: [...at, 'operation'] });
    }
    if (VALUELESS_OPERATIONS.includes(a.operation)) return;
    if (a.source === 'variable' && !isSelector(a.selector)) out.push({ key: 'issues.valueMissing', params: { index }, path: [...at, 'selector'] });
    if (a.source === 'constant' && (a.value === undefined || a.value === null || a.value === '')) {
      out.push({ key: 'issues.valueMissing', params: { index }, path: [...at, 'value'] });
    }
  });
  return out;
}

/** Writes conversation variables (or the variables of the loop it sits in). */
export const variableAssignerPlugin = defineNodePlugin({
  kind: 'variable-assigner',
  dify,
  version: 1,
  category: 'transform',
  icon: { lucide: 'pencil-line' },
  color: '#0d9488',
  i18n: mergeTexts({
    zh: {
      title: '变量赋值',
      description: '修改会话变量或所在循环的循环变量',
      fields: { assignments: '赋值' },
      operations: {
        'over-write': '覆盖',
        clear: '清空',
        set: '设置',
        append: '追加',
        extend: '扩展',
        'remove-first': '移除首项',
        'remove-last': '移除末项',
        '+=': '+=',
        '-=': '-=',
        '*=': '*=',
        '/=': '/=',
      },
      sources: { variable: '变量', constant: '常量' },
      issues: {
        assignmentsEmpty: '请添加赋值',
        targetMissing: '第 {{index}} 项未选择要修改的变量',
        targetNotWritable: '{{reference}} 不能被修改（只能修改会话变量或所在循环的循环变量）',
        operationNeedsNumber: '第 {{index}} 项的运算只适用于数字变量',
        operationNeedsArray: '第 {{index}} 项的操作只适用于数组变量',
        valueMissing: '第 {{index}} 项缺少新的值',
      },
    },
    en: {
      title: 'Variable assigner',
      description: 'Changes conversation variables, or the variables of its loop',
      fields: { assignments: 'Assignments' },
      operations: {
        'over-write': 'Overwrite',
        clear: 'Clear',
        set: 'Set',
        append: 'Append',
        extend: 'Extend',
        'remove-first': 'Remove first',
        'remove-last': 'Remove last',
        '+=': '+=',
        '-=': '-=',
        '*=': '*=',
        '/=': '/=',
      },
      sources: { variable: 'Variable', constant: 'Constant' },
      issues: {
        assignmentsEmpty: 'Add an assignment',
        targetMissing: 'Assignment {{index}} has no variable to change',
        targetNotWritable: '{{reference}} cannot be changed (only conversation variables and the variables of the enclosing loop)',
        operationNeedsNumber: 'The operation of assignment {{index}} works on numbers only',
        operationNeedsArray: 'The operation of assignment {{index}} works on arrays only',
        valueMissing: 'Assignment {{index}} has no new value',
      },
    },
  }),
  configSchema,
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default variableAssignerPlugin;
