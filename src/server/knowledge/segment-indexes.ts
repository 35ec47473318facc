/**
 * Segment index entries (spec 7.5 segment indexes, migration 0035): questions a segment answers, a
 * summary of it, its keywords. Stored tokenised and embedded like segments, with the base's own
 * embedder (so their vectors compare with the query's); retrieval (./retrieve-indexes.ts) matches
 * them and answers their segment. Generated entries come from the tenant's default chat model
 * through the production provider client (ModelService): one request per segment and type, read as
 * plain text (a line a question; the summary; comma-separated keywords), so any chat model works.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { SegmentIndexType } from '../../../schemas/knowledge-tasks';
import { SEGMENT_INDEX_CONTENT_MAX, SEGMENT_INDEX_TYPES } from '../../../schemas/knowledge-tasks';
import type { ServerContext } from '../context';
import { datasetDocuments, datasets, datasetSegmentIndexes, datasetSegments } from '../db/schema';
import { ModelService } from '../providers/model-service';
import { getDefault } from '../services/models';
import type { DatasetRow } from '../services/datasets';
import type { Tx } from '../services/workspace-resources';
import { embedderOfDataset, vectorColumnExists, vectorText } from './ingest';
import { searchTokens } from './tokenize';
import type { Embedder, TaskHandler } from './types';

type Ctx = Pick<ServerContext, 'db' | 'secretKey' | 'outbound' | 'settings'>;
export type IndexRow = typeof datasetSegmentIndexes.$inferSelect;
export interface EntryDraft {
  type: SegmentIndexType;
  content: string;
  source: 'manual' | 'generated';
}

/** Longest segment text sent per request. */
const MAX_TEXT = 6000;
const MAX_QUESTIONS = 3;
const MAX_KEYWORDS = 8;

/** What the model is asked for each type (answers are read as plain text, see {@link readAnswer}). */
export const INDEX_PROMPTS: Record<SegmentIndexType, string> = {
  question: `Write at most ${MAX_QUESTIONS} short questions that the text answers, in the language of the text. One question per line, nothing else.`,
  summary: 'Summarise the text in one or two sentences, in the language of the text. Answer with the summary only.',
  keyword: `List at most ${MAX_KEYWORDS} keywords of the text, in the language of the text, separated by commas. Answer with the keywords only.`,
};

/** A model answer as entries of one type: questions a line each, one summary, one entry of keywords. */
export function readAnswer(type: SegmentIndexType, answer: string): string[] {
  const clip = (x: string) => x.trim().replace(/\s+/g, ' ').slice(0, SEGMENT_INDEX_CONTENT_MAX);
  const text = answer.replace(/```[a-z]*\n?/gi, '').trim();
  if (!text) return [];
  if (type === 'summary') return [clip(text)];
  if (type === 'question') {
    return text
      .split(/\n+/)
      .map((l) => clip(l.replace(/^\s*(?:[-*•]|\d+[.)、:]|Q\d*[:.])\s*/i, '')))
      .filter(Boolean)
      .slice(0, MAX_QUESTIONS);
  }
  const words = [...new Set(text.split(/[,，、;；\n]+/).map((w) => clip(w.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, ''))).filter(Boolean))].slice(0, MAX_KEYWORDS);
  return words.length ? [clip(words.join(', '))] : [];
}

/**
 * Embeds the drafts (before any write: a failed embedding changes nothing) and answers a writer
 * that inserts them for the segment inside the caller's transaction.
 */
export async function prepareEntries(
  ctx: Ctx,
  ds: Pick<DatasetRow, 'id' | 'tenantId' | 'embedding' | 'embeddingDim'>,
  seg: { id: string; documentId: string },
  drafts: EntryDraft[],
  embedder?: Embedder,
): Promise<(tx: Tx) => Promise<IndexRow[]>> {
  const e = embedder ?? (await embedderOfDataset(ctx, ds));
  const vectors = drafts.length ? await e.embed(drafts.map((d) => d.content)) : [];
  const withVector = await vectorColumnExists(ctx);
  return async (tx) => {
    if (!drafts.length) return [];
    const now = new Date();
    const rows = await tx
      .insert(datasetSegmentIndexes)
      .values(
        drafts.map((d, i) => ({
          id: randomUUID(),
          tenantId: ds.tenantId,
          datasetId: ds.id,
          documentId: seg.documentId,
          segmentId: seg.id,
          type: d.type,
          source: d.source,
          content: d.content,
          tokens: searchTokens(d.content),
          embedding: withVector ? null : (vectors[i] ?? null),
          // Distinct times keep the order they were given in.
          createdAt: new Date(now.getTime() + i),
          updatedAt: now,
        })),
      )
      .returning();
    if (withVector) {
      for (const [i, r] of rows.entries()) {
        const v = vectors[i];
        if (v) await tx.execute(sql`update dataset_segment_indexes set embedding_v = ${vectorText(v)}::vector where id = ${r.id}::uuid`);
      }
    }
    return rows;
  };
}

/** The segment's text asked about `type`, answered by the model as entries. */
export async function generateEntries(
  ctx: Ctx,
  tenantId: string,
  model: { provider: string; model: string },
  text: string,
  types: readonly SegmentIndexType[],
  signal?: AbortSignal,
): Promise<EntryDraft[]> {
  const svc = new ModelService(ctx);
  const out: EntryDraft[] = [];
  for (const type of SEGMENT_INDEX_TYPES.filter((t) => types.includes(t))) {
    let answer = '';
    for await (const ev of svc.chat({
      tenantId,
      provider: model.provider,
      model: model.model,
      signal,
      params: { temperature: 0 },
      messages: [
        { role: 'system', content: INDEX_PROMPTS[type] },
        { role: 'user', content: text.slice(0, MAX_TEXT) },
      ],
    })) {
      if (ev.type === 'text') answer += ev.text;
    }
    for (const content of readAnswer(type, answer)) out.push({ type, content, source: 'generated' });
  }
  return out;
}

/**
 * Generates the segment's entries of `types` again: new ones from the model, then (one transaction)
 * its earlier generated entries of those types removed and the new ones stored. Hand-written stay.
 */
export async function regenerateSegment(
  ctx: Ctx,
  ds: DatasetRow,
  seg: { id: string; documentId: string; content: string },
  model: { provider: string; model: string },
  types: readonly SegmentIndexType[],
  opts: { embedder?: Embedder; signal?: AbortSignal } = {},
): Promise<number> {
  const drafts = await generateEntries(ctx, ds.tenantId, model, seg.content, types, opts.signal);
  opts.signal?.throwIfAborted();
  const write = await prepareEntries(ctx, ds, seg, drafts, opts.embedder);
  await ctx.db.transaction(async (tx) => {
    await tx
      .delete(datasetSegmentIndexes)
      .where(and(eq(datasetSegmentIndexes.segmentId, seg.id), eq(datasetSegmentIndexes.source, 'generated'), inArray(datasetSegmentIndexes.type, [...types])));
    await write(tx);
  });
  return drafts.length;
}

/** The types an `index` task was asked for (all when unreadable). */
export function typesOf(params: Record<string, unknown> | null | undefined): SegmentIndexType[] {
  const t = Array.isArray(params?.types) ? (params.types as unknown[]).filter((x): x is SegmentIndexType => (SEGMENT_INDEX_TYPES as readonly string[]).includes(x as string)) : [];
  return t.length ? t : [...SEGMENT_INDEX_TYPES];
}

/** The `index` task handler: every text segment of the unit (not children) gets generated entries. */
export const segmentIndexHandler: TaskHandler = async (job) => {
  const { ctx, task, signal } = job;
  const model = await getDefault(ctx, task.tenantId, 'llm');
  if (!model) throw new Error('Segment index generation needs a default chat model (LLM) in this tenant; set one in model management');
  const [doc] = await ctx.db.select().from(datasetDocuments).where(eq(datasetDocuments.id, task.documentId));
  const [ds] = await ctx.db.select().from(datasets).where(eq(datasets.id, task.datasetId));
  if (!doc || !ds) throw new Error('The knowledge unit no longer exists');
  if (doc.status !== 'completed') throw new Error('Segment index generation needs the unit’s vector analysis to succeed first');
  const segs = await ctx.db
    .select({ id: datasetSegments.id, documentId: datasetSegments.documentId, content: datasetSegments.content })
    .from(datasetSegments)
    .where(and(eq(datasetSegments.documentId, doc.id), ne(datasetSegments.kind, 'child')))
    .orderBy(asc(datasetSegments.position));
  if (!segs.length) throw new Error('The unit has no segments to index');
  const types = typesOf(task.params);
  const embedder = await embedderOfDataset(ctx, ds);
  await job.log('info', `Generating ${types.join(', ')} entries for ${segs.length} segments with ${model.provider}/${model.model}`);
  let made = 0;
  for (const [i, seg] of segs.entries()) {
    signal.throwIfAborted();
    made += await regenerateSegment(ctx, ds, seg, model, types, { embedder, signal });
    await job.progress((i + 1) / segs.length);
  }
  await job.log('info', `${made} index entries generated`);
};
