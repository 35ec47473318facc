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
