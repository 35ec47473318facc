import { z } from 'zod';
import { Id, Timestamp } from './common';
import { pageNumber, pageSize } from './guards';

/**
 * Approval flows (spec 4 "Workflow approval: processing, returned, rejected, canceled, agreed, forced
 * recall"; issue 33). A tenant setting makes store submissions and portal distributions go through
 * approval: the submission opens an approval in `processing`; any one approver agrees (the store item
 * then awaits release, the portal distribution takes effect), returns it with a comment (the submitter
 * submits again: back to `processing`) or rejects it. The submitter cancels while it is processing or
 * returned, or recalls an agreed store item that is not released yet (→ `canceled`); a tenant admin
 * forces the recall of an agreed item (→ `forced_recall`: the item leaves the store, the distribution
 * is cancelled). Every step is recorded with who, when and the comment.
 *
 * Calls: console GET /approvals, GET /approvals/{id}, POST /approvals/{id}/{agree|return|reject|cancel|recall},
 * GET /approvals/notifications, POST /approvals/seen; admin GET, PUT /admin/approval/settings,
 * POST /admin/approval/{id}/force-recall.
 */

export const APPROVAL_STATES = ['processing', 'returned', 'rejected', 'canceled', 'agreed', 'forced_recall'] as const;
export const ApprovalState = z.enum(APPROVAL_STATES);
export type ApprovalState = z.infer<typeof ApprovalState>;

/** What is being approved: a store submission (any store type) or a portal distribution of an app. */
export const ApprovalKind = z.enum(['store', 'portal']);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

/** A step of the history. `recall` is the submitter's withdrawal of an agreed store item (→ canceled). */
export const ApprovalAction = z.enum(['submit', 'resubmit', 'agree', 'return', 'reject', 'cancel', 'recall', 'force_recall']);
export type ApprovalAction = z.infer<typeof ApprovalAction>;

/**
 * Who approves: a person, an organisation (its members and those of its sub-organisations) or a
 * system role (`tenant_admin`: the tenant's admins). Any one of them decides.
 */
export const ApproverRef = z
  .object({
    kind: z.enum(['user', 'org', 'role']),
    id: z.union([Id, z.literal('tenant_admin')]),
  })
  .strict();
export type ApproverRef = z.infer<typeof ApproverRef>;

export const ApproverView = ApproverRef.extend({ name: z.string() });
export type ApproverView = z.infer<typeof ApproverView>;

/** The tenant's approval setting (System › Approval). Off for both: everything works without approvals. */
export const ApprovalSettings = z.object({
  store: z.boolean(),
  portal: z.boolean(),
  approvers: z.array(ApproverView),
  updated_at: Timestamp.nullable(),
  updated_by_name: z.string().nullable(),
});
export type ApprovalSettings = z.infer<typeof ApprovalSettings>;

/** PUT /admin/approval/settings. Turning either on without approvers: APPROVAL-1005. */
export const ApprovalSettingsBody = z
  .object({
    store: z.boolean(),
    portal: z.boolean(),
    approvers: z.array(ApproverRef).max(50),
  })
  .strict();
export type ApprovalSettingsBody = z.infer<typeof ApprovalSettingsBody>;

export const ApprovalStep = z.object({
  id: Id,
  action: ApprovalAction,
  from_state: ApprovalState.nullable(),
  to_state: ApprovalState,
  actor_id: Id,
  actor_name: z.string(),
  comment: z.string(),
  created_at: Timestamp,
});
export type ApprovalStep = z.infer<typeof ApprovalStep>;

/** One approval as a list shows it, with what the caller may do to it now. */
export const Approval = z.object({
  id: Id,
  kind: ApprovalKind,
  state: ApprovalState,
  /** The submitted item's name (app, knowledge base, prompt, tool). */
  title: z.string(),
  /** `store`: the store type (app, dataset, prompt, tool); `portal`: 'app'. */
  item_type: z.enum(['app', 'dataset', 'prompt', 'tool']),
  /** The resource in its project space (app, knowledge base, prompt or tool id). */
  source_id: Id,
  /** Apps: the mode (the editor a link opens); else null. */
  app_mode: z.string().nullable(),
  /** The version submitted (apps), else null. */
  version: z.string().nullable(),
  workspace_id: Id,
  workspace_name: z.string(),
  submitted_by: Id,
  submitted_by_name: z.string(),
  submitted_at: Timestamp,
  decided_at: Timestamp.nullable(),
  updated_at: Timestamp,
  /** The latest step's comment (a return's or rejection's reason). */
  last_comment: z.string(),
  can_decide: z.boolean(),
  can_cancel: z.boolean(),
  can_recall: z.boolean(),
  can_force_recall: z.boolean(),
});
export type Approval = z.infer<typeof Approval>;

export const ApprovalDetail = Approval.extend({ steps: z.array(ApprovalStep), approvers: z.array(ApproverView) });
export type ApprovalDetail = z.infer<typeof ApprovalDetail>;

/** `todo`: waiting for the caller's decision; `mine`: submitted by the caller; `tenant`: every approval of the tenant (admins). */
export const ApprovalBox = z.enum(['todo', 'mine', 'tenant']);
export type ApprovalBox = z.infer<typeof ApprovalBox>;

export const ApprovalListQuery = z.object({
  box: ApprovalBox.default('todo'),
  state: ApprovalState.optional(),
  page: pageNumber,
  page_size: pageSize(100, 20),
});
export type ApprovalListQuery = z.input<typeof ApprovalListQuery>;
export type ApprovalListParsed = z.output<typeof ApprovalListQuery>;

export const ApprovalList = z.object({ items: z.array(Approval), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
export type ApprovalList = z.infer<typeof ApprovalList>;

/** A user's approvals for their own page: what they submitted and what waits for them. */
export const UserApprovals = z.object({ submitted: z.array(Approval), to_approve: z.array(Approval) });
export type UserApprovals = z.infer<typeof UserApprovals>;

export const ApprovalParams = z.object({ id: z.string().max(64).describe('Approval id') });

/** Agree, reject, cancel, recall, force recall: an optional comment. */
export const ApprovalCommentBody = z.object({ comment: z.string().trim().max(500).default('') }).strict();
/** Return for changes: the comment says what to change (required). */
export const ApprovalReturnBody = z.object({ comment: z.string().trim().min(1).max(500) }).strict();

/** The console's bell: approvals waiting for the caller, and decisions on the caller's submissions not seen yet. */
export const ApprovalNotifications = z.object({ to_approve: z.number().int(), decided: z.number().int() });
export type ApprovalNotifications = z.infer<typeof ApprovalNotifications>;

/** Where a submission stands (on the distribution card and the store state of a resource). */
export const ApprovalRef = z.object({ id: Id, state: ApprovalState, last_comment: z.string(), version: z.string().nullable() });
export type ApprovalRef = z.infer<typeof ApprovalRef>;
