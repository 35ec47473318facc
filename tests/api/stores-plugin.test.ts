import { beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { packPlugin } from '../../scripts/plugin-pack';
import { storePluginVersions } from '../../src/server/db/schema';
import { rowsOf } from '../../src/server/knowledge/queue';
import { createUser } from '../../src/server/services/users';
import { DEFAULT_TENANT_ID, useStudio } from './harness';
import { multipartBody, useTempDataDir } from './knowledge-kit';
import { expectCode, expectOk, PASSWORD, setUpWorkspaces, type Fixture } from './workspace-fixture';

// The plugin store (issue 23): a super admin publishes an installed package (its bytes kept with the
// listing), a store manager releases it, every user of the tenant sees it, and a super admin installs
// it from the store through the same checks as an upload. Another tenant sees nothing.

const h = useStudio();
useTempDataDir(h);
let f: Fixture;
let tenantAdmin = '';
let tenantAdminB = '';
let v1: Buffer;
let v2: Buffer;
let itemId = '';
const PLUGINS = '/api/v1/admin/plugins';
const STORE = '/api/v1/console/store/plugins';
const ADMIN_STORE = '/api/v1/admin/store';
const superAdmin = () => ({ token: h.adminToken });

const send = async (token: string, url: string, fields: Record<string, string>, bytes?: Buffer) => {
  const { payload, contentType } = await multipartBody(fields, bytes ? { name: 'plugin.tgz', bytes } : undefined);
  return h.call('POST', url, { token, body: payload, headers: { 'content-type': contentType } });
};
const publish = (token: string, body: unknown) => h.call('POST', `${ADMIN_STORE}/plugins/publish`, { token, body });
const download = (token: string | undefined, id: string, query?: Record<string, string>) => h.call('GET', `${STORE}/${id}/download`, { token, query });
/** The listing's install count as the gallery shows it (the store items' `copy_count`). */
const installs = async () => expectOk(await h.call('GET', `${ADMIN_STORE}/plugin/${itemId}`, superAdmin())).copy_count as number;

beforeAll(async () => {
  v1 = (await packPlugin('plugins/examples/text-stats')).bytes;
  v2 = (await packPlugin('tests/fixtures/plugins/text-stats-v2')).bytes;
  f = await setUpWorkspaces(h, 'pstore');
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'pstore_tadmin', password: PASSWORD, role: 'tenant_admin' });
  tenantAdmin = await h.login('pstore_tadmin', PASSWORD);
  const tid = rowsOf<{ tenant_id: string }>((await h.studio.ctx.db.execute(sql`select tenant_id from users where id = ${f.u.foreign.id}::uuid`)) as unknown)[0].tenant_id;
  await createUser(h.studio.ctx.db, { tenantId: tid, username: 'pstore_tadmin_b', password: PASSWORD, role: 'tenant_admin' });
  tenantAdminB = await h.login('pstore_tadmin_b', PASSWORD, tid);
  expectOk(await send(h.adminToken, `${PLUGINS}/install`, {}, v1));
}, 60_000);

describe('the plugin store', () => {
  it('is published by a super admin only, from an installed package, and refuses bad input', async () => {
    for (const token of [tenantAdmin, f.u.owner.token]) expectCode(await publish(token, { plugin_id: 'weft.text-stats' }), 403, 'PERMISSION-1000');
    expectCode(await publish(h.adminToken, { plugin_id: 'weft.not-installed' }), 400, 'VALIDATION-1000');
    expect((await publish(h.adminToken, { plugin_id: 'weft.text-stats', extra: 1 })).status).toBe(400);
    expect((await publish(h.adminToken, { plugin_id: 'weft.text-stats', tags: ['x'.repeat(21)] })).status).toBe(400);
    const admin = expectOk(await h.call('GET', ADMIN_STORE, { ...superAdmin(), query: { type: 'plugin' } }));
    expect(admin.total).toBe(0);
  });

  it('waits for release out of the gallery, then lists name, icon, version, author, kinds', async () => {
    const item = expectOk(await publish(h.adminToken, { plugin_id: 'weft.text-stats', tags: ['text'] }));
    expect(item).toMatchObject({ type: 'plugin', name: expect.any(String), version: '1.0.0', review_state: 'awaiting_release', tags: ['text'], source_workspace_name: '' });
    itemId = item.id;
    expect(expectOk(await h.call('GET', STORE, { token: f.u.member.token })).items).toEqual([]);
    expectCode(await h.call('GET', `${STORE}/${itemId}`, { token: f.u.member.token }), 400, 'VALIDATION-1000');
    // Installing a listing that is not released: as if it did not exist.
    expectCode(await send(h.adminToken, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId }), 400, 'VALIDATION-1000');
    // Another tenant's manager cannot see it; this tenant's can release it.
    expectCode(await h.call('POST', `${ADMIN_STORE}/plugin/${itemId}/release`, { token: tenantAdminB }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('POST', `${ADMIN_STORE}/plugin/${itemId}/release`, { token: tenantAdmin }))).toMatchObject({ review_state: 'released' });

    const gallery = expectOk(await h.call('GET', STORE, { token: f.u.member.token, query: { keyword: 'text' } }));
    expect(gallery.items.map((i: { id: string }) => i.id)).toEqual([itemId]);
    expect(gallery.tags).toEqual(['text']);
    // The card's facts: who made it and what it adds (the detail has the same, and every version).
    expect(gallery.items[0].plugin).toEqual({ author: 'Weft', kinds: ['text-stats'], tools: [] });
    const detail = expectOk(await h.call('GET', `${STORE}/${itemId}`, { token: f.u.member.token }));
    expect(detail.icon).toEqual({ icon: expect.any(String) });
    expect(detail.snapshot).toMatchObject({ type: 'plugin', plugin_id: 'weft.text-stats', kinds: [{ kind: 'text-stats' }], versions: [{ version: '1.0.0' }] });
    expect(detail.snapshot.author).toEqual(expect.any(String));
    // The other tenant sees nothing of it.
    expect(expectOk(await h.call('GET', STORE, { token: f.u.foreign.token })).items).toEqual([]);
    expectCode(await h.call('GET', `${STORE}/${itemId}`, { token: f.u.foreign.token }), 400, 'VALIDATION-1000');
    // Another kind's route does not answer it.
    expectCode(await h.call('GET', `/api/v1/console/store/tools/${itemId}`, { token: f.u.member.token }), 400, 'VALIDATION-1000');
  });

  it('downloads the released package for every user of the tenant, as an attachment, and for nobody else', async () => {
    for (const token of [f.u.member.token, tenantAdmin, h.adminToken]) {
      const r = await download(token, itemId);
      expect(r.status, r.raw.body.slice(0, 200)).toBe(200);
      expect(r.raw.headers['content-type']).toBe('application/gzip');
      expect(r.raw.headers['content-disposition']).toBe(`attachment; filename="weft.text-stats-1.0.0.tgz"; filename*=UTF-8''weft.text-stats-1.0.0.tgz`);
      expect(r.raw.headers['x-content-type-options']).toBe('nosniff');
      expect(r.raw.rawPayload.equals(v1)).toBe(true);
    }
    const named = await download(f.u.member.token, itemId, { version: '1.0.0' });
    expect(named.status).toBe(200);
    expect(named.raw.rawPayload.equals(v1)).toBe(true);
    // Bad input: a version that is not one, one never published, an id that is not an item, another type's route.
    expectCode(await download(f.u.member.token, itemId, { version: '../../etc/passwd' }), 400, 'VALIDATION-1000');
    expectCode(await download(f.u.member.token, itemId, { version: '9.9.9' }), 400, 'VALIDATION-1000');
    expectCode(await download(f.u.member.token, 'not-an-id'), 400, 'VALIDATION-1000');
    expect((await h.call('GET', `/api/v1/console/store/tools/${itemId}/download`, { token: f.u.member.token })).status).toBe(404);
    // Not signed in, and another tenant (its user and its manager): nothing.
    expectCode(await download(undefined, itemId), 401, 'AUTH-1001');
    expectCode(await download(f.u.foreign.token, itemId), 400, 'VALIDATION-1000');
    expectCode(await download(tenantAdminB, itemId), 400, 'VALIDATION-1000');
    // A download is not an install.
    expect(await installs()).toBe(0);
  });

  it('installs from the store for a super admin only, with the same checks as an upload', async () => {
    expectOk(await h.call('DELETE', `${PLUGINS}/weft.text-stats`, { ...superAdmin(), query: { force: 'true' } }));
    expectCode(await send(tenantAdmin, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId }), 403, 'PERMISSION-1000');
    expectCode(await send(h.adminToken, `${PLUGINS}/install`, { source: 'elsewhere' }), 400, 'VALIDATION-1000');
    expectCode(await send(h.adminToken, `${PLUGINS}/install`, { source: 'store' }), 400, 'VALIDATION-1000');
    expectCode(await send(h.adminToken, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId, version: '9.9.9' }), 400, 'VALIDATION-1000');
    // Refused installs (wrong role, bad input) count nothing; an upload is not an install from the store.
    expect(await installs()).toBe(0);
    // Bytes damaged in the store are refused as a damaged upload is, and nothing is installed.
    const [kept] = await h.studio.ctx.db.select().from(storePluginVersions).where(eq(storePluginVersions.storeItemId, itemId));
    const other = (await packPlugin('tests/fixtures/plugins/text-stats-v2')).bytes.toString('base64');
    await h.studio.ctx.db.update(storePluginVersions).set({ archive: other }).where(eq(storePluginVersions.id, kept.id));
    const wrong = expectOk(await send(h.adminToken, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId }));
    expect(wrong.version).toBe('2.0.0');
    expect(await installs()).toBe(1);
    expectOk(await h.call('DELETE', `${PLUGINS}/weft.text-stats`, { ...superAdmin(), query: { force: 'true' } }));
    await h.studio.ctx.db.update(storePluginVersions).set({ archive: Buffer.from('not a package').toString('base64') }).where(eq(storePluginVersions.id, kept.id));
    expectCode(await send(h.adminToken, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId }), 400, 'PLUGIN-1000');
    expect(expectOk(await h.call('GET', PLUGINS, superAdmin()))).toEqual([]);
    expect(await installs()).toBe(1);
    await h.studio.ctx.db.update(storePluginVersions).set({ archive: kept.archive }).where(eq(storePluginVersions.id, kept.id));

    // Two installs at once: one installs, the other finds it installed; the count goes up once.
    const both = await Promise.all([1, 2].map(() => send(h.adminToken, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId })));
    expect(both.filter((r) => r.status === 200)).toHaveLength(1);
    // The other is told it is installed already, never a server error.
    expectCode(both.find((r) => r.status !== 200)!, 400, 'VALIDATION-1001');
    const installed = both.find((r) => r.status === 200)!.body.data;
    expect(installed).toMatchObject({ id: 'weft.text-stats', version: '1.0.0', state: 'active' });
    expect(await installs()).toBe(2);
    // Installed already: refused, not counted. The gallery and the detail show the count.
    expectCode(await send(h.adminToken, `${PLUGINS}/install`, { source: 'store', store_item_id: itemId }), 400, 'VALIDATION-1001');
    expect(await installs()).toBe(2);
    expect(expectOk(await h.call('GET', STORE, { token: f.u.member.token })).items[0].copy_count).toBe(2);
    expect(expectOk(await h.call('GET', `${STORE}/${itemId}`, { token: f.u.member.token })).copy_count).toBe(2);
  });

  it('keeps every published version; a new one awaits release again', async () => {
    expectOk(await send(h.adminToken, `${PLUGINS}/weft.text-stats/upgrade`, {}, v2));
    const again = expectOk(await publish(h.adminToken, { plugin_id: 'weft.text-stats' }));
    expect(again).toMatchObject({ id: itemId, version: '2.0.0', review_state: 'awaiting_release', tags: ['text'] });
    expect(expectOk(await h.call('GET', STORE, { token: f.u.member.token })).items).toEqual([]);
    // Awaiting release again: not downloadable until released.
    expectCode(await download(f.u.member.token, itemId), 400, 'VALIDATION-1000');
    const detail = expectOk(await h.call('GET', `${ADMIN_STORE}/plugin/${itemId}`, superAdmin()));
    expect(detail.snapshot.versions.map((v: { version: string }) => v.version).sort()).toEqual(['1.0.0', '2.0.0']);
    expect(v1.equals(v2)).toBe(false);
  });
});
