import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appVersions, datasetDocuments, datasets, datasetSegments, modelSettings, users } from '../../src/server/db/schema';
import { builtinEmbedder } from '../../src/server/knowledge/embedder';
import { writeSegments } from '../../src/server/knowledge/ingest';
import { seed } from '../../src/server/services/seed';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { createBase } from './knowledge-kit';
import { createApp, flow } from './runs-kit';
import { setUpWorkspaces, type Fixture } from './workspace-fixture';

// Writes made of several steps go in one transaction after everything that can fail (issue 20,
// finding 9, "the same pattern elsewhere"): a refused or failed request changes nothing. A
// statement trigger makes the last step of each write fail, as a lost connection or a full disk
// would.

const h = useStudio();
let f: Fixture;
const db = () => h.studio.ctx.db;

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'atomic');
});

/** Makes every `op` on `table` fail until the returned function is called. */
async function failing(table: string, op: 'INSERT' | 'UPDATE' | 'DELETE'): Promise<() => Promise<void>> {
  await db().execute(sql.raw(`CREATE OR REPLACE FUNCTION weft_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$`));
  await db().execute(sql.raw(`CREATE TRIGGER weft_test_refuse BEFORE ${op} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION weft_test_refuse()`));
  return async () => {
    await db().execute(sql.raw(`DROP TRIGGER weft_test_refuse ON ${table}`));
  };
}

describe('a write whose last step fails leaves nothing behind', () => {
  it('switching a model off (the setting, then the defaults that named it)', async () => {
    const undo = await failing('tenant_default_models', 'DELETE');
    try {
      const r = await h.call('PUT', '/api/v1/admin/models/model-providers/openai/models/disable', { token: h.adminToken, body: { model: 'gpt-4o', model_type: 'llm' } });
      expect(r.status).toBe(500);
    } finally {
      await undo();
    }
    expect(await db().select().from(modelSettings).where(and(eq(modelSettings.model, 'gpt-4o'), eq(modelSettings.enabled, false)))).toEqual([]);
  });

  it('the first start: the admin is not stored without their workspace', async () => {
    // Seeding runs only while there is no super admin: take the role away for the time of the test.
    const admins = await db().update(users).set({ role: 'user' }).where(eq(users.role, 'super_admin')).returning({ id: users.id });
    const undo = await failing('workspaces', 'INSERT');
    try {
      await expect(seed(db(), 'second_admin', 'Passw0rd123')).rejects.toThrow();
    } finally {
      await undo();
      for (const a of admins) await db().update(users).set({ role: 'super_admin' }).where(eq(users.id, a.id));
    }
    expect(await db().select().from(users).where(eq(users.username, 'second_admin'))).toEqual([]);
  });

  it("deleting a knowledge unit (the unit, then its base's time)", async () => {
    const ds = await createBase(h, f.u.member.token, f.wsA, 'Atomic delete');
    const docId = randomUUID();
    await db().insert(datasetDocuments).values({ id: docId, tenantId: DEFAULT_TENANT_ID, datasetId: ds, name: 'a.txt', fileType: 'txt', status: 'completed', progress: 1, processRule: {}, createdBy: f.u.member.id });
    const undo = await failing('datasets', 'UPDATE');
    try {
      const r = await h.call('DELETE', `/api/v1/console/datasets/${ds}/documents/${docId}`, { token: f.u.member.token, workspaceId: f.wsA });
      expect(r.status).toBe(500);
    } finally {
      await undo();
    }
    expect(await db().select({ id: datasetDocuments.id }).from(datasetDocuments).where(eq(datasetDocuments.id, docId))).toEqual([{ id: docId }]);
  });

  it("publishing an app (the version, then the app's time)", async () => {
    const appId = await createApp(h, f.u.owner.token, f.wsA, 'Atomic publish', flow([['s', 'start'], ['e', 'end']], [['s', 'e']]));
    const undo = await failing('apps', 'UPDATE');
    try {
      const r = await h.call('POST', `/api/v1/console/apps/${appId}/publish`, { token: f.u.owner.token, workspaceId: f.wsA, body: { version: 'v1', description: '' } });
      expect(r.status).toBe(500);
    } finally {
      await undo();
    }
    expect(await db().select().from(appVersions).where(eq(appVersions.appId, appId))).toEqual([]);
  });
});

describe('editing a parent segment whose embedding fails', () => {
  it('keeps the parent and its children as they were', async () => {
    const ds = await createBase(h, f.u.member.token, f.wsA, 'Atomic');
    const docId = randomUUID();
    await db().insert(datasetDocuments).values({
      id: docId,
      tenantId: DEFAULT_TENANT_ID,
      datasetId: ds,
      name: 'shipping.md',
      fileType: 'md',
      status: 'completed',
      progress: 1,
      processRule: {},
      segmentMode: 'parent_child',
      createdBy: f.u.member.id,
    });
    await writeSegments(h.studio.ctx, { id: docId, datasetId: ds, tenantId: DEFAULT_TENANT_ID, name: 'shipping.md' }, [{ content: 'Orders ship fast. Returns are free.', children: ['Orders ship fast.', 'Returns are free.'] }], builtinEmbedder);
    // The knowledge base now embeds with a provider the tenant has no credentials for: every embedding fails.
    await db().update(datasets).set({ embedding: { provider: 'openai_api_compatible', model: 'gone' } }).where(eq(datasets.id, ds));
    const stored = () => db().select({ id: datasetSegments.id, kind: datasetSegments.kind, content: datasetSegments.content }).from(datasetSegments).where(eq(datasetSegments.documentId, docId)).orderBy(asc(datasetSegments.kind), asc(datasetSegments.position));
    const before = await stored();
    const parent = before.find((s) => s.kind === 'parent')!;
    const r = await h.call('PUT', `/api/v1/console/datasets/${ds}/documents/${docId}/segments/${parent.id}`, {
      token: f.u.member.token,
      workspaceId: f.wsA,
      body: { content: 'Completely new words. And more.', enabled: false },
    });
    expect(r.status, JSON.stringify(r.body)).toBeGreaterThanOrEqual(400);
    expect(await stored()).toEqual(before);
  });
});
