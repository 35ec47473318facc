/** Tables of the knowledge area. Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { tenants, workspaces } from './schema';

const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * Uploaded files (7.5 files group). The bytes live behind the storage interface (data directory by
 * default) under `storage_key`; `biz_type` says what the file was uploaded for ('dataset', 'icon', 'chat').
 */
export const files = pgTable(
  'files',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    bizType: text('biz_type').notNull(),
    name: text('name').notNull(),
    size: integer('size').notNull(),
    mimeType: text('mime_type').notNull(),
    storageKey: text('storage_key').notNull(),
    sha256: text('sha256').notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('files_ws_created').on(t.workspaceId, t.createdAt)],
);

/**
 * A knowledge base (spec 3). `embedding` names the text-embedding model its vectors were made with
 * (null: the built-in hashed n-gram embedding); `embedding_dim` is fixed once the first vector exists.
 * `retrieval` holds the default retrieval settings used by hit tests and nodes that do not override them.
 */
export const datasets = pgTable(
  'datasets',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    embedding: jsonb('embedding').$type<{ provider: string; model: string } | null>(),
    embeddingDim: integer('embedding_dim'),
    retrieval: jsonb('retrieval').$type<Record<string, unknown>>().notNull().default({}),
    /** The store item it was copied from (issue 23), null when made here. */
    storeOriginId: uuid('store_origin_id'),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [uniqueIndex('datasets_ws_name').on(t.workspaceId, sql`lower(${t.name})`), index('datasets_ws_created').on(t.workspaceId, t.createdAt)],
);

/**
 * A knowledge unit (a document): from an uploaded file (`file_id`) or a URL (`source_url`, refreshed
 * every `update_frequency` days). `status` is the processing state of spec 4, `graph_status` the graph
 * analysis state. Names are unique per base, and so are URLs.
 */
export const datasetDocuments = pgTable(
  'dataset_documents',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    fileId: uuid('file_id').references(() => files.id, { onDelete: 'set null' }),
    fileType: text('file_type').notNull(),
    size: integer('size').notNull().default(0),
    charCount: integer('char_count').notNull().default(0),
    sourceUrl: text('source_url'),
    updateFrequency: text('update_frequency').notNull().default('none'),
    nextRefreshAt: timestamp('next_refresh_at', { withTimezone: true }),
    uploadStatus: text('upload_status').notNull().default('uploaded'),
    status: text('status').notNull().default('waiting'),
    progress: real('progress'),
    error: text('error'),
    processRule: jsonb('process_rule').$type<Record<string, unknown>>().notNull(),
    sheet: text('sheet'),
    headerRow: integer('header_row'),
    segmentMode: text('segment_mode').notNull().default('general'),
    enabled: boolean('enabled').notNull().default(true),
    graphStatus: text('graph_status').notNull().default('none'),
    graphError: text('graph_error'),
    hitCount: integer('hit_count').notNull().default(0),
    /**
     * Goes up with every statement that writes the unit's segments (triggers of migration
     * 0010_vector_cache): the in-process vector search keeps a unit's vectors while it stays.
     */
    segmentsVersion: bigint('segments_version', { mode: 'number' }).notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [
    uniqueIndex('dataset_documents_name').on(t.datasetId, sql`lower(${t.name})`),
    uniqueIndex('dataset_documents_url').on(t.datasetId, t.sourceUrl).where(sql`${t.sourceUrl} is not null`),
    index('dataset_documents_ds_created').on(t.datasetId, t.createdAt),
  ],
);

/**
 * Segments of a unit. `kind`: `chunk` (general mode), `parent` and `child` (parent-child mode: children
 * are matched, `parent_id` gives their context), `qa` rows are not here (see dataset_qa_pairs).
 * `tokens` is the unit's text tokenised for full-text search (Chinese split into characters and
 * bigrams, other words lower-cased), indexed through the generated `tsv` column ('simple' dictionary).
 * `embedding` is the vector as real[] (every server); the migration adds `embedding_v vector` where
 * pgvector exists (PGlite always), kept in step by the indexer.
 */
export const datasetSegments = pgTable(
  'dataset_segments',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => datasetDocuments.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    kind: text('kind', { enum: ['chunk', 'parent', 'child'] }).notNull().default('chunk'),
    position: integer('position').notNull(),
    content: text('content').notNull(),
    tokens: text('tokens').notNull().default(''),
    embedding: real('embedding').array(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
    ...stamps,
  },
  (t) => [index('dataset_segments_doc_pos').on(t.documentId, t.position), index('dataset_segments_ds').on(t.datasetId)],
);

/**
 * How often each segment was answered (hit tests and retrieval; a parent-child parent counts its
 * matched children too), a row once first hit. Kept apart from dataset_segments (migration
 * 0009_segment_hits): a segment's row is wide and its page full, so adding 1 to a counter in it wrote
 * a new row version into every index of the table, the HNSW index included (~8 ms a hit test on
 * the embedded database). This narrow row updates in place.
 */
export const datasetSegmentHits = pgTable('dataset_segment_hits', {
  segmentId: uuid('segment_id')
    .primaryKey()
    .references(() => datasetSegments.id, { onDelete: 'cascade' }),
  hitCount: integer('hit_count').notNull().default(0),
});

/** Q&A pairs of a unit, matched beside segments (question and answer both searchable). */
export const datasetQaPairs = pgTable(
  'dataset_qa_pairs',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => datasetDocuments.id, { onDelete: 'cascade' }),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    tokens: text('tokens').notNull().default(''),
    embedding: real('embedding').array(),
    enabled: boolean('enabled').notNull().default(true),
    hitCount: integer('hit_count').notNull().default(0),
    ...stamps,
  },
  (t) => [index('dataset_qa_doc').on(t.documentId, t.createdAt), index('dataset_qa_ds').on(t.datasetId)],
);

/**
 * The record of knowledge work (types normal = parse+segment+embed, graphic = graph analysis, faq =
 * Q&A generation, index = segment index entries): states, progress and logs the UI and the admin read.
 * The work itself is a pg-boss job per task (schema `pgboss`, migration 0043; the job's id is the
 * task's): `locked_by` names the worker (host:pid:id) running it, `locked_until` mirrors its lease,
 * `attempts` counts its starts, and `cancel_requested` asks a running task to stop (knowledge/worker.ts).
 */
export const datasetTasks = pgTable(
  'dataset_tasks',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => datasetDocuments.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['normal', 'graphic', 'faq', 'index'] }).notNull(),
    status: text('status').notNull().default('queued'),
    progress: real('progress'),
    attempts: integer('attempts').notNull().default(0),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    cancelRequested: boolean('cancel_requested').notNull().default(false),
    /** What the task works with beyond its unit (migration 0035): `index` tasks, `{ types }` of the entries to generate. */
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    createdBy: uuid('created_by').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ...stamps,
  },
  (t) => [index('dataset_tasks_status_created').on(t.status, t.createdAt), index('dataset_tasks_doc').on(t.documentId)],
);

/** Log lines of a task, oldest first. */
export const datasetTaskLogs = pgTable(
  'dataset_task_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    taskId: uuid('task_id')
      .notNull()
      .references(() => datasetTasks.id, { onDelete: 'cascade' }),
    level: text('level', { enum: ['info', 'warn', 'error'] }).notNull().default('info'),
    message: text('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dataset_task_logs_task').on(t.taskId, t.id)],
);

/** The hit-test history of a base (search-hit-results): the query, its settings and what matched. */
export const datasetHitResults = pgTable(
  'dataset_hit_results',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    query: text('query').notNull(),
    mode: text('mode').notNull(),
    topK: integer('top_k').notNull(),
    scoreThreshold: doublePrecision('score_threshold').notNull().default(0),
    rerank: boolean('rerank').notNull().default(false),
    graph: boolean('graph').notNull().default(false),
    results: jsonb('results').$type<unknown[]>().notNull().default([]),
    resultCount: integer('result_count').notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dataset_hit_results_ds_created').on(t.datasetId, t.createdAt)],
);

/** Entities extracted by graph analysis; `name_norm` (lower-cased, trimmed) is unique per base. */
export const datasetGraphEntities = pgTable(
  'dataset_graph_entities',
  {
    id: uuid('id').primaryKey(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    nameNorm: text('name_norm').notNull(),
    type: text('type').notNull().default(''),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('dataset_graph_entities_name').on(t.datasetId, t.nameNorm)],
);

/** Relations between entities, each from one unit's segment (removed with the unit's analysis). */
export const datasetGraphRelations = pgTable(
  'dataset_graph_relations',
  {
    id: uuid('id').primaryKey(),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => datasetDocuments.id, { onDelete: 'cascade' }),
    segmentId: uuid('segment_id'),
    sourceId: uuid('source_id')
      .notNull()
      .references(() => datasetGraphEntities.id, { onDelete: 'cascade' }),
    targetId: uuid('target_id')
      .notNull()
      .references(() => datasetGraphEntities.id, { onDelete: 'cascade' }),
    relation: text('relation').notNull(),
    weight: doublePrecision('weight').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dataset_graph_rel_doc').on(t.documentId), index('dataset_graph_rel_source').on(t.sourceId), index('dataset_graph_rel_target').on(t.targetId)],
);

/**
 * Extra index entries of a segment (migration 0035): questions, summaries or keywords, by hand
 * (`manual`) or from the tenant's chat model (`generated`), tokenised (`tsv`, generated) and
 * embedded like segments (`embedding_v` where pgvector exists, else `embedding`). Retrieval answers
 * their segment. They go with their segment.
 */
export const datasetSegmentIndexes = pgTable(
  'dataset_segment_indexes',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    datasetId: uuid('dataset_id')
      .notNull()
      .references(() => datasets.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => datasetDocuments.id, { onDelete: 'cascade' }),
    segmentId: uuid('segment_id')
      .notNull()
      .references(() => datasetSegments.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['question', 'summary', 'keyword'] }).notNull(),
    source: text('source', { enum: ['manual', 'generated'] }).notNull().default('manual'),
    content: text('content').notNull(),
    tokens: text('tokens').notNull().default(''),
    embedding: real('embedding').array(),
    ...stamps,
  },
  (t) => [index('dataset_segment_indexes_segment').on(t.segmentId, t.createdAt), index('dataset_segment_indexes_ds').on(t.datasetId), index('dataset_segment_indexes_doc').on(t.documentId)],
);
