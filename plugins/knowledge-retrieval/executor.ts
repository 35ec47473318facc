import { defineNodeExecutor, NodeExecutionError } from '../../src/plugin-sdk';
import { toText } from '../shared/exec/text';
import { knowledgeRetrievalPlugin } from './manifest';

export const KNOWLEDGE_ERRORS = { UNAVAILABLE: 'KNOWLEDGE-UNAVAILABLE' } as const;

/**
 * Searches the chosen knowledge bases through `services.knowledge`. Without that service the node
 * fails with KNOWLEDGE-UNAVAILABLE: an empty result would look like "nothing relevant" and let an
 * llm answer without its knowledge.
 */
export const knowledgeRetrievalExecutor = defineNodeExecutor(knowledgeRetrievalPlugin, {
  async execute({ config, variables, services, signal }) {
    if (!services.knowledge) {
      throw new NodeExecutionError(KNOWLEDGE_ERRORS.UNAVAILABLE, 'Knowledge retrieval is not available on this server yet, so this node cannot search its knowledge bases');
    }
    const text = toText(variables.get(config.query)).trim();
    if (!text) return { outputs: { result: [] } };
    const chunks = await services.knowledge.retrieve(
      {
        datasetIds: config.datasetIds,
        text,
        topK: config.topK,
        ...(config.scoreThresholdEnabled ? { scoreThreshold: config.scoreThreshold } : {}),
        mode: config.retrievalMode,
        ...(config.retrievalMode === 'hybrid' ? { vectorWeight: config.vectorWeight } : {}),
        ...(config.rerankEnabled ? { rerank: { provider: config.rerankProvider, model: config.rerankModel } } : {}),
        ...(config.metadataFilterMode === 'manual' ? { metadataFilter: { logicalOperator: config.metadataLogicalOperator, conditions: config.metadataConditions } } : {}),
        ...(config.graphNeighbours ? { graphNeighbours: { minRelevance: config.graphMinRelevance } } : {}),
      },
      { signal },
    );
    const result = chunks.map((c) => ({
      content: c.content,
      title: c.title ?? '',
      score: c.score,
      dataset_id: c.datasetId ?? '',
      document_id: c.documentId ?? '',
      segment_id: c.segmentId ?? '',
      // 'graph' for knowledge-graph neighbours, as the hit test shows them.
      source: c.source ?? '',
      metadata: c.metadata ?? {},
    }));
    return { outputs: { result } };
  },
});

export default knowledgeRetrievalExecutor;
