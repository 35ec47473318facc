import { bool, clamp, list, num, oneOf, providerName, rec, sel, str, type DifyImportContext, type DifyImportHook } from '../../src/plugin-sdk/dify';
import { runSettings } from '../shared/dify';

function fromDify(data: Record<string, unknown>, ctx: DifyImportContext) {
  const config: Record<string, unknown> = {
    query: sel(data.query_variable_selector, ctx),
    datasetIds: list(data.dataset_ids).map((d) => str(d)).filter((d) => d && d.length <= 64),
    ...runSettings(data),
  };
  // Dify's dataset ids name bases of another installation: the builder picks ours (the checklist insists).
  if ((config.datasetIds as string[]).length) ctx.warn('knowledgeBaseToPick', { node: ctx.node });
  if (data.retrieval_mode === 'single') ctx.warn('retrievalSingle', { node: ctx.node });
  const multi = rec(data.multiple_retrieval_config);
  if (num(multi.top_k) !== undefined) config.topK = clamp(multi.top_k, 1, 50, 4);
  const threshold = num(multi.score_threshold);
  if (threshold !== undefined && threshold > 0) Object.assign(config, { scoreThresholdEnabled: true, scoreThreshold: clamp(threshold, 0, 1, 0.5, false) });
  if (bool(multi.reranking_enable) || multi.reranking_mode === 'weighted_score') {
    if (multi.reranking_mode === 'weighted_score') {
      ctx.warn('rerankWeighted', { node: ctx.node });
      const weight = num(rec(rec(multi.weights).vector_setting).vector_weight);
      Object.assign(config, { retrievalMode: 'hybrid', ...(weight !== undefined ? { vectorWeight: clamp(weight, 0, 1, 0.7, false) } : {}) });
    } else {
      const r = rec(multi.reranking_model);
      Object.assign(config, { rerankEnabled: true, rerankProvider: providerName(r.provider).slice(0, 100), rerankModel: str(r.model).slice(0, 200) });
    }
  }
  if (data.metadata_filtering_mode === 'automatic') ctx.warn('metadataAutomatic', { node: ctx.node });
  if (data.metadata_filtering_mode === 'manual') {
    const f = rec(data.metadata_filtering_conditions);
    Object.assign(config, {
      metadataFilterMode: 'manual',
      metadataLogicalOperator: oneOf(f.logical_operator, ['and', 'or'] as const, 'and'),
      metadataConditions: list(f.conditions).map((x) => ({ name: str(rec(x).name), operator: str(rec(x).comparison_operator), value: str(rec(x).value) })),
    });
  }
  return config;
}

/** Dify's knowledge retrieval (multiple retrieval; single retrieval and automatic metadata filters are reported). */
export const dify: DifyImportHook = { types: ['knowledge-retrieval'], import: fromDify };
