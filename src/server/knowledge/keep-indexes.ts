/**
 * A unit processed again (a URL refresh, "process again") gets new segments: deleting the old ones
 * takes their index entries with them (cascade). Entries were written by hand or paid for with model
 * calls, so they are held before the delete and put back on the new segments whose text is the same
 * (same kind and exactly the same content, matched in order when several are equal). A segment whose
 * text changed loses its entries: they described the old text. The vectors go back as they are: the
 * unit is embedded again with the same base embedder, so they stay comparable.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { vectorColumnExists } from './ingest';
import { rowsOf } from './queue';

type Ctx = Pick<ServerContext, 'db'>;
interface HeldEntry {
  key: string;
  segment_id: string;
  type: string;
  source: string;
  content: string;
  tokens: string;
  /** real[] in its text form (read and written back as text, the same on both drivers). */
  embedding: string | null;
  v: string | null;
  created_at: string;
}

/** The unit's entries with their segment's kind and content hash, read before its segments go. */
export async function holdIndexes(ctx: Ctx, documentId: string): Promise<HeldEntry[]> {
  const v = (await vectorColumnExists(ctx)) ? sql.raw('i.embedding_v::text') : sql.raw('null::text');
  return rowsOf<HeldEntry>(
    await ctx.db.execute(sql`
      select s.kind || ':' || md5(s.content) as key, i.segment_id, i.type, i.source, i.content, i.tokens, i.embedding::text as embedding, ${v} as v, i.created_at
      from dataset_segment_indexes i join dataset_segments s on s.id = i.segment_id
      where i.document_id = ${documentId}::uuid order by s.position, s.id, i.created_at`),
  );
}

/** Puts the held entries back on the unit's new segments of the same text; answers how many. */
export async function restoreIndexes(ctx: Ctx, unit: { id: string; datasetId: string; tenantId: string }, held: HeldEntry[]): Promise<number> {
  if (!held.length) return 0;
  const segs = rowsOf<{ id: string; key: string }>(
    await ctx.db.execute(sql`select id, kind || ':' || md5(content) as key from dataset_segments where document_id = ${unit.id}::uuid order by position, id`),
  );
  // Old segment → new segment: the n-th old segment of a text takes the n-th new one of that text.
  const free = new Map<string, string[]>();
  for (const s of segs) free.set(s.key, [...(free.get(s.key) ?? []), s.id]);
  const moved = new Map<string, string | null>();
  for (const e of held) {
    if (!moved.has(e.segment_id)) moved.set(e.segment_id, free.get(e.key)?.shift() ?? null);
  }
  const rows = held.flatMap((e) => {
    const to = moved.get(e.segment_id);
    return to ? [{ ...e, to }] : [];
  });
  if (!rows.length) return 0;
  const withVector = await vectorColumnExists(ctx);
  await ctx.db.transaction(async (tx) => {
    for (const r of rows) {
      await tx.execute(sql`
        insert into dataset_segment_indexes (id, tenant_id, dataset_id, document_id, segment_id, type, source, content, tokens, embedding, created_at, updated_at${sql.raw(withVector ? ', embedding_v' : '')})
        values (${randomUUID()}::uuid, ${unit.tenantId}::uuid, ${unit.datasetId}::uuid, ${unit.id}::uuid, ${r.to}::uuid, ${r.type}, ${r.source}, ${r.content}, ${r.tokens},
          ${r.embedding}::real[], ${r.created_at}::timestamptz, now()${withVector ? sql`, ${r.v}::vector` : sql``})`);
    }
  });
  return rows.length;
}
