/** The table of verification-code sign-in (issue 29, migration 0032). Re-exported from ./schema. */
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { tenants, users } from './schema';

/**
 * A sign-in code sent by mail or SMS: stored as an HMAC (never the code), for a user of a tenant
 * (null: no user has the phone or email; the row exists so the answers look alike and never signs in).
 */
export const loginCodes = pgTable(
  'login_codes',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id').notNull().references(() => tenants.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    /** The normalized phone or lower-case email the code went to. */
    target: text('target').notNull(),
    purpose: text('purpose').notNull().default('login'),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Wrong codes tried against this row; at the limit the row is used up. */
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_codes_target').on(t.channel, t.target, t.createdAt), index('login_codes_expires').on(t.expiresAt)],
);
