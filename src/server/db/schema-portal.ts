/** Tables of distribution and the portal (issue 21). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { apps, appVersions, tenants, tools, users, workspaces } from './schema';

/**
 * One app on one distribution platform (schemas/distribution.ts): the published version it serves,
 * its state (`distributed`, or `cancelled`: the row is kept with who and when, and distributing
 * again re-activates it), who distributed it and when. A `store` row's listing and review are its
 * store item's (store_items.distribution_id, migration 0020); `tool_id` the workflow tool it made (tool only). A version that a
 * cancelled row names may be deleted later: `version_id` then goes null.
 */
export const appDistributions = pgTable(
  'app_distributions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    platform: text('platform', { enum: ['current_project', 'portal', 'store', 'tool'] }).notNull(),
    versionId: uuid('version_id').references(() => appVersions.id, { onDelete: 'set null' }),
    state: text('state', { enum: ['distributed', 'cancelled'] }).notNull().default('distributed'),
    distributedBy: uuid('distributed_by').notNull(),
    distributedAt: timestamp('distributed_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    cancelledBy: uuid('cancelled_by'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    toolId: uuid('tool_id').references(() => tools.id, { onDelete: 'set null' }),
  },
  (t) => [
    uniqueIndex('app_distributions_app_platform').on(t.appId, t.platform),
    index('app_distributions_tenant_platform').on(t.tenantId, t.platform, t.state),
    index('app_distributions_tool').on(t.toolId),
  ],
);

/** A portal user's own groups of conversations (the sessions page's group management). */
export const conversationGroups = pgTable(
  'conversation_groups',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('conversation_groups_user_name').on(t.userId, sql`lower(${t.name})`)],
);
