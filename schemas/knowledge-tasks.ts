/**
 * Knowledge calls of issue 33 (spec 7.5 datasets): segment indexes (extra entries per segment that
 * retrieval matches and that answer their segment), tasks created as their own calls, and
 * handle-graph-index-data. The rest of the knowledge shapes are in ./knowledge.ts. Imports only zod.
 */
import { z } from 'zod';

/** What an index entry is: a question the segment answers, a summary of it, or a keyword. */
export const SEGMENT_INDEX_TYPES = ['question', 'summary', 'keyword'] as const;
export type SegmentIndexType = (typeof SEGMENT_INDEX_TYPES)[number];
export const SEGMENT_INDEX_CONTENT_MAX = 1000;
/** Entries one segment may have. */
export const SEGMENT_INDEXES_MAX = 50;
/** Entries one batch-create call may add. */
export const SEGMENT_INDEX_BATCH_MAX = 500;
/** Tasks one batch call may create. */
export const TASK_BATCH_MAX = 100;
/** Task types a caller may create (spec 9 types plus `index`, the segment index generation). */
export const CREATABLE_TASK_TYPES = ['normal', 'graphic', 'faq', 'index'] as const;

const Id = z.string();
const Time = z.string();

export const SegmentIndex = z.object({
  id: Id,
  segment_id: Id,
  document_id: Id,
  type: z.enum(SEGMENT_INDEX_TYPES),
  /** `manual` (written by hand) or `generated` (by the tenant's default chat model). */
  source: z.enum(['manual', 'generated']),
  content: z.string(),
  created_at: Time,
  updated_at: Time,
});
export type SegmentIndex = z.infer<typeof SegmentIndex>;

const EntryContent = z.string().trim().min(1).max(SEGMENT_INDEX_CONTENT_MAX);

/**
 * The segment's whole list of entries as it should be: an entry with the `id` of one of its entries
 * keeps it (changed content is embedded again and becomes `manual`), one without is added (`manual`),
 * entries left out are removed.
 */
export const SegmentIndexUpdateBody = z.object({
  indexes: z.array(z.object({ id: Id.optional(), type: z.enum(SEGMENT_INDEX_TYPES), content: EntryContent })).max(SEGMENT_INDEXES_MAX),
});
export type SegmentIndexUpdateBody = z.infer<typeof SegmentIndexUpdateBody>;

/** What the model writes: the types asked (all three by default). */
export const SegmentIndexGenerateBody = z.object({
  types: z.array(z.enum(SEGMENT_INDEX_TYPES)).min(1).max(3).default([...SEGMENT_INDEX_TYPES]),
});
export type SegmentIndexGenerateBody = z.infer<typeof SegmentIndexGenerateBody>;

/** Hand-written entries for many segments of one unit at once. */
export const SegmentIndexBatchBody = z.object({
  items: z.array(z.object({ segment_id: Id, type: z.enum(SEGMENT_INDEX_TYPES), content: EntryContent })).min(1).max(SEGMENT_INDEX_BATCH_MAX),
});
export type SegmentIndexBatchBody = z.infer<typeof SegmentIndexBatchBody>;
export const SegmentIndexBatchResult = z.object({ created: z.number().int(), indexes: z.array(SegmentIndex) });

/** A unit's segment index generation (its latest `index` task) and how far its segments are indexed. */
export const SegmentIndexStatus = z.object({
  /** null: never generated. */
  task_id: Id.nullable(),
  /** none, queued, running, cancelling, cancelled, failed, completed. */
  status: z.string(),
  /** 0…100 while running. */
  progress: z.number().nullable(),
  queue_position: z.number().nullable(),
  error: z.string().nullable(),
  segment_count: z.number().int(),
  /** Segments with at least one entry. */
  indexed_segment_count: z.number().int(),
  index_count: z.number().int(),
  finished_at: Time.nullable(),
});
export type SegmentIndexStatus = z.infer<typeof SegmentIndexStatus>;

/** A knowledge task as the task calls answer it. */
export const DatasetTask = z.object({
  id: Id,
  document_id: Id,
  type: z.enum(CREATABLE_TASK_TYPES),
  status: z.string(),
  progress: z.number().nullable(),
  queue_position: z.number().nullable(),
  error: z.string().nullable(),
  created_at: Time,
  finished_at: Time.nullable(),
});
export type DatasetTask = z.infer<typeof DatasetTask>;

/**
 * One task for one unit: `normal` processes the unit again from its file or URL, `graphic` runs its
 * graph analysis, `faq` generates Q&A pairs, `index` generates segment index entries (`index_types`).
 * A task of the same type already queued or running is answered instead of a new one.
 */
export const TaskCreateBody = z.object({
  document_id: Id,
  type: z.enum(CREATABLE_TASK_TYPES),
  index_types: z.array(z.enum(SEGMENT_INDEX_TYPES)).min(1).max(3).optional(),
});
export type TaskCreateBody = z.infer<typeof TaskCreateBody>;
/** Checked whole before any is created: one bad item creates none. */
export const TaskBatchBody = z.object({ tasks: z.array(TaskCreateBody).min(1).max(TASK_BATCH_MAX) });

/** Units whose graph analysis is run again (default: every unit of the base whose graph is on, or failed). */
export const GraphIndexDataBody = z.object({ document_ids: z.array(Id).min(1).max(TASK_BATCH_MAX).optional() });
export const GraphIndexDataResult = z.object({
  queued: z.array(DatasetTask),
  /** Units left as they are, with why (`running`: its analysis is already on its way). */
  skipped: z.array(z.object({ document_id: Id, reason: z.string() })),
});
export type GraphIndexDataResult = z.infer<typeof GraphIndexDataResult>;
