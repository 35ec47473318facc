import { z } from 'zod';
import { Id, Timestamp } from './common';
import { UserApprovals } from './approval';
import { StoreReviewState } from './distribution';
import { RUN_SOURCES } from './run-api';

/**
 * The caller's own page (/operation/my, GET /console/my): what they created in the project spaces
 * they still belong to, their store submissions with their review states, and their recent runs.
 * Every item carries its project space, so the page links to where it lives.
 */

export const MY_LIST_LIMIT = 50;

export const MyResourceKind = z.enum(['app', 'dataset', 'prompt', 'tool']);
export type MyResourceKind = z.infer<typeof MyResourceKind>;

export const MyResource = z.object({
  kind: MyResourceKind,
  id: Id,
  name: z.string(),
  /** App mode or tool type; '' for knowledge bases and prompts. */
  subtype: z.string(),
  workspace_id: Id,
  workspace_name: z.string(),
  updated_at: Timestamp,
});
export type MyResource = z.infer<typeof MyResource>;

export const MySubmission = z.object({
  id: Id,
  type: z.enum(['app', 'dataset', 'prompt', 'tool', 'plugin']),
  name: z.string(),
  review_state: StoreReviewState,
  /** The reviewer's reason for a rejection or a take-down. */
  reason: z.string(),
  workspace_id: Id.nullable(),
  created_at: Timestamp,
});
export type MySubmission = z.infer<typeof MySubmission>;

export const MyRun = z.object({
  id: Id,
  app_id: Id,
  app_name: z.string(),
  app_type: z.string(),
  workspace_id: Id,
  source: z.enum(RUN_SOURCES),
  status: z.enum(['running', 'succeeded', 'failed', 'stopped']),
  elapsed_ms: z.number(),
  created_at: Timestamp,
});
export type MyRun = z.infer<typeof MyRun>;

/** The caller's approvals: the newest they submitted and those waiting for their decision. */
export const MyApprovals = UserApprovals;

export const MyOverview = z.object({
  resources: z.array(MyResource),
  /** Per kind, how many there are in all (the list holds the newest MY_LIST_LIMIT of each). */
  counts: z.object({ app: z.number().int(), dataset: z.number().int(), prompt: z.number().int(), tool: z.number().int() }),
  submissions: z.array(MySubmission),
  approvals: MyApprovals,
  runs: z.array(MyRun),
});
export type MyOverview = z.infer<typeof MyOverview>;
