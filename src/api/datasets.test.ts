import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSession } from '../app/session';
import * as ds from './datasets';
import { ApiError, configureRequest } from './request';
import { ok, startServer, type TestServer } from './testing/http-server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  useSession.setState({ accessToken: 'tok', tenantId: 'ten', workspaceId: 'ws' });
});
afterAll(async () => {
  configureRequest({ baseUrl: '' });
  await server.close();
});

const DOC = {
  id: 'd1', dataset_id: 'k1', name: 'a.txt', file_type: 'txt', size: 3, source_url: null, update_frequency: 'none', upload_status: 'success',
  status: 'queued', progress: 0, queue_position: 2, task_id: 't1', error: null, segment_mode: 'general', segment_count: 0, qa_count: 0,
  hit_count: 0, enabled: true, graph_status: 'disabled', graph_error: null, created_at: '2025-01-01T00:00:00Z', updated_at: '2025-01-01T00:00:00Z',
};

describe('datasets client', () => {
  it('lists documents of a base with paging and keyword in the query, parsing the page', async () => {
    server.handle((_req, res) => ok(res, { items: [DOC], total: 1, page: 2, page_size: 20 }));
    const page = await ds.listDocuments('k1', { page: 2, page_size: 20, keyword: 'a' });
    expect(page.items[0]!.queue_position).toBe(2);
    const req = server.requests[0]!;
    expect([req.method, req.path, req.query.get('page'), req.query.get('keyword')]).toEqual(['GET', '/api/v1/console/datasets/k1/documents', '2', 'a']);
    expect(req.headers['x-workspace-id']).toBe('ws');
  });

  it('creates documents with the segmentation rule in a JSON body', async () => {
    server.handle((_req, res) => ok(res, [DOC]));
    const rule = { mode: 'general' as const, max_length: 800, overlap: 0, separators: ['\n\n'], remove_extra_spaces: true, remove_urls_emails: false };
    await ds.createDocuments('k1', { file_ids: ['f1'], process_rule: rule });
    const req = server.requests[0]!;
    expect([req.method, req.path]).toEqual(['POST', '/api/v1/console/datasets/k1/documents']);
    expect(JSON.parse(req.body)).toEqual({ file_ids: ['f1'], process_rule: rule });
  });

  it('stops and cancels tasks, and reaches the admin task routes', async () => {
    server.handle((_req, res) => ok(res, null));
    await ds.stopTask('k1', 't1');
    await ds.cancelQueuedTask('k1', 't1');
    await ds.cancelAdminQueuedTask('t9');
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v1/console/datasets/k1/tasks/t1/stop',
      'POST /api/v1/console/datasets/k1/tasks/t1/cancel-queue',
      'POST /api/v1/admin/datasets/management/task/t9/cancel-queue',
    ]);
  });

  it('rejects an answer that does not match the contract', async () => {
    server.handle((_req, res) => ok(res, { items: [{ id: 1 }], total: 1, page: 1, page_size: 20 }));
    const e = await ds.listDatasets({}).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).code).toBe('CLIENT-BAD-RESPONSE');
  });
});
