import { randomUUID } from 'node:crypto';
import { and, desc, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE, type Caller } from '../context';
import { appDrafts, apps, users } from '../db/schema';
import { AppError, badRequest, exists, notFoundOrForeign } from '../errors';
import { decryptSecret, encryptSecret } from '../security/secrets';
import { ErrorCode } from '../../../schemas/errors';
import { createEmptyFlow, FLOW_LIMITS, type EnvVariable, type FlowDocument } from '../../../schemas/flow';
import type {
  App,
  AppDetail,
  AppDraft,
  AppIcon,
  AppListQuery,
  AppStatus,
  AppType,
  DraftConflict,
  DraftSaved,
  UserRef,
} from '../../../schemas/app';
import { contains, isUniqueViolation, lockNames, MANAGERS, nothingToChange, page, type Scope, type Tx } from './workspace-resources';
import { forgetDraftRows } from './cache-generations';
import { getDefault } from './models';

/**
 * Apps of a workspace and their draft flow documents (spec 3, 5, 7.5 "apps").
 *
 * Roles (spec 6 leaves app rules open): every member reads; every member is a builder and may
 * create apps, change them, change their status and save their drafts; only owner and admin delete.
 * App names are unique in a workspace (case-insensitive), like the workspace's other resources.
 *
 * The draft never overwrites silently: each save names the revision it was based on; when that is
 * no longer the stored revision the save is refused with 409 CONFLICT-1000 and what is stored now
 * (revision, time, who). Saves are serialised per app by a row lock.
 */

type AppRow = typeof apps.$inferSelect;
type DraftRow = typeof appDrafts.$inferSelect;

/** Every member of the workspace builds apps. */
export const BUILDERS = ['owner', 'admin', 'ordinary_member'] as const;

export const displayName = sql<string>`coalesce(nullif(${users.realName}, ''), ${users.username}, '')`;

function toApp(r: AppRow, creatorName: string | null, revision: number | null, latest: string | null = null, digitalHuman: string | null = null): App {
  return {
    id: r.id,
    workspace_id: r.workspaceId,
    name: r.name,
    description: r.description,
    type: r.type,
    icon: r.icon,
    status: r.status,
    created_by: r.createdBy,
    created_by_name: creatorName ?? '',
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
    draft_revision: revision ?? 1,
    latest_version: latest,
    digital_human: (digitalHuman as App['digital_human']) ?? null,
  };
}

// The newest published version's number (app_versions, services/apps-versions.ts), for lists and pickers.
const latestVersion = sql<string | null>`(select v.version from app_versions v where v.app_id = ${apps.id} order by v.created_at desc, v.id desc limit 1)`;

// Whether the app is a digital human, and which kind (schema-digital-humans.ts; issue 31).
const digitalHuman = sql<string | null>`(select d.kind from digital_human_apps d where d.app_id = ${apps.id})`;

const appColumns = { app: apps, creatorName: displayName, revision: appDrafts.revision, latestVersion, digitalHuman };

function appQuery(ctx: ServerContext, where: SQL | undefined) {
  return ctx.db
    .select(appColumns)
    .from(apps)
    .leftJoin(users, eq(users.id, apps.createdBy))
    .leftJoin(appDrafts, eq(appDrafts.appId, apps.id))
    .where(where);
}

const inScope = (s: Scope) => and(eq(apps.workspaceId, s.workspaceId), eq(apps.tenantId, s.caller.tenantId));

/** The app as the API answers it, or VALIDATION-1000 when it is not in the scope. */
export async function appView(ctx: ServerContext, s: Scope, id: string): Promise<App> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('App', id);
  const [row] = await appQuery(ctx, and(eq(apps.id, id), inScope(s)));
  if (!row) throw notFoundOrForeign('App', id);
  return toApp(row.app, row.creatorName, row.revision, row.latestVersion, row.digitalHuman);
}

async function assertNameFree(tx: Tx, s: Scope, name: string, exceptId?: string) {
  await lockNames(tx, 'app', s.workspaceId);
  const conds: SQL[] = [eq(apps.workspaceId, s.workspaceId), sql`lower(${apps.name}) = lower(${name})`];
  if (exceptId) conds.push(ne(apps.id, exceptId));
  const [hit] = await tx.select({ id: apps.id }).from(apps).where(and(...conds)).limit(1);
  if (hit) throw exists(`An app named '${name}' already exists in this project space`);
}

const duplicate = (e: unknown): never => {
  if (isUniqueViolation(e)) throw exists('An app with this name already exists in this project space');
  throw e;
};

// ---------------------------------------------------------------- apps

/** Any member: the workspace's apps, newest first, filtered by name (substring), type and status. */
export async function listApps(ctx: ServerContext, s: Scope, q: AppListQuery) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const conds: SQL[] = [eq(apps.workspaceId, s.workspaceId), eq(apps.tenantId, s.caller.tenantId)];
  if (q.name) conds.push(ilike(apps.name, contains(q.name)));
  if (q.type) conds.push(eq(apps.type, q.type));
  if (q.status) conds.push(eq(apps.status, q.status));
  const where = and(...conds);
  const [{ total }] = await ctx.db.select({ total: sql<number>`count(*)::int` }).from(apps).where(where);
  const rows = await appQuery(ctx, where)
    .orderBy(desc(apps.createdAt), desc(apps.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return page(
    rows.map((r) => toApp(r.app, r.creatorName, r.revision, r.latestVersion, r.digitalHuman)),
    total,
    q,
  );
}

/**
 * Any member: a new active app with the empty flow of its type as draft revision 1, its model nodes
 * on the tenant's default LLM (when one is set), so it runs as created.
 */
export async function createApp(
  ctx: ServerContext,
  s: Scope,
  input: { name: string; description: string; type: AppType; icon: AppIcon },
): Promise<App> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const id = randomUUID();
  const llm = await getDefault(ctx, s.caller.tenantId, 'llm');
  const document = createEmptyFlow(input.type, { defaultModel: llm && { provider: llm.provider, name: llm.model } });
  await ctx.db
    .transaction(async (tx) => {
      await assertNameFree(tx, s, input.name);
      await tx.insert(apps).values({
        id,
        tenantId: s.caller.tenantId,
        workspaceId: s.workspaceId,
        name: input.name,
        description: input.description,
        type: input.type,
        icon: input.icon,
        createdBy: s.caller.userId,
      });
      await tx.insert(appDrafts).values({ appId: id, revision: 1, document, updatedBy: s.caller.userId });
    })
    .catch(duplicate);
  return appView(ctx, s, id);
}

/** Any member: name, description and icon (fields left out stay; the type never changes). */
export async function updateApp(
  ctx: ServerContext,
  s: Scope,
  input: { id: string; name?: string; description?: string; icon?: AppIcon },
): Promise<App> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  await appView(ctx, s, input.id);
  if (input.name === undefined && input.description === undefined && input.icon === undefined) throw nothingToChange();
  await ctx.db
    .transaction(async (tx) => {
      if (input.name !== undefined) await assertNameFree(tx, s, input.name, input.id);
      await tx
        .update(apps)
        .set({ name: input.name, description: input.description, icon: input.icon, updatedAt: new Date() })
        .where(and(eq(apps.id, input.id), inScope(s)));
    })
    .catch(duplicate);
  // The portal's cached access rows (runs/portal-access.ts) hold the app's name, description and icon.
  forgetDraftRows();
  return appView(ctx, s, input.id);
}

/** Any member: active or inactive. */
export async function setAppStatus(ctx: ServerContext, s: Scope, id: string, status: AppStatus): Promise<App> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  await appView(ctx, s, id);
  await ctx.db.update(apps).set({ status, updatedAt: new Date() }).where(and(eq(apps.id, id), inScope(s)));
  // The portal's cached access rows (runs/portal-access.ts) know whether the app is active.
  forgetDraftRows();
  return appView(ctx, s, id);
}

/** Owner and admin: the app and its draft go. */
export async function deleteApp(ctx: ServerContext, s: Scope, id: string): Promise<void> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
  await appView(ctx, s, id);
  await ctx.db.delete(apps).where(and(eq(apps.id, id), inScope(s)));
  forgetDraftRows();
}

/**
 * Any member of the app's workspace: the app with its draft. With `workspaceId` (the header) the
 * app must be in that workspace; without it the app's own workspace is used, so the app guard
 * can load an app from a link and then switch to its workspace.
 */
export async function getApp(ctx: ServerContext, caller: Caller, workspaceId: string | undefined, id: string): Promise<AppDetail> {
  let s: Scope;
  if (workspaceId) {
    s = { caller, workspaceId };
  } else {
    if (!UUID_RE.test(id)) throw notFoundOrForeign('App', id);
    const [row] = await ctx.db
      .select({ workspaceId: apps.workspaceId })
      .from(apps)
      .where(and(eq(apps.id, id), eq(apps.tenantId, caller.tenantId)));
    if (!row) throw notFoundOrForeign('App', id);
    s = { caller, workspaceId: row.workspaceId };
  }
  await requireMembership(ctx.db, caller, s.workspaceId);
  const app = await appView(ctx, s, id);
  return { ...app, draft: await draftView(ctx, id) };
}

// ---------------------------------------------------------------- the draft

export async function userRef(db: Db | Tx, userId: string): Promise<UserRef> {
  const [u] = await db.select({ name: displayName }).from(users).where(eq(users.id, userId));
  return { id: userId, name: u?.name ?? '' };
}

export async function draftRow(ctx: ServerContext, appId: string): Promise<DraftRow> {
  const [row] = await ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, appId));
  if (!row) throw notFoundOrForeign('App', appId);
  return row;
}

async function draftView(ctx: ServerContext, appId: string): Promise<AppDraft> {
  const row = await draftRow(ctx, appId);
  return {
    app_id: appId,
    revision: row.revision,
    document: row.document as FlowDocument,
    updated_at: row.updatedAt.toISOString(),
    updated_by: await userRef(ctx.db, row.updatedBy),
    secrets_set: Object.keys(row.secretEnv),
  };
}

/** Any member: the draft document and its revision. */
export async function getDraft(ctx: ServerContext, s: Scope, appId: string): Promise<AppDraft> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  await appView(ctx, s, appId);
  return draftView(ctx, appId);
}

const secretAad = (appId: string, varId: string) => `app-env:${appId}:${varId}`;

function tryDecrypt(key: Uint8Array, stored: string, aad: string): string | undefined {
  try {
    return decryptSecret(key, stored, aad);
  } catch {
    return undefined;
  }
}

/**
 * The document as stored (secret values taken out) and the encrypted secrets by variable id: a
 * secret sent with a value replaces the stored one (kept as is when equal, so an unchanged value is
 * no change); a secret sent without value keeps the stored one; secrets of removed variables go.
 */
function splitSecrets(key: Uint8Array, appId: string, doc: FlowDocument, stored: Record<string, string>) {
  const secrets: Record<string, string> = {};
  const env = doc.variables.env.map((v): EnvVariable => {
    if (v.type !== 'secret') return v;
    const { value, ...rest } = v;
    const old = stored[v.id];
    if (value === undefined) {
      if (old !== undefined) secrets[v.id] = old;
    } else {
      const aad = secretAad(appId, v.id);
      secrets[v.id] = old !== undefined && tryDecrypt(key, old, aad) === value ? old : encryptSecret(key, value, aad);
    }
    return rest;
  });
  return { document: { ...doc, variables: { ...doc.variables, env } }, secrets };
}

/** JSON with object keys sorted (jsonb does not keep key order), for comparing documents. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const sameSecrets = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

const megabytes = (bytes: number) => `${Number((bytes / 1024 / 1024).toFixed(2))} MB`;

/**
 * Any member: saves the draft if `baseRevision` is the stored revision, as the next revision.
 * - A document identical to the stored one (secrets included) is no change: the stored revision
 *   is answered, whatever the base (a retried save after a lost answer is not a conflict).
 * - Otherwise a base that is not the stored revision is refused: 409 CONFLICT-1000 with
 *   {@link DraftConflict} in data. To overwrite, the client sends again with that revision.
 * - The mode must be the app's type; the serialised document at most FLOW_LIMITS.maxBytes.
 */
export async function saveDraft(
  ctx: ServerContext,
  s: Scope,
  input: { app_id: string; base_revision: number; document: FlowDocument },
): Promise<DraftSaved> {
  await requireMembership(ctx.db, s.caller, s.workspaceId, BUILDERS);
  const app = await appView(ctx, s, input.app_id);
  const bytes = Buffer.byteLength(JSON.stringify(input.document), 'utf8');
  if (bytes > FLOW_LIMITS.maxBytes) {
    throw badRequest(`The flow document is too large: ${megabytes(bytes)} (${bytes} bytes), at most ${megabytes(FLOW_LIMITS.maxBytes)} (${FLOW_LIMITS.maxBytes} bytes)`, {
      bytes,
      max_bytes: FLOW_LIMITS.maxBytes,
    });
  }
  if (input.document.mode !== app.type) {
    throw badRequest(`The flow's mode ${input.document.mode} does not match the app's type ${app.type}`, [
      { path: 'body/document/mode', message: `must be ${app.type}` },
    ]);
  }
  const appId = app.id;
  const saved = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(appDrafts).where(eq(appDrafts.appId, appId)).for('update');
    if (!current) throw notFoundOrForeign('App', appId);
    const next = splitSecrets(ctx.secretKey, appId, input.document, current.secretEnv);
    const unchanged = canonical(next.document) === canonical(current.document) && sameSecrets(next.secrets, current.secretEnv);
    if (unchanged) {
      return {
        app_id: appId,
        revision: current.revision,
        updated_at: current.updatedAt.toISOString(),
        updated_by: await userRef(tx, current.updatedBy),
        secrets_set: Object.keys(current.secretEnv),
      };
    }
    if (current.revision !== input.base_revision) {
      const by = await userRef(tx, current.updatedBy);
      const data: DraftConflict = {
        app_id: appId,
        revision: current.revision,
        updated_at: current.updatedAt.toISOString(),
        updated_by: by,
      };
      throw new AppError(
        409,
        ErrorCode.CONFLICT,
        `The draft was saved by ${by.name || 'someone'} at ${data.updated_at} (revision ${current.revision}) after revision ${input.base_revision} you edited. Reload it, or save again with base_revision ${current.revision} to overwrite`,
        data,
      );
    }
    const now = new Date();
    const [saved] = await tx
      .update(appDrafts)
      .set({ revision: current.revision + 1, document: next.document, secretEnv: next.secrets, updatedBy: s.caller.userId, updatedAt: now })
      .where(and(eq(appDrafts.appId, appId), eq(appDrafts.revision, current.revision)))
      .returning({ revision: appDrafts.revision });
    await tx.update(apps).set({ updatedAt: now }).where(eq(apps.id, appId));
    return {
      app_id: appId,
      revision: saved.revision,
      updated_at: now.toISOString(),
      updated_by: await userRef(tx, s.caller.userId),
      secrets_set: Object.keys(next.secrets),
    };
  });
  // After the commit: a run reading the draft meanwhile must not keep the old one as current.
  forgetDraftRows();
  return saved;
}

/**
 * The plain values of an app draft's secret environment variables, by variable id, for runs (never
 * for an API answer). Values that no longer decrypt are left out.
 */
export async function draftSecretValues(ctx: ServerContext, appId: string): Promise<Record<string, string>> {
  const row = await draftRow(ctx, appId);
  return secretValuesOf(ctx, appId, row.secretEnv);
}

/**
 * The plain values of encrypted secret environment values of an app (a draft's or a published
 * version's `secretEnv`), by variable id. Values that no longer decrypt are left out.
 */
export function secretValuesOf(ctx: ServerContext, appId: string, secretEnv: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, stored] of Object.entries(secretEnv)) {
    const plain = tryDecrypt(ctx.secretKey, stored, secretAad(appId, id));
    if (plain !== undefined) out[id] = plain;
  }
  return out;
}
