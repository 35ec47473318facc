/**
 * Retrieval over segment index entries (./segment-indexes.ts, migration 0035), beside segments and
 * Q&A pairs in ./retrieve.ts: candidates by vector and by words, keyed `i:` + entry id, and their
 * details. An entry is scored on its own text but answers its segment: the detail carries the
 * segment's id and content (and, for a child in parent-child mode, its parent), so retrieve.ts
 * merges it with the segment's own match into one hit. Searchable: entries of enabled segments of
 * enabled, processed units of the searched bases (a parent's entries too: the parent is answered).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { cosine } from './embed-builtin';
import { rowsOf } from './queue';

type Ctx = Pick<ServerContext, 'db'>;

export interface IndexCandidate {
  key: string;
  vector?: number;
  rank?: number;
}

export interface IndexDetail {
  key: string;
  /** The segment answered. */
  id: string;
  kind: 'segment';
  datasetId: string;
  documentId: string;
  documentName: string;
  position: number;
  content: string;
  /** The entry's tokens and vector: what was matched. */
  tokens: string;
  embedding: number[] | null;
  sim: number | null;
  rank: number;
  metadata: Record<string, unknown>;
  parent: { id: string; position: number; content: string; metadata: Record<string, unknown> } | null;
}

const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
const vectorLiteral = (v: number[]) => `[${v.map((x) => (Number.isFinite(x) ? x : 0)).join(',')}]`;

/** Where an entry is searchable (x = dataset_segment_indexes, s = its segment, d = its unit); `filter` is on s.metadata. */
const entryWhere = (tenantId: string, baseIds: string[], filter: SQL) =>
  sql`x.tenant_id = ${tenantId}::uuid and x.dataset_id in (${idList(baseIds)}) and s.enabled and d.enabled and d.status = 'completed' and ${filter}`;
const FROM = sql`dataset_segment_indexes x join dataset_segments s on s.id = x.segment_id join dataset_documents d on d.id = x.document_id`;

/** The entries nearest to the query vector (exact: entries are few beside segments). */
export async function indexVectorCandidates(ctx: Ctx, tenantId: string, baseIds: string[], qvec: number[], limit: number, filter: SQL, withVector: boolean): Promise<IndexCandidate[]> {
  if (withVector) {
    const q = vectorLiteral(qvec);
    const rows = rowsOf<{ id: string; sim: number }>(
      await ctx.db.execute(sql`
        select x.id, coalesce(nullif(1 - (x.embedding_v <=> ${q}::vector), 'NaN'::float8), 0) as sim
        from ${FROM}
        where ${entryWhere(tenantId, baseIds, filter)} and x.embedding_v is not null and vector_dims(x.embedding_v) = ${qvec.length}
        order by sim desc, x.id
        limit ${limit}`),
    );
    return rows.map((r) => ({ key: 'i:' + r.id, vector: Number(r.sim) }));
  }
  const rows = rowsOf<{ id: string; embedding: number[] | null }>(
    await ctx.db.execute(sql`select x.id, x.embedding from ${FROM} where ${entryWhere(tenantId, baseIds, filter)} and x.embedding is not null`),
  );
  return rows
    .flatMap((r) => (r.embedding && r.embedding.length === qvec.length ? [{ key: 'i:' + r.id, vector: cosine(qvec, r.embedding.map(Number)) }] : []))
    .sort((a, b) => b.vector - a.vector)
    .slice(0, limit);
}

/** Entries whose words match the tsquery, best ranked first. */
export async function indexFullTextCandidates(ctx: Ctx, tenantId: string, baseIds: string[], tsquery: string, limit: number, filter: SQL): Promise<IndexCandidate[]> {
  const rows = rowsOf<{ id: string; rank: number }>(
    await ctx.db.execute(sql`
      select x.id, ts_rank_cd(x.tsv, to_tsquery('simple', ${tsquery})) as rank
      from ${FROM}
      where x.tsv @@ to_tsquery('simple', ${tsquery}) and ${entryWhere(tenantId, baseIds, filter)}
      order by rank desc, x.id
      limit ${limit}`),
  );
  return rows.map((r) => ({ key: 'i:' + r.id, rank: Number(r.rank) }));
}

/** The entries' details: their own tokens, vector or similarity and rank; their segment's place and content. */
export async function indexDetails(ctx: Ctx, ids: string[], tsquery: string, qvec: number[] | null, withVector: boolean): Promise<IndexDetail[]> {
  if (!ids.length) return [];
  const inDb = withVector && qvec !== null;
  const sim = inDb ? sql`case when vector_dims(x.embedding_v) = ${qvec!.length} then coalesce(nullif(1 - (x.embedding_v <=> ${vectorLiteral(qvec!)}::vector), 'NaN'::float8), 0) end` : sql`null::float8`;
  const vector = inDb ? sql`null::real[]` : sql.raw(withVector ? 'x.embedding_v::real[]' : 'x.embedding');
  const rank = tsquery ? sql`ts_rank_cd(x.tsv, to_tsquery('simple', ${tsquery}))` : sql`0`;
  const rows = rowsOf<{
    id: string;
    segment_id: string;
    dataset_id: string;
    document_id: string;
    document_name: string;
    position: number;
    content: string;
    entry: string;
    tokens: string;
    embedding: number[] | null;
    sim: number | null;
    rank: number;
    metadata: Record<string, unknown>;
    parent_id: string | null;
    parent_position: number | null;
    parent_content: string | null;
    parent_metadata: Record<string, unknown> | null;
  }>(
    await ctx.db.execute(sql`
      select x.id, s.id as segment_id, x.dataset_id, x.document_id, d.name as document_name, s.position, s.content, x.content as entry, x.tokens,
        ${vector} as embedding, ${sim} as sim, ${rank} as rank, s.metadata,
        p.id as parent_id, p.position as parent_position, p.content as parent_content, p.metadata as parent_metadata
      from ${FROM} left join dataset_segments p on p.id = s.parent_id and s.kind = 'child'
      where x.id in (${idList(ids)})`),
  );
  return rows.map((r) => ({
    key: 'i:' + r.id,
    id: r.segment_id,
    kind: 'segment' as const,
    datasetId: r.dataset_id,
    documentId: r.document_id,
    documentName: r.document_name,
    position: Number(r.position),
    content: r.content,
    tokens: r.tokens,
    embedding: r.embedding ? r.embedding.map(Number) : null,
    sim: r.sim == null ? null : Number(r.sim),
    rank: Number(r.rank),
    // Which entry matched, for whoever reads the hit's metadata.
    metadata: { ...(r.metadata ?? {}), matched_index: r.entry },
    parent: r.parent_id ? { id: r.parent_id, position: Number(r.parent_position), content: r.parent_content ?? '', metadata: { ...(r.parent_metadata ?? {}), matched_index: r.entry } } : null,
  }));
}
