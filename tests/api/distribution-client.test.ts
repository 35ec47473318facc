import type { AddressInfo } from 'node:net';
import { beforeAll, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { configureRequest } from '../../src/api/request';
import { signIn } from '../../src/api/auth';
import { createWorkspace } from '../../src/api/workspaces';
import { createApp, publishApp } from '../../src/api/apps';
import { cancelDistribution, distributeApp, listDistribution, moveDistribution } from '../../src/api/distribution';
import { apiDistributeApi } from '../../src/app/screens/app/distribute-api';

// The client functions of the distribute tab (src/api/distribution.ts, distribute-api.ts) against the real server.

const h = useStudio();
beforeAll(async () => {
  await h.studio.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.studio.app.server.address() as AddressInfo;
  configureRequest({ baseUrl: `http://127.0.0.1:${port}` });
});

it('lists, distributes, moves and cancels through the client, each answer parsed as the whole list', async () => {
  await signIn({ tenantId: DEFAULT_TENANT_ID, username: 'admin', password: 'Admin12345' });
  const ws = await createWorkspace({ name: 'Distribution client' });
  const app = await createApp(ws.id, { name: 'Client distribution', description: 'd', type: 'workflow', icon: { icon: 'bot' } });

  const empty = await listDistribution(ws.id, app.id);
  expect(empty).toMatchObject({ is_owner: true, latest_version: null });
  expect(empty.platforms.map((p) => [p.platform, p.state, p.blocked])).toEqual([
    ['current_project', 'not_distributed', 'no_version'],
    ['portal', 'not_distributed', 'no_version'],
    ['store', 'not_distributed', 'no_version'],
    ['tool', 'not_distributed', 'no_version'],
  ]);
  await expect(distributeApp(ws.id, app.id, { platform: 'portal' }, { reaction: 'silent' })).rejects.toMatchObject({ code: 'VALIDATION-1000' });

  const v1 = await publishApp(ws.id, app.id, { version: 'v1' });
  const v2 = await publishApp(ws.id, app.id, { version: 'v2' });
  expect((await apiDistributeApi.versions(app.id, ws.id)).map((v) => v.version)).toEqual(['v2', 'v1']);

  const distributed = await distributeApp(ws.id, app.id, { platform: 'portal', version_id: v1.id });
  const portal = distributed.platforms.find((p) => p.platform === 'portal')!;
  expect(portal).toMatchObject({ state: 'distributed', newer_version_available: true, blocked: null, distribution: { version: { id: v1.id, version: 'v1' }, distributed_by_name: 'admin' } });
  await expect(distributeApp(ws.id, app.id, { platform: 'portal' }, { reaction: 'silent' })).rejects.toMatchObject({ code: 'VALIDATION-1001' });

  const moved = await moveDistribution(ws.id, app.id, { id: portal.distribution!.id, version_id: v2.id });
  expect(moved.platforms[1]).toMatchObject({ newer_version_available: false, distribution: { version: { version: 'v2' } } });

  const tool = await apiDistributeApi.distribute(app.id, ws.id, { platform: 'tool' });
  expect(tool.platforms[3]).toMatchObject({ state: 'distributed', distribution: { version: { id: v2.id }, tool_id: expect.any(String) } });

  const cancelled = await cancelDistribution(ws.id, app.id, portal.distribution!.id);
  expect(cancelled.platforms[1]).toMatchObject({ state: 'cancelled', distribution: { cancelled_by_name: 'admin', version: { version: 'v2' } } });
  expect((await apiDistributeApi.list(app.id, ws.id)).platforms[1].state).toBe('cancelled');
});
