import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { useStudio, type CallOptions } from './harness';
import { expectCode, expectOk, type Fixture, MISSING, setUpWorkspaces, type Who } from './workspace-fixture';
import { flow, textInput } from './runs-kit';
import { appVersions } from '../../src/server/db/schema';
import type { FlowDocument } from '../../schemas/flow';

// Published versions of an app (spec 7.5 "app publish"): GET/POST /apps/{app_id}/publish,
// GET/DELETE /apps/{app_id}/publish/{version_id}, on embedded Postgres.

const h = useStudio();
const URL = '/api/v1/console/apps';
let f: Fixture;

function call(method: string, url: string, who: Who, opts: Omit<CallOptions, 'token'> & { ws?: string | null } = {}) {
  const { ws, ...rest } = opts;
  return h.call(method, url, { ...rest, token: f.u[who].token, workspaceId: ws === null ? undefined : (ws ?? f.wsA) });
}

/** start(topic) → template → end: a workflow that compiles. */
const good = (template = 'Hello {{ topic }}'): FlowDocument =>
  flow(
    [
      ['s', 'start', { variables: [textInput('topic')] }],
      ['t', 'template-transform', { inputs: [{ name: 'topic', selector: ['s', 'topic'] }], template }],
      ['e', 'end', { outputs: [{ name: 'out', selector: ['t', 'output'] }] }],
    ],
    [
      ['s', 't'],
      ['t', 'e'],
    ],
  );

/** A document the draft accepts but the compiler refuses: a node nothing leads to. */
const broken = (): FlowDocument => {
  const doc = good();
  return { ...doc, nodes: [...doc.nodes, { id: 'lost', kind: 'template-transform', kindVersion: 1, title: 'Lost', position: { x: 0, y: 600 }, config: { inputs: [], template: 'x' } }] };
};

async function createApp(name: string, document: FlowDocument = good(), ws?: string, who: Who = 'owner'): Promise<string> {
  const app = expectOk(await call('POST', URL, who, { body: { name, description: name, type: 'workflow', icon: { icon: 'bot' } }, ws }));
  await saveDraft(app.id, document, ws, who);
  return app.id as string;
}

async function saveDraft(appId: string, document: FlowDocument, ws?: string, who: Who = 'owner') {
  const draft = expectOk(await call('GET', `${URL}/${appId}/workflow`, who, { ws }));
  return expectOk(await call('PUT', `${URL}/workflow`, who, { body: { app_id: appId, base_revision: draft.revision, document }, ws }));
}

const publish = (appId: string, body: Record<string, unknown>, who: Who = 'owner', ws?: string | null) => call('POST', `${URL}/${appId}/publish`, who, { body, ws });
const list = (appId: string, who: Who = 'owner', query: Record<string, string | number> = {}, ws?: string | null) => call('GET', `${URL}/${appId}/publish`, who, { query, ws });
const versionsOf = async (appId: string) => (expectOk(await list(appId)).items as { version: string }[]).map((v) => v.version);
const rowCount = async (appId: string) => (await h.studio.ctx.db.select({ id: appVersions.id }).from(appVersions).where(eq(appVersions.appId, appId))).length;

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'appver');
});

describe('POST /console/apps/:app_id/publish', () => {
  it('freezes the current draft as a version, with who, when and the draft it came from', async () => {
    const appId = await createApp('Publish me');
    const draft = expectOk(await call('GET', `${URL}/${appId}/workflow`, 'owner'));
    const v = expectOk(await publish(appId, { version: 'v1.0.0', description: 'First release' }));
    expect(v).toMatchObject({ app_id: appId, version: 'v1.0.0', description: 'First release', draft_revision: draft.revision, draft_updated_at: draft.updated_at, created_by: f.u.owner.id, created_by_name: 'appver_owner' });
    expect(v.draft_hash).toMatch(/^[0-9a-f]{64}$/);
    // Its document is the draft's, and stays so when the draft changes.
    await saveDraft(appId, good('Changed {{ topic }}'));
    const detail = expectOk(await call('GET', `${URL}/${appId}/publish/${v.id}`, 'member'));
    expect(detail.document).toEqual(draft.document);
    // The app says which version is the newest.
    expect(expectOk(await call('GET', `${URL}/${appId}`, 'member')).latest_version).toBe('v1.0.0');
    const listed = expectOk(await call('GET', URL, 'member', { query: { name: 'Publish me' } })).items;
    expect(listed[0].latest_version).toBe('v1.0.0');
    // Admin publishes too; a description is optional; the same draft content gives the same hash.
    const v2 = expectOk(await publish(appId, { version: 'v1.0.1' }, 'admin'));
    expect(v2).toMatchObject({ version: 'v1.0.1', description: '', created_by: f.u.admin.id });
    expect(v2.draft_hash).not.toBe(v.draft_hash);
    const again = await createApp('Same content');
    expect(expectOk(await publish(again, { version: '1' })).draft_hash).toBe(v.draft_hash);
    expect(await versionsOf(appId)).toEqual(['v1.0.1', 'v1.0.0']);
  });

  it('refuses an empty, too long or duplicate version number and bad bodies, publishing nothing', async () => {
    const appId = await createApp('Bad versions');
    expectOk(await publish(appId, { version: 'v1.0.0' }));
    const empty = await publish(appId, { version: '   ' });
    expectCode(empty, 400, 'VALIDATION-1000');
    expect(empty.body.msg).toContain('The version number cannot be empty');
    expectCode(await publish(appId, {}), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'x'.repeat(51) }), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'v2', description: 'd'.repeat(501) }), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'v2', extra: 1 }), 400, 'VALIDATION-1000');
    const dup = await publish(appId, { version: 'V1.0.0' });
    expectCode(dup, 400, 'VALIDATION-1001');
    expect(dup.body.msg).toBe("The app already has a version 'V1.0.0': choose another version number");
    expect(await rowCount(appId)).toBe(1);
    // Another app may use the same number.
    expectOk(await publish(await createApp('Other numbering'), { version: 'v1.0.0' }));
  });

  it('refuses a draft that cannot run, listing the problems', async () => {
    const appId = await createApp('Broken draft', broken());
    const r = await publish(appId, { version: 'v1' });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.msg).toMatch(/^The draft cannot be published until it can run\. Fix these problems first: node\/lost /);
    expect(r.body.data).toEqual([expect.objectContaining({ path: 'node/lost', node_id: 'lost' })]);
    expect(await rowCount(appId)).toBe(0);
    // Fixed, it publishes.
    await saveDraft(appId, good());
    expectOk(await publish(appId, { version: 'v1' }));
  });

  it('is for owner and admin: an ordinary member gets 403; other workspaces, tenants and non-members get VALIDATION-1000', async () => {
    const appId = await createApp('Guarded publish');
    expectCode(await publish(appId, { version: 'v1' }, 'member'), 403, 'PERMISSION-1000');
    expectCode(await publish(appId, { version: 'v1' }, 'owner', f.wsB), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'v1' }, 'outsider', f.wsC), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'v1' }, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'v1' }, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await publish(appId, { version: 'v1' }, 'owner', null), 400, 'VALIDATION-1008');
    expectCode(await publish(MISSING, { version: 'v1' }), 400, 'VALIDATION-1000');
    expectCode(await publish('not-a-uuid', { version: 'v1' }), 400, 'VALIDATION-1000');
    expect(await rowCount(appId)).toBe(0);
  });
});

describe('GET /console/apps/:app_id/publish (list) and /publish/:version_id', () => {
  it('lists newest first for every member, paged', async () => {
    const appId = await createApp('Many versions');
    for (const v of ['v1', 'v2', 'v3']) expectOk(await publish(appId, { version: v, description: `Release ${v}` }));
    const all = expectOk(await list(appId, 'member'));
    expect(all.total).toBe(3);
    expect(all.items.map((v: { version: string }) => v.version)).toEqual(['v3', 'v2', 'v1']);
    expect(all.items[0]).not.toHaveProperty('document');
    const second = expectOk(await list(appId, 'admin', { page: 2, page_size: 2 }));
    expect(second).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(second.items.map((v: { version: string }) => v.version)).toEqual(['v1']);
    expectCode(await list(appId, 'owner', { page_size: 1001 }), 400, 'VALIDATION-1009');
    expectCode(await list(appId, 'owner', { page: 0 }), 400, 'VALIDATION-1000');
  });

  it('answers VALIDATION-1000 for another workspace, a non-member, another tenant, an unknown version; 1008 without header', async () => {
    const appId = await createApp('Hidden versions');
    const v = expectOk(await publish(appId, { version: 'v1' }));
    expectCode(await list(appId, 'owner', {}, f.wsB), 400, 'VALIDATION-1000');
    expectCode(await list(appId, 'outsider'), 400, 'VALIDATION-1000');
    expectCode(await list(appId, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await list(appId, 'owner', {}, null), 400, 'VALIDATION-1008');
    expectCode(await call('GET', `${URL}/${appId}/publish/${v.id}`, 'owner', { ws: f.wsB }), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${appId}/publish/${v.id}`, 'foreign'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${appId}/publish/${MISSING}`, 'owner'), 400, 'VALIDATION-1000');
    expectCode(await call('GET', `${URL}/${appId}/publish/nope`, 'owner'), 400, 'VALIDATION-1000');
    // A version of another app is not reachable through this app.
    const other = await createApp('Other app versions');
    expectCode(await call('GET', `${URL}/${other}/publish/${v.id}`, 'owner'), 400, 'VALIDATION-1000');
  });
});

describe('DELETE /console/apps/:app_id/publish/:version_id', () => {
  it('lets owner and admin delete a version; the previous one becomes the newest', async () => {
    const appId = await createApp('Delete versions');
    const v1 = expectOk(await publish(appId, { version: 'v1' }));
    const v2 = expectOk(await publish(appId, { version: 'v2' }));
    expect(expectOk(await call('DELETE', `${URL}/${appId}/publish/${v2.id}`, 'admin'))).toBeNull();
    expect(await versionsOf(appId)).toEqual(['v1']);
    expect(expectOk(await call('GET', `${URL}/${appId}`, 'owner')).latest_version).toBe('v1');
    expectOk(await call('DELETE', `${URL}/${appId}/publish/${v1.id}`, 'owner'));
    expect(expectOk(await call('GET', `${URL}/${appId}`, 'owner')).latest_version).toBeNull();
    // The number is free again.
    expectOk(await publish(appId, { version: 'v2' }));
  });

  it('is refused to an ordinary member (403) and scoped like the rest, deleting nothing', async () => {
    const appId = await createApp('Keep versions');
    const v = expectOk(await publish(appId, { version: 'v1' }));
    const del = (who: Who, ws?: string | null, app = appId, id: string = v.id) => call('DELETE', `${URL}/${app}/publish/${id}`, who, { ws });
    expectCode(await del('member'), 403, 'PERMISSION-1000');
    expectCode(await del('owner', f.wsB), 400, 'VALIDATION-1000');
    expectCode(await del('outsider'), 400, 'VALIDATION-1000');
    expectCode(await del('foreign'), 400, 'VALIDATION-1000');
    expectCode(await del('owner', null), 400, 'VALIDATION-1008');
    expectCode(await del('owner', undefined, appId, MISSING), 400, 'VALIDATION-1000');
    expectCode(await del('owner', undefined, await createApp('Unrelated')), 400, 'VALIDATION-1000');
    expect(await rowCount(appId)).toBe(1);
  });

  it('goes with its app', async () => {
    const appId = await createApp('Deleted app');
    expectOk(await publish(appId, { version: 'v1' }));
    expectOk(await call('DELETE', `${URL}/${appId}`, 'owner'));
    expect(await rowCount(appId)).toBe(0);
  });
});

describe('restore: a version back into the draft through the normal draft save', () => {
  it("saves the version's document as the next draft revision, and refuses a stale base with 409", async () => {
    const appId = await createApp('Restore me');
    const v = expectOk(await publish(appId, { version: 'v1' }));
    const changed = await saveDraft(appId, good('Edited {{ topic }}'));
    const doc = expectOk(await call('GET', `${URL}/${appId}/publish/${v.id}`, 'member')).document;
    // A stale base (the revision before the edit) is refused; the current one saves.
    expectCode(await call('PUT', `${URL}/workflow`, 'member', { body: { app_id: appId, base_revision: changed.revision - 1, document: doc } }), 409, 'CONFLICT-1000');
    const restored = expectOk(await call('PUT', `${URL}/workflow`, 'member', { body: { app_id: appId, base_revision: changed.revision, document: doc } }));
    expect(restored.revision).toBe(changed.revision + 1);
    expect(expectOk(await call('GET', `${URL}/${appId}/workflow`, 'member')).document).toEqual(doc);
  });
});

describe('OpenAPI', () => {
  it('documents the publish routes', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    for (const [path, method] of [
      ['/api/v1/console/apps/{app_id}/publish', 'get'],
      ['/api/v1/console/apps/{app_id}/publish', 'post'],
      ['/api/v1/console/apps/{app_id}/publish/{version_id}', 'get'],
      ['/api/v1/console/apps/{app_id}/publish/{version_id}', 'delete'],
    ]) {
      const op = doc.paths[path]?.[method];
      expect(op, `${method} ${path}`).toBeTruthy();
      expect(op.tags).toEqual(['console: apps']);
      expect(op.summary).toBeTruthy();
    }
  });
});
