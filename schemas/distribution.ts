import { z } from 'zod';
import { Id, Timestamp } from './common';
import { ApprovalRef } from './approval';

/**
 * App distribution (spec 4 "Distribution: not distributed to distributed; it can be cancelled; only
 * project-space owners may do it"; 7.5 "app distribution"; 9 "Distribution platforms"). A distribution
 * serves ONE chosen published version to a platform's audience; publishing a newer version changes
 * nothing for end users until the owner moves the distribution to it.
 *
 * - `current_project`: the members of the app's project space see the app in their portal.
 * - `portal`: every user of the tenant sees it in their portal.
 * - `store`: the app is submitted to the tenant's app store (listing and review: the stores issue);
 *   here the record, its state and the owner rule. `review_state` tells where the submission is.
 * - `tool`: a workflow app becomes a workflow tool of its project space, pinned to the version.
 *
 * Calls: GET, POST, PUT /console/apps/{app_id}/distribution; DELETE .../distribution/{distribution_id}.
 * Each answers the whole {@link DistributionList} (the writes too, as it stands after them).
 * Reading is for every member of the space; POST, PUT and DELETE are the space owner's: anyone else is
 * refused with PERMISSION-1000 (checked on the server; the UI shows the action disabled with the reason).
 */

export const DISTRIBUTION_PLATFORMS = ['current_project', 'portal', 'store', 'tool'] as const;
export const DistributionPlatform = z.enum(DISTRIBUTION_PLATFORMS);
export type DistributionPlatform = z.infer<typeof DistributionPlatform>;

/** Where a platform stands for an app: never distributed, distributed now, or cancelled (may be distributed again). */
export const DistributionState = z.enum(['not_distributed', 'distributed', 'cancelled']);
export type DistributionState = z.infer<typeof DistributionState>;

/**
 * A store submission's review (spec 4: awaiting release → released; taken offline; Weft adds rejected
 * with a reason). `in_approval`: the tenant's approval flow (schemas/approval.ts) has not agreed yet;
 * once agreed the item awaits release.
 */
export const StoreReviewState = z.enum(['in_approval', 'awaiting_release', 'released', 'rejected', 'offline']);
export type StoreReviewState = z.infer<typeof StoreReviewState>;

/** Why the caller may not distribute on a platform (the UI shows the action disabled with this reason). */
export const DistributionBlock = z.enum([
  /** Only the project space's owner distributes or cancels. */
  'not_owner',
  /** The app has no published version yet. */
  'no_version',
  /** The platform does not take this app's mode (`tool`: workflow apps only). */
  'mode',
  /** The app is inactive (status): enable it first. */
  'inactive',
]);
export type DistributionBlock = z.infer<typeof DistributionBlock>;

/** A published version as a distribution names it. */
export const DistributionVersionRef = z.object({ id: Id, version: z.string(), created_at: Timestamp });
export type DistributionVersionRef = z.infer<typeof DistributionVersionRef>;

/** One platform's card: its state and, once distributed, the record. */
export const DistributionView = z.object({
  platform: DistributionPlatform,
  state: DistributionState,
  /** The record (null while never distributed). Kept after a cancel, with who and when. */
  distribution: z
    .object({
      id: Id,
      /**
       * The version it serves (served, while distributed). Null only on a cancelled record whose
       * version was deleted after the cancel (a distributed version cannot be deleted).
       */
      version: DistributionVersionRef.nullable(),
      distributed_by: Id,
      distributed_by_name: z.string(),
      distributed_at: Timestamp,
      updated_at: Timestamp,
      cancelled_by_name: z.string().nullable(),
      cancelled_at: Timestamp.nullable(),
      /** `store` only: the review (null elsewhere). */
      review_state: StoreReviewState.nullable(),
      review_reason: z.string().nullable(),
      /** `tool` only: the workflow tool it made (null elsewhere). */
      tool_id: Id.nullable(),
    })
    .nullable(),
  /** A published version newer than the distributed one exists ("a newer version is available"). */
  newer_version_available: z.boolean(),
  /** Null when the caller may distribute, move and cancel here; otherwise why not. */
  blocked: DistributionBlock.nullable(),
  /**
   * The latest approval of this platform's submission (the tenant's approval flow, schemas/approval.ts:
   * `store` and `portal` only); null when none. A portal distribution under approval changes nothing
   * until it is agreed.
   */
  approval: ApprovalRef.nullable().optional(),
});
export type DistributionView = z.infer<typeof DistributionView>;

/** GET /apps/{app_id}/distribution: every platform, in the order of DISTRIBUTION_PLATFORMS. */
export const DistributionList = z.object({
  platforms: z.array(DistributionView),
  /** The newest published version (null: never published). */
  latest_version: DistributionVersionRef.nullable(),
  /** The caller is the project space's owner. */
  is_owner: z.boolean(),
});
export type DistributionList = z.infer<typeof DistributionList>;

/**
 * POST /apps/{app_id}/distribution: distribute (again, after a cancel) on a platform, serving
 * `version_id` (default: the newest published version). Already distributed there: VALIDATION-1001.
 */
export const DistributionCreateBody = z
  .object({
    platform: DistributionPlatform,
    version_id: Id.optional(),
  })
  .strict();
export type DistributionCreateBody = z.infer<typeof DistributionCreateBody>;

/** PUT /apps/{app_id}/distribution: move a distributed platform to another published version. */
export const DistributionUpdateBody = z
  .object({
    /** The distribution's id. */
    id: Id,
    version_id: Id,
  })
  .strict();
export type DistributionUpdateBody = z.infer<typeof DistributionUpdateBody>;

export const DistributionParams = z.object({ app_id: z.string().max(64).describe('App id'), distribution_id: z.string().max(64).describe('Distribution id') });
