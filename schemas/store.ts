import { z } from 'zod';
import { Id, Timestamp } from './common';
import { pageNumber, pageSize } from './guards';
import { StoreReviewState } from './distribution';
import { ApprovalRef } from './approval';
import { ParamRow } from './parameter';
import { SemVer } from './plugin-package';

/**
 * The stores (spec 2 "store pages"; 4 "awaiting release → released, take offline"; 7.5 app, dataset,
 * prompt, tool and plugin store; issue 23). A store item is a published snapshot of one resource of a
 * project space, listed for the whole tenant once a store manager released it. Never visible to
 * another tenant (VALIDATION-1000, as for anything foreign).
 *
 * States (`review_state`, {@link StoreReviewState}):
 * - `awaiting_release`: submitted (or re-submitted); only the publisher's space and the store managers see it.
 * - `released`: listed in the tenant's store; anyone of the tenant browses and copies it.
 * - `rejected`: a manager refused it with a reason the publisher sees; publishing again re-submits.
 * - `offline`: taken off the store by a manager (with an optional reason) or withdrawn by the publisher
 *   (an app's store distribution cancelled); publishing again re-submits.
 *
 * Publishing takes a SNAPSHOT (an app's published version document, a prompt's content, a knowledge
 * base's documents, segments and vectors, a tool's definition without secrets), so later edits of the
 * resource change nothing in the store until it is published again. Re-publishing replaces the
 * snapshot and goes back to `awaiting_release` (the item leaves the gallery until released again).
 *
 * Roles: every user of the tenant browses released items. Publishing an app is its space OWNER's (it is
 * the app's `store` distribution, one record: schemas/distribution.ts); knowledge bases, prompts and
 * tools are published by their space's owner or admins. Copying needs the right to create that kind of
 * resource in the target space (apps and knowledge: any member; prompts and tools: owner or admin).
 * Store managers (a super admin, or a tenant admin for their tenant) review under /admin/store.
 */

export const STORE_TYPES = ['app', 'dataset', 'prompt', 'tool', 'plugin'] as const;
export const StoreItemType = z.enum(STORE_TYPES);
export type StoreItemType = z.infer<typeof StoreItemType>;

/** The types a project space publishes and copies (plugins come from installed packages). */
export const SpaceStoreType = z.enum(['app', 'dataset', 'prompt', 'tool']);
export type SpaceStoreType = z.infer<typeof SpaceStoreType>;

export { StoreReviewState };

/** Tag input (spec 5): at most 5 tags, each up to 20 characters. */
export const StoreTags = z.array(z.string().trim().min(1).max(20, 'exceeds maximum length 20')).max(5, 'At most 5 tags');

export const StoreSort = z.enum(['newest', 'most_copied']);
export type StoreSort = z.infer<typeof StoreSort>;

const icon = z.object({ iconPath: z.string().optional(), icon: z.string().optional(), iconColor: z.string().optional(), iconId: z.string().optional() });

/** A gallery card (and the head of a detail). */
export const StoreItem = z.object({
  id: Id,
  type: StoreItemType,
  name: z.string(),
  description: z.string(),
  icon: icon.nullable(),
  tags: z.array(z.string()),
  /** Apps: the mode (agent, chatflow, workflow, agent_team); tools: the tool type; else null. */
  kind: z.string().nullable(),
  review_state: StoreReviewState,
  /** Why it was rejected or taken offline (null otherwise). */
  review_reason: z.string().nullable(),
  copy_count: z.number().int(),
  /** The project space it came from (its name; the id only for members of that space and managers). */
  source_workspace_name: z.string(),
  source_id: Id,
  published_by_name: z.string(),
  published_at: Timestamp,
  reviewed_at: Timestamp.nullable(),
  /** Apps: the published version's number the snapshot holds. */
  version: z.string().nullable(),
  /** Small figures for the card: knowledge documents and segments, tool functions, prompt variables. */
  stats: z.object({ documents: z.number().int(), segments: z.number().int(), functions: z.number().int(), variables: z.number().int() }),
  /** Plugins: the package's author and what it adds, for the card (null for the other types). */
  plugin: z.object({ author: z.string(), kinds: z.array(z.string()), tools: z.array(z.string()) }).nullable(),
  /** The submission's approval (the tenant's approval flow, schemas/approval.ts): on a resource's own submission only. */
  approval: ApprovalRef.nullable().optional(),
});
export type StoreItem = z.infer<typeof StoreItem>;

export const StoreListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(100, 24),
  /** Matches name, description and tags (case-insensitive). */
  keyword: z.string().trim().max(64).optional(),
  tag: z.string().trim().max(20).optional(),
  /** Apps: the mode; tools: the tool type. */
  kind: z.string().trim().max(32).optional(),
  sort: StoreSort.default('newest'),
});
export type StoreListQuery = z.input<typeof StoreListQuery>;
export type StoreListParsed = z.output<typeof StoreListQuery>;

export const StoreListAnswer = z.object({
  items: z.array(StoreItem),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
  /** Every tag of the released items of this type, for the tag filter. */
  tags: z.array(z.string()),
});
export type StoreListAnswer = z.infer<typeof StoreListAnswer>;

/** What an app's flow refers to that lives in its project space (remapped on copy). */
export const StoreRefKind = z.enum(['dataset', 'tool', 'prompt', 'database']);
export type StoreRefKind = z.infer<typeof StoreRefKind>;

export const StoreReference = z.object({
  kind: StoreRefKind,
  /** The id in the source space (the key of a mapping is `${kind}:${source_id}`). */
  source_id: z.string(),
  name: z.string(),
  /** When the source resource was itself copied from, or published to, the store: that item's id. */
  store_item_id: Id.nullable(),
  /** Tools: the functions the flow uses, by id and name (function ids are remapped by name). */
  functions: z.array(z.object({ id: z.string(), name: z.string() })),
  node_ids: z.array(z.string()),
});
export type StoreReference = z.infer<typeof StoreReference>;

/** A tool's auth as the store keeps it: the shape, never a credential or secret. */
export const StoreToolAuth = z.object({
  type: z.enum(['none', 'api_key', 'bearer', 'basic']),
  location: z.enum(['header', 'query']).nullable(),
  key: z.string().nullable(),
});
export type StoreToolAuth = z.infer<typeof StoreToolAuth>;

export const StoreToolFunction = z.object({
  name: z.string(),
  description: z.string(),
  method: z.string(),
  url: z.string(),
  auth: StoreToolAuth,
  params: z.array(ParamRow),
  headers: z.array(ParamRow),
  body: z.array(ParamRow),
  body_subtype: z.string(),
  response: z.array(ParamRow),
  enabled: z.boolean(),
});
export type StoreToolFunction = z.infer<typeof StoreToolFunction>;

/** The snapshot, by type. Secrets never appear (credential ids, MCP env and header values are dropped). */
export const StoreSnapshot = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('app'),
    mode: z.string(),
    version: z.object({ id: Id, version: z.string(), description: z.string(), created_at: Timestamp }),
    /** The published version's flow document (its secret environment values are not part of it). */
    document: z.record(z.string(), z.unknown()),
    references: z.array(StoreReference),
  }),
  z.object({
    type: z.literal('dataset'),
    embedding: z.object({ provider: z.string(), model: z.string() }).nullable(),
    embedding_dim: z.number().int().nullable(),
    documents: z.array(z.object({ id: Id, name: z.string(), file_type: z.string(), char_count: z.number().int(), segment_count: z.number().int(), segment_mode: z.string() })),
  }),
  z.object({
    type: z.literal('prompt'),
    content: z.string(),
    template_type: z.string(),
    scene: z.string(),
    variables: z.array(z.object({ name: z.string(), description: z.string(), default: z.string() })),
    model: z.object({ provider: z.string(), name: z.string() }).nullable(),
  }),
  z.object({
    type: z.literal('tool'),
    tool_type: z.string(),
    /** The tool's published version the snapshot was taken from. */
    tool_version: z.number().int(),
    auth: StoreToolAuth,
    functions: z.array(StoreToolFunction),
    /** MCP tools: the server config with every env and header VALUE blanked, and the tools switched on. */
    mcp_config: z.record(z.string(), z.unknown()).nullable(),
    mcp_enabled: z.array(z.string()),
  }),
  z.object({
    type: z.literal('plugin'),
    /** The package id (manifest `id`); the listing's `version` is the newest published one. */
    plugin_id: z.string(),
    author: z.string(),
    icon: z.string(),
    kinds: z.array(z.object({ kind: z.string(), version: z.number().int() })),
    tools: z.array(z.object({ name: z.string(), description: z.string() })),
    min_weft_version: z.string(),
    checksum: z.string(),
    /** Every published version, newest first (the package's bytes stay on the server). */
    versions: z.array(z.object({ version: z.string(), checksum: z.string(), min_weft_version: z.string(), published_at: Timestamp })),
  }),
]);
export type StoreSnapshot = z.infer<typeof StoreSnapshot>;

export const StoreItemDetail = StoreItem.extend({ snapshot: StoreSnapshot });
export type StoreItemDetail = z.infer<typeof StoreItemDetail>;

export const StoreItemParams = z.object({ id: z.string().max(64).describe('Store item id') });
/** GET /console/store/plugins/{id}/download: one published version's package (default the newest). */
export const StorePluginDownloadQuery = z.object({ version: SemVer.optional().describe('A published version (default: the newest)') });
export const StoreSegmentParams = StoreItemParams.extend({ document_id: z.string().max(64).describe('Document id in the snapshot') });
export const StoreSegmentQuery = z.object({ page: pageNumber, page_size: pageSize(100, 20) });
export const StoreSegment = z.object({ id: Id, kind: z.string(), position: z.number().int(), content: z.string(), parent_id: Id.nullable() });
export const StoreSegmentPage = z.object({ items: z.array(StoreSegment), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
export type StoreSegmentPage = z.infer<typeof StoreSegmentPage>;

/**
 * POST /console/store/{type}/publish (header X-Workspace-Id: the resource's space). `id` is the
 * resource (app, knowledge base, prompt, tool). Apps: `version_id` (default the newest published
 * version) becomes the app's `store` distribution; the space owner only. Tags and description default
 * to the resource's own. Answers the item as the publisher sees it (awaiting release).
 */
export const StorePublishBody = z
  .object({
    id: Id,
    version_id: Id.optional(),
    tags: StoreTags.optional(),
    description: z.string().trim().max(500, 'exceeds maximum length 500').optional(),
  })
  .strict();
export type StorePublishBody = z.input<typeof StorePublishBody>;

/** The submission of one resource, as its publisher sees it (null: never published). */
export const StoreSubmission = StoreItem.nullable();
export const StoreSubmissionQuery = z.object({ type: SpaceStoreType, source_id: Id });

/**
 * POST /console/store/{type}/copy: copy a released item into `workspace_id` (where the caller may
 * create that kind). Apps: `mapping` names, for each reference `${kind}:${source_id}`, the target
 * space's resource to use (null: leave it unset); references not named are matched by store origin,
 * then by name. `dry_run` answers the plan (what would be matched, what remains, with the choices)
 * and changes nothing: the copy dialog's mapping step. `name` overrides the copy's name (default the
 * item's; a taken name gets " (2)", " (3)" …).
 */
export const StoreCopyBody = z
  .object({
    id: Id,
    workspace_id: Id,
    name: z.string().trim().min(1).max(50).optional(),
    mapping: z.record(z.string().max(200), Id.nullable()).default({}),
    dry_run: z.boolean().default(false),
  })
  .strict();
export type StoreCopyBody = z.input<typeof StoreCopyBody>;

export const StoreMappedRef = StoreReference.extend({
  /** The target space's resource the copy uses (null: none; the node is left for the user to choose, the checklist shows it). */
  target_id: z.string().nullable(),
  target_name: z.string().nullable(),
  matched_by: z.enum(['mapping', 'store_origin', 'name']).nullable(),
  /** The target space's resources of this kind, to choose from. */
  options: z.array(z.object({ id: Id, name: z.string() })),
});
export type StoreMappedRef = z.infer<typeof StoreMappedRef>;

export const StoreCopyAnswer = z.object({
  type: SpaceStoreType,
  /** The new resource (null on a dry run). */
  id: Id.nullable(),
  name: z.string(),
  workspace_id: Id,
  references: z.array(StoreMappedRef),
  /** References left unset (nodes the checklist flags): by `${kind}:${source_id}`. */
  unresolved: z.array(z.string()),
  /** Tools: the auth the copy needs before it can call (set it with POST /store/tools/authorization). */
  needs_authorization: StoreToolAuth.nullable(),
});
export type StoreCopyAnswer = z.infer<typeof StoreCopyAnswer>;

/**
 * POST /console/store/tools/authorization (header X-Workspace-Id: the copy's space): gives a tool copied
 * from the store its credentials in THIS space. The store never carries secrets: the copy keeps the
 * source's auth shape (type, header or query, key) and starts with no credential; this names a
 * credential of the space for the tool and every function that used the tool's auth. Owner or admin.
 */
export const StoreToolAuthorizationBody = z.object({ tool_id: Id, credential_id: Id }).strict();

/** GET /console/store/tools/tools-by-type: released tool items grouped by tool type. */
export const StoreToolsByType = z.record(z.string(), z.array(StoreItem));

// ------------------------------------------------------------ review (admin)

export const AdminStoreListQuery = z.object({
  page: pageNumber,
  page_size: pageSize(100, 20),
  type: StoreItemType.optional(),
  state: StoreReviewState.optional(),
  keyword: z.string().trim().max(64).optional(),
});
export type AdminStoreListQuery = z.input<typeof AdminStoreListQuery>;
export type AdminStoreListParsed = z.output<typeof AdminStoreListQuery>;

export const AdminStoreItem = StoreItem.extend({ tenant_id: Id, tenant_name: z.string() });
export const AdminStoreList = z.object({ items: z.array(AdminStoreItem), total: z.number().int(), page: z.number().int(), page_size: z.number().int() });
export type AdminStoreList = z.infer<typeof AdminStoreList>;
export const AdminStoreDetail = StoreItemDetail.extend({ tenant_id: Id, tenant_name: z.string() });
export type AdminStoreDetail = z.infer<typeof AdminStoreDetail>;

export const AdminStoreParams = z.object({ type: StoreItemType, id: z.string().max(64).describe('Store item id') });

/** Reject (a reason is required) or take offline (a reason is optional). */
/**
 * POST /admin/store/plugins/publish (super admin): publishes an INSTALLED plugin package to the
 * caller's tenant's plugin store, its bytes kept with the listing (one version per package version;
 * the same version again replaces its bytes). Re-submits the listing: it awaits release again.
 */
export const StorePluginPublishBody = z
  .object({
    plugin_id: z.string().min(2).max(100),
    tags: StoreTags.optional(),
    description: z.string().trim().max(1000, 'exceeds maximum length 1000').optional(),
  })
  .strict();
export type StorePluginPublishBody = z.input<typeof StorePluginPublishBody>;

export const StoreReviewBody = z.object({ reason: z.string().trim().max(500, 'exceeds maximum length 500').default('') }).strict();
export const StoreRejectBody = z.object({ reason: z.string().trim().min(1, 'This form field is required!').max(500, 'exceeds maximum length 500') }).strict();
