import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { configureRequest } from '../../src/api/request';
import { signIn } from '../../src/api/auth';
import { createWorkspace } from '../../src/api/workspaces';
import { createApp, deleteAppVersion, getApp, getAppDraft, getAppVersion, listAppVersions, publishApp, saveAppDraft } from '../../src/api/apps';
import { apiVersionApi } from '../../src/app/screens/app/version-api';

// The client functions of the version tab (src/api/apps.ts, version-api.ts) against the real server.

const h = useStudio();
beforeAll(async () => {
  await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.studio.app.server.address() as AddressInfo;
  configureRequest({ baseUrl: `http://127.0.0.1:${port}` });
});

it('publishes, lists, reads, restores and deletes versions through the client', async () => {
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' });
  const ws = await createWorkspace({ name: 'Versions client' });
  const app = await createApp(ws.id, { name: 'Client versions', description: 'd', type: 'workflow', icon: { icon: 'bot' } });
  const v = await publishApp(ws.id, app.id, { version: 'v1.0.0', description: 'first' });
  expect(v).toMatchObject({ app_id: app.id, version: 'v1.0.0', description: 'first' });
  await expect(publishApp(ws.id, app.id, { version: 'v1.0.0' }, { reaction: 'silent' })).rejects.toMatchObject({ code: 'VALIDATION-1001' });
  expect((await listAppVersions(ws.id, app.id)).items.map((x) => x.version)).toEqual(['v1.0.0']);
  expect((await getApp(app.id, ws.id)).latest_version).toBe('v1.0.0');
  const detail = await getAppVersion(ws.id, app.id, v.id);
  const draft = await getAppDraft(ws.id, app.id);
  expect(detail.document).toEqual(draft.document);

  // The version tab's real implementation.
  expect(await apiVersionApi.role(ws.id)).toBe('owner');
  const page = await apiVersionApi.list(app.id, ws.id, { page: 1, page_size: 20 });
  expect(page).toMatchObject({ total: 1, items: [{ id: v.id }] });
  const moved = await saveAppDraft(ws.id, { app_id: app.id, base_revision: draft.revision, document: { ...draft.document, notes: 'moved on' } });
  await expect(apiVersionApi.saveDraft(ws.id, { app_id: app.id, base_revision: draft.revision, document: detail.document })).rejects.toMatchObject({ code: 'CONFLICT-1000', data: { revision: moved.revision } });
  const restored = await apiVersionApi.saveDraft(ws.id, { app_id: app.id, base_revision: moved.revision, document: detail.document });
  expect(restored.revision).toBe(moved.revision + 1);
  expect((await apiVersionApi.draft(app.id, ws.id)).document.notes).toBe('');

  expect(await deleteAppVersion(ws.id, app.id, v.id)).toBeNull();
  expect((await listAppVersions(ws.id, app.id)).total).toBe(0);
});
