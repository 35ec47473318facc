import { z } from 'zod';
import { defineNodePlugin, isSelector, MaybeSelector, NODE_WIDGETS, type FlowNode, type PluginIssue, type Port } from '../../src/plugin-sdk';
import { checkRunSettings, runSettingsShape, runSettingsTexts, withErrorOutputs, withFailBranch } from '../shared/run-settings';
import { commonTexts, mergeTexts } from '../shared/texts';
import { KNOWLEDGE_TOP_K_MAX, KnowledgeQuery, MAX_GRAPH_MIN_RELEVANCE, MetadataCondition } from '../../schemas/knowledge';
import { dify } from './dify';

const on = (field: string, value: unknown = true) => ({ field, equals: value });

const configSchema = z.object({
  query: MaybeSelector.default([]).meta({ label: 'fields.query', widget: NODE_WIDGETS.variable, order: 0 }),
  datasetIds: z.array(z.string().max(64)).max(50).default([]).meta({ label: 'fields.datasets', widget: NODE_WIDGETS.knowledgeBases, order: 1 }),
  // The query's own fields (schemas/knowledge.ts), so the node cannot ask what retrieval refuses.
  retrievalMode: KnowledgeQuery.shape.mode.meta({ label: 'fields.retrievalMode', optionLabels: 'retrievalModes', order: 2 }),
  /** Hybrid search: weight of the vector score (the keyword score gets the rest). */
  vectorWeight: z.number().min(0).max(1).default(0.7).meta({ label: 'fields.vectorWeight', order: 3, visibleWhen: on('retrievalMode', 'hybrid') }),
  topK: z.number().int().min(1).max(KNOWLEDGE_TOP_K_MAX).default(4).meta({ label: 'fields.topK', order: 4 }),
  scoreThresholdEnabled: z.boolean().default(false).meta({ label: 'fields.scoreThresholdEnabled', order: 5 }),
  scoreThreshold: z.number().min(0).max(1).default(0.5).meta({ label: 'fields.scoreThreshold', order: 6, visibleWhen: on('scoreThresholdEnabled') }),
  rerankEnabled: z.boolean().default(false).meta({ label: 'fields.rerankEnabled', order: 7 }),
  rerankProvider: z.string().max(100).default('').meta({ label: 'fields.rerankProvider', order: 8, visibleWhen: on('rerankEnabled') }),
  rerankModel: z.string().max(200).default('').meta({ label: 'fields.rerankModel', order: 9, visibleWhen: on('rerankEnabled') }),
  metadataFilterMode: z.enum(['disabled', 'manual']).default('disabled').meta({ label: 'fields.metadataFilter', optionLabels: 'metadataFilterModes', order: 10 }),
  metadataLogicalOperator: z
    .enum(['and', 'or'])
    .default('and')
    .meta({ label: 'fields.metadataLogicalOperator', optionLabels: 'logicalOperators', order: 11, visibleWhen: on('metadataFilterMode', 'manual') }),
  metadataConditions: z
    .array(MetadataCondition)
    .max(50)
    .default([])
    .meta({ label: 'fields.metadataConditions', widget: NODE_WIDGETS.conditions, order: 12, visibleWhen: on('metadataFilterMode', 'manual') }),
  graphNeighbours: z.boolean().default(false).meta({ label: 'fields.graphNeighbours', help: 'fields.graphNeighboursHelp', order: 13 }),
  graphMinRelevance: z
    .number()
    .min(0)
    .max(MAX_GRAPH_MIN_RELEVANCE)
    .default(0.3)
    .meta({ label: 'fields.graphMinRelevance', order: 14, visibleWhen: on('graphNeighbours') }),
  ...runSettingsShape({ timeout: 60 }),
});
export type KnowledgeRetrievalConfig = z.infer<typeof configSchema>;

const OUTPUTS: Port[] = [
  {
    name: 'result',
    type: 'array[object]',
    labelKey: 'outputs.result',
    children: [
      { name: 'content', type: 'string' },
      { name: 'title', type: 'string' },
      { name: 'score', type: 'number' },
      { name: 'dataset_id', type: 'string' },
      { name: 'document_id', type: 'string' },
      { name: 'segment_id', type: 'string' },
      { name: 'source', type: 'string' },
      { name: 'metadata', type: 'object' },
    ],
  },
];

function validate(node: FlowNode<KnowledgeRetrievalConfig>): PluginIssue[] {
  const c = node.config;
  const out: PluginIssue[] = [];
  if (!isSelector(c.query)) out.push({ key: 'issues.querySelectorEmpty', path: ['query'] });
  if (!c.datasetIds.length) out.push({ key: 'issues.datasetsEmpty', path: ['datasetIds'] });
  if (c.rerankEnabled && !(c.rerankProvider && c.rerankModel)) out.push({ key: 'issues.rerankModelMissing', path: ['rerankModel'] });
  if (c.metadataFilterMode === 'manual') {
    if (!c.metadataConditions.length) out.push({ key: 'issues.metadataConditionsEmpty', path: ['metadataConditions'] });
    c.metadataConditions.forEach((m, i) => {
      if (!m.name.trim()) out.push({ key: 'issues.metadataNameMissing', params: { index: i + 1 }, path: ['metadataConditions', i, 'name'] });
    });
  }
  out.push(...checkRunSettings(node, OUTPUTS));
  return out;
}

/** Searches the workspace's knowledge bases for passages that answer a query. */
export const knowledgeRetrievalPlugin = defineNodePlugin({
  kind: 'knowledge-retrieval',
  dify,
  version: 2,
  category: 'knowledge',
  icon: { lucide: 'book-open-text' },
  color: '#16a34a',
  i18n: mergeTexts(commonTexts, runSettingsTexts, {
    zh: {
      title: '知识检索',
      description: '从知识库中检索与问题相关的内容',
      fields: {
        query: '查询变量',
        datasets: '知识库',
        retrievalMode: '检索方式',
        vectorWeight: '语义权重',
        topK: '返回条数 (Top K)',
        scoreThresholdEnabled: '相关度阈值',
        scoreThreshold: '最低相关度',
        rerankEnabled: '重排序',
        rerankProvider: '重排序模型供应商',
        rerankModel: '重排序模型',
        metadataFilter: '元数据过滤',
        metadataLogicalOperator: '条件关系',
        metadataConditions: '过滤条件',
        graphNeighbours: '知识图谱扩展',
        graphNeighboursHelp: '同时带上知识图谱中相邻的内容',
        graphMinRelevance: '邻居最低相关度',
      },
      retrievalModes: { vector: '语义检索', full_text: '全文检索', hybrid: '混合检索' },
      metadataFilterModes: { disabled: '不过滤', manual: '手动设置条件' },
      logicalOperators: { and: '全部满足', or: '任一满足' },
      outputs: { result: '检索结果' },
      issues: {
        datasetsEmpty: '请选择知识库',
        rerankModelMissing: '已开启重排序，请选择重排序模型',
        metadataConditionsEmpty: '请添加元数据过滤条件',
        metadataNameMissing: '第 {{index}} 个过滤条件缺少元数据字段',
      },
    },
    en: {
      title: 'Knowledge retrieval',
      description: 'Finds passages in knowledge bases that answer a query',
      fields: {
        query: 'Query variable',
        datasets: 'Knowledge bases',
        retrievalMode: 'Retrieval mode',
        vectorWeight: 'Semantic weight',
        topK: 'Results (top K)',
        scoreThresholdEnabled: 'Score threshold',
        scoreThreshold: 'Minimum score',
        rerankEnabled: 'Rerank',
        rerankProvider: 'Rerank model provider',
        rerankModel: 'Rerank model',
        metadataFilter: 'Metadata filter',
        metadataLogicalOperator: 'Conditions must',
        metadataConditions: 'Filter conditions',
        graphNeighbours: 'Knowledge graph neighbours',
        graphNeighboursHelp: 'Also bring neighbouring passages from the knowledge graph',
        graphMinRelevance: 'Minimum neighbour relevance',
      },
      retrievalModes: { vector: 'Semantic', full_text: 'Full text', hybrid: 'Hybrid' },
      metadataFilterModes: { disabled: 'No filter', manual: 'Set conditions' },
      logicalOperators: { and: 'All hold', or: 'Any holds' },
      outputs: { result: 'Retrieved passages' },
      issues: {
        datasetsEmpty: 'Choose knowledge bases',
        rerankModelMissing: 'Rerank is on: choose the rerank model',
        metadataConditionsEmpty: 'Add metadata filter conditions',
        metadataNameMissing: 'Filter condition {{index}} has no metadata field',
      },
    },
  }),
  configSchema,
  outputs: (config) => withErrorOutputs(config, OUTPUTS),
  sourceHandles: (config) => withFailBranch(config, [{ id: 'source' }]),
  summary: (config) => (config.datasetIds.length ? [{ refs: { resource: 'knowledgeBases', ids: config.datasetIds } }] : []),
  validate,
  migrations: [
    // Version 1 spelled the full-text mode 'full-text'; the knowledge query (and the API) say 'full_text'.
    { from: 1, up: (c) => (c.retrievalMode === 'full-text' ? { ...c, retrievalMode: 'full_text' } : c), sample: { retrievalMode: 'full-text', topK: 5 } },
  ],
});

/** The kind, as the built-in list loads it (plugins/builtins.ts). */
export default knowledgeRetrievalPlugin;
