import { z } from 'zod';
import { defineNodePlugin, NODE_WIDGETS, type FlowNode, type HandleSpec, type PluginIssue } from '../../src/plugin-sdk';
import { HandleId } from '../../schemas/flow';
import { checkConditions, Condition, conditionTexts, LogicalOperator } from '../shared/conditions';
import { mergeTexts } from '../shared/texts';
import { dify } from './dify';

/** The handle taken when no case holds (Dify's id, so DSL edges import unchanged). */
export const ELSE_HANDLE = 'false';
const RESERVED = new Set([ELSE_HANDLE, 'source', 'fail-branch']);

export const IfElseCase = z.object({
  /** Also the case's source handle id. */
  id: HandleId,
  logicalOperator: LogicalOperator.default('and'),
  conditions: z.array(Condition).max(50).default([]),
});
export type IfElseCase = z.infer<typeof IfElseCase>;

const configSchema = z.object({
  cases: z
    .array(IfElseCase)
    .min(1)
    .max(50)
    .default([{ id: 'true', logicalOperator: 'and', conditions: [] }])
    .meta({ label: 'fields.cases', widget: NODE_WIDGETS.conditions }),
});
export type IfElseConfig = z.infer<typeof configSchema>;

/** IF, ELIF …, ELSE: one branch per case in order, then the else branch. */
function sourceHandles(config: IfElseConfig): HandleSpec[] {
  return [...config.cases.map((c, i) => ({ id: c.id, labelKey: i === 0 ? 'handles.if' : 'handles.elif' })), { id: ELSE_HANDLE, labelKey: 'handles.else' }];
}

function validate(node: FlowNode<IfElseConfig>): PluginIssue[] {
  const out: PluginIssue[] = [];
  const seen = new Set<string>();
  node.config.cases.forEach((c, i) => {
    if (RESERVED.has(c.id) || seen.has(c.id)) out.push({ key: 'issues.caseIdTaken', params: { id: c.id }, path: ['cases', i, 'id'] });
    seen.add(c.id);
    out.push(...checkConditions(c.conditions, ['cases', i, 'conditions'], 'issues.conditionsEmpty').map((x) => ({ ...x, params: { case: i + 1, ...x.params } })));
  });
  return out;
}

/** Branches on conditions: the first case that holds takes its branch, otherwise else. */
export const ifElsePlugin = defineNodePlugin({
  kind: 'if-else',
  dify,
  version: 1,
  category: 'logic',
  icon: { lucide: 'git-branch' },
  color: '#0d9488',
  i18n: mergeTexts(conditionTexts, {
    zh: {
      title: '条件分支',
      description: '按条件把流程分成不同的分支',
      fields: { cases: '条件' },
      handles: { if: '如果', elif: '否则如果', else: '否则' },
      issues: { caseIdTaken: '分支标识 {{id}} 重复或为保留字', conditionsEmpty: '第 {{case}} 个分支还没有条件' },
    },
    en: {
      title: 'If / else',
      description: 'Splits the flow into branches by conditions',
      fields: { cases: 'Conditions' },
      handles: { if: 'IF', elif: 'ELIF', else: 'ELSE' },
      issues: { caseIdTaken: 'The branch id {{id}} is repeated or reserved', conditionsEmpty: 'Branch {{case}} has no conditions yet' },
    },
  }),
  configSchema,
  sourceHandles,
  // How many conditions the branches test (the branches themselves show as handles).
  summary: (config) => [{ labelKey: 'fields.cases', text: String(config.cases.reduce((n, c) => n + c.conditions.length, 0)) }],
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default ifElsePlugin;
