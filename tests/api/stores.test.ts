import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { apps, appDrafts, prompts, storeItems, toolFunctions, tools } from '../../src/server/db/schema';
import { rowsOf } from '../../src/server/knowledge/queue';
import { createUser } from '../../src/server/services/users';
import { useStudio } from './harness';
import { addUnits, createBase, uploadOk, useTempDataDir, waitUnit } from './knowledge-kit';
import { cancel, publish as publishVersion } from './portal-kit';
import { createApp, flow } from './runs-kit';
import { expectCode, expectOk, PASSWORD, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The stores (issue 23): publish → review → release → copy → take offline, for prompts, knowledge
// bases, tools and apps; tenant walls; create rights on copy; an app copy's references remapped or
// listed; a knowledge copy's segments and vectors equal to the source's; no credential copied.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let tenantAdminB = '';
const STORE = '/api/v1/console/store';
const ADMIN_STORE = '/api/v1/admin/store';
const as = (who: keyof Fixture['u'], workspaceId?: string) => ({ token: f.u[who].token, ...(workspaceId ? { workspaceId } : {}) });
const superAdmin = () => ({ token: h.adminToken });
const gallery = async (type: string, who: keyof Fixture['u'] = 'member', query: Record<string, string> = {}) => expectOk(await h.call('GET', `${STORE}/${type}`, { ...as(who), query }));
const release = async (type: string, id: string) => expectOk(await h.call('POST', `${ADMIN_STORE}/${type}/${id}/release`, superAdmin()));

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'store');
  const tenantB = (await h.studio.ctx.db.execute(sql`select tenant_id from users where id = ${f.u.foreign.id}::uuid`)) as unknown;
  const tid = rowsOf<{ tenant_id: string }>(tenantB)[0].tenant_id;
  await createUser(h.studio.ctx.db, { tenantId: tid, username: 'store_tadmin_b', password: PASSWORD, role: 'tenant_admin' });
  tenantAdminB = await h.login('store_tadmin_b', PASSWORD, tid);
});

describe('a prompt: publish, review, copy, take offline', () => {
  let promptId = '';
  let itemId = '';

  it('is published by the space owner or admins only, and waits for release out of the gallery', async () => {
    promptId = expectOk(await h.call('POST', '/api/v1/console/prompts', { ...as('owner', f.wsA), body: { name: 'Summariser', content: 'Summarise {text} in {words} words.', template_type: 'f-string', tags: ['writing'] } })).id;
    expectCode(await h.call('POST', `${STORE}/prompts/publish`, { ...as('member', f.wsA), body: { id: promptId } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('POST', `${STORE}/prompts/publish`, { ...as('outsider', f.wsC), body: { id: promptId } }), 400, 'VALIDATION-1000');
    const item = expectOk(await h.call('POST', '/api/v1/console/prompts/publish', { ...as('admin', f.wsA), body: { id: promptId } }));
    expect(item).toMatchObject({ type: 'prompt', name: 'Summariser', review_state: 'awaiting_release', review_reason: null, tags: ['writing'], copy_count: 0, stats: { variables: 2 } });
    itemId = item.id;
    expect((await gallery('prompts')).items).toEqual([]);
    expectCode(await h.call('GET', `${STORE}/prompts/${itemId}`, as('member')), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', `${STORE}/submission`, { ...as('member', f.wsA), query: { type: 'prompt', source_id: promptId } }))).toMatchObject({ id: itemId, review_state: 'awaiting_release' });
  });

  it('is reviewed by a store manager of its tenant: a reject needs a reason the publisher sees; another tenant’s admin sees nothing', async () => {
    expectCode(await h.call('GET', ADMIN_STORE, as('owner')), 403, 'PERMISSION-1000');
    expect(expectOk(await h.call('GET', ADMIN_STORE, { token: tenantAdminB })).items).toEqual([]);
    expectCode(await h.call('POST', `${ADMIN_STORE}/prompt/${itemId}/release`, { token: tenantAdminB }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${ADMIN_STORE}/prompt/${itemId}/reject`, { ...superAdmin(), body: { reason: ' ' } }), 400, 'VALIDATION-1000');
    const listed = expectOk(await h.call('GET', ADMIN_STORE, { ...superAdmin(), query: { state: 'awaiting_release', type: 'prompt' } }));
    expect(listed.items.map((i: { id: string }) => i.id)).toEqual([itemId]);
    const rejected = expectOk(await h.call('POST', `${ADMIN_STORE}/prompt/${itemId}/reject`, { ...superAdmin(), body: { reason: 'Say what it is for' } }));
    expect(rejected).toMatchObject({ review_state: 'rejected', review_reason: 'Say what it is for' });
    expect(expectOk(await h.call('GET', `${STORE}/submission`, { ...as('owner', f.wsA), query: { type: 'prompt', source_id: promptId } }))).toMatchObject({ review_state: 'rejected', review_reason: 'Say what it is for' });
    expectCode(await h.call('POST', `${ADMIN_STORE}/prompt/${itemId}/release`, superAdmin()), 409, 'STORE-1000');
    // Re-submission, with a description: awaiting release again, the reason gone; then released.
    const again = expectOk(await h.call('POST', `${STORE}/prompts/publish`, { ...as('owner', f.wsA), body: { id: promptId, description: 'Summaries of any length' } }));
    expect(again).toMatchObject({ id: itemId, review_state: 'awaiting_release', review_reason: null, description: 'Summaries of any length' });
    expect(await release('prompt', itemId)).toMatchObject({ review_state: 'released' });
  });

  it('is listed for every user of the tenant and nobody else; later edits do not change it until published again', async () => {
    await h.call('PUT', '/api/v1/console/prompts', { ...as('owner', f.wsA), body: { id: promptId, content: 'Changed {text}' } });
    for (const who of ['member', 'outsider'] as const) {
      const g = await gallery('prompts', who);
      expect(g.items.map((i: { id: string }) => i.id)).toEqual([itemId]);
      expect(g.tags).toEqual(['writing']);
    }
    expect((await gallery('prompts', 'member', { keyword: 'summar' })).total).toBe(1);
    expect((await gallery('prompts', 'member', { tag: 'other' })).total).toBe(0);
    const detail = expectOk(await h.call('GET', `${STORE}/prompts/${itemId}`, as('outsider')));
    expect(detail.snapshot).toMatchObject({ type: 'prompt', content: 'Summarise {text} in {words} words.' });
    expect((await gallery('prompts', 'foreign')).items).toEqual([]);
    expectCode(await h.call('GET', `${STORE}/prompts/${itemId}`, as('foreign')), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${STORE}/apps/${itemId}`, as('member')), 400, 'VALIDATION-1000');
  });

  it('is copied only where the caller may create prompts, with its origin and a new name when taken', async () => {
    expectCode(await h.call('POST', `${STORE}/prompts/copy`, { ...as('member'), body: { id: itemId, workspace_id: f.wsA } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('POST', `${STORE}/prompts/copy`, { ...as('owner'), body: { id: itemId, workspace_id: f.wsC } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${STORE}/prompts/copy`, { ...as('foreign'), body: { id: itemId, workspace_id: f.wsC } }), 400, 'VALIDATION-1000');
    const copy = expectOk(await h.call('POST', `${STORE}/prompts/copy`, { ...as('owner'), body: { id: itemId, workspace_id: f.wsA } }));
    expect(copy).toMatchObject({ type: 'prompt', name: 'Summariser (2)', workspace_id: f.wsA, unresolved: [] });
    const [row] = await h.studio.ctx.db.select().from(prompts).where(eq(prompts.id, copy.id));
    expect(row).toMatchObject({ workspaceId: f.wsA, content: 'Summarise {text} in {words} words.', storeOriginId: itemId });
    expect((await gallery('prompts')).items[0].copy_count).toBe(1);
  });

  it('taken offline, leaves the gallery and cannot be copied; the copies stay', async () => {
    expectCode(await h.call('POST', `${ADMIN_STORE}/prompt/${itemId}/reject`, { ...superAdmin(), body: { reason: 'x' } }), 409, 'STORE-1000');
    expect(expectOk(await h.call('POST', `${ADMIN_STORE}/prompt/${itemId}/offline`, { ...superAdmin(), body: { reason: 'Outdated' } }))).toMatchObject({ review_state: 'offline', review_reason: 'Outdated' });
    expect((await gallery('prompts')).items).toEqual([]);
    expectCode(await h.call('POST', `${STORE}/prompts/copy`, { ...as('owner'), body: { id: itemId, workspace_id: f.wsB } }), 400, 'VALIDATION-1000');
    expect((await h.studio.ctx.db.select().from(prompts).where(eq(prompts.storeOriginId, itemId))).length).toBe(1);
  });
});

describe('a knowledge base, a tool and an app that uses them', () => {
  let ds = '';
  let dsItem = '';
  let toolId = '';
  let fnId = '';
  let toolItem = '';
  let appId = '';
  let appItem = '';
  let dsCopy = '';
  let toolCopy = '';

  it('publishes a knowledge base as a snapshot of its documents, segments and vectors', async () => {
    ds = await createBase(h, f.u.member.token, f.wsA, 'Handbook');
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'handbook.txt', 'Holidays are booked in the portal.\n\nExpenses are paid monthly.\n\nThe office opens at nine.');
    const [{ id: doc }] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    await waitUnit(h, f.u.member.token, f.wsA, ds, doc);
    // A segment's hand-written index entry goes with it through the store.
    const units = `/api/v1/console/datasets/${ds}/documents/${doc}/segments`;
    const seg = (expectOk(await h.call('GET', units, as('member', f.wsA))).items as { id: string; content: string }[]).find((x) => x.content.includes('Expenses'))!;
    expectOk(await h.call('PUT', `${units}/${seg.id}/indexes`, { ...as('member', f.wsA), body: { indexes: [{ type: 'question', content: 'When is reimbursement settled?' }] } }));
    expectCode(await h.call('POST', `/api/v1/console/datasets/${ds}/publish`, { ...as('member', f.wsA), body: {} }), 403, 'PERMISSION-1000');
    const item = expectOk(await h.call('POST', `/api/v1/console/datasets/${ds}/publish`, { ...as('owner', f.wsA), body: { tags: ['hr'] } }));
    dsItem = item.id;
    expect(item.stats.documents).toBe(1);
    expect(item.stats.segments).toBeGreaterThanOrEqual(3);
    await release('dataset', dsItem);
    // A later edit of the source does not reach the listing.
    await h.call('DELETE', `/api/v1/console/datasets/${ds}/documents/${doc}`, as('owner', f.wsA));
    const detail = expectOk(await h.call('GET', `${STORE}/datasets/${dsItem}`, as('outsider')));
    expect(detail.snapshot.documents).toHaveLength(1);
    const segs = expectOk(await h.call('GET', `${STORE}/datasets/${dsItem}/document/${detail.snapshot.documents[0].id}/segments`, as('outsider')));
    expect(segs.items.map((s: { content: string }) => s.content).join(' ')).toContain('Expenses are paid monthly.');
  });

  it('copies a knowledge base with segments and vectors equal to the snapshot’s, searchable without re-embedding', async () => {
    // Any member may create knowledge in their space; not in a space they are not in.
    expect(expectOk(await h.call('POST', `${STORE}/datasets/copy`, { ...as('member'), body: { id: dsItem, workspace_id: f.wsA } }))).toMatchObject({ name: 'Handbook (2)' });
    expectCode(await h.call('POST', `${STORE}/datasets/copy`, { ...as('member'), body: { id: dsItem, workspace_id: f.wsB } }), 400, 'VALIDATION-1000');
    dsCopy = expectOk(await h.call('POST', `${STORE}/datasets/copy`, { ...as('owner'), body: { id: dsItem, workspace_id: f.wsB } })).id;
    const vec = rowsOf<{ n: number }>(await h.studio.ctx.db.execute(sql`select count(*)::int as n from information_schema.columns where table_name = 'dataset_segments' and column_name = 'embedding_v'`))[0].n ? 'embedding_v::text' : 'embedding::text';
    const shape = (rows: unknown) => rowsOf<Record<string, unknown>>(rows);
    const snap = shape(await h.studio.ctx.db.execute(sql.raw(`select kind, position, content, tokens, tsv::text as tsv, ${vec} as v from store_dataset_segments where store_item_id = '${dsItem}' order by position, content`)));
    const copied = shape(await h.studio.ctx.db.execute(sql.raw(`select kind, position, content, tokens, tsv::text as tsv, ${vec} as v from dataset_segments where dataset_id = '${dsCopy}' order by position, content`)));
    expect(copied.length).toBeGreaterThanOrEqual(3);
    expect(copied).toEqual(snap);
    expect(copied.every((r) => r.v)).toBe(true);
    const hits = expectOk(await h.call('POST', `/api/v1/console/datasets/${dsCopy}/hit-test`, { ...as('owner', f.wsB), body: { query: 'expenses paid', mode: 'hybrid', top_k: 4, rerank: false, graph: false } }));
    expect(JSON.stringify(hits)).toContain('Expenses are paid monthly.');
    // The index entry came along with its vector, on the copied segment, and retrieval matches it.
    const entries = shape(await h.studio.ctx.db.execute(sql.raw(`select i.type, i.source, i.content, s.content as seg, i.${vec.replace('::text', '')} is not null as has_v from dataset_segment_indexes i join dataset_segments s on s.id = i.segment_id where i.dataset_id = '${dsCopy}'`)));
    expect(entries).toEqual([{ type: 'question', source: 'manual', content: 'When is reimbursement settled?', seg: expect.stringContaining('Expenses are paid monthly.'), has_v: true }]);
    const byEntry = expectOk(await h.call('POST', `/api/v1/console/datasets/${dsCopy}/hit-test`, { ...as('owner', f.wsB), body: { query: 'reimbursement settled', mode: 'full_text', top_k: 4, rerank: false, graph: false } }));
    expect(byEntry.results[0].content).toContain('Expenses are paid monthly.');
  });

  it('publishes a tool’s published version without credentials, and a copy gets its own through authorization', async () => {
    const cred = expectOk(await h.call('POST', '/api/v1/console/credentials', { ...as('owner', f.wsA), body: { identifier: 'weather key', sk: 'sk-very-secret-123' } })).id;
    toolId = expectOk(await h.call('POST', '/api/v1/console/tools', { ...as('owner', f.wsA), body: { name: 'Weather', intro: 'Forecasts', auth: { type: 'api_key', location: 'header', key: 'X-Key', credential_id: cred } } })).id;
    fnId = expectOk(await h.call('POST', `/api/v1/console/tools/${toolId}/functions`, { ...as('owner', f.wsA), body: { name: 'forecast', url: 'https://weather.example/forecast' } })).id;
    expectCode(await h.call('POST', `/api/v1/console/tools/${toolId}/distributions`, { ...as('owner', f.wsA), body: {} }), 400, 'VALIDATION-1000');
    expectOk(await h.call('POST', `/api/v1/console/tools/${toolId}/publish`, { ...as('owner', f.wsA), body: {} }));
    const item = expectOk(await h.call('POST', `/api/v1/console/tools/${toolId}/distributions`, { ...as('owner', f.wsA), body: {} }));
    toolItem = item.id;
    expect(expectOk(await h.call('GET', `/api/v1/console/tools/${toolId}/distributions`, as('member', f.wsA)))).toMatchObject({ id: toolItem, review_state: 'awaiting_release' });
    const [row] = await h.studio.ctx.db.select().from(storeItems).where(eq(storeItems.id, toolItem));
    expect(JSON.stringify(row.snapshot)).not.toContain(cred);
    expect(JSON.stringify(row.snapshot)).not.toContain('sk-very');
    await release('tool', toolItem);
    expect(Object.keys(expectOk(await h.call('GET', `${STORE}/tools/tools-by-type`, as('member'))))).toEqual(['custom']);

    const copy = expectOk(await h.call('POST', `${STORE}/tools/copy`, { ...as('owner'), body: { id: toolItem, workspace_id: f.wsB } }));
    toolCopy = copy.id;
    expect(copy.needs_authorization).toEqual({ type: 'api_key', location: 'header', key: 'X-Key' });
    const [copied] = await h.studio.ctx.db.select().from(tools).where(eq(tools.id, toolCopy));
    expect(copied).toMatchObject({ auth: { type: 'none' }, status: 'draft', storeOriginId: toolItem });
    // A credential of another space is refused; one of the copy's space is used.
    expectCode(await h.call('POST', `${STORE}/tools/authorization`, { ...as('owner', f.wsB), body: { tool_id: toolCopy, credential_id: cred } }), 400, 'VALIDATION-1000');
    const mine = expectOk(await h.call('POST', '/api/v1/console/credentials', { ...as('owner', f.wsB), body: { identifier: 'my weather key', sk: 'sk-mine' } })).id;
    const authed = expectOk(await h.call('POST', `${STORE}/tools/authorization`, { ...as('owner', f.wsB), body: { tool_id: toolCopy, credential_id: mine } }));
    expect(authed.auth).toEqual({ type: 'api_key', location: 'header', key: 'X-Key', credential_id: mine });
    expect(authed.functions[0].auth).toEqual({ type: 'api_key', location: 'header', key: 'X-Key', credential_id: mine });
  });

  it('publishes an app through its store distribution (the owner), which shows the review', async () => {
    const doc = flow(
      [
        ['s', 'start', { variables: [{ name: 'q', label: '', type: 'text', required: true, options: [], allowed_extensions: [] }] }],
        ['k', 'knowledge-retrieval', { datasetIds: [ds], query: ['s', 'q'] }],
        ['t', 'tool', { toolId, functionId: fnId, params: [] }],
        ['e', 'end', { outputs: [] }],
      ],
      [
        ['s', 'k'],
        ['k', 't'],
        ['t', 'e'],
      ],
    );
    appId = await createApp(h, f.u.owner.token, f.wsA, 'Office helper', doc);
    await publishVersion(h, as('owner', f.wsA) as { token: string; workspaceId: string }, appId, 'v1');
    expectCode(await h.call('POST', `${STORE}/apps/publish`, { ...as('admin', f.wsA), body: { id: appId } }), 403, 'PERMISSION-1000');
    const item = expectOk(await h.call('POST', `${STORE}/apps/publish`, { ...as('owner', f.wsA), body: { id: appId, tags: ['office'] } }));
    appItem = item.id;
    expect(item).toMatchObject({ type: 'app', kind: 'workflow', version: 'v1', review_state: 'awaiting_release', tags: ['office'] });
    await h.call('POST', `${ADMIN_STORE}/app/${appItem}/reject`, { ...superAdmin(), body: { reason: 'Add a description' } });
    const dist = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/distribution`, as('member', f.wsA)));
    expect(dist.platforms.find((p: { platform: string }) => p.platform === 'store').distribution).toMatchObject({ review_state: 'rejected', review_reason: 'Add a description' });
    // Publishing again moves the one store distribution (no second record) and re-submits.
    expect(expectOk(await h.call('POST', `${STORE}/apps/publish`, { ...as('owner', f.wsA), body: { id: appId } }))).toMatchObject({ id: appItem, review_state: 'awaiting_release' });
    expect((await h.studio.ctx.db.select().from(storeItems).where(eq(storeItems.sourceId, appId))).length).toBe(1);
    await release('app', appItem);
    const detail = expectOk(await h.call('GET', `${STORE}/apps/${appItem}`, as('outsider')));
    expect(detail.snapshot.references.map((r: { kind: string; name: string; store_item_id: string }) => [r.kind, r.name, r.store_item_id])).toEqual([
      ['dataset', 'Handbook', dsItem],
      ['tool', 'Weather', toolItem],
    ]);
  });

  it('copies an app remapping its references by store origin, and lists what the target space lacks', async () => {
    const plan = expectOk(await h.call('POST', `${STORE}/apps/copy`, { ...as('member'), body: { id: appItem, workspace_id: f.wsA, dry_run: true } }));
    expect(plan.id).toBeNull();
    const copy = expectOk(await h.call('POST', `${STORE}/apps/copy`, { ...as('owner'), body: { id: appItem, workspace_id: f.wsB } }));
    expect(copy.references.map((r: { matched_by: string; target_id: string }) => [r.matched_by, r.target_id])).toEqual([
      ['store_origin', dsCopy],
      ['store_origin', toolCopy],
    ]);
    expect(copy.unresolved).toEqual([]);
    const [copiedFn] = await h.studio.ctx.db.select().from(toolFunctions).where(eq(toolFunctions.toolId, toolCopy));
    const [draft] = await h.studio.ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, copy.id));
    const nodes = (draft.document as { nodes: { id: string; config: Record<string, unknown> }[] }).nodes;
    expect(nodes.find((n) => n.id === 'k')!.config.datasetIds).toEqual([dsCopy]);
    expect(nodes.find((n) => n.id === 't')!.config).toMatchObject({ toolId: toolCopy, functionId: copiedFn.id });
    const [appRow] = await h.studio.ctx.db.select().from(apps).where(eq(apps.id, copy.id));
    expect(appRow).toMatchObject({ workspaceId: f.wsB, storeOriginId: appItem, type: 'workflow' });

    // The outsider's space has neither: both listed and cleared; a mapping names one of theirs.
    const none = expectOk(await h.call('POST', `${STORE}/apps/copy`, { ...as('outsider'), body: { id: appItem, workspace_id: f.wsC } }));
    expect(none.unresolved).toEqual([`dataset:${ds}`, `tool:${toolId}`]);
    const [bare] = await h.studio.ctx.db.select().from(appDrafts).where(eq(appDrafts.appId, none.id));
    const bareNodes = (bare.document as { nodes: { id: string; config: Record<string, unknown> }[] }).nodes;
    expect(bareNodes.find((n) => n.id === 'k')!.config.datasetIds).toEqual([]);
    expect(bareNodes.find((n) => n.id === 't')!.config).toMatchObject({ toolId: '', functionId: '' });
    const theirs = await createBase(h, f.u.outsider.token, f.wsC, 'Their handbook');
    const mapped = expectOk(await h.call('POST', `${STORE}/apps/copy`, { ...as('outsider'), body: { id: appItem, workspace_id: f.wsC, mapping: { [`dataset:${ds}`]: theirs } } }));
    expect(mapped).toMatchObject({ name: 'Office helper (2)', unresolved: [`tool:${toolId}`] });
    expect(mapped.references[0]).toMatchObject({ matched_by: 'mapping', target_id: theirs, options: [{ id: theirs, name: 'Their handbook' }] });
    expectCode(await h.call('POST', `${STORE}/apps/copy`, { ...as('outsider'), body: { id: appItem, workspace_id: f.wsC, mapping: { [`dataset:${ds}`]: dsCopy } } }), 400, 'VALIDATION-1000');
    expect((await gallery('apps')).items[0].copy_count).toBe(3);
  });

  it('cancelling the store distribution takes the app offline', async () => {
    await cancel(h, as('owner', f.wsA) as { token: string; workspaceId: string }, appId, 'store');
    expect((await gallery('apps')).items).toEqual([]);
    const dist = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/distribution`, as('owner', f.wsA)));
    expect(dist.platforms.find((p: { platform: string }) => p.platform === 'store')).toMatchObject({ state: 'cancelled', distribution: { review_state: 'offline' } });
  });
});
