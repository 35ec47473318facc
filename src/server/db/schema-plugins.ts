/** Installed plugin packages (issue 24). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './schema';

/**
 * One installed package, server-wide (only a super admin installs: a package runs code on the
 * server). `archive` is the uploaded .tgz in base64 and `checksum` its manifest's bundle checksum;
 * `updated_at` is the stamp other processes compare to pick up installs, upgrades and deletes.
 */
export const pluginPackages = pgTable('plugin_packages', {
  id: text('id').primaryKey(),
  version: text('version').notNull(),
  manifest: jsonb('manifest').$type<Record<string, unknown>>().notNull(),
  archive: text('archive').notNull(),
  checksum: text('checksum').notNull(),
  installedBy: text('installed_by').notNull().default(''),
  installedAt: timestamp('installed_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A tenant's credentials for an installed plugin (one set per tenant and plugin, issue 24). The
 * values are one JSON object encrypted as a whole (AES-GCM, src/server/security/secrets.ts) with
 * the tenant and plugin as its aad, so a row copied elsewhere no longer decrypts. No foreign key
 * to plugin_packages: deleting a plugin deletes them in the same service call.
 */
export const pluginCredentials = pgTable(
  'plugin_credentials',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    pluginId: text('plugin_id').notNull(),
    valuesEnc: text('values_enc').notNull(),
    updatedBy: text('updated_by').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.pluginId] })],
);

/**
 * Each version of a plugin as it was installed or upgraded (the detail page's history). Kept when
 * the plugin is deleted: it is the record of what ran on this server.
 */
export const pluginVersions = pgTable(
  'plugin_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pluginId: text('plugin_id').notNull(),
    version: text('version').notNull(),
    checksum: text('checksum').notNull(),
    action: text('action').$type<'install' | 'upgrade'>().notNull(),
    by: text('by').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('plugin_versions_plugin_idx').on(t.pluginId, t.at)],
);
