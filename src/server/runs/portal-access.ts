import { and, count, desc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { featuresOf, type AppFeatures, type FlowDocument, type FlowMode } from '../../../schemas/flow';
import type { PortalApp, PortalAppDetail, PortalInputField, PortalListQuery } from '../../../schemas/portal';
import type { Caller, ServerContext } from '../context';
import { UUID_RE } from '../context';
import { appDistributions, apps, appVersions, characters, digitalHumanApps, workspaceMembers, workspaces } from '../db/schema';
import { notFoundOrForeign } from '../errors';
import { draftRowsGeneration } from '../services/cache-generations';
import { contains } from '../services/workspace-resources';
import { compileVersion, type VersionFlow } from './app-flow';

/**
 * Who may use an app in the portal (schemas/portal.ts): a user of the app's tenant when it is
 * distributed to `portal`, or a member of its project space when it is distributed to
 * `current_project`; the app must be active. Runs use the distributed version (both platforms: the
 * `portal` distribution's). Anything else answers VALIDATION-1000, the same for every reason.
 */

/** Distributions that reach the portal, distributed now, with an active app. */
const reachable = sql`${appDistributions.state} = 'distributed' and ${appDistributions.platform} in ('portal', 'current_project') and ${apps.status} = 'active'`;

/**
 * The user reaches the app through this distribution row: `portal`, or `current_project` as a member
 * when the app has no `portal` distribution (then that one serves: one entry per app).
 */
const reachesUser = (userId: string) => sql`(${appDistributions.platform} = 'portal' or (
  exists (select 1 from ${workspaceMembers} m where m.workspace_id = ${appDistributions.workspaceId} and m.user_id = ${userId})
  and not exists (select 1 from ${appDistributions} p where p.app_id = ${appDistributions.appId} and p.platform = 'portal' and p.state = 'distributed')))`;

/** SQL true when `caller` may use the app whose id is `appId` now (for `accessible` flags of lists). */
export const canUseSql = (caller: Caller, appId: SQL | typeof apps.id) => sql`exists (
  select 1 from ${appDistributions} d join ${apps} a on a.id = d.app_id
  where d.app_id = ${appId} and a.tenant_id = ${caller.tenantId} and a.status = 'active' and d.state = 'distributed'
    and (d.platform = 'portal' or (d.platform = 'current_project'
      and exists (select 1 from ${workspaceMembers} m where m.workspace_id = d.workspace_id and m.user_id = ${caller.userId}))))`;

const appColumns = {
  id: apps.id,
  name: apps.name,
  description: apps.description,
  icon: apps.icon,
  mode: apps.type,
  platform: appDistributions.platform,
  workspaceId: apps.workspaceId,
  workspaceName: workspaces.name,
  version: appVersions.version,
  distributedAt: appDistributions.distributedAt,
};

type AppListRow = {
  id: string;
  name: string;
  description: string;
  icon: PortalApp['icon'];
  mode: FlowMode;
  platform: string;
  workspaceId: string;
  workspaceName: string;
  version: string;
  distributedAt: Date;
};

function toPortalApp(r: AppListRow): PortalApp {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    icon: r.icon,
    mode: r.mode,
    platform: r.platform as PortalApp['platform'],
    workspace_id: r.workspaceId,
    workspace_name: r.workspaceName,
    version: r.version,
    distributed_at: r.distributedAt.toISOString(),
  };
}

/** The distributions this user reaches (one per app), joined to their app, space and version. */
function reaching<T extends PgSelect>(qb: T, caller: Caller, where?: SQL): T {
  return qb
    .innerJoin(apps, eq(apps.id, appDistributions.appId))
    .innerJoin(workspaces, eq(workspaces.id, apps.workspaceId))
    .innerJoin(appVersions, eq(appVersions.id, appDistributions.versionId))
    .where(and(eq(apps.tenantId, caller.tenantId), reachable, reachesUser(caller.userId), where)) as unknown as T;
  // (Inner joins change neither the selected fields nor their nullability: the result type stays T's.)
}

/** GET /portal: the apps this user may use, newest distribution first, by keyword and mode. */
export async function listPortalApps(ctx: ServerContext, caller: Caller, q: PortalListQuery) {
  const conds: (SQL | undefined)[] = [];
  if (q.keyword) conds.push(or(ilike(apps.name, contains(q.keyword)), ilike(apps.description, contains(q.keyword))));
  if (q.mode) conds.push(eq(apps.type, q.mode));
  const where = and(...conds);
  const [{ total }] = await reaching(ctx.db.select({ total: count() }).from(appDistributions).$dynamic(), caller, where);
  const rows = await reaching(ctx.db.select(appColumns).from(appDistributions).$dynamic(), caller, where)
    .orderBy(desc(appDistributions.distributedAt), desc(apps.id))
    .limit(q.page_size)
    .offset((q.page - 1) * q.page_size);
  return { list: rows.map(toPortalApp), total: Number(total), page: q.page, page_size: q.page_size };
}

/** An app as a portal run or page needs it: the card, the distributed version compiled, its features. */
export interface PortalTarget {
  card: PortalApp;
  flow: VersionFlow;
  features: AppFeatures;
  /** The persona of the character a conversational digital human speaks as (null: none). */
  persona: string | null;
}

/**
 * Read with the app, not on its own: a chat's first token waited for that round trip (issues 21/34).
 * A change of character or of its persona drops the cached targets (forgetDraftRows).
 */
const personaSql = sql<string | null>`(select ${characters.persona} from ${digitalHumanApps} join ${characters} on ${characters.id} = ${digitalHumanApps.characterId}
  where ${digitalHumanApps.appId} = ${apps.id} and ${digitalHumanApps.kind} = 'conversation' limit 1)`;

/**
 * What the user reached recently, on the embedded database only (one process owns it: every write
 * that changes access calls forgetDraftRows — distributions, app status and deletion, membership),
 * because it is on the way to a portal chat's first token. On a shared server every request reads.
 */
const TARGETS_MAX = 1000;
const targets = new WeakMap<object, Map<string, { generation: number; target: PortalTarget }>>();

/** The app `appId` as this user may use it now, or VALIDATION-1000. */
export async function portalTarget(ctx: ServerContext, caller: Caller, appId: string): Promise<PortalTarget> {
  const key = `${caller.tenantId}:${caller.userId}:${appId}`;
  let cache = ctx.exclusiveDb ? targets.get(ctx.db) : undefined;
  if (ctx.exclusiveDb && !cache) targets.set(ctx.db, (cache = new Map()));
  const hit = cache?.get(key);
  if (hit && hit.generation === draftRowsGeneration()) return hit.target;
  const generation = draftRowsGeneration();
  if (!UUID_RE.test(appId)) throw notFoundOrForeign('App', appId);
  const columns = { ...appColumns, tenantId: apps.tenantId, versionId: appVersions.id, document: appVersions.document, secretEnv: appVersions.secretEnv, persona: personaSql };
  const [row] = await reaching(ctx.db.select(columns).from(appDistributions).$dynamic(), caller, eq(apps.id, appId)).limit(1);
  if (!row) throw notFoundOrForeign('App', appId);
  const card = toPortalApp(row);
  const flow = compileVersion(ctx, { id: row.id, tenantId: row.tenantId, workspaceId: row.workspaceId, mode: row.mode }, { id: row.versionId, version: row.version, document: row.document, secretEnv: row.secretEnv });
  const target: PortalTarget = { card, flow, features: featuresOf(flow.document as { features?: AppFeatures }), persona: row.persona };
  if (cache) {
    cache.delete(key);
    cache.set(key, { generation, target });
    if (cache.size > TARGETS_MAX) cache.delete(cache.keys().next().value!);
  }
  return target;
}

interface StartField {
  name?: string;
  label?: string;
  type?: string;
  required?: boolean;
  options?: string[];
  max_length?: number;
  allowed_extensions?: string[];
  max_files?: number;
}

const INPUT_TYPES = new Set<PortalInputField['type']>(['text', 'paragraph', 'number', 'select', 'file', 'file-list', 'checkbox']);

/** The start node's fields as the portal's form draws them (fields without a usable name are left out). */
export function startFields(document: FlowDocument): (PortalInputField & { max_files: number | null })[] {
  const start = document.nodes.find((n) => n.kind === 'start');
  const vars = ((start?.config as { variables?: StartField[] } | undefined)?.variables ?? []).filter((v) => typeof v.name === 'string' && v.name);
  return vars.map((v) => ({
    name: v.name!,
    label: v.label || v.name!,
    type: INPUT_TYPES.has(v.type as PortalInputField['type']) ? (v.type as PortalInputField['type']) : 'text',
    required: v.required !== false,
    options: v.options ?? [],
    max_length: v.max_length ?? null,
    allowed_extensions: v.allowed_extensions ?? [],
    max_files: v.max_files ?? null,
  }));
}

/** GET /portal/{portal_id}: the card, the version's features, its start form and conversation variables. */
export function portalDetail(target: PortalTarget): PortalAppDetail {
  const doc = target.flow.document;
  return {
    ...target.card,
    features: target.features,
    inputs: startFields(doc).map(({ max_files: _m, ...f }) => f),
    conversation_variables: (doc.variables?.conversation ?? []).map((v) => ({ name: v.name, type: v.type, description: v.description ?? '' })),
  };
}
