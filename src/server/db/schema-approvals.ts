/** Tables of the approval flows (issue 33, migration 0036). Re-exported from ./schema. */
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
// Only lazy references to these (inside callbacks): ./schema re-exports this module.
import { tenants, workspaces } from './schema';

type Approver = { kind: 'user' | 'org' | 'role'; id: string };

/** A tenant's approval setting (schemas/approval.ts ApprovalSettings); no row: approval is off. */
export const approvalSettings = pgTable('approval_settings', {
  tenantId: uuid('tenant_id')
    .primaryKey()
    .references(() => tenants.id),
  store: boolean('store').notNull().default(false),
  portal: boolean('portal').notNull().default(false),
  approvers: jsonb('approvers').$type<Approver[]>().notNull().default([]),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One approval of a store submission (`target_id`: the store item) or a portal distribution
 * (`target_id`: the app). `approvers` is the setting's list when it was opened (a later change of the
 * setting does not move approvals in progress). At most one open (processing or returned) per target.
 */
export const approvals = pgTable(
  'approvals',
  {
    id: uuid('id').primaryKey(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['store', 'portal'] }).notNull(),
    targetId: uuid('target_id').notNull(),
    title: text('title').notNull(),
    /** item_type, source_id, app_mode, version, version_id (portal: the version to serve once agreed). */
    detail: jsonb('detail').$type<{ item_type: 'app' | 'dataset' | 'prompt' | 'tool'; source_id: string; app_mode: string | null; version: string | null; version_id: string | null }>().notNull(),
    state: text('state', { enum: ['processing', 'returned', 'rejected', 'canceled', 'agreed', 'forced_recall'] }).notNull(),
    approvers: jsonb('approvers').$type<Approver[]>().notNull(),
    submittedBy: uuid('submitted_by').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    submitterSeenAt: timestamp('submitter_seen_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('approvals_open_target').on(t.kind, t.targetId).where(sql`state in ('processing', 'returned')`),
    index('approvals_tenant_state').on(t.tenantId, t.state, t.submittedAt),
    index('approvals_submitter').on(t.submittedBy, t.submittedAt),
    index('approvals_target').on(t.kind, t.targetId, t.submittedAt),
  ],
);

/** Every step of an approval: who, when, from which state to which, and the comment. */
export const approvalSteps = pgTable(
  'approval_steps',
  {
    id: uuid('id').primaryKey(),
    approvalId: uuid('approval_id')
      .notNull()
      .references(() => approvals.id, { onDelete: 'cascade' }),
    action: text('action', { enum: ['submit', 'resubmit', 'agree', 'return', 'reject', 'cancel', 'recall', 'force_recall'] }).notNull(),
    fromState: text('from_state', { enum: ['processing', 'returned', 'rejected', 'canceled', 'agreed', 'forced_recall'] }),
    toState: text('to_state', { enum: ['processing', 'returned', 'rejected', 'canceled', 'agreed', 'forced_recall'] }).notNull(),
    actorId: uuid('actor_id').notNull(),
    comment: text('comment').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('approval_steps_approval').on(t.approvalId, t.createdAt)],
);
