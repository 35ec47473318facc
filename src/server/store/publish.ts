import { and, desc, eq } from 'drizzle-orm';
import type { ServerContext } from '../context';
import { requireMembership, UUID_RE } from '../context';
import { prompts, storeItems, toolVersions } from '../db/schema';
import { badRequest, notFoundOrForeign } from '../errors';
import { MANAGERS, type Scope, type Tx } from '../services/workspace-resources';
import { loadDataset } from '../services/datasets';
import { toolRow, wsOf } from '../tools/rows';
import * as distribution from '../services/distribution';
import type { StoreItem, StorePublishBody, StoreSnapshot, StoreToolAuth, StoreToolFunction } from '../../../schemas/store';
import { upsertItem, type ItemFields } from './submit';
import { snapshotDataset } from './dataset-copy';
import { submissionOf } from './items';

/**
 * Publishing to the store (schemas/store.ts): a snapshot of the resource goes to its store item, which
 * (re-)enters `awaiting_release`. Apps go through their `store` distribution (the space owner's, one
 * record: distribution.ts calls {@link submitApp}); knowledge bases, prompts and tools are published by
 * their space's owner or admins. Secrets never enter a snapshot.
 */

/** POST /store/apps/publish: the app's store distribution (distribute, or move to `version_id` and re-submit); owner only. */
async function publishApp(ctx: ServerContext, s: Scope, body: StorePublishBody) {
  const list = await distribution.listDistribution(ctx, s, body.id);
  const store = list.platforms.find((p) => p.platform === 'store')!;
  if (store.state === 'distributed' && store.distribution) {
    const versionId = body.version_id ?? list.latest_version?.id ?? store.distribution.version?.id;
    if (!versionId) throw badRequest('The app has no published version: publish it on its Version tab first', { blocked: 'no_version' });
    await distribution.moveDistribution(ctx, s, body.id, { id: store.distribution.id, version_id: versionId });
  } else {
    await distribution.distribute(ctx, s, body.id, { platform: 'store', version_id: body.version_id });
  }
}

function toolAuthShape(auth: Record<string, unknown> | undefined): StoreToolAuth {
  const type = (auth?.type as StoreToolAuth['type']) ?? 'none';
  return { type, location: type === 'api_key' ? ((auth?.location as 'header' | 'query') ?? 'header') : null, key: type === 'api_key' ? String(auth?.key ?? '') : null };
}

/** An MCP config with every env and header value blanked (they hold keys). */
function blankMcp(doc: unknown): Record<string, unknown> | null {
  if (!doc || typeof doc !== 'object') return null;
  const servers = (doc as { mcpServers?: Record<string, Record<string, unknown>> }).mcpServers ?? {};
  const blank = (r: unknown) => Object.fromEntries(Object.keys((r as Record<string, string>) ?? {}).map((k) => [k, '']));
  return { mcpServers: Object.fromEntries(Object.entries(servers).map(([n, c]) => [n, { ...c, ...('env' in c ? { env: blank(c.env) } : {}), ...('headers' in c ? { headers: blank(c.headers) } : {}) }])) };
}

async function toolFields(ctx: ServerContext, s: Scope, id: string): Promise<ItemFields> {
  const tool = await toolRow(ctx, wsOf(s), id);
  if (tool.type === 'workflow') throw badRequest('A workflow tool runs an app of its project space: publish the app to the app store instead', { type: tool.type });
  const [version] = await ctx.db.select().from(toolVersions).where(eq(toolVersions.toolId, tool.id)).orderBy(desc(toolVersions.version)).limit(1);
  if (tool.status !== 'published' || !version) throw badRequest('Publish the tool first: the store takes its published version', { status: tool.status });
  const snap = version.snapshot as { functions?: Record<string, unknown>[]; auth?: Record<string, unknown>; mcp_config?: unknown; mcp_enabled?: string[] };
  const functions: StoreToolFunction[] = (snap.functions ?? []).map((f) => ({
    name: String(f.name),
    description: String(f.description ?? ''),
    method: String(f.method ?? 'GET'),
    url: String(f.url ?? ''),
    auth: toolAuthShape(f.auth as Record<string, unknown>),
    params: (f.params as never[]) ?? [],
    headers: (f.headers as never[]) ?? [],
    body: (f.body as never[]) ?? [],
    body_subtype: String(f.body_subtype ?? 'json'),
    response: (f.response as never[]) ?? [],
    enabled: f.enabled !== false,
  }));
  const mcpEnabled = snap.mcp_enabled ?? [];
  return {
    name: tool.name,
    description: tool.intro,
    icon: tool.icon,
    kind: tool.type,
    version: String(version.version),
    snapshot: { type: 'tool', tool_type: tool.type, tool_version: version.version, auth: toolAuthShape(snap.auth), functions, mcp_config: blankMcp(snap.mcp_config), mcp_enabled: mcpEnabled },
    stats: { functions: tool.type === 'mcp' ? mcpEnabled.length : functions.length },
  };
}

async function promptFields(ctx: ServerContext, s: Scope, id: string): Promise<ItemFields & { tags: string[] }> {
  if (!UUID_RE.test(id)) throw notFoundOrForeign('Prompt', id);
  const [p] = await ctx.db.select().from(prompts).where(and(eq(prompts.id, id), eq(prompts.workspaceId, s.workspaceId), eq(prompts.tenantId, s.caller.tenantId)));
  if (!p) throw notFoundOrForeign('Prompt', id);
  return {
    name: p.name,
    description: p.description,
    icon: null,
    kind: p.scene,
    version: null,
    tags: p.tags,
    snapshot: { type: 'prompt', content: p.content, template_type: p.templateType, scene: p.scene, variables: p.variables, model: p.model ?? null },
    stats: { variables: p.variables.length },
  };
}

/** POST /store/{type}/publish and the resources' own publish calls. Answers the submission as the publisher sees it. */
export async function publish(ctx: ServerContext, s: Scope, type: 'app' | 'dataset' | 'prompt' | 'tool', body: StorePublishBody): Promise<StoreItem> {
  if (type === 'app') {
    await publishApp(ctx, s, body);
  } else {
    await requireMembership(ctx.db, s.caller, s.workspaceId, MANAGERS);
    const who = { tenantId: s.caller.tenantId, workspaceId: s.workspaceId, userId: s.caller.userId };
    if (type === 'dataset') {
      const ds = await loadDataset(ctx, s, body.id);
      await ctx.db.transaction(async (tx) => {
        // Placeholder snapshot first: the item id must exist before its documents and segments.
        const empty: StoreSnapshot = { type: 'dataset', embedding: ds.embedding ?? null, embedding_dim: ds.embeddingDim ?? null, documents: [] };
        const itemId = await upsertItem(tx, who, 'dataset', ds.id, { name: ds.name, description: ds.description, icon: null, kind: null, version: null, snapshot: empty, stats: {} }, { tags: body.tags });
        const documents = await snapshotDataset(ctx, tx, itemId, ds.id);
        if (!documents.length) throw badRequest('The knowledge base has no processed unit to publish: add documents and wait until they are processed');
        const segments = documents.reduce((n, d) => n + d.segment_count, 0);
        await tx
          .update(storeItems)
          .set({ snapshot: { ...empty, documents } as unknown as Record<string, unknown>, stats: { documents: documents.length, segments } })
          .where(eq(storeItems.id, itemId));
      });
    } else {
      const fields = type === 'prompt' ? await promptFields(ctx, s, body.id) : await toolFields(ctx, s, body.id);
      const tags = body.tags ?? ('tags' in fields ? (fields.tags as string[]) : undefined);
      await ctx.db.transaction((tx) => upsertItem(tx, who, type, body.id, fields, { tags }));
    }
  }
  if (body.tags || body.description !== undefined) {
    await ctx.db
      .update(storeItems)
      .set({ ...(body.tags ? { tags: body.tags } : {}), ...(body.description !== undefined ? { description: body.description } : {}) })
      .where(and(eq(storeItems.type, type), eq(storeItems.sourceId, body.id), eq(storeItems.tenantId, s.caller.tenantId)));
  }
  return (await submissionOf(ctx, s.caller.tenantId, type, body.id))!;
}

/** Any member of the resource's space: its submission (null when never published). */
export async function submission(ctx: ServerContext, s: Scope, type: 'app' | 'dataset' | 'prompt' | 'tool', sourceId: string) {
  await requireMembership(ctx.db, s.caller, s.workspaceId);
  const item = await submissionOf(ctx, s.caller.tenantId, type, sourceId);
  if (!item) return null;
  // Only the space the resource lives in sees its submission (another space's members get null).
  const [row] = await ctx.db.select({ ws: storeItems.sourceWorkspaceId }).from(storeItems).where(eq(storeItems.id, item.id));
  return row?.ws === s.workspaceId ? item : null;
}
