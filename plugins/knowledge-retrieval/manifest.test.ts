import { describe, expect, it } from 'vitest';
import { KnowledgeQuery, RETRIEVAL_MODES } from '../../schemas/knowledge';
import { flow, issueKeys, node, outputsOf, registry } from '../../tests/plugins/helpers';

const kr = (config: Record<string, unknown>) => flow('chatflow', [node('start', 'start'), node('kr', 'knowledge-retrieval', config)], [['start', 'kr']]);

describe('knowledge-retrieval', () => {
  it('defaults to hybrid search of 4 results, with no threshold, rerank or graph', () => {
    expect(node('kr', 'knowledge-retrieval').config).toMatchObject({
      retrievalMode: 'hybrid',
      topK: 4,
      scoreThresholdEnabled: false,
      rerankEnabled: false,
      graphNeighbours: false,
      graphMinRelevance: 0.3,
    });
  });

  it('outputs the passages with their fields', () => {
    const out = outputsOf(kr({}), 'kr')[0];
    expect(out.type).toBe('array[object]');
    expect(out.children?.map((c) => c.name)).toContain('content');
  });

  it('needs a query, knowledge bases, a rerank model when reranking and named metadata conditions', () => {
    expect(issueKeys(kr({}), 'kr')).toEqual(['issues.querySelectorEmpty', 'issues.datasetsEmpty']);
    const doc = kr({ query: ['sys', 'query'], datasetIds: ['kb1'], rerankEnabled: true, metadataFilterMode: 'manual', metadataConditions: [{ name: '', value: 'x' }] });
    expect(issueKeys(doc, 'kr')).toEqual(['issues.rerankModelMissing', 'issues.metadataNameMissing']);
    expect(issueKeys(kr({ query: ['sys', 'query'], datasetIds: ['kb1'] }), 'kr')).toEqual([]);
  });

  it("offers the knowledge query's own modes, and brings version 1 nodes (full-text) to the one spelling", () => {
    const plugin = registry.get('knowledge-retrieval')!;
    const shape = (plugin.configSchema as unknown as { shape: Record<string, { parse(v: unknown): unknown }> }).shape;
    for (const mode of RETRIEVAL_MODES) expect(shape.retrievalMode.parse(mode)).toBe(mode);
    expect(() => shape.retrievalMode.parse('full-text')).toThrow();
    const old = { ...node('kr', 'knowledge-retrieval'), kindVersion: 1, config: { retrievalMode: 'full-text', topK: 5 } };
    expect(registry.migrate(old)).toMatchObject({ kindVersion: 2, config: { retrievalMode: 'full_text', topK: 5 } });
    expect(KnowledgeQuery.shape.mode.parse(undefined)).toBe('hybrid');
  });

  it('caps the graph neighbours relevance at 0.5 and top K at 50', () => {
    expect(issueKeys(kr({ query: ['sys', 'query'], datasetIds: ['kb1'], graphMinRelevance: 0.6, topK: 51 }), 'kr')).toEqual([
      'sdk:issues.configInvalid',
      'sdk:issues.configInvalid',
    ]);
  });
});
