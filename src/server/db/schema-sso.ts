/** Tables of single sign-on (issue 29, migration 0030). Re-exported from ./schema, so drizzle-kit and the services see one schema. */
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { authSessions, users } from './schema';

/** A Weft user's account at an OpenID provider: matched by (issuer, subject) on every sign-in after the first. */
export const userIdentities = pgTable(
  'user_identities',
  {
    id: uuid('id').primaryKey(),
    userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    issuer: text('issuer').notNull(),
    subject: text('subject').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_identities_issuer_subject').on(t.issuer, t.subject), index('user_identities_user').on(t.userId)],
);

/**
 * An authorization request on its way through the provider: the state (stored hashed: it is the key
 * the browser brings back), the nonce and the PKCE verifier. Deleted when the callback takes it.
 */
export const ssoStates = pgTable('sso_states', {
  stateHash: text('state_hash').primaryKey(),
  nonce: text('nonce').notNull(),
  codeVerifier: text('code_verifier').notNull(),
  /** The path of this app the browser returns to with its ticket. */
  redirectUri: text('redirect_uri').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A one-time ticket (stored hashed) the browser exchanges for Weft's tokens; it lives a minute. */
export const ssoTickets = pgTable('sso_tickets', {
  ticketHash: text('ticket_hash').primaryKey(),
  userId: uuid('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  /** The provider's id token: kept with the session it starts, for the provider's logout. */
  idToken: text('id_token').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The provider's id token of a Weft session started by single sign-on (its logout ends the provider's session too). */
export const ssoSessions = pgTable('sso_sessions', {
  sessionId: uuid('session_id').primaryKey().references(() => authSessions.id, { onDelete: 'cascade' }),
  idToken: text('id_token').notNull(),
});
