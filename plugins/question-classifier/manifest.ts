import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, Template, type FlowGraph, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { HandleId } from '../../schemas/flow';
import { checkMemoryAndVision, checkModel, memoryShape, modelField, modelTexts, usagePort, visionShape } from '../shared/model';
import { commonTexts, mergeTexts } from '../shared/texts';
import { dify } from './dify';
import { modelSummary } from '../shared/summary';

/** Widgets only this kind uses (rendered by its view.tsx). */
export const CLASSIFIER_WIDGETS = {
  /** Classes `[{ id, name }]` (ids generated). */
  classList: 'class-list',
} as const;

export const QuestionClass = z.object({
  /** Also the class's source handle id. */
  id: HandleId,
  name: z.string().max(500).default(''),
});

const configSchema = z.object({
  model: modelField(0),
  query: MaybeSelector.default([]).meta({ label: 'fields.query', widget: NODE_WIDGETS.variable, order: 1 }),
  classes: z
    .array(QuestionClass)
    .min(1)
    .max(50)
    .default([
      { id: '1', name: '' },
      { id: '2', name: '' },
    ])
    .meta({ label: 'fields.classes', help: 'fields.classesHelp', widget: CLASSIFIER_WIDGETS.classList, order: 2 }),
  instruction: Template.default('').meta({ label: 'fields.instruction', placeholder: 'fields.instructionPlaceholder', widget: NODE_WIDGETS.template, order: 3 }),
  ...memoryShape(50),
  ...visionShape(60),
});
export type QuestionClassifierConfig = z.infer<typeof configSchema>;

const OUTPUTS: Port[] = [{ name: 'class_name', type: 'string', labelKey: 'outputs.className' }, usagePort()];

function validate(node: FlowNode<QuestionClassifierConfig>, graph: FlowGraph): PluginIssue[] {
  const c = node.config;
  const out = [...checkModel(c.model)];
  if (!isSelector(c.query)) out.push({ key: 'issues.querySelectorEmpty', path: ['query'] });
  const ids = new Set<string>();
  const names = new Set<string>();
  c.classes.forEach((k, i) => {
    const name = k.name.trim();
    if (ids.has(k.id) || k.id === 'source' || k.id === 'fail-branch') out.push({ key: 'issues.classIdTaken', params: { id: k.id }, path: ['classes', i, 'id'] });
    if (!name) out.push({ key: 'issues.classNameEmpty', params: { index: i + 1 }, path: ['classes', i, 'name'] });
    else if (names.has(name)) out.push({ key: 'issues.classNameDuplicate', params: { name }, path: ['classes', i, 'name'] });
    ids.add(k.id);
    names.add(name);
  });
  out.push(...checkMemoryAndVision(c, graph));
  return out;
}

/** Lets a model sort the query into one of the classes; each class is a branch. */
export const questionClassifierPlugin = defineNodePlugin({
  kind: 'question-classifier',
  dify,
  version: 1,
  category: 'model',
  icon: { lucide: 'split' },
  color: '#16a34a',
  i18n: mergeTexts(commonTexts, modelTexts, {
    zh: {
      title: '问题分类器',
      description: '由模型判断问题属于哪一类，并走对应分支',
      fields: {
        query: '输入变量',
        classes: '分类',
        classesHelp: '每个分类是一条分支，写清楚该类问题的特征',
        instruction: '高级指令',
        instructionPlaceholder: '补充分类规则，例如如何处理模糊的问题',
      },
      outputs: { className: '分类名称' },
      issues: {
        classIdTaken: '分类标识 {{id}} 重复或为保留字',
        classNameEmpty: '第 {{index}} 个分类缺少描述',
        classNameDuplicate: '分类 {{name}} 重复',
      },
    },
    en: {
      title: 'Question classifier',
      description: 'Lets a model pick the class of a question and takes its branch',
      fields: {
        query: 'Input variable',
        classes: 'Classes',
        classesHelp: 'Each class is a branch; describe what its questions look like',
        instruction: 'Instructions',
        instructionPlaceholder: 'Extra classification rules, e.g. how to treat vague questions',
      },
      outputs: { className: 'Class name' },
      issues: {
        classIdTaken: 'The class id {{id}} is repeated or reserved',
        classNameEmpty: 'Class {{index}} has no description',
        classNameDuplicate: 'The class {{name}} appears twice',
      },
    },
  }),
  configSchema,
  outputs: OUTPUTS,
  sourceHandles: (config) => config.classes.map((k, i) => ({ id: k.id, label: k.name.trim() || `#${i + 1}` })),
  summary: (config) => modelSummary(config.model),
  validate,
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default questionClassifierPlugin;
