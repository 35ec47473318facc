/** The tables of GBI (issue 30, migration 0038). Re-exported from ./schema. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { externalDatabases, tenants, users, workspaces } from './schema';
import { GBI_DIALECTS } from '../../../schemas/gbi';

const stamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/**
 * A data source of a project space: one of its databases (`database_id`; its credentials stay in
 * external_databases) or an uploaded spreadsheet, whose rows live in a DuckDB file under the data
 * directory (`gbi/<tenant>/<id>.duckdb`), never in this database.
 */
export const gbiSources = pgTable(
  'gbi_sources',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['database', 'spreadsheet'] }).notNull(),
    name: text('name').notNull(),
    dialect: text('dialect', { enum: GBI_DIALECTS }).notNull(),
    databaseId: uuid('database_id').references(() => externalDatabases.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull().default(''),
    queryLimit: integer('query_limit').notNull().default(100),
    description: text('description').notNull().default(''),
    createdBy: uuid('created_by').notNull(),
    ...stamps,
  },
  (t) => [index('gbi_sources_ws').on(t.workspaceId, t.createdAt), uniqueIndex('gbi_sources_ws_database').on(t.workspaceId, t.databaseId)],
);

/** A table of a source, with the business words the model is given. */
export const gbiTables = pgTable(
  'gbi_tables',
  {
    id: uuid('id').primaryKey(),
    sourceId: uuid('source_id').notNull().references(() => gbiSources.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    businessName: text('business_name').notNull().default(''),
    description: text('description').notNull().default(''),
    rowCount: integer('row_count'),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('gbi_tables_source_name').on(t.sourceId, t.name)],
);

/** A column of a source's table; sample values are read from the source when it is added. */
export const gbiColumns = pgTable(
  'gbi_columns',
  {
    id: uuid('id').primaryKey(),
    tableId: uuid('table_id').notNull().references(() => gbiTables.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    dataType: text('data_type').notNull(),
    businessName: text('business_name').notNull().default(''),
    description: text('description').notNull().default(''),
    sampleValues: jsonb('sample_values').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('gbi_columns_table').on(t.tableId, t.position)],
);

/** A user's chat with the data (sessions are per user: nobody else lists or reads them). */
export const gbiSessions = pgTable(
  'gbi_sessions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id').references(() => gbiSources.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    ...stamps,
  },
  (t) => [index('gbi_sessions_user').on(t.userId, t.workspaceId, t.updatedAt)],
);

/** One question and what came of it: the SQL, the result (at most the query limit), the chart and the answer. */
export const gbiMessages = pgTable(
  'gbi_messages',
  {
    id: uuid('id').primaryKey(),
    sessionId: uuid('session_id').notNull().references(() => gbiSessions.id, { onDelete: 'cascade' }),
    sourceId: uuid('source_id').references(() => gbiSources.id, { onDelete: 'set null' }),
    question: text('question').notNull(),
    sql: text('sql').notNull().default(''),
    status: text('status', { enum: ['ok', 'refused', 'failed'] }).notNull(),
    answer: text('answer').notNull().default(''),
    result: jsonb('result'),
    chart: jsonb('chart'),
    error: jsonb('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('gbi_messages_session').on(t.sessionId, t.createdAt)],
);
