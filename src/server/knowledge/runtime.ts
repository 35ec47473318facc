/**
 * The knowledge service of runs (ExecutorServices.knowledge): what the knowledge-retrieval node
 * (and any executor given knowledge bases) searches with. Bound to the run's tenant and workspace:
 * every knowledge base asked for must belong to that project space, else the call fails with a
 * clear error (a missing base must not look like "nothing relevant").
 */
import { and, eq, inArray } from 'drizzle-orm';
import { KnowledgeQuery } from '../../../schemas/knowledge';
import type { KnowledgeChunk, KnowledgeService } from '../../plugin-sdk/executor';
import { NodeExecutionError } from '../../plugin-sdk';
import type { ServerContext } from '../context';
import { UUID_RE } from '../context';
import { datasets } from '../db/schema';
import { AppError } from '../errors';
import { ModelError, modelNodeCode } from '../providers/errors';
import { countHits } from './hits';
import { resolveRerankModel } from './rerank';
import { DEFAULT_VECTOR_WEIGHT, retrieve } from './retrieve';

export const KNOWLEDGE_RUNTIME_ERRORS = {
  NOT_FOUND: 'KNOWLEDGE-NOT-FOUND',
  INVALID: 'KNOWLEDGE-INVALID',
} as const;

/** Knowledge retrieval for one run, scoped to its tenant and project space. */
export function createKnowledgeService(ctx: ServerContext, scope: { tenantId: string; workspaceId: string }): KnowledgeService {
  return {
    async retrieve(asked: KnowledgeQuery, opts: { signal: AbortSignal }): Promise<KnowledgeChunk[]> {
      const parsed = KnowledgeQuery.safeParse(asked);
      if (!parsed.success) throw new NodeExecutionError(KNOWLEDGE_RUNTIME_ERRORS.INVALID, `The knowledge query is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.') || '-'} ${i.message}`).join('; ')}`);
      const query = parsed.data;
      const ids = [...new Set(query.datasetIds)];
      if (!ids.length) return [];
      const bad = ids.filter((id) => !UUID_RE.test(id));
      const rows = bad.length
        ? []
        : await ctx.db
            .select()
            .from(datasets)
            .where(and(inArray(datasets.id, ids), eq(datasets.tenantId, scope.tenantId), eq(datasets.workspaceId, scope.workspaceId)));
      const missing = bad.length ? bad : ids.filter((id) => !rows.some((r) => r.id === id));
      if (missing.length) {
        throw new NodeExecutionError(KNOWLEDGE_RUNTIME_ERRORS.NOT_FOUND, `Knowledge base ${missing.join(', ')} does not exist in this project space`, { dataset_ids: missing });
      }
      try {
        const rerank = query.rerank ? await resolveRerankModel(ctx, scope.tenantId, query.rerank) : null;
        const hits = await retrieve(ctx, rows, {
          query: query.text,
          mode: query.mode,
          topK: query.topK,
          scoreThreshold: query.scoreThreshold,
          vectorWeight: query.vectorWeight ?? DEFAULT_VECTOR_WEIGHT,
          rerank,
          metadataFilter: query.metadataFilter ?? null,
          graph: query.graphNeighbours ? { minRelevance: query.graphNeighbours.minRelevance } : null,
          signal: opts.signal,
        });
        await countHits(ctx, hits);
        const nameOf = new Map(rows.map((r) => [r.id, r.name]));
        return hits.map((h) => ({
          content: h.content,
          score: h.score,
          title: h.documentName,
          datasetId: h.datasetId,
          documentId: h.documentId,
          segmentId: h.id,
          source: h.source,
          metadata: { ...h.metadata, dataset_name: nameOf.get(h.datasetId) ?? '', source: h.source, kind: h.kind, position: h.position },
        }));
      } catch (e) {
        if (e instanceof ModelError) throw new NodeExecutionError(modelNodeCode(e), e.message);
        if (e instanceof AppError) throw new NodeExecutionError(KNOWLEDGE_RUNTIME_ERRORS.INVALID, e.message);
        throw e;
      }
    },
  };
}
