import { z } from 'zod';
import { Id, Timestamp } from './common';
import { FlowDocument, FlowMode } from './flow';
import { noId, needsId, pageNumber, pageSize } from './guards';

/**
 * Apps of a project space (spec 3 App, 5, 7.5 "apps") and their draft flow document.
 *
 * Roles (spec 6 leaves app rules open; Weft's choice): every member of the workspace reads; owner,
 * admin and ordinary members are all builders (create, change, change status, save the draft);
 * only owner and admin delete an app.
 */

/** The app's type: one of the four modes (spec 9). Fixed at creation (the draft is mode-specific). */
export const AppType = FlowMode;
export type AppType = FlowMode;

/** App status (spec 4: active or inactive, set by PUT /apps/{app_id}/status/{status}). */
export const AppStatus = z.enum(['active', 'inactive']);
export type AppStatus = z.infer<typeof AppStatus>;

/** Page size maximum for the app list (spec 9: lists ask for up to 1000). */
export const APP_PAGE_MAX = 1000;

const required = 'This form field is required!';

/**
 * The app icon (spec 3): a default icon (`icon` name on an `iconColor` background) or an uploaded
 * image (`iconPath` URL, `iconId` its file id). One of `icon` and `iconPath` is required.
 */
export const AppIcon = z
  .object({
    iconPath: z.string().max(2048).optional(),
    icon: z.string().max(64).optional(),
    iconColor: z.string().max(32).optional(),
    iconId: z.string().max(64).optional(),
  })
  .strict()
  .refine((i) => Boolean(i.icon?.trim() || i.iconPath?.trim()), { message: required, path: ['icon'] });
export type AppIcon = z.infer<typeof AppIcon>;

const name = z.string().trim().min(1, required).max(50);
const description = z.string().trim().min(1, required).max(500);

/** Who last did something (a user id and the display name). */
export const UserRef = z.object({ id: Id, name: z.string() });
export type UserRef = z.infer<typeof UserRef>;

export const App = z.object({
  id: Id,
  workspace_id: Id,
  name: z.string(),
  description: z.string(),
  type: AppType,
  icon: AppIcon,
  status: AppStatus,
  created_by: Id,
  /** The creator's display name (real name, else username). */
  created_by_name: z.string(),
  created_at: Timestamp,
  /** Changes with the app's fields and with each draft save. */
  updated_at: Timestamp,
  /** The draft flow document's current revision (see AppDraft). */
  draft_revision: z.number().int(),
  /** The newest published version's number, or null when the app was never published (see AppVersion). */
  latest_version: z.string().nullable().optional(),
  /**
   * A digital human (issue 31, schemas/digital-human.ts): `conversation` (a chatflow or agent app
   * answering as a character) or `broadcast` (a workflow app rendering videos); null otherwise.
   */
  digital_human: z.enum(['conversation', 'broadcast']).nullable().optional(),
});
export type App = z.infer<typeof App>;

export const AppListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(APP_PAGE_MAX, 20),
  /** Case-insensitive substring of the name. */
  name: z.string().trim().max(64).optional(),
  type: AppType.optional(),
  status: AppStatus.optional(),
});
export type AppListQuery = z.infer<typeof AppListQuery>;

/** Create an app; it starts `active` with the empty flow of its type (flow.ts createEmptyFlow). */
export const AppCreateBody = z.object({ ...noId, name, description, type: AppType, icon: AppIcon }).strict();
export type AppCreateBody = z.infer<typeof AppCreateBody>;

/** Change an app's name, description or icon; the type cannot change. */
export const AppUpdateBody = z
  .object({ ...needsId, name: name.optional(), description: description.optional(), icon: AppIcon.optional() })
  .strict();
export type AppUpdateBody = z.infer<typeof AppUpdateBody>;

export const AppParams = z.object({ app_id: z.string().describe('App id') });
export const AppStatusParams = AppParams.extend({ status: AppStatus.describe('New status: active or inactive') });

/**
 * The draft flow document of an app with its revision. The revision starts at 1 and grows by one
 * with each save that changes something; a save names the revision it was based on.
 */
export const AppDraft = z.object({
  app_id: Id,
  revision: z.number().int(),
  /** Secret environment variables come without `value` (write-only). */
  document: FlowDocument,
  updated_at: Timestamp,
  /** Who saved last. */
  updated_by: UserRef.nullable(),
  /** Ids of the secret environment variables that hold a value. */
  secrets_set: z.array(z.string()),
});
export type AppDraft = z.infer<typeof AppDraft>;

/** GET /apps/{app_id}: the app with its draft. */
export const AppDetail = App.extend({ draft: AppDraft });
export type AppDetail = z.infer<typeof AppDetail>;

/**
 * PUT /apps/workflow: save the draft. `base_revision` is the revision the editor loaded or last
 * saved. If someone saved since, the save is refused with 409 CONFLICT-1000 and `data` =
 * {@link DraftConflict}; to overwrite, send again with `base_revision` = the current revision.
 * A save identical to the stored draft succeeds without a new revision (a retried request).
 */
export const DraftSaveBody = z
  .object({
    app_id: Id,
    base_revision: z.number().int().min(1),
    /** Must be a valid flow document whose mode is the app's type, within FLOW_LIMITS. */
    document: FlowDocument,
  })
  .strict();
export type DraftSaveBody = z.infer<typeof DraftSaveBody>;
export type DraftSaveInput = z.input<typeof DraftSaveBody>;

export const DraftSaved = z.object({
  app_id: Id,
  /** The new revision (the same one when nothing changed). */
  revision: z.number().int(),
  updated_at: Timestamp,
  updated_by: UserRef.nullable(),
  secrets_set: z.array(z.string()),
});
export type DraftSaved = z.infer<typeof DraftSaved>;

/** `data` of a 409 CONFLICT-1000 answer: the stored draft's revision, when and by whom it was saved. */
export const DraftConflict = z.object({
  app_id: Id,
  revision: z.number().int(),
  updated_at: Timestamp,
  updated_by: UserRef.nullable(),
});
export type DraftConflict = z.infer<typeof DraftConflict>;

// ---------------------------------------------------------------- published versions (spec 3, 7.5 "app publish")

/** The longest version number (spec 3 "Version: version number, description"; 5 "Version number not empty"). */
export const APP_VERSION_MAX = 50;
export const APP_VERSION_DESCRIPTION_MAX = 500;

/**
 * A published version of an app: a frozen copy of the draft flow as it was when published.
 * Roles (Weft's choice, spec 6 leaves it open): every member reads; publishing and deleting a version
 * are releases, for owner and admin; restoring a version into the draft is a draft save (any member).
 */
export const AppVersion = z.object({
  id: Id,
  app_id: Id,
  /** Unique in the app, compared without case. */
  version: z.string(),
  description: z.string(),
  /** The draft revision it was published from, that draft's content hash and save time. */
  draft_revision: z.number().int(),
  draft_hash: z.string(),
  draft_updated_at: Timestamp,
  created_by: Id,
  /** The publisher's display name (real name, else username). */
  created_by_name: z.string(),
  created_at: Timestamp,
});
export type AppVersion = z.infer<typeof AppVersion>;

/** One version with its flow document (secret environment variables come without `value`). */
export const AppVersionDetail = AppVersion.extend({ document: FlowDocument });
export type AppVersionDetail = z.infer<typeof AppVersionDetail>;

export const AppVersionListQuery = z.object({ page: pageNumber, page_size: pageSize(APP_PAGE_MAX, 20) });
export type AppVersionListQuery = z.infer<typeof AppVersionListQuery>;

/**
 * POST /apps/{app_id}/publish: publish the current draft as `version`. The draft must compile (the
 * same checks as a run); a version number the app already has is refused with VALIDATION-1001.
 */
export const AppPublishBody = z
  .object({
    version: z.string().trim().min(1, 'The version number cannot be empty').max(APP_VERSION_MAX, `The version number has at most ${APP_VERSION_MAX} characters`),
    description: z.string().trim().max(APP_VERSION_DESCRIPTION_MAX).default(''),
  })
  .strict();
export type AppPublishBody = z.infer<typeof AppPublishBody>;
export type AppPublishInput = z.input<typeof AppPublishBody>;

export const AppVersionParams = AppParams.extend({ version_id: z.string().describe('Version id') });

/**
 * The version number that follows `latest` (the last number in it grows by one: v1.0.2 -> v1.0.3,
 * 7 -> 8, release-9 -> release-10); `v1.0.0` when there is none, `latest.1` when it has no number.
 */
export function nextVersion(latest: string | null | undefined): string {
  const v = latest?.trim();
  if (!v) return 'v1.0.0';
  const m = /^(.*?)(\d+)(\D*)$/.exec(v);
  if (!m) return `${v}.1`.slice(0, APP_VERSION_MAX);
  const [, head, digits, tail] = m;
  const next = String(BigInt(digits) + 1n).padStart(digits.length, '0');
  return `${head}${next}${tail}`.slice(0, APP_VERSION_MAX);
}
