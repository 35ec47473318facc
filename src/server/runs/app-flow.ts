import { and, eq } from 'drizzle-orm';
import { createEdge, isTeamMemberKind, type FlowDocument, type FlowMode } from '../../../schemas/flow';
import { compile, type CompileOptions, type EngineRegistries, type ExecutionPlan, type PlanNode } from '../../engine';
import { requireMembership, UUID_RE, type Caller, type ServerContext } from '../context';
import { appDrafts, apps, appVersions, workspaceMembers, workspaces } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { draftSecretValues, secretValuesOf } from '../services/apps';
import { draftRowsGeneration } from '../services/cache-generations';

/** The caller and the app a request is about (the workspace from X-Workspace-Id). */
export interface AppScope {
  caller: Caller;
  workspaceId: string;
  appId: string;
}

export interface AppRef {
  id: string;
  tenantId: string;
  workspaceId: string;
  mode: FlowMode;
}

/**
 * Any member of the workspace: the app, when it is in the caller's tenant and this workspace;
 * otherwise VALIDATION-1000 (missing, foreign and other workspaces' apps look the same).
 */
export async function requireApp(ctx: ServerContext, s: AppScope): Promise<AppRef> {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  if (!UUID_RE.test(s.appId)) throw notFoundOrForeign('App', s.appId);
  const [row] = await ctx.db
    .select({ id: apps.id, tenantId: apps.tenantId, workspaceId: apps.workspaceId, mode: apps.type })
    .from(apps)
    .where(and(eq(apps.id, s.appId), eq(apps.workspaceId, s.workspaceId), eq(apps.tenantId, s.caller.tenantId)));
  if (!row) throw notFoundOrForeign('App', s.appId);
  return row;
}

export interface DraftFlow {
  app: AppRef;
  revision: number;
  plan: ExecutionPlan;
  /** The secret environment values by name, decrypted (never answered to anyone; runs mask them). */
  env: Record<string, unknown>;
}

// Compiling checks the whole flow; a draft is run many times between saves, so keep recent plans,
// per set of node kinds (a plugin installed or upgraded gives new registries, and so new plans).
const PLAN_CACHE_MAX = 200;
const planCaches = new WeakMap<EngineRegistries, Map<string, ExecutionPlan>>();

function plansOf(registries: EngineRegistries): Map<string, ExecutionPlan> {
  let plans = planCaches.get(registries);
  if (!plans) planCaches.set(registries, (plans = new Map()));
  return plans;
}

/** The plan cached for an app's draft revision, if any (tests: what warming after a start compiled, ./warm.ts). */
export const cachedDraftPlan = (ctx: ServerContext, appId: string, revision: number): ExecutionPlan | undefined => plansOf(ctx.plugins.registries()).get(`${appId}:${revision}`);

/**
 * Agent teams: the agents without edges are the team members the entry agent hands off to; they are
 * compiled (and checked) but not scheduled (the agent executor reaches them through `ctx.peer`).
 */
export const compileOptionsOf = (mode: FlowMode): CompileOptions =>
  mode === 'agent_team' ? { detached: (node) => isTeamMemberKind(mode, node) } : {};

/** The compiled plan of a document, cached under `key` (a draft: app and revision; a version: its id) per set of kinds. */
function planOf(ctx: ServerContext, key: string, document: FlowDocument, mode: FlowMode = document.mode): ExecutionPlan {
  const registries = ctx.plugins.registries();
  const plans = plansOf(registries);
  const hit = plans.get(key);
  if (hit) {
    // Refresh its place (Map keeps insertion order: the first key is the least recently used).
    plans.delete(key);
    plans.set(key, hit);
    return hit;
  }
  // Nodes saved by an older version of their kind (a plugin upgraded since) run migrated: published
  // versions are never rewritten, drafts are rewritten by the upgrade itself.
  const compiled = compile(registries.nodes.migrateFlow(document).document, registries, compileOptionsOf(mode));
  if (!compiled.ok) {
    const issues = compiled.issues.map((i) => ({ path: i.nodeId ? `node/${i.nodeId}` : 'flow', message: i.message, code: i.code, node_id: i.nodeId ?? null }));
    throw badRequest(`The flow cannot run: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
  }
  plans.set(key, compiled.plan);
  if (plans.size > PLAN_CACHE_MAX) plans.delete(plans.keys().next().value!);
  return compiled.plan;
}

/**
 * The app's draft compiled for a run, with its environment. Membership, app and draft come in one
 * query (this is on the way to a run's first token; cached on the embedded database); when it finds nothing, {@link requireApp} says
 * why. A flow that cannot run: VALIDATION-1000 with the issues.
 */
export async function loadDraftFlow(ctx: ServerContext, s: AppScope): Promise<DraftFlow> {
  const row = await loadDraftRow(ctx, s);
  return compileDraft(ctx, { id: row.id, tenantId: row.tenantId, workspaceId: row.workspaceId, mode: row.mode }, row);
}

type DraftRowOf = Awaited<ReturnType<typeof queryDraftRow>>[number];

/**
 * The caller's drafts recently read for a run, on the embedded database only (one process owns it,
 * so every write that matters calls forgetDraftRows, ../services/cache-generations.ts): the read is on the way to a
 * run's first token. On a shared server every run reads the database.
 */
const DRAFT_ROWS_MAX = 500;
const draftRows = new WeakMap<object, Map<string, { generation: number; row: DraftRowOf }>>();

async function loadDraftRow(ctx: ServerContext, s: AppScope): Promise<DraftRowOf> {
  const key = `${s.caller.tenantId}:${s.caller.userId}:${s.workspaceId}:${s.appId}`;
  let cache = ctx.exclusiveDb ? draftRows.get(ctx.db) : undefined;
  if (ctx.exclusiveDb && !cache) draftRows.set(ctx.db, (cache = new Map()));
  const hit = cache?.get(key);
  if (hit && hit.generation === draftRowsGeneration()) return hit.row;
  const generation = draftRowsGeneration();
  const row = (await queryDraftRow(ctx, s))[0];
  if (!row) {
    await requireApp(ctx, s);
    throw notFoundOrForeign('App', s.appId);
  }
  if (cache) {
    cache.delete(key);
    cache.set(key, { generation, row });
    if (cache.size > DRAFT_ROWS_MAX) cache.delete(cache.keys().next().value!);
  }
  return row;
}

async function queryDraftRow(ctx: ServerContext, s: AppScope) {
  return UUID_RE.test(s.appId) && UUID_RE.test(s.workspaceId)
    ? await ctx.db
        .select({
          id: apps.id,
          tenantId: apps.tenantId,
          workspaceId: apps.workspaceId,
          mode: apps.type,
          revision: appDrafts.revision,
          document: appDrafts.document,
          secretEnv: appDrafts.secretEnv,
        })
        .from(apps)
        .innerJoin(workspaces, and(eq(workspaces.id, apps.workspaceId), eq(workspaces.tenantId, s.caller.tenantId)))
        .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspaceId, apps.workspaceId), eq(workspaceMembers.userId, s.caller.userId)))
        .innerJoin(appDrafts, eq(appDrafts.appId, apps.id))
        .where(and(eq(apps.id, s.appId), eq(apps.workspaceId, s.workspaceId), eq(apps.tenantId, s.caller.tenantId)))
    : [];
}

/** Issues that do not stop a node from running alone: its inputs are typed in, not taken from upstream. */
const ALONE_IGNORED = new Set(['issues.referenceNotUpstream']);

/**
 * One node of the app's draft, compiled to run alone ("run this node"). Only that node is checked:
 * an unfinished or unconnected node elsewhere in the draft does not refuse it. The node runs behind
 * the draft's start node (so the run has the flow's start and mode) with nothing else around it.
 * A missing node, a container (it needs its body) or a node with problems of its own: VALIDATION-1000.
 */
export async function loadDraftNode(ctx: ServerContext, s: AppScope, nodeId: string): Promise<DraftFlow & { node: PlanNode }> {
  const row = await loadDraftRow(ctx, s);
  const app: AppRef = { id: row.id, tenantId: row.tenantId, workspaceId: row.workspaceId, mode: row.mode };
  const document = row.document as unknown as FlowDocument;
  await ctx.plugins.fresh();
  const registries = ctx.plugins.registries();
  const { nodes: registry } = registries;
  const source = document.nodes.find((n) => n.id === nodeId);
  const plugin = source && registry.get(source.kind);
  if (!source || !plugin || plugin.category === 'annotation') throw notFoundOrForeign('Node', nodeId);
  if (plugin.container) throw badRequest(`Node "${nodeId}" is a ${source.kind} container and cannot run alone`, [{ path: 'node_id', message: 'container nodes run with their body' }]);

  const own = registry
    .validateFlow(document)
    .filter((i) => i.nodeId === nodeId && i.severity === 'error' && !ALONE_IGNORED.has(i.key));
  if (own.length) {
    const issues = own.map((i) => ({ path: `node/${nodeId}`, message: `${i.ns}:${i.key}`, code: i.key, node_id: nodeId }));
    throw badRequest(`The node cannot run: ${issues.map((i) => i.message).join('; ')}`, issues);
  }

  const node = { ...source, parentId: undefined };
  delete (node as { parentId?: string }).parentId;
  const entry = plugin.targetHandle
    ? document.nodes.find((n) => !n.parentId && !registry.get(n.kind)?.targetHandle && registry.get(n.kind)?.category !== 'annotation')
    : undefined;
  if (plugin.targetHandle && !entry) throw badRequest('The flow needs a start node to run a node in it', [{ path: 'flow', message: 'no start node' }]);
  const alone: FlowDocument = {
    ...document,
    nodes: entry ? [entry, node] : [node],
    edges: entry ? [createEdge(entry.id, nodeId)] : [],
  };
  const key = `${app.id}:${row.revision}:node:${nodeId}`;
  const plans = plansOf(registries);
  let plan = plans.get(key);
  if (!plan) {
    const compiled = compile(alone, registries, { validate: false });
    if (!compiled.ok) {
      const issues = compiled.issues.map((i) => ({ path: i.nodeId ? `node/${i.nodeId}` : 'flow', message: i.message, code: i.code, node_id: i.nodeId ?? null }));
      throw badRequest(`The node cannot run: ${issues.map((i) => `${i.path} ${i.message}`).join('; ')}`, issues);
    }
    plan = compiled.plan;
    plans.set(key, plan);
    if (plans.size > PLAN_CACHE_MAX) plans.delete(plans.keys().next().value!);
  }
  const compiledNode = plan.nodes.get(nodeId)!;
  return { app, revision: row.revision, plan, env: await secretEnv(ctx, app.id, document, row.secretEnv), node: compiledNode };
}

/**
 * A saved draft of an app compiled for a run, with its environment (secrets decrypted). Also used
 * to run a workflow app as a tool (../tools/workflow-run.ts). A flow that cannot run: VALIDATION-1000.
 */
export async function compileDraft(
  ctx: ServerContext,
  app: AppRef,
  draft: { revision: number; document: Record<string, unknown>; secretEnv: Record<string, string> },
): Promise<DraftFlow> {
  const document = draft.document as unknown as FlowDocument;
  // Kinds installed through another server process a moment ago run here too.
  await ctx.plugins.fresh();
  const plan = planOf(ctx, `${app.id}:${draft.revision}`, document, app.mode);
  return { app, revision: draft.revision, plan, env: await secretEnv(ctx, app.id, document, draft.secretEnv) };
}

/** A published version compiled for a run (portal, API, workflow tool), with its own environment. */
export interface VersionFlow {
  app: AppRef;
  versionId: string;
  /** The version's number. */
  version: string;
  document: FlowDocument;
  plan: ExecutionPlan;
  /** Environment values by name, the version's secrets decrypted (never answered to anyone). */
  env: Record<string, unknown>;
}

type VersionRow = typeof appVersions.$inferSelect;

/**
 * A published version of an app compiled for a run: the plan cached by the version's id (a version
 * never changes), its environment from the secret values frozen in it (not the draft's). A version
 * that cannot run: VALIDATION-1000 with the issues (it compiled when it was published; a node kind
 * that changed since may refuse it).
 */
export function compileVersion(ctx: ServerContext, app: AppRef, version: Pick<VersionRow, 'id' | 'version' | 'document' | 'secretEnv'>): VersionFlow {
  const document = version.document as unknown as FlowDocument;
  const plan = planOf(ctx, `version:${version.id}`, document, app.mode);
  const env: Record<string, unknown> = {};
  if (Object.keys(version.secretEnv).length) {
    const secrets = secretValuesOf(ctx, app.id, version.secretEnv);
    for (const v of document.variables?.env ?? []) if (v.type === 'secret' && secrets[v.id] !== undefined) env[v.name] = secrets[v.id];
  }
  return { app, versionId: version.id, version: version.version, document, plan, env };
}

/** The draft's secret environment values by name, decrypted. */
async function secretEnv(ctx: ServerContext, appId: string, document: FlowDocument, stored: Record<string, string>) {
  const env: Record<string, unknown> = {};
  if (Object.keys(stored).length) {
    const secrets = await draftSecretValues(ctx, appId);
    for (const v of document.variables.env) if (v.type === 'secret' && secrets[v.id] !== undefined) env[v.name] = secrets[v.id];
  }
  return env;
}
