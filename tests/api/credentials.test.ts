import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, MISSING, setUpWorkspaces, type Who } from './workspace-fixture';
import { credentials } from '../../src/server/db/schema';
import { decryptSecret } from '../../src/server/security/secrets';

const h = useStudio();
const URL = '/api/v1/console/credentials';
let f: Fixture;

const LONG_SK = 'sk-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LONG_MASK = 'sk-A****6789';

/** A call as `who` in workspace A unless another workspace (or none: null) is given. */
function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

interface Cred {
  id: string;
  workspace_id: string;
  identifier: string;
  ak: string;
  sk: string;
  cred_id: string;
  description: string;
  created_by: string;
  created_at: string;
  updated_at: string;
}

async function create(body: Record<string, unknown>, who: Who = 'owner', ws?: string): Promise<Cred> {
  return expectOk(await call('POST', URL, who, { body, ws }));
}
const read = async (id: string, who: Who = 'owner', ws?: string): Promise<Cred> => expectOk(await call('GET', `${URL}/${id}`, who, { ws }));
const secret = async (id: string) => expectOk(await call('GET', `${URL}/${id}/secret-key`, 'owner')).sk as string;
const rawRow = async (id: string) => (await h.studio.ctx.db.select().from(credentials).where(eq(credentials.id, id)))[0];
const identifiers = async (who: Who, query: Record<string, string | number> = {}, ws?: string) =>
  (expectOk(await call('GET', URL, who, { query, ws })).items as Cred[]).map((c) => c.identifier);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'cred');
});

describe('POST /console/credentials (create)', () => {
  it('creates a credential for owner and admin; the SK is masked in the answer', async () => {
    const c = await create({ identifier: '  Aliyun Prod  ', ak: 'AKID123', sk: LONG_SK, cred_id: 'acc-1', description: 'prod keys' });
    expect(c).toMatchObject({ identifier: 'Aliyun Prod', ak: 'AKID123', sk: LONG_MASK, cred_id: 'acc-1', description: 'prod keys', workspace_id: f.wsA, created_by: f.u.owner.id });
    expect(c.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(c.created_at).toBe(c.updated_at);
    const byAdmin = await create({ identifier: 'Short', sk: 'abc' }, 'admin');
    expect(byAdmin).toMatchObject({ identifier: 'Short', ak: '', sk: '******', cred_id: '', description: '', created_by: f.u.admin.id });
    expect(await read(c.id, 'member')).toEqual(c);
  });

  it('stores the SK only encrypted (v1 AES-GCM bound to the row)', async () => {
    const c = await create({ identifier: 'At Rest', ak: 'ak', sk: LONG_SK });
    const row = await rawRow(c.id);
    expect(row.skEnc.startsWith('v1:')).toBe(true);
    expect(row.skEnc).not.toContain(LONG_SK);
    expect(row.skEnc).not.toContain('ABCDEFGHIJ');
    expect(JSON.stringify(row)).not.toContain(LONG_SK);
    expect(decryptSecret(h.studio.ctx.secretKey, row.skEnc, `credential.sk:${c.id}`)).toBe(LONG_SK);
    // Two credentials with the same SK do not share a ciphertext.
    const twin = await create({ identifier: 'At Rest Twin', sk: LONG_SK });
    expect((await rawRow(twin.id)).skEnc).not.toBe(row.skEnc);
  });

  it('refuses an id in the body with VALIDATION-1002', async () => {
    expectCode(await call('POST', URL, 'owner', { body: { id: randomUUID(), identifier: 'With Id', sk: 'x' } }), 400, 'VALIDATION-1002');
    expect(await identifiers('owner', { name: 'With Id' })).toEqual([]);
  });

  it('refuses bad input with VALIDATION-1000 and creates nothing', async () => {
    for (const body of [
      {},
      { identifier: 'Bad 1' },
      { identifier: 'Bad 2', sk: '' },
      { identifier: 'Bad 3', sk: '   ' },
      { identifier: '', sk: 'x' },
      { identifier: 'x'.repeat(51), sk: 'x' },
      { identifier: 'Bad 4', sk: 'x'.repeat(1025) },
      { identifier: 'Bad 5', sk: 'x', ak: 'a'.repeat(257) },
      { identifier: 'Bad 6', sk: 'x', description: 'd'.repeat(501) },
      { identifier: 'Bad 7', sk: 12345 },
      { identifier: 'Bad 8', sk: 'x', secret: 'extra' },
    ]) {
      const r = await call('POST', URL, 'owner', { body });
      expectCode(r, 400, 'VALIDATION-1000');
    }
    expect(await identifiers('owner', { name: 'Bad' })).toEqual([]);
  });

  it('refuses an identifier already used in the workspace (any case) with VALIDATION-1001; other workspaces may reuse it', async () => {
    await create({ identifier: 'Unique Cred', sk: 'x' });
    expectCode(await call('POST', URL, 'admin', { body: { identifier: 'UNIQUE cred', sk: 'y' } }), 400, 'VALIDATION-1001');
    expect(await identifiers('owner', { name: 'unique cred' })).toEqual(['Unique Cred']);
    const inB = await create({ identifier: 'Unique Cred', sk: 'x' }, 'owner', f.wsB);
    expect(inB.workspace_id).toBe(f.wsB);
  });

  it('is refused to an ordinary member (403) and creates nothing', async () => {
    expectCode(await call('POST', URL, 'member', { body: { identifier: 'By Member', sk: 'x' } }), 403, 'PERMISSION-1000');
    expect(await identifiers('owner', { name: 'By Member' })).toEqual([]);
  });

  it('needs X-Workspace-Id (VALIDATION-1008) and a workspace the caller belongs to (VALIDATION-1000)', async () => {
    expectCode(await call('POST', URL, 'owner', { body: { identifier: 'No Header', sk: 'x' }, ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('POST', URL, 'owner', { body: { identifier: 'Not Mine', sk: 'x' }, ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { identifier: 'Bad Header', sk: 'x' }, ws: 'not-a-uuid' }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'foreign', { body: { identifier: 'Other Tenant', sk: 'x' } }), 400, 'VALIDATION-1000');
    expectCode(await call('POST', URL, 'owner', { body: { identifier: 'Missing Ws', sk: 'x' }, ws: MISSING }), 400, 'VALIDATION-1000');
    expect(await identifiers('outsider', {}, f.wsC)).toEqual([]);
    for (const name of ['No Header', 'Not Mine', 'Bad Header', 'Other Tenant', 'Missing Ws']) {
      expect(await identifiers('owner', { name })).toEqual([]);
    }
  });

  it('needs a token', async () => {
    expectCode(await h.call('POST', URL, { body: { identifier: 'x', sk: 'x' }, workspaceId: f.wsA }), 401, 'AUTH-1001');
  });
});

describe('GET /console/credentials (list)', () => {
  it('lists the workspace credentials newest first with the SK masked, for every member', async () => {
    const a = await create({ identifier: 'List One', sk: LONG_SK }, 'owner', f.wsB);
    const b = await create({ identifier: 'List Two', sk: 'short' }, 'owner', f.wsB);
    const r = expectOk(await call('GET', URL, 'owner', { ws: f.wsB, query: { name: 'list' } }));
    expect(r).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(r.items.map((c: Cred) => [c.id, c.sk])).toEqual([
      [b.id, '******'],
      [a.id, LONG_MASK],
    ]);
    expect(JSON.stringify(r)).not.toContain(LONG_SK);
    const asMember = expectOk(await call('GET', URL, 'member'));
    expect(JSON.stringify(asMember)).not.toContain(LONG_SK);
    expect(asMember.items.length).toBeGreaterThan(0);
    // Workspace A does not see B's credentials.
    expect(await identifiers('owner', { name: 'List' })).toEqual([]);
  });

  it('filters by identifier (case-insensitive substring, wildcards literal) and pages', async () => {
    for (const identifier of ['Page 100%', 'Page 1000', 'page_x']) await create({ identifier, sk: 'x' });
    expect(await identifiers('admin', { name: 'PAGE' })).toEqual(['page_x', 'Page 1000', 'Page 100%']);
    expect(await identifiers('admin', { name: '0%' })).toEqual(['Page 100%']);
    expect(await identifiers('admin', { name: 'e_' })).toEqual(['page_x']);
    const p2 = expectOk(await call('GET', URL, 'member', { query: { name: 'page', page: 2, page_size: 2 } }));
    expect(p2).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(p2.items.map((c: Cred) => c.identifier)).toEqual(['Page 100%']);
  });

  it('refuses page_size above 1000 (VALIDATION-1009) and bad paging (VALIDATION-1000)', async () => {
    expectCode(await call('GET', URL, 'owner', { query: { page_size: 1001 } }), 400, 'VALIDATION-1009');
    expectOk(await call('GET', URL, 'owner', { query: { page_size: 1000 } }));
    expectCode(await call('GET', URL, 'owner', { query: { page: 0 } }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'owner', { query: { page_size: 'x' } }), 400, 'VALIDATION-1000');
  });

  it('needs X-Workspace-Id and membership', async () => {
    expectCode(await call('GET', URL, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expectCode(await call('GET', URL, 'owner', { ws: f.wsC }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', URL, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', URL, { workspaceId: f.wsA }), 401, 'AUTH-1001');
  });
});

describe('GET /console/credentials/:credential_id', () => {
  it('answers the credential with the SK masked to any member', async () => {
    const c = await create({ identifier: 'Get Me', ak: 'ak1', sk: LONG_SK, cred_id: 'id-9' });
    for (const who of ['owner', 'admin', 'member'] as const) {
      expect(await read(c.id, who)).toEqual(c);
    }
  });

  it('answers VALIDATION-1000 for another workspace, an unknown or malformed id; VALIDATION-1008 without the header', async () => {
    const inB = await create({ identifier: 'Get In B', sk: 'x' }, 'owner', f.wsB);
    expectCode(await call('GET', `${URL}/${inB.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${inB.id}`, 'member'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${MISSING}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/not-a-uuid`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${inB.id}`, 'outsider', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${inB.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(await read(inB.id, 'owner', f.wsB)).toMatchObject({ identifier: 'Get In B' });
  });
});

describe('PUT /console/credentials (update)', () => {
  it('changes fields; left-out fields stay; a masked or left-out SK keeps the stored one', async () => {
    const c = await create({ identifier: 'Upd One', ak: 'ak-old', sk: LONG_SK, cred_id: 'cid', description: 'old' });
    const r1 = expectOk(await call('PUT', URL, 'admin', { body: { id: c.id, ak: 'ak-new', description: '' } }));
    expect(r1).toMatchObject({ id: c.id, identifier: 'Upd One', ak: 'ak-new', sk: LONG_MASK, cred_id: 'cid', description: '' });
    expect(await secret(c.id)).toBe(LONG_SK);
    // The form sends back what it was shown: the mask keeps the SK.
    const before = (await rawRow(c.id)).skEnc;
    const { id, ak, sk, cred_id, description } = r1 as Cred;
    const r2 = expectOk(await call('PUT', URL, 'owner', { body: { id, identifier: 'Upd One Renamed', ak, sk, cred_id, description } }));
    expect(r2).toMatchObject({ identifier: 'Upd One Renamed', sk: LONG_MASK });
    expect((await rawRow(c.id)).skEnc).toBe(before);
    expect(await secret(c.id)).toBe(LONG_SK);
    // A new SK replaces it, encrypted.
    const r3 = expectOk(await call('PUT', URL, 'owner', { body: { id: c.id, sk: 'new-secret' } }));
    expect(r3.sk).toBe('******');
    expect(await secret(c.id)).toBe('new-secret');
    const row = await rawRow(c.id);
    expect(row.skEnc.startsWith('v1:')).toBe(true);
    expect(row.skEnc).not.toContain('new-secret');
    expect(r3.created_at).toBe(c.created_at);
    // Its own identifier in another case is no conflict.
    expect(expectOk(await call('PUT', URL, 'owner', { body: { id: c.id, identifier: 'UPD ONE RENAMED' } })).identifier).toBe('UPD ONE RENAMED');
  });

  it('refuses no id (VALIDATION-1003), nothing to change (VALIDATION-1012), bad input (VALIDATION-1000) and changes nothing', async () => {
    const c = await create({ identifier: 'Upd Bad', sk: LONG_SK });
    expectCode(await call('PUT', URL, 'owner', { body: { identifier: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await call('PUT', URL, 'owner', { body: { id: '', identifier: 'X' } }), 400, 'VALIDATION-1003');
    expectCode(await call('PUT', URL, 'owner', { body: { id: c.id } }), 400, 'VALIDATION-1012');
    expectCode(await call('PUT', URL, 'owner', { body: { id: 'nope', identifier: 'X' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: c.id, identifier: '' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: c.id, sk: '' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: c.id, workspace_id: f.wsB } }), 400, 'VALIDATION-1000');
    expect(await read(c.id)).toEqual(c);
    expect(await secret(c.id)).toBe(LONG_SK);
  });

  it('refuses an identifier taken in the workspace with VALIDATION-1001', async () => {
    await create({ identifier: 'Upd Taken', sk: 'x' });
    const c = await create({ identifier: 'Upd Mine', sk: 'x' });
    expectCode(await call('PUT', URL, 'owner', { body: { id: c.id, identifier: 'upd taken' } }), 400, 'VALIDATION-1001');
    expect(await read(c.id)).toEqual(c);
  });

  it('is refused to an ordinary member (403); nothing changes', async () => {
    const c = await create({ identifier: 'Upd Role', sk: LONG_SK });
    expectCode(await call('PUT', URL, 'member', { body: { id: c.id, identifier: 'Hijack', sk: 'stolen' } }), 403, 'PERMISSION-1000');
    expect(await read(c.id)).toEqual(c);
    expect(await secret(c.id)).toBe(LONG_SK);
  });

  it("treats another workspace's credential, a foreign workspace and a missing header as errors; nothing changes", async () => {
    const inB = await create({ identifier: 'Upd In B', sk: 'x' }, 'owner', f.wsB);
    expectCode(await call('PUT', URL, 'owner', { body: { id: inB.id, identifier: 'Moved' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'admin', { body: { id: inB.id, identifier: 'Moved' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'outsider', { body: { id: inB.id, identifier: 'Moved' }, ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: MISSING, identifier: 'Moved' } }), 400, 'VALIDATION-1000');
    expectCode(await call('PUT', URL, 'owner', { body: { id: inB.id, identifier: 'Moved' }, ws: null }), 400, 'VALIDATION-1008');
    expect(await read(inB.id, 'owner', f.wsB)).toEqual(inB);
  });
});

describe('DELETE /console/credentials/:credential_id', () => {
  it('lets owner and admin delete', async () => {
    for (const who of ['owner', 'admin'] as const) {
      const c = await create({ identifier: `Del By ${who}`, sk: 'x' });
      expect(await call('DELETE', `${URL}/${c.id}`, who).then((r) => r.body)).toEqual({ code: 0, msg: 'success', data: null });
      expectCode(await call('GET', `${URL}/${c.id}`, 'owner'), 400, 'VALIDATION-1000');
      expect(await rawRow(c.id)).toBeUndefined();
      expectCode(await call('DELETE', `${URL}/${c.id}`, who), 400, 'VALIDATION-1000');
    }
  });

  it('is refused to an ordinary member, another workspace and without the header; nothing is deleted', async () => {
    const c = await create({ identifier: 'Del Keep', sk: 'x' });
    const inB = await create({ identifier: 'Del Keep B', sk: 'x' }, 'owner', f.wsB);
    expectCode(await call('DELETE', `${URL}/${c.id}`, 'member'), 403, 'PERMISSION-1000');
    expectCode(await call('DELETE', `${URL}/${inB.id}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${inB.id}`, 'outsider', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/not-a-uuid`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('DELETE', `${URL}/${c.id}`, 'owner', { ws: null }), 400, 'VALIDATION-1008');
    expect(await read(c.id)).toEqual(c);
    expect(await read(inB.id, 'owner', f.wsB)).toEqual(inB);
  });

  it('goes with its workspace', async () => {
    const ws = expectOk(await h.call('POST', '/api/v1/console/workspaces', { token: f.u.owner.token, body: { name: 'cred doomed' } })).id as string;
    const c = await create({ identifier: 'Doomed', sk: 'x' }, 'owner', ws);
    expectOk(await h.call('DELETE', `/api/v1/console/workspaces/${ws}`, { token: f.u.owner.token }));
    expect(await rawRow(c.id)).toBeUndefined();
  });
});

describe('GET /console/credentials/:credential_id/secret-key', () => {
  it('reveals the plain SK to owner and admin', async () => {
    const c = await create({ identifier: 'Reveal', sk: LONG_SK });
    for (const who of ['owner', 'admin'] as const) {
      expect(expectOk(await call('GET', `${URL}/${c.id}/secret-key`, who))).toEqual({ id: c.id, sk: LONG_SK });
    }
  });

  it('is refused to an ordinary member (403), another workspace (VALIDATION-1000) and without the header (VALIDATION-1008)', async () => {
    const c = await create({ identifier: 'Reveal Refused', sk: LONG_SK });
    const inB = await create({ identifier: 'Reveal B', sk: LONG_SK }, 'owner', f.wsB);
    const refused = [
      [await call('GET', `${URL}/${c.id}/secret-key`, 'member'), 403, 'PERMISSION-1000'],
      [await call('GET', `${URL}/${inB.id}/secret-key`, 'owner'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${inB.id}/secret-key`, 'admin'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${c.id}/secret-key`, 'outsider'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${c.id}/secret-key`, 'foreign'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${MISSING}/secret-key`, 'owner'), 400, 'VALIDATION-1000'],
      [await call('GET', `${URL}/${c.id}/secret-key`, 'owner', { ws: null }), 400, 'VALIDATION-1008'],
    ] as const;
    for (const [r, status, code] of refused) {
      expectCode(r, status, code);
      expect(JSON.stringify(r.body)).not.toContain(LONG_SK);
    }
  });
});
