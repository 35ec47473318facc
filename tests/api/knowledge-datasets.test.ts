import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { datasetDocuments, datasetSegments, datasets, users } from '../../src/server/db/schema';
import { vectorColumnExists } from '../../src/server/knowledge/ingest';
import { rowsOf, runQueuedTasksNow } from '../../src/server/knowledge/queue';
import { makeCsv, makeXlsx } from '../../src/server/knowledge/test-files';
import { segmentText } from '../../src/server/knowledge/segment';
import { useStudio } from './harness';
import { addUnits, createBase, RULE, segmentsOf, startPageServer, upload, uploadOk, useTempDataDir, waitFor, waitUnit } from './knowledge-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// Every route of the knowledge bases group (7.5 datasets) and the admin dataset tasks (7.4):
// success, bad input, roles, and other workspaces and tenants.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
const base = '/api/v1/console/datasets';
const TEXT = 'Weft keeps knowledge in bases.\n\nA unit is cut into segments.\n\n知识库把文档切成分段，再向量化以便检索。';
const EXPECTED = segmentText(TEXT, { ...RULE }).map((d) => d.content);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'kds');
});

/** A segment's vector as stored: `embedding_v` where pgvector exists (then `embedding` is null), else `embedding`. */
async function vectorOf(segmentId: string): Promise<number[] | null> {
  const withVector = await vectorColumnExists(h.studio.ctx);
  const col = sql.raw(withVector ? 'embedding_v::real[] as v, embedding as e' : 'embedding as v, null as e');
  const [r] = rowsOf<{ v: number[] | null; e: number[] | null }>(await h.studio.ctx.db.execute(sql`select ${col} from dataset_segments where id = ${segmentId}::uuid`));
  expect(r!.e).toBeNull();
  return r!.v;
}

describe('knowledge bases', () => {
  let id: string;
  it('creates, reads, lists, renames and checks names', async () => {
    const d = expectOk(await h.call('POST', base, { token: f.u.member.token, workspaceId: f.wsA, body: { name: 'Manuals', description: 'All manuals' } }));
    id = d.id;
    expect(d).toMatchObject({ name: 'Manuals', description: 'All manuals', document_count: 0, size: 0, created_by: f.u.member.id, workspace_id: f.wsA });
    expect(d.created_by_name).toBe('kds_member');
    const list = expectOk(await h.call('GET', base, { token: f.u.owner.token, workspaceId: f.wsA, query: { keyword: 'manu' } }));
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(expectOk(await h.call('GET', base, { token: f.u.owner.token, workspaceId: f.wsB })).total).toBe(0);
    expect(expectOk(await h.call('GET', `${base}/${id}`, { token: f.u.admin.token, workspaceId: f.wsA })).name).toBe('Manuals');
    expect(expectOk(await h.call('POST', `${base}/check-names`, { token: f.u.member.token, workspaceId: f.wsA, body: { name: 'manuals' } }))).toEqual({ exists: true });
    expect(expectOk(await h.call('POST', `${base}/check-names`, { token: f.u.member.token, workspaceId: f.wsA, body: { name: 'Manuals', exclude_id: id } }))).toEqual({ exists: false });
    expect(expectOk(await h.call('POST', `${base}/check-names`, { token: f.u.owner.token, workspaceId: f.wsB, body: { name: 'Manuals' } }))).toEqual({ exists: false });
    const r = expectOk(await h.call('PUT', `${base}/${id}`, { token: f.u.member.token, workspaceId: f.wsA, body: { name: 'Product manuals' } }));
    expect(r).toMatchObject({ name: 'Product manuals', description: 'All manuals' });
  });

  it('refuses duplicate names, bad input and callers outside the workspace', async () => {
    expectCode(await h.call('POST', base, { token: f.u.owner.token, workspaceId: f.wsA, body: { name: 'PRODUCT MANUALS' } }), 400, 'VALIDATION-1001');
    expectCode(await h.call('POST', base, { token: f.u.owner.token, workspaceId: f.wsA, body: { name: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', base, { token: f.u.owner.token, workspaceId: f.wsA, body: { name: 'x'.repeat(51) } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', base, { token: f.u.owner.token, body: { name: 'No header' } }), 400, 'VALIDATION-1008');
    expectCode(await h.call('PUT', `${base}/${id}`, { token: f.u.owner.token, workspaceId: f.wsA, body: {} }), 400, 'VALIDATION-1012');
    const other = await createBase(h, f.u.owner.token, f.wsA, 'Other');
    expectCode(await h.call('PUT', `${base}/${other}`, { token: f.u.owner.token, workspaceId: f.wsA, body: { name: 'product manuals' } }), 400, 'VALIDATION-1001');
    // Not a member, another tenant, the base through another workspace, an unknown id.
    expectCode(await h.call('GET', `${base}/${id}`, { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', base, { token: f.u.foreign.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/${id}`, { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${base}/${id}`, { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/${MISSING}`, { token: f.u.owner.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/not-an-id`, { token: f.u.owner.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', base, { workspaceId: f.wsA }), 401, 'AUTH-1001');
    // Nothing changed by the refusals.
    expect(expectOk(await h.call('GET', `${base}/${id}`, { token: f.u.owner.token, workspaceId: f.wsA })).name).toBe('Product manuals');
    expectOk(await h.call('DELETE', `${base}/${other}`, { token: f.u.admin.token, workspaceId: f.wsA }));
    expectCode(await h.call('GET', `${base}/${other}`, { token: f.u.owner.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
  });
});

describe('units, segments, Q&A pairs, tasks', () => {
  let ds: string;
  let fileId: string;
  let doc: any;
  beforeAll(async () => {
    ds = await createBase(h, f.u.owner.token, f.wsA, 'Units');
    fileId = await uploadOk(h, f.u.member.token, f.wsA, 'guide.txt', TEXT);
  });

  it('previews the segmentation without storing anything', async () => {
    const p = expectOk(await h.call('POST', `${base}/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { file_id: fileId, process_rule: RULE } }));
    expect(p.total).toBe(EXPECTED.length);
    expect(p.segments.map((s: { content: string }) => s.content)).toEqual(EXPECTED);
    expect(EXPECTED.length).toBeGreaterThan(1);
    const pc = expectOk(
      await h.call('POST', `${base}/${ds}/segmentation-preview`, {
        token: f.u.member.token,
        workspaceId: f.wsA,
        body: { file_id: fileId, process_rule: { ...RULE, mode: 'parent_child', max_length: 50, parent_max_length: 1000 } },
      }),
    );
    expect(pc.segments[0].children.length).toBeGreaterThan(1);
    expect((await h.studio.ctx.db.select().from(datasetSegments)).length).toBe(0);
    expectCode(await h.call('POST', `${base}/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { file_id: fileId, process_rule: { ...RULE, max_length: 10 } } }), 400, 'VALIDATION-1000');
    const kw = await h.call('POST', `${base}/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { file_id: fileId, process_rule: { ...RULE, separators: ['null'] } } });
    expectCode(kw, 400, 'VALIDATION-1000');
    expect(kw.body.msg).toContain('system keyword');
    expectCode(await h.call('POST', `${base}/${ds}/segmentation-preview`, { token: f.u.member.token, workspaceId: f.wsA, body: { process_rule: RULE } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${base}/${ds}/segmentation-preview`, { token: f.u.owner.token, workspaceId: f.wsB, body: { file_id: fileId, process_rule: RULE } }), 400, 'VALIDATION-1000');
  });

  it('creates a unit from a file, processes it and reports counts', async () => {
    const [d] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [fileId] });
    expect(d).toMatchObject({ name: 'guide.txt', file_type: 'txt', status: 'queued', segment_count: 0, qa_count: 0, enabled: true, graph_status: 'none' });
    expect(d.task_id).toMatch(/^[0-9a-f-]{36}$/);
    doc = await waitUnit(h, f.u.member.token, f.wsA, ds, d.id);
    expect(doc).toMatchObject({ status: 'completed', progress: 100, segment_count: EXPECTED.length, queue_position: null, error: null, task_id: d.task_id });
    const dsNow = expectOk(await h.call('GET', `${base}/${ds}`, { token: f.u.member.token, workspaceId: f.wsA }));
    expect(dsNow).toMatchObject({ document_count: 1, size: Buffer.byteLength(TEXT) });
    const list = expectOk(await h.call('GET', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, query: { keyword: 'GUIDE' } }));
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([d.id]);
    const logs = expectOk(await h.call('GET', `${base}/${ds}/tasks/${d.task_id}/logs`, { token: f.u.member.token, workspaceId: f.wsA }));
    expect(logs.map((l: { message: string }) => l.message)).toContain('Completed');
  });

  it('refuses duplicate names, bad sources and foreign files', async () => {
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, body: { file_ids: [fileId], process_rule: RULE } }), 400, 'VALIDATION-1001');
    const same = await uploadOk(h, f.u.member.token, f.wsA, 'GUIDE.txt', 'other text');
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, body: { file_ids: [same], process_rule: RULE } }), 400, 'VALIDATION-1001');
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, body: { process_rule: RULE } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, body: { url: 'ftp://x.example/a', process_rule: RULE } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, body: { url: 'https://x.example/a', update_frequency: '2', process_rule: RULE } }), 400, 'VALIDATION-1000');
    const bFile = expectOk(await upload(h, f.u.owner.token, f.wsB, 'b.txt', 'text of B')).id;
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.owner.token, workspaceId: f.wsA, body: { file_ids: [bFile], process_rule: RULE } }), 400, 'VALIDATION-1000');
    const icon = expectOk(await upload(h, f.u.owner.token, f.wsA, 'a.svg', '<svg xmlns="http://www.w3.org/2000/svg"></svg>', 'icon')).id;
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.owner.token, workspaceId: f.wsA, body: { file_ids: [icon], process_rule: RULE } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${base}/${ds}/documents`, { token: f.u.outsider.token, workspaceId: f.wsA, body: { file_ids: [same], process_rule: RULE } }), 400, 'VALIDATION-1000');
    // A URL unit; the same URL again is refused.
    const [u] = await addUnits(h, f.u.member.token, f.wsA, ds, { url: 'http://127.0.0.1:9/page', name: 'Page', update_frequency: '7' });
    expect(u).toMatchObject({ name: 'Page', source_url: 'http://127.0.0.1:9/page', update_frequency: '7', file_type: 'html' });
    const again = await h.call('POST', `${base}/${ds}/documents`, { token: f.u.member.token, workspaceId: f.wsA, body: { url: 'http://127.0.0.1:9/page', name: 'Page 2', process_rule: RULE } });
    expectCode(again, 400, 'VALIDATION-1001');
    expect(again.body.msg).toContain('URL');
    await runQueuedTasksNow(h.studio.ctx);
    const failed = await waitUnit(h, f.u.member.token, f.wsA, ds, u.id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toBeTruthy();
    expect(failed.segment_count).toBe(0);
    expectOk(await h.call('DELETE', `${base}/${ds}/documents/${u.id}`, { token: f.u.member.token, workspaceId: f.wsA }));
    expectCode(await h.call('GET', `${base}/${ds}/documents/${u.id}`, { token: f.u.member.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
  });

  it('enables and disables a unit', async () => {
    expectOk(await h.call('POST', `${base}/${ds}/documents/${doc.id}/toggle-enable`, { token: f.u.member.token, workspaceId: f.wsA, body: { enabled: false } }));
    expect(expectOk(await h.call('GET', `${base}/${ds}/documents/${doc.id}`, { token: f.u.member.token, workspaceId: f.wsA })).enabled).toBe(false);
    expectCode(await h.call('POST', `${base}/${ds}/documents/${doc.id}/toggle-enable`, { token: f.u.member.token, workspaceId: f.wsA, body: { enabled: 'no' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${base}/${ds}/documents/${doc.id}/toggle-enable`, { token: f.u.owner.token, workspaceId: f.wsB, body: { enabled: true } }), 400, 'VALIDATION-1000');
    expectOk(await h.call('POST', `${base}/${ds}/documents/${doc.id}/toggle-enable`, { token: f.u.member.token, workspaceId: f.wsA, body: { enabled: true } }));
  });

  it('lists, adds and edits segments (re-tokenised and re-embedded)', async () => {
    const segs = await segmentsOf(h, f.u.member.token, f.wsA, ds, doc.id);
    expect(segs.map((s) => s.position)).toEqual(EXPECTED.map((_, i) => i + 1));
    expect(segs.map((s) => s.content)).toEqual(EXPECTED);
    const [before] = await h.studio.ctx.db.select().from(datasetSegments).where(eq(datasetSegments.id, segs[0]!.id));
    expect(before!.tokens).toContain('weft');
    const vectorBefore = await vectorOf(segs[0]!.id);
    expect(vectorBefore!.length).toBe(256);
    const added = expectOk(await h.call('POST', `${base}/${ds}/documents/${doc.id}/segments`, { token: f.u.member.token, workspaceId: f.wsA, body: { content: '新增的分段 about pricing' } }));
    expect(added).toMatchObject({ position: EXPECTED.length + 1, content: '新增的分段 about pricing', enabled: true });
    const edited = expectOk(await h.call('PUT', `${base}/${ds}/documents/${doc.id}/segments/${segs[0]!.id}`, { token: f.u.member.token, workspaceId: f.wsA, body: { content: 'Completely different words' } }));
    expect(edited.content).toBe('Completely different words');
    const [after] = await h.studio.ctx.db.select().from(datasetSegments).where(eq(datasetSegments.id, segs[0]!.id));
    expect(after!.tokens).toBe('completely different words');
    const vectorAfter = await vectorOf(segs[0]!.id);
    expect(vectorAfter!.length).toBe(256);
    expect(vectorAfter).not.toEqual(vectorBefore);
    const off = expectOk(await h.call('PUT', `${base}/${ds}/documents/${doc.id}/segments/${segs[1]!.id}`, { token: f.u.member.token, workspaceId: f.wsA, body: { enabled: false } }));
    expect(off.enabled).toBe(false);
    const found = expectOk(await h.call('GET', `${base}/${ds}/documents/${doc.id}/segments`, { token: f.u.member.token, workspaceId: f.wsA, query: { keyword: 'pricing' } }));
    expect(found.total).toBe(1);
    expectCode(await h.call('POST', `${base}/${ds}/documents/${doc.id}/segments`, { token: f.u.member.token, workspaceId: f.wsA, body: { content: '   ' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', `${base}/${ds}/documents/${doc.id}/segments/${MISSING}`, { token: f.u.member.token, workspaceId: f.wsA, body: { enabled: true } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('PUT', `${base}/${ds}/documents/${doc.id}/segments/${segs[1]!.id}`, { token: f.u.outsider.token, workspaceId: f.wsA, body: { enabled: true } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/${ds}/documents/${doc.id}/segments`, { token: f.u.foreign.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', `${base}/${ds}/documents/${doc.id}`, { token: f.u.member.token, workspaceId: f.wsA })).segment_count).toBe(EXPECTED.length + 1);
  });

  it('adds, edits, lists and deletes Q&A pairs (embedded)', async () => {
    const qa = expectOk(await h.call('POST', `${base}/${ds}/documents/${doc.id}/qa-pairs`, { token: f.u.member.token, workspaceId: f.wsA, body: { question: '什么是知识库？', answer: 'A place for documents.' } }));
    expect(qa).toMatchObject({ question: '什么是知识库？', answer: 'A place for documents.', document_id: doc.id });
    const changed = expectOk(await h.call('PUT', `${base}/${ds}/documents/${doc.id}/qa-pairs/${qa.id}`, { token: f.u.member.token, workspaceId: f.wsA, body: { question: 'What is a base?', answer: 'A set of units.' } }));
    expect(changed.question).toBe('What is a base?');
    const list = expectOk(await h.call('GET', `${base}/${ds}/documents/${doc.id}/qa-pairs`, { token: f.u.member.token, workspaceId: f.wsA, query: { keyword: 'units' } }));
    expect(list.items.map((x: { id: string }) => x.id)).toEqual([qa.id]);
    expect(expectOk(await h.call('GET', `${base}/${ds}/documents/${doc.id}`, { token: f.u.member.token, workspaceId: f.wsA })).qa_count).toBe(1);
    expectCode(await h.call('POST', `${base}/${ds}/documents/${doc.id}/qa-pairs`, { token: f.u.member.token, workspaceId: f.wsA, body: { question: 'q', answer: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('DELETE', `${base}/${ds}/documents/${doc.id}/qa-pairs/${qa.id}`, { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
    expectOk(await h.call('DELETE', `${base}/${ds}/documents/${doc.id}/qa-pairs/${qa.id}`, { token: f.u.member.token, workspaceId: f.wsA }));
    expectCode(await h.call('DELETE', `${base}/${ds}/documents/${doc.id}/qa-pairs/${qa.id}`, { token: f.u.member.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
  });

  it('reads sheets and headers of table files', async () => {
    const xlsx = await uploadOk(h, f.u.member.token, f.wsA, 'prices.xlsx', await makeXlsx([{ name: '价格', rows: [['产品', 'Price'], ['Widget', 12]] }, { name: 'Other', rows: [['a'], ['b']] }]));
    expect(expectOk(await h.call('GET', `${base}/${ds}/excel/sheets`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: xlsx } }))).toEqual({ sheets: ['价格', 'Other'] });
    expect(expectOk(await h.call('GET', `${base}/${ds}/excel/headers`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: xlsx, sheet: '价格', header_row: 1 } }))).toEqual({ headers: ['产品', 'Price'] });
    expect(expectOk(await h.call('GET', `${base}/${ds}/excel/headers`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: xlsx, sheet: '价格', header_row: 2 } }))).toEqual({ headers: ['Widget', '12'] });
    const csv = await uploadOk(h, f.u.member.token, f.wsA, 'rows.csv', makeCsv([['名字', 'Age'], ['张三', '30']]));
    expect(expectOk(await h.call('GET', `${base}/${ds}/excel/headers`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: csv, header_row: 1 } }))).toEqual({ headers: ['名字', 'Age'] });
    expectCode(await h.call('GET', `${base}/${ds}/excel/headers`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: xlsx, sheet: 'Nope', header_row: 1 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/${ds}/excel/headers`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: xlsx, header_row: 0 } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/${ds}/excel/sheets`, { token: f.u.member.token, workspaceId: f.wsA, query: { file_id: fileId } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', `${base}/${ds}/excel/sheets`, { token: f.u.owner.token, workspaceId: f.wsB, query: { file_id: xlsx } }), 400, 'VALIDATION-1000');
  });

  it('shows queue positions, stops a running task and takes queued ones out of the queue', async () => {
    const pages = await startPageServer(() => '<html><body><p>Slow page text.</p></body></html>');
    h.allowOutbound(pages.url('/'));
    try {
      const [slow] = await addUnits(h, f.u.member.token, f.wsA, ds, { url: pages.url('/slow'), name: 'Slow page' });
      await waitFor(h, f.u.member.token, f.wsA, ds, slow.id, (d) => d.status === 'parsing');
      const ids = [await uploadOk(h, f.u.member.token, f.wsA, 'q0.txt', 'first queued'), await uploadOk(h, f.u.member.token, f.wsA, 'q1.txt', 'second queued')];
      const [b, c] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: ids });
      expect([b.status, b.queue_position, c.status, c.queue_position]).toEqual(['queued', 1, 'queued', 2]);
      expectOk(await h.call('POST', `${base}/${ds}/tasks/${c.task_id}/cancel-queue`, { token: f.u.member.token, workspaceId: f.wsA }));
      expect(expectOk(await h.call('GET', `${base}/${ds}/documents/${c.id}`, { token: f.u.member.token, workspaceId: f.wsA })).status).toBe('cancelled');
      expectCode(await h.call('POST', `${base}/${ds}/tasks/${c.task_id}/cancel-queue`, { token: f.u.member.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
      expectCode(await h.call('POST', `${base}/${ds}/tasks/${slow.task_id}/cancel-queue`, { token: f.u.member.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
      expectCode(await h.call('POST', `${base}/${ds}/tasks/${slow.task_id}/stop`, { token: f.u.owner.token, workspaceId: f.wsB }), 400, 'VALIDATION-1000');
      expectCode(await h.call('POST', `${base}/${ds}/tasks/${slow.task_id}/stop`, { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
      expectCode(await h.call('POST', `${base}/${ds}/tasks/${MISSING}/stop`, { token: f.u.member.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
      expect(expectOk(await h.call('GET', `${base}/${ds}/documents/${b.id}`, { token: f.u.member.token, workspaceId: f.wsA })).queue_position).toBe(1);
      expectOk(await h.call('POST', `${base}/${ds}/tasks/${slow.task_id}/stop`, { token: f.u.member.token, workspaceId: f.wsA }));
      const stopped = await waitUnit(h, f.u.member.token, f.wsA, ds, slow.id);
      expect(stopped).toMatchObject({ status: 'cancelled', segment_count: 0 });
      expect((await waitUnit(h, f.u.member.token, f.wsA, ds, b.id)).status).toBe('completed');
      await runQueuedTasksNow(h.studio.ctx);
      expectCode(await h.call('POST', `${base}/${ds}/tasks/${slow.task_id}/stop`, { token: f.u.member.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
      const logs = expectOk(await h.call('GET', `${base}/${ds}/tasks/${slow.task_id}/logs`, { token: f.u.member.token, workspaceId: f.wsA }));
      expect(logs.map((l: { message: string }) => l.message)).toEqual(expect.arrayContaining(['Stop requested', 'Cancelled']));
    } finally {
      pages.release();
      await pages.close();
    }
  });
});

describe('admin dataset tasks', () => {
  const admin = '/api/v1/admin/datasets/management';
  it('lists tasks of the tenant for tenant admins, all for super admins; others get 403', async () => {
    const all = expectOk(await h.call('GET', admin, { token: h.adminToken, query: { page_size: 100 } }));
    expect(all.total).toBeGreaterThan(0);
    expect(all.items[0]).toMatchObject({ tenant_name: expect.any(String), workspace_name: expect.any(String), dataset_name: expect.any(String), document_name: expect.any(String), task_type: 'normal' });
    const done = expectOk(await h.call('GET', admin, { token: h.adminToken, query: { status: 'completed' } }));
    expect(done.items.every((t: { status: string }) => t.status === 'completed')).toBe(true);
    expectCode(await h.call('GET', admin, { token: f.u.member.token }), 403, 'PERMISSION-1000');
    expectCode(await h.call('POST', `${admin}/task/${all.items[0].id}/stop`, { token: f.u.owner.token }), 403, 'PERMISSION-1000');
    // A tenant admin of another tenant sees none of these and cannot touch them.
    await h.studio.ctx.db.update(users).set({ role: 'tenant_admin' }).where(eq(users.id, f.u.foreign.id));
    const { forgetCallers } = await import('../../src/server/auth');
    forgetCallers();
    expect(expectOk(await h.call('GET', admin, { token: f.u.foreign.token })).total).toBe(0);
    expectCode(await h.call('POST', `${admin}/task/${all.items[0].id}/cancel-queue`, { token: f.u.foreign.token }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', `${admin}/task/${done.items[0].id}/stop`, { token: h.adminToken }), 400, 'VALIDATION-1000');
  });

  it('stops a running task and cancels a queued one', async () => {
    const pages = await startPageServer(() => '<p>x</p>');
    h.allowOutbound(pages.url('/'));
    try {
      const ds = await createBase(h, f.u.owner.token, f.wsA, 'Admin stop');
      const [slow] = await addUnits(h, f.u.owner.token, f.wsA, ds, { url: pages.url('/slow'), name: 'Slow' });
      await waitFor(h, f.u.owner.token, f.wsA, ds, slow.id, (d) => d.status === 'parsing');
      const [queued] = await addUnits(h, f.u.owner.token, f.wsA, ds, { file_ids: [await uploadOk(h, f.u.owner.token, f.wsA, 'a1.txt', 'alpha')] });
      const list = expectOk(await h.call('GET', admin, { token: h.adminToken, query: { status: 'queued' } }));
      expect(list.items.find((t: { id: string }) => t.id === queued.task_id)).toMatchObject({ queue_position: 1, dataset_name: 'Admin stop', document_name: 'a1.txt' });
      expectCode(await h.call('POST', `${admin}/task/${slow.task_id}/cancel-queue`, { token: h.adminToken }), 400, 'VALIDATION-1000');
      expectOk(await h.call('POST', `${admin}/task/${queued.task_id}/cancel-queue`, { token: h.adminToken }));
      expectOk(await h.call('POST', `${admin}/task/${slow.task_id}/stop`, { token: h.adminToken }));
      expect((await waitUnit(h, f.u.owner.token, f.wsA, ds, slow.id)).status).toBe('cancelled');
      expect((await waitUnit(h, f.u.owner.token, f.wsA, ds, queued.id)).status).toBe('cancelled');
    } finally {
      pages.release();
      await pages.close();
    }
  });
});

describe('deletes', () => {
  it('deletes a base with its units and segments', async () => {
    const ds = await createBase(h, f.u.member.token, f.wsA, 'To delete');
    const file = await uploadOk(h, f.u.member.token, f.wsA, 'del.txt', 'some text to delete');
    const [u] = await addUnits(h, f.u.member.token, f.wsA, ds, { file_ids: [file] });
    await waitUnit(h, f.u.member.token, f.wsA, ds, u.id);
    expect((await h.studio.ctx.db.select().from(datasetSegments).where(eq(datasetSegments.datasetId, ds))).length).toBe(1);
    expectCode(await h.call('DELETE', `${base}/${ds}`, { token: f.u.outsider.token, workspaceId: f.wsA }), 400, 'VALIDATION-1000');
    expectOk(await h.call('DELETE', `${base}/${ds}`, { token: f.u.member.token, workspaceId: f.wsA }));
    expect((await h.studio.ctx.db.select().from(datasets).where(eq(datasets.id, ds))).length).toBe(0);
    expect((await h.studio.ctx.db.select().from(datasetSegments).where(eq(datasetSegments.datasetId, ds))).length).toBe(0);
  });
});
