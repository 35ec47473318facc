import { createHash, randomUUID } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { appDistributions, appDrafts, apps, appVersions, users } from '../db/schema';
import { AppError, badRequest, exists, notFoundOrForeign } from '../errors';
import { compileDraft } from '../runs/app-flow';
import type { FlowDocument } from '../../../schemas/flow';
import type { AppPublishBody, AppVersion, AppVersionDetail, AppVersionListQuery } from '../../../schemas/app';
import { appView, canonical, displayName } from './apps';
import { forgetDraftRows } from './cache-generations';
import { isUniqueViolation, MANAGERS, page, type Scope } from './workspace-resources';

/**
 * Published versions of an app (spec 3 "Version", 7.5 "app publish"): a version freezes the draft
 * flow document as it was (with its secret environment values, encrypted), so what a published
 * app runs (a workflow tool, later the portal) does not move while the draft is edited.
 *
 * Roles (Weft's choice): every member lists and reads versions; owner and admin publish and delete
 * (a release changes what others run); restoring a version is a normal draft save on the client.
 * Publishing compiles the draft with the run endpoints' compiler first: a draft that cannot run is
 * refused with VALIDATION-1000 listing the problems. Version numbers are unique per app, any case.
 */

type VersionRow = typeof appVersions.$inferSelect;

const versionColumns = { v: appVersions, creatorName: displayName };

function toVersion(r: VersionRow, creatorName: string | null): AppVersion {
  return {
    id: r.id,
    app_id: r.appId,
    version: r.version,
    description: r.description,
    draft_revision: r.draftRevision,
    draft_hash: r.draftHash,
    draft_updated_at: r.draftUpdatedAt.toISOString(),
    created_by: r.createdBy,
    created_by_name: creatorName ?? '',
    created_at: r.createdAt.toISOString(),
  };
}

const ofApp = (s: Scope, appId: string) =>
  and(eq(appVersions.appId, appId), eq(appVersions.workspaceId, s.workspaceId), eq(appVersions.tenantId, s.caller.tenantId));

/** The hash that names a draft's content (sha256 of its canonical JSON, secrets' ciphertexts excluded). */
export const documentHash = (document: unknown) => createHash('sha256').update(canonical(document)).digest('hex');

/** Any member: the app's versions, newest first. */
export async function listVersions(ctx: ServerContext, s: Scope, appId: string, q: AppVersionListQuery) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  await appView(ctx, s, appId);
  const where = ofApp(s, appId);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(appVersions).where(where);
  const rows = await ctx.db
    .select(versionColumns)
    .from(appVersions)
    .leftJoin(users, eq(users.id, appVersions.createdBy))
    .where(where)
    .orderBy(desc(appVersions.createdAt), desc(appVersions.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(
    rows.map((r) => toVersion(r.v, r.creatorName)),
    total,
    q,
  );
}

async function versionRow(ctx: ServerContext, s: Scope, appId: string, versionId: string) {
  if (!UUID_RE.test(versionId)) throw notFoundOrForeign('Version', versionId);
  const [row] = await ctx.db
    .select(versionColumns)
    .from(appVersions)
    .leftJoin(users, eq(users.id, appVersions.createdBy))
    .where(and(eq(appVersions.id, versionId), ofApp(s, appId)));
  if (!row) throw notFoundOrForeign('Version', versionId);
  return row;
}

/** Any member: one version with its flow document (to look at it or restore it into the draft). */
export async function getVersion(ctx: ServerContext, s: Scope, appId: string, versionId: string): Promise<AppVersionDetail> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  await appView(ctx, s, appId);
  const row = await versionRow(ctx, s, appId, versionId);
  return { ...toVersion(row.v, row.creatorName), document: row.v.document as unknown as FlowDocument };
}

const taken = (version: string) => exists(`The app already has a version '${version}': choose another version number`);

/**
 * Owner and admin: publishes the app's current draft as `version`. Refused, changing nothing, when
 * the number is taken (VALIDATION-1001) or the draft cannot run (VALIDATION-1000, `data` the issues).
 */
export async function publishApp(ctx: ServerContext, s: Scope, appId: string, input: AppPublishBody): Promise<AppVersion> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  const app = await appView(ctx, s, appId);
  const [dup] = await ctx.db
    .select({ id: appVersions.id })
    .from(appVersions)
    .where(and(eq(appVersions.appId, app.id), sql`lower(${appVersions.version}) = lower(${input.version})`))
    .limit(1);
  if (dup) throw taken(input.version);
  const [draft] = await ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, app.id));
  if (!draft) throw notFoundOrForeign('App', appId);
  try {
    await compileDraft(ctx, { id: app.id, tenantId: s.caller.tenantId, workspaceId: s.workspaceId, mode: app.type }, draft);
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    const issues = Array.isArray(e.data) ? (e.data as { path?: string; message?: string }[]) : [];
    const listed = issues.length ? issues.map((i) => `${i.path ?? 'flow'} ${i.message ?? ''}`.trim()).join('; ') : e.message;
    throw badRequest(`The draft cannot be published until it can run. Fix these problems first: ${listed}`, e.data);
  }
  const id = randomUUID();
  try {
    await ctx.db.transaction(async (tx) => {
      await tx.insert(appVersions).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        appId: app.id,
        version: input.version,
        description: input.description,
        document: draft.document,
        secretEnv: draft.secretEnv,
        draftRevision: draft.revision,
        draftHash: documentHash(draft.document),
        draftUpdatedAt: draft.updatedAt,
        createdBy: s.caller.userId,
      });
      await tx.update(apps).set({ updatedAt: new Date() }).where(eq(apps.id, app.id));
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw taken(input.version);
    throw e;
  }
  // The public API serves the latest version of an app that is not distributed (public/target.ts caches it).
  forgetDraftRows();
  const row = await versionRow(ctx, s, app.id, id);
  return toVersion(row.v, row.creatorName);
}

/**
 * Owner and admin: deletes one version (what runs falls back to the newest remaining one). A version
 * a distribution serves is refused (VALIDATION-1000): its end users would lose the app; the owner
 * moves the distribution to another version first.
 */
export async function deleteVersion(ctx: ServerContext, s: Scope, appId: string, versionId: string): Promise<void> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  await appView(ctx, s, appId);
  const { v } = await versionRow(ctx, s, appId, versionId);
  const serving = await ctx.db
    .select({ platform: appDistributions.platform })
    .from(appDistributions)
    .where(and(eq(appDistributions.versionId, versionId), eq(appDistributions.state, 'distributed')));
  if (serving.length) {
    const on = serving.map((r) => r.platform).join(', ');
    throw badRequest(`Version '${v.version}' is distributed (${on}): move those distributions to another version or cancel them before deleting it`, { platforms: serving.map((r) => r.platform) });
  }
  await ctx.db.delete(appVersions).where(and(eq(appVersions.id, versionId), ofApp(s, appId)));
  forgetDraftRows();
}

/** The newest published version of an app of this workspace (no role check: for runs and tools). */
export async function latestVersionRow(ctx: ServerContext, scope: { tenantId: string; workspaceId: string }, appId: string): Promise<VersionRow | undefined> {
  if (!UUID_RE.test(appId)) return undefined;
  const [row] = await ctx.db
    .select()
    .from(appVersions)
    .where(and(eq(appVersions.appId, appId), eq(appVersions.workspaceId, scope.workspaceId), eq(appVersions.tenantId, scope.tenantId)))
    .orderBy(desc(appVersions.createdAt), desc(appVersions.id))
    .limit(1);
  return row;
}
