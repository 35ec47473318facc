/** Tables of the stores (issue 23). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { boolean, customType, index, integer, jsonb, pgTable, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { appDistributions, tenants, workspaces } from './schema';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A published snapshot of one resource of a project space (schemas/store.ts). One row per resource
 * (type, source_id): publishing again replaces the snapshot and re-submits it. `review_state` is the
 * review (awaiting_release, released, rejected, offline) with its reason; for apps the row is the
 * app's `store` distribution's listing (`distribution_id`), the review lives here only.
 * `snapshot` is the type's StoreSnapshot (no secrets); a knowledge base's segments are in the tables below.
 */
export const storeItems = pgTable(
  'store_items',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    type: text('type', { enum: ['app', 'dataset', 'prompt', 'tool', 'plugin'] }).notNull(),
    sourceId: uuid('source_id').notNull(),
    // Null for plugins: a package is server-wide, published by a super admin (0021).
    sourceWorkspaceId: uuid('source_workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    distributionId: uuid('distribution_id').references(() => appDistributions.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    icon: jsonb('icon').$type<{ iconPath?: string; icon?: string; iconColor?: string; iconId?: string } | null>(),
    tags: jsonb('tags').$type<string[]>().notNull().default([]),
    kind: text('kind'),
    version: text('version'),
    snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
    stats: jsonb('stats').$type<{ documents?: number; segments?: number; functions?: number; variables?: number }>().notNull().default({}),
    reviewState: text('review_state', { enum: ['in_approval', 'awaiting_release', 'released', 'rejected', 'offline'] }).notNull().default('awaiting_release'),
    reviewReason: text('review_reason'),
    copyCount: integer('copy_count').notNull().default(0),
    publishedBy: uuid('published_by').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
    reviewedBy: uuid('reviewed_by'),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('store_items_type_source').on(t.type, t.sourceId), index('store_items_tenant_type_state').on(t.tenantId, t.type, t.reviewState, t.publishedAt)],
);

/** The documents of a knowledge base's snapshot (the unit's fields a copy needs; the file is not kept). */
export const storeDatasetDocuments = pgTable(
  'store_dataset_documents',
  {
    id: uuid('id').primaryKey(),
    storeItemId: uuid('store_item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    fileType: text('file_type').notNull(),
    size: integer('size').notNull().default(0),
    charCount: integer('char_count').notNull().default(0),
    processRule: jsonb('process_rule').$type<Record<string, unknown>>().notNull(),
    segmentMode: text('segment_mode').notNull().default('general'),
    sheet: text('sheet'),
    headerRow: integer('header_row'),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [index('store_dataset_documents_item').on(t.storeItemId, t.position)],
);

/**
 * The segments of a knowledge base's snapshot, as dataset_segments holds them (tokens, tsvector and
 * vector: `embedding`, and `embedding_v` where pgvector exists, added by the migration).
 */
export const storeDatasetSegments = pgTable(
  'store_dataset_segments',
  {
    id: uuid('id').primaryKey(),
    storeItemId: uuid('store_item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    documentId: uuid('document_id')
      .notNull()
      .references(() => storeDatasetDocuments.id, { onDelete: 'cascade' }),
    parentId: uuid('parent_id'),
    kind: text('kind').notNull().default('chunk'),
    position: integer('position').notNull(),
    content: text('content').notNull(),
    tokens: text('tokens').notNull().default(''),
    tsv: tsvector('tsv'),
    embedding: real('embedding').array(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [index('store_dataset_segments_doc_pos').on(t.documentId, t.position), index('store_dataset_segments_item').on(t.storeItemId)],
);

/**
 * The snapshot's segment index entries (migration 0041): a copy takes them with their segment, vectors
 * as they are (`embedding_v` where pgvector exists is added by the migration, not declared here).
 */
export const storeDatasetSegmentIndexes = pgTable(
  'store_dataset_segment_indexes',
  {
    id: uuid('id').primaryKey(),
    storeItemId: uuid('store_item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    segmentId: uuid('segment_id')
      .notNull()
      .references(() => storeDatasetSegments.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['question', 'summary', 'keyword'] }).notNull(),
    source: text('source', { enum: ['manual', 'generated'] }).notNull().default('manual'),
    content: text('content').notNull(),
    tokens: text('tokens').notNull().default(''),
    embedding: real('embedding').array(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('store_dataset_segment_indexes_item').on(t.storeItemId), index('store_dataset_segment_indexes_segment').on(t.segmentId)],
);

/**
 * The published versions of a plugin listing (type 'plugin'): each keeps the package's bytes (base64,
 * as plugin_packages does), so installing from the store needs nothing else and passes the upload's checks.
 */
export const storePluginVersions = pgTable(
  'store_plugin_versions',
  {
    id: uuid('id').primaryKey(),
    storeItemId: uuid('store_item_id')
      .notNull()
      .references(() => storeItems.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
    archive: text('archive').notNull(),
    checksum: text('checksum').notNull(),
    publishedBy: uuid('published_by').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('store_plugin_versions_item_version').on(t.storeItemId, t.version)],
);
