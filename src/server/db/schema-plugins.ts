/** Installed plugin packages (issue 24). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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
