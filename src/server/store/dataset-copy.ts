import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { vectorColumnExists } from '../knowledge/ingest';
import { rowsOf } from '../knowledge/queue';
import type { Tx } from '../services/workspace-resources';

/**
 * A knowledge base's documents, segments and segment index entries into the store's snapshot tables,
 * and from there into a copy: set-based INSERT ... SELECT, no row passes through the process and nothing is embedded again
 * (the copy takes the source's embedding model and dimension, so its vectors stay valid). Tokens, the
 * tsvector and the vectors (`embedding`, and `embedding_v` where pgvector exists) go as they are.
 * New ids are derived from the old ones with a per-operation salt (md5(salt || id) as a uuid), so a child
 * segment's `parent_id` is remapped in the same statement. Only processed units (`completed`) go.
 */

/** `, embedding_v` (of `alias`) where the pgvector column exists, else nothing. */
const vecOf = (has: boolean, alias?: string) => sql.raw(has ? `, ${alias ? `${alias}.` : ''}embedding_v` : '');
// A version-4 shaped uuid (version and variant nibbles set), as the contract's ids are checked.
const salted = (salt: string, column: string) => sql.raw(`overlay(overlay(md5('${salt}' || ${column}::text) placing '4' from 13) placing '8' from 17)::uuid`);

export async function snapshotDataset(ctx: ServerContext, tx: Tx, itemId: string, datasetId: string) {
  const salt = randomUUID();
  const has = await vectorColumnExists(ctx);
  const vec = vecOf(has);
  const vecFrom = vecOf(has, 's');
  await tx.execute(sql`delete from store_dataset_documents where store_item_id = ${itemId}::uuid`);
  await tx.execute(sql`
    insert into store_dataset_documents (id, store_item_id, position, name, file_type, size, char_count, process_rule, segment_mode, sheet, header_row, enabled)
    select ${salted(salt, 'd.id')}, ${itemId}::uuid, row_number() over (order by d.created_at, d.id), d.name, d.file_type, d.size, d.char_count,
      d.process_rule, d.segment_mode, d.sheet, d.header_row, d.enabled
    from dataset_documents d where d.dataset_id = ${datasetId}::uuid and d.status = 'completed'`);
  await tx.execute(sql`
    insert into store_dataset_segments (id, store_item_id, document_id, parent_id, kind, position, content, tokens, tsv, embedding, metadata, enabled${vec})
    select ${salted(salt, 's.id')}, ${itemId}::uuid, ${salted(salt, 's.document_id')},
      case when s.parent_id is null then null else ${salted(salt, 's.parent_id')} end,
      s.kind, s.position, s.content, s.tokens, s.tsv, s.embedding, s.metadata, s.enabled${vecFrom}
    from dataset_segments s join dataset_documents d on d.id = s.document_id
    where s.dataset_id = ${datasetId}::uuid and d.status = 'completed'`);
  // The segments' index entries, pointing at the snapshot's segments by the same salted ids.
  await tx.execute(sql`
    insert into store_dataset_segment_indexes (id, store_item_id, segment_id, type, source, content, tokens, embedding, created_at${vec})
    select ${salted(salt, 'i.id')}, ${itemId}::uuid, ${salted(salt, 'i.segment_id')}, i.type, i.source, i.content, i.tokens, i.embedding, i.created_at${vecOf(has, 'i')}
    from dataset_segment_indexes i join dataset_documents d on d.id = i.document_id
    where i.dataset_id = ${datasetId}::uuid and d.status = 'completed'`);
  const docs = rowsOf<{ id: string; name: string; file_type: string; char_count: number; segment_mode: string; n: number | string }>(
    await tx.execute(sql`
      select d.id, d.name, d.file_type, d.char_count, d.segment_mode, (select count(*) from store_dataset_segments s where s.document_id = d.id) as n
      from store_dataset_documents d where d.store_item_id = ${itemId}::uuid order by d.position`),
  );
  return docs.map((d) => ({ id: d.id, name: d.name, file_type: d.file_type, char_count: Number(d.char_count), segment_mode: d.segment_mode, segment_count: Number(d.n) }));
}

/** The snapshot of `itemId` into the (new, empty) knowledge base `datasetId`: documents as processed units, segments with their vectors. */
export async function copySnapshotInto(ctx: ServerContext, tx: Tx, itemId: string, target: { datasetId: string; tenantId: string; userId: string }) {
  const salt = randomUUID();
  const has = await vectorColumnExists(ctx);
  const vec = vecOf(has);
  await tx.execute(sql`
    insert into dataset_documents (id, tenant_id, dataset_id, name, file_id, file_type, size, char_count, source_url, update_frequency,
      upload_status, status, progress, process_rule, sheet, header_row, segment_mode, enabled, created_by)
    select ${salted(salt, 'sd.id')}, ${target.tenantId}::uuid, ${target.datasetId}::uuid, sd.name, null, sd.file_type, sd.size, sd.char_count, null, 'none',
      'uploaded', 'completed', 1, sd.process_rule, sd.sheet, sd.header_row, sd.segment_mode, sd.enabled, ${target.userId}::uuid
    from store_dataset_documents sd where sd.store_item_id = ${itemId}::uuid`);
  await tx.execute(sql`
    insert into dataset_segments (id, tenant_id, dataset_id, document_id, parent_id, kind, position, content, tokens, tsv, embedding, metadata, enabled${vec})
    select ${salted(salt, 's.id')}, ${target.tenantId}::uuid, ${target.datasetId}::uuid, ${salted(salt, 's.document_id')},
      case when s.parent_id is null then null else ${salted(salt, 's.parent_id')} end,
      s.kind, s.position, s.content, s.tokens, s.tsv, s.embedding, s.metadata, s.enabled${vec}
    from store_dataset_segments s where s.store_item_id = ${itemId}::uuid`);
  await tx.execute(sql`
    insert into dataset_segment_indexes (id, tenant_id, dataset_id, document_id, segment_id, type, source, content, tokens, embedding, created_at, updated_at${vec})
    select ${salted(salt, 'i.id')}, ${target.tenantId}::uuid, ${target.datasetId}::uuid, ${salted(salt, 's.document_id')}, ${salted(salt, 'i.segment_id')},
      i.type, i.source, i.content, i.tokens, i.embedding, i.created_at, now()${vecOf(has, 'i')}
    from store_dataset_segment_indexes i join store_dataset_segments s on s.id = i.segment_id where i.store_item_id = ${itemId}::uuid`);
}
