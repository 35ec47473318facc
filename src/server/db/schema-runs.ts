/** Tables of the runs area. Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { RUN_SOURCES } from '../../../schemas/run-api';
import { boolean, doublePrecision, index, integer, json, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { apps, appVersions, conversationGroups, tenants, workspaces } from './schema';

type Values = Record<string, unknown>;
type StoredError = { code: string; message: string; nodeId?: string };

const tokens = {
  promptTokens: integer('prompt_tokens').notNull().default(0),
  completionTokens: integer('completion_tokens').notNull().default(0),
  totalTokens: integer('total_tokens').notNull().default(0),
};

/**
 * A conversation with a chat app (chatflow, agent): its messages and the current values of the
 * flow's conversation variables. Debug conversations (source `draft`) belong to the member who
 * started them; portal ones (`portal`) to their end user, with what the sessions page sets (pin,
 * group, persona) and the distributed version they started on (`version_id`).
 */
export const conversations = pgTable(
  'conversations',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    appId: uuid('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
    source: text('source', { enum: ['draft', 'published', 'portal', 'api'] }).notNull().default('draft'),
    name: text('name').notNull().default(''),
    variables: jsonb('variables').$type<Values>().notNull().default({}),
    pinned: boolean('pinned').notNull().default(false),
    groupId: uuid('group_id').references(() => conversationGroups.id, { onDelete: 'set null' }),
    /** The character the end user set for this conversation (the LLM and agent nodes get it as `sys.persona`). */
    persona: text('persona').notNull().default(''),
    versionId: uuid('version_id').references(() => appVersions.id, { onDelete: 'set null' }),
    createdBy: uuid('created_by').notNull(),
    /** Public API conversations: the caller's `user` string (`created_by` is a UUID derived from it and the app). */
    endUser: text('end_user'),
    /**
     * OpenAI-compatible chats: the hash of the turns so far (questions and answers), so the next request,
     * which repeats them, continues this conversation (public/openai.ts).
     */
    historyHash: text('history_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('conversations_app_created').on(t.appId, t.createdAt),
    index('conversations_creator_source_updated').on(t.createdBy, t.source, t.updatedAt),
    index('conversations_app_history').on(t.appId, t.historyHash),
  ],
);

/**
 * One run of an app's flow: the whole flow or one node alone (`single-node`, `node_id` set).
 * `source` says who started it (schemas/run-api.ts RUN_SOURCES: a debug run of the draft, the
 * portal, the public API, a workflow tool…); `version_id` the published version it ran (null for
 * the draft). Totals are written when the run ends; `status` is `running` until then.
 */
export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    appId: uuid('app_id').notNull().references(() => apps.id, { onDelete: 'cascade' }),
    mode: text('mode').notNull(),
    source: text('source', { enum: RUN_SOURCES }).notNull(),
    versionId: uuid('version_id').references(() => appVersions.id, { onDelete: 'set null' }),
    nodeId: text('node_id'),
    status: text('status', { enum: ['running', 'succeeded', 'failed', 'stopped'] }).notNull().default('running'),
    query: text('query').notNull().default(''),
    inputs: jsonb('inputs').$type<Values>().notNull().default({}),
    outputs: jsonb('outputs').$type<Values>().notNull().default({}),
    answer: text('answer').notNull().default(''),
    error: jsonb('error').$type<StoredError>(),
    ...tokens,
    steps: integer('steps').notNull().default(0),
    elapsedMs: doublePrecision('elapsed_ms').notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    /** Public API and MCP runs: the caller's end user (`user`), as the log shows it. */
    endUser: text('end_user'),
    conversationId: uuid('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('runs_app_created').on(t.appId, t.createdAt),
    index('runs_app_status_created').on(t.appId, t.status, t.createdAt),
    index('runs_conversation').on(t.conversationId),
    index('runs_creator_created').on(t.createdBy, t.createdAt),
    // The overview's p95 (services/overview.ts); migration 0018 adds INCLUDE (created_at, status, source).
    index('runs_app_elapsed').on(t.appId, t.elapsedMs.desc()),
  ],
);

/**
 * One execution of a node in a run, in the order the nodes started (`seq`: the node_started
 * event's sequence number). Inside iterations and loops a node runs once per round: `scope` holds
 * the containers and rounds (outermost first); `parent_execution_id` and `item_index` repeat the
 * innermost frame for simple queries. Skipped nodes are rows too (status `skipped`).
 */
export const nodeExecutions = pgTable(
  'node_executions',
  {
    id: uuid('id').primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    executionId: text('execution_id').notNull(),
    seq: integer('seq').notNull(),
    nodeId: text('node_id').notNull(),
    kind: text('kind').notNull(),
    title: text('title').notNull().default(''),
    parentId: text('parent_id'),
    parentExecutionId: text('parent_execution_id'),
    itemIndex: integer('item_index'),
    scope: jsonb('scope').$type<{ containerId: string; executionId: string; index: number }[]>().notNull().default([]),
    status: text('status', { enum: ['running', 'succeeded', 'exception', 'failed', 'stopped', 'skipped'] }).notNull(),
    inputs: jsonb('inputs').$type<Values>().notNull().default({}),
    outputs: jsonb('outputs').$type<Values>().notNull().default({}),
    handle: text('handle'),
    error: jsonb('error').$type<StoredError>(),
    elapsedMs: doublePrecision('elapsed_ms').notNull().default(0),
    ...tokens,
    retries: integer('retries').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('node_executions_run_execution').on(t.runId, t.executionId), index('node_executions_run_seq').on(t.runId, t.seq)],
);

/** A question and its answer in a conversation; `run_id` is the run that answered it. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey(),
    conversationId: uuid('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    runId: uuid('run_id').references(() => runs.id, { onDelete: 'set null' }),
    query: text('query').notNull(),
    answer: text('answer').notNull().default(''),
    files: jsonb('files').$type<{ file_id: string; name?: string; type?: string }[]>().notNull().default([]),
    status: text('status', { enum: ['running', 'succeeded', 'failed', 'stopped'] }).notNull().default('running'),
    error: jsonb('error').$type<StoredError>(),
    ...tokens,
    elapsedMs: doublePrecision('elapsed_ms').notNull().default(0),
    /** The end user's like or dislike (the app's `feedback` feature). */
    feedback: text('feedback', { enum: ['like', 'dislike'] }),
    /** The knowledge passages the answer used (schemas/portal.ts Citation). */
    citations: jsonb('citations').$type<Record<string, unknown>[]>().notNull().default([]),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('messages_conversation_created').on(t.conversationId, t.createdAt)],
);

/**
 * The durable log of a run's stream (issue 34): `seq` 0 is `run_created`, then each run event in the
 * order the stream sent it, so a client that reconnects to any process resumes after its Last-Event-ID.
 * Written in batches (../runs/event-log.ts); old rows go with the run sweep.
 */
export const runEvents = pgTable(
  'run_events',
  {
    runId: uuid('run_id').notNull(),
    seq: integer('seq').notNull(),
    event: json('event').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'run_events_pkey', columns: [t.runId, t.seq] }), index('run_events_created_at_idx').on(t.createdAt)],
);
