/** Tables of app versions (issue 4). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apps, tenants, workspaces } from './schema';

/**
 * A published version of an app (spec 3 "Version: version number, description"; 7.5 app publish):
 * a frozen copy of the draft flow document as it was when published, with the draft's revision,
 * its content hash and save time, so one can tell which draft it came from. `secretEnv` keeps the
 * secret environment values (encrypted, as in app_drafts) of that moment: a later draft change does
 * not change what the version runs. Version numbers are unique per app (case-insensitive).
 */
export const appVersions = pgTable(
  'app_versions',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id),
    workspaceId: uuid('workspace_id').notNull().references(() => workspaces.id, { onDelete: 'cascade' }),
    appId: uuid('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    version: text('version').notNull(),
    description: text('description').notNull().default(''),
    document: jsonb('document').$type<Record<string, unknown>>().notNull(),
    secretEnv: jsonb('secret_env').$type<Record<string, string>>().notNull().default({}),
    draftRevision: integer('draft_revision').notNull(),
    draftHash: text('draft_hash').notNull(),
    draftUpdatedAt: timestamp('draft_updated_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('app_versions_app_version').on(t.appId, sql`lower(${t.version})`),
    index('app_versions_app_created').on(t.appId, t.createdAt),
  ],
);
