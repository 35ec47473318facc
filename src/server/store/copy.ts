import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, type Caller } from '../context';
import { appDrafts, apps, datasets, prompts, storeItems, toolFunctions, tools } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { BUILDERS } from '../services/apps';
import { KNOWLEDGE_EDITORS } from '../services/datasets';
import { forgetDraftRows } from '../services/cache-generations';
import { lockNames, MANAGERS, type Tx } from '../services/workspace-resources';
import type { SpaceStoreType, StoreCopyAnswer, StoreCopyBody, StoreMappedRef, StoreReference, StoreSnapshot, StoreToolAuth } from '../../../schemas/store';
import { copySnapshotInto } from './dataset-copy';
import { releasedRow, type StoreItemRow } from './items';
import { refKey, remapDocument, type RefTarget } from './refs';

/**
 * Copying a released store item into a project space (schemas/store.ts StoreCopyBody). The caller must
 * be allowed to create that kind there (apps and knowledge: any member; prompts and tools: owner or
 * admin). The copy is self-contained and records its origin (`store_origin_id`); the item's copy count
 * goes up. Never copied: credentials (a tool's copy starts without one: POST /store/tools/authorization),
 * database passwords, secret environment values, MCP env and header values (the snapshot has none).
 */

type Body = Required<Pick<StoreCopyBody, 'id' | 'workspace_id' | 'dry_run'>> & { name?: string; mapping: Record<string, string | null> };

const CREATORS: Record<SpaceStoreType, readonly ('owner' | 'admin' | 'ordinary_member')[]> = {
  app: BUILDERS,
  dataset: KNOWLEDGE_EDITORS,
  prompt: MANAGERS,
  tool: MANAGERS,
};

type NamedTable = typeof apps | typeof datasets | typeof prompts | typeof tools;

/** `base`, or `base (2)`, `base (3)` … the first free name in the space (case-insensitive); call under the kind's name lock. */
async function freeName(tx: Tx, table: NamedTable, workspaceId: string, base: string): Promise<string> {
  const taken = new Set(
    (await tx.select({ name: sql<string>`lower(${table.name})` }).from(table).where(and(eq(table.workspaceId, workspaceId), sql`lower(${table.name}) like ${base.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`) + '%'}`))).map((r) => r.name),
  );
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const name = base.slice(0, 50 - suffix.length) + suffix;
    if (!taken.has(name.toLowerCase())) return name;
  }
}

/** The plan of an app copy: each reference with its target in the space (mapping, store origin, name) and the choices. */
async function planReferences(ctx: ServerContext, tenantId: string, workspaceId: string, refs: StoreReference[], mapping: Record<string, string | null>) {
  const inSpace = (t: typeof datasets | typeof tools) => and(eq(t.workspaceId, workspaceId), eq(t.tenantId, tenantId));
  const [dsRows, toolRows] = await Promise.all([
    ctx.db.select({ id: datasets.id, name: datasets.name, origin: datasets.storeOriginId }).from(datasets).where(inSpace(datasets)).orderBy(datasets.name).limit(500),
    ctx.db.select({ id: tools.id, name: tools.name, origin: tools.storeOriginId }).from(tools).where(inSpace(tools)).orderBy(tools.name).limit(500),
  ]);
  const itemIds = [...new Set(refs.map((r) => r.store_item_id).filter((x): x is string => !!x))];
  const sources = itemIds.length ? await ctx.db.select({ id: storeItems.id, sourceId: storeItems.sourceId }).from(storeItems).where(inArray(storeItems.id, itemIds)) : [];
  const toolIdsUsed = new Set<string>();
  const planned = refs.map((ref): StoreMappedRef => {
    const rows = ref.kind === 'dataset' ? dsRows : ref.kind === 'tool' ? toolRows : [];
    const options = rows.map((r) => ({ id: r.id, name: r.name }));
    const key = refKey(ref.kind, ref.source_id);
    let hit: { id: string; name: string } | undefined;
    let by: StoreMappedRef['matched_by'] = null;
    if (key in mapping) {
      const want = mapping[key];
      if (want) {
        hit = rows.find((r) => r.id === want);
        if (!hit) throw notFoundOrForeign(ref.kind === 'dataset' ? 'Knowledge base' : 'Tool', want);
        by = 'mapping';
      }
    } else {
      const origin = ref.store_item_id;
      const sourceOfOrigin = sources.find((s) => s.id === origin)?.sourceId;
      hit = origin ? rows.find((r) => r.origin === origin || r.id === sourceOfOrigin) : undefined;
      if (hit) by = 'store_origin';
      else {
        hit = rows.find((r) => ref.name && r.name.toLowerCase() === ref.name.toLowerCase());
        if (hit) by = 'name';
      }
    }
    if (hit && ref.kind === 'tool') toolIdsUsed.add(hit.id);
    return { ...ref, target_id: hit?.id ?? null, target_name: hit?.name ?? null, matched_by: by, options };
  });
  // Tools: the functions the flow uses, matched by name in the target tool.
  const fns = toolIdsUsed.size ? await ctx.db.select({ id: toolFunctions.id, name: toolFunctions.name, toolId: toolFunctions.toolId }).from(toolFunctions).where(inArray(toolFunctions.toolId, [...toolIdsUsed])) : [];
  const targets = new Map<string, RefTarget | null>();
  const unresolved: string[] = [];
  for (const p of planned) {
    const key = refKey(p.kind, p.source_id);
    if (!p.target_id) {
      targets.set(key, null);
      unresolved.push(key);
      continue;
    }
    const functions = new Map<string, string>();
    let missing = false;
    for (const f of p.functions) {
      const t = fns.find((x) => x.toolId === p.target_id && x.name.toLowerCase() === f.name.toLowerCase());
      if (t) functions.set(f.id, t.id);
      else missing = true;
    }
    // A tool whose functions are not all found is still used; the nodes without one fail the checklist.
    if (missing) unresolved.push(key);
    targets.set(key, { id: p.target_id, functions });
  }
  return { planned, targets, unresolved };
}

function needsAuth(snap: Extract<StoreSnapshot, { type: 'tool' }>): StoreToolAuth | null {
  if (snap.auth.type !== 'none') return snap.auth;
  return snap.functions.find((f) => f.auth.type !== 'none')?.auth ?? null;
}

async function insertCopy(ctx: ServerContext, tx: Tx, item: StoreItemRow, caller: Caller, workspaceId: string, name: string, document: Record<string, unknown> | null): Promise<string> {
  const id = randomUUID();
  const snap = item.snapshot as unknown as StoreSnapshot;
  const base = { id, tenantId: caller.tenantId, workspaceId, name, createdBy: caller.userId, storeOriginId: item.id };
  if (snap.type === 'app') {
    await tx.insert(apps).values({ ...base, description: item.description, type: snap.mode as 'workflow', icon: item.icon ?? { icon: 'bot' } });
    await tx.insert(appDrafts).values({ appId: id, revision: 1, document: document!, updatedBy: caller.userId });
  } else if (snap.type === 'dataset') {
    await tx.insert(datasets).values({ ...base, description: item.description, embedding: snap.embedding, embeddingDim: snap.embedding_dim });
    await copySnapshotInto(ctx, tx, item.id, { datasetId: id, tenantId: caller.tenantId, userId: caller.userId });
  } else if (snap.type === 'prompt') {
    await tx.insert(prompts).values({
      ...base,
      description: item.description,
      tags: item.tags,
      content: snap.content,
      templateType: snap.template_type as 'jinja2',
      scene: snap.scene as 'llm_chain',
      variables: snap.variables,
      model: snap.model,
    });
  } else if (snap.type === 'tool') {
    // No credential travels: the copy starts without auth and is a draft until the space gives it one and publishes it.
    await tx.insert(tools).values({
      ...base,
      type: snap.tool_type as 'custom',
      installMethod: 'store',
      intro: item.description,
      icon: item.icon ?? { icon: 'wrench', iconColor: '#CCFBF1' },
      auth: { type: 'none' },
      mcpConfig: snap.mcp_config,
      mcpEnabled: snap.mcp_enabled,
    });
    if (snap.functions.length) {
      await tx.insert(toolFunctions).values(
        snap.functions.map((f) => ({
          id: randomUUID(),
          toolId: id,
          name: f.name,
          description: f.description,
          method: f.method,
          url: f.url,
          auth: { type: 'none' },
          params: f.params,
          headers: f.headers,
          body: f.body,
          bodySubtype: f.body_subtype,
          response: f.response,
          enabled: f.enabled,
        })),
      );
    }
  }
  await tx.update(storeItems).set({ copyCount: sql`${storeItems.copyCount} + 1` }).where(eq(storeItems.id, item.id));
  return id;
}

const TABLES: Record<SpaceStoreType, NamedTable> = { app: apps, dataset: datasets, prompt: prompts, tool: tools };

/** POST /store/{type}/copy. */
export async function copyItem(ctx: ServerContext, caller: Caller, type: SpaceStoreType, body: Body): Promise<StoreCopyAnswer> {
  const item = await releasedRow(ctx, caller, type, body.id);
  await requireMembership(ctx.db, caller, body.workspace_id, CREATORS[type]);
  const snap = item.snapshot as unknown as StoreSnapshot;
  const plan = snap.type === 'app' ? await planReferences(ctx, caller.tenantId, body.workspace_id, snap.references, body.mapping) : { planned: [], targets: new Map(), unresolved: [] };
  if (snap.type !== 'app' && Object.keys(body.mapping).length) throw badRequest('Only an app copy maps references', { type });
  const needs = snap.type === 'tool' ? needsAuth(snap) : null;
  const answer = (id: string | null, name: string): StoreCopyAnswer => ({
    type,
    id,
    name,
    workspace_id: body.workspace_id,
    references: plan.planned,
    unresolved: plan.unresolved,
    needs_authorization: needs,
  });
  if (body.dry_run) return answer(null, body.name ?? item.name);
  const document = snap.type === 'app' ? remapDocument(snap.document as { nodes?: never[] }, plan.targets) : null;
  const { id, name } = await ctx.db.transaction(async (tx) => {
    await lockNames(tx, type, body.workspace_id);
    const name = await freeName(tx, TABLES[type], body.workspace_id, body.name ?? item.name);
    return { id: await insertCopy(ctx, tx, item, caller, body.workspace_id, name, document), name };
  });
  if (type === 'app') forgetDraftRows();
  return answer(id, name);
}
