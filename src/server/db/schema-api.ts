/** Tables of apps as services (issue 22). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { bigint, boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { apps, tenants, workspaces } from './schema';

/**
 * A key of the public API (schemas/app-api.ts). An app key (`app_id` set) runs that app through
 * `/v1/...`; a space key (`app_id` null) calls the project space's MCP endpoint. The secret itself
 * is never stored: `secret_hash` is the hex SHA-256 of the whole secret (240 random bits: a slow hash
 * adds nothing), `prefix` its first characters to find the row, `last4` for the masked form.
 * Revoking keeps the row (who and when) and the key stops working.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    appId: uuid('app_id').references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    last4: text('last4').notNull(),
    /** Requests a minute (null: the server's default, WEFT_API_RATE_LIMIT). */
    rateLimitPerMinute: integer('rate_limit_per_minute'),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Written at most once a minute per key (not on every request). */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by'),
  },
  (t) => [index('api_keys_prefix').on(t.prefix), index('api_keys_app_created').on(t.appId, t.createdAt), index('api_keys_workspace_created').on(t.workspaceId, t.createdAt)],
);

/**
 * Requests per key and minute, shared by every server process on the database: each process adds
 * its own count with one statement now and then (security/rate-limit.ts), never one per request.
 * Rows older than an hour are deleted by the same flushes.
 */
export const apiRateCounters = pgTable(
  'api_rate_counters',
  {
    keyId: uuid('key_id').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.windowStart] }), index('api_rate_counters_window').on(t.windowStart)],
);

/** A project space's MCP endpoint (schemas/app-api.ts McpExposure): on or off, and the workflow apps it offers. */
export const mcpExposures = pgTable('mcp_exposures', {
  workspaceId: uuid('workspace_id')
    .primaryKey()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
  enabled: boolean('enabled').notNull().default(false),
  appIds: jsonb('app_ids').$type<string[]>().notNull().default([]),
  updatedBy: uuid('updated_by').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The overview's figures of one app on one closed day in one time zone (services/overview.ts): a
 * day that ended long enough ago that no run of it can still change is computed once, from the
 * runs, and read from here afterwards. `finished` runs have a latency; `latency_sum_ms` / `finished`
 * is the day's average.
 */
export const appOverviewDays = pgTable(
  'app_overview_days',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    tz: text('tz').notNull(),
    day: date('day').notNull(),
    runs: integer('runs').notNull(),
    conversations: integer('conversations').notNull(),
    messages: integer('messages').notNull(),
    activeUsers: integer('active_users').notNull(),
    tokens: bigint('tokens', { mode: 'number' }).notNull(),
    finished: integer('finished').notNull(),
    latencySumMs: doublePrecision('latency_sum_ms').notNull(),
    p95LatencyMs: doublePrecision('p95_latency_ms').notNull(),
    failed: integer('failed').notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.tz, t.day] })],
);

/**
 * The end users of an app (runs' creators) and the last run of theirs the overview has counted in a
 * closed day: the active users of a period are those seen since its start (plus today's, read live).
 */
export const appEndUsers = pgTable(
  'app_end_users',
  {
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.userId] }), index('app_end_users_app_seen').on(t.appId, t.lastSeen)],
);
