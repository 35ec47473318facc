import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { configureRequest } from '../../src/api/request';
import { signIn } from '../../src/api/auth';
import * as ds from '../../src/api/datasets';
import { uploadFile } from '../../src/api/files';
import { createWorkspace } from '../../src/api/workspaces';
import { makeXlsx } from '../../src/server/knowledge/test-files';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { RULE, useTempDataDir } from './knowledge-kit';

// The knowledge screens' client functions (src/api/datasets.ts, src/api/files.ts) against the real
// server: every answer parses with the contract's schemas.

const h = useStudio();
useTempDataDir(h);
beforeAll(async () => {
  await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.studio.app.server.address() as AddressInfo;
  configureRequest({ baseUrl: `http://127.0.0.1:${port}` });
});

it('the knowledge client functions parse the real answers', async () => {
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' });
  const w = await createWorkspace({ name: 'Knowledge client' });
  const o = { workspaceId: w.id };
  const base = await ds.createDataset({ name: 'Client base' }, o);
  expect(base).toMatchObject({ name: 'Client base', document_count: 0, created_by_name: 'admin' });
  expect(await ds.checkDatasetName('client base', undefined, o)).toEqual({ exists: true });
  expect(await ds.checkDatasetName('client base', base.id, o)).toEqual({ exists: false });
  expect((await ds.listDatasets({ keyword: 'client' }, o)).items.map((x) => x.id)).toEqual([base.id]);
  expect((await ds.updateDataset(base.id, { description: 'About things' }, o)).description).toBe('About things');
  expect((await ds.getDataset(base.id, o)).name).toBe('Client base');

  const txt = await uploadFile(new File(['First part.\n\nSecond part, 第二部分。'], 'notes.txt', { type: 'text/plain' }), 'dataset', o);
  expect(txt).toMatchObject({ name: 'notes.txt', mime_type: 'text/plain' });
  const xlsx = await uploadFile(new File([new Uint8Array(await makeXlsx([{ name: '表', rows: [['名', 'Qty'], ['a', 1]] }]))], 'table.xlsx'), 'dataset', o);
  expect(await ds.excelSheets(base.id, xlsx.id, o)).toEqual({ sheets: ['表'] });
  expect(await ds.excelHeaders(base.id, { file_id: xlsx.id, sheet: '表', header_row: 1 }, o)).toEqual({ headers: ['名', 'Qty'] });
  const preview = await ds.segmentationPreview(base.id, { file_id: txt.id, process_rule: RULE }, o);
  expect(preview.total).toBeGreaterThan(0);

  const created = await ds.createDocuments(base.id, { file_ids: [txt.id], process_rule: RULE }, o);
  const [tableUnit] = await ds.createDocuments(base.id, { file_ids: [xlsx.id], process_rule: RULE, sheet: '表', header_row: 1 }, o);
  let unit = created[0]!;
  for (let i = 0; i < 200 && !['completed', 'failed'].includes(unit.status); i++) {
    await new Promise((r) => setTimeout(r, 50));
    unit = await ds.getDocument(base.id, unit.id, o);
  }
  expect(unit.status).toBe('completed');
  expect((await ds.listDocuments(base.id, {}, o)).total).toBe(2);
  const segs = await ds.listSegments(base.id, unit.id, {}, o);
  expect(segs.total).toBe(unit.segment_count);
  const seg = await ds.createSegment(base.id, unit.id, { content: 'Added by hand' }, o);
  expect((await ds.updateSegment(base.id, unit.id, seg.id, { enabled: false }, o)).enabled).toBe(false);
  const qa = await ds.createQaPair(base.id, unit.id, { question: 'Q?', answer: 'A.' }, o);
  expect((await ds.updateQaPair(base.id, unit.id, qa.id, { question: 'Q2?', answer: 'A2.' }, o)).question).toBe('Q2?');
  expect((await ds.listQaPairs(base.id, unit.id, {}, o)).total).toBe(1);
  expect(await ds.deleteQaPair(base.id, unit.id, qa.id, o)).toBeNull();
  expect(await ds.toggleEnable(base.id, unit.id, false, o)).toBeNull();
  expect((await ds.taskLogs(base.id, unit.task_id!, o)).length).toBeGreaterThan(0);
  expect((await ds.listAdminTasks({ page_size: 50 })).items.some((t) => t.id === unit.task_id)).toBe(true);
  await expect(ds.stopTask(base.id, unit.task_id!, { ...o, reaction: 'silent' })).rejects.toMatchObject({ code: 'VALIDATION-1000' });
  // Refresh now is for URL units: a file unit is refused with its own code.
  await expect(ds.refreshDocument(base.id, unit.id, { ...o, reaction: 'silent' })).rejects.toMatchObject({ code: 'KNOWLEDGE-1001' });
  expect((await ds.updateDataset(base.id, { graph_min_relevance: 0.4 }, o)).graph_min_relevance).toBe(0.4);
  expect(await ds.deleteDocument(base.id, tableUnit!.id, o)).toBeNull();
  expect(await ds.deleteDataset(base.id, o)).toBeNull();
});
