import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { appDrafts, apps, customModels, files, prompts } from '../../src/server/db/schema';
import { addCustomModel, listCustomModels } from '../../src/server/services/models';
import { DEFAULT_TENANT_ID } from './harness';
import { useStudio, type Reply } from './harness';
import { multipartBody } from './knowledge-kit';
import { createApp, flow } from './runs-kit';
import { expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// One rule for every string of every request (issue 20, findings 8 and 9): a NUL character or a
// lone UTF-16 surrogate anywhere (query, path, JSON body at any depth, object keys, multipart fields
// and file names, id headers) answers VALIDATION-1000 naming the field, and nothing is written.
// PostgreSQL refuses NUL in text (it answered SYSTEM-1500) and drivers turn a lone surrogate into
// U+FFFD (a model was stored under another name than the one asked for).

const h = useStudio();
let f: Fixture;
let appId: string;
const CUSTOM = '/api/v1/admin/models/model-providers/ollama/models/model-custom';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'inputrule');
  appId = await createApp(h, f.u.member.token, f.wsA, 'Rule app', flow([['s', 'start'], ['e', 'end']], [['s', 'e']]));
});

/** Row counts of the tables these requests would write, and the app's draft revision. */
async function snapshot() {
  const db = h.studio.ctx.db;
  const n = async (t: typeof apps | typeof prompts | typeof files | typeof customModels) => Number((await db.select({ n: count() }).from(t))[0].n);
  const [draft] = await db.select({ revision: appDrafts.revision }).from(appDrafts).where(eq(appDrafts.appId, appId));
  return { apps: await n(apps), prompts: await n(prompts), files: await n(files), customModels: await n(customModels), revision: draft.revision };
}

function expectRefused(r: Reply, path: string) {
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  expect(r.body.code).toBe('VALIDATION-1000');
  expect(r.body.data).toEqual([{ path, message: expect.any(String) }]);
}

const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

describe('NUL characters and lone surrogates in requests', () => {
  it('answer VALIDATION-1000 with the field, change nothing, wherever they are', async () => {
    const before = await snapshot();
    const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, member()));
    const doc = draft.document;
    const deep = structuredClone(doc);
    deep.nodes[0].config = { variables: [{ name: 'x', label: 'a\u0000b' }] };
    const cases: [string, () => Promise<Reply>, string][] = [
      ['GET with a query', () => h.call('GET', '/api/v1/console/apps?name=%00', member()), 'querystring/name'],
      ['GET with a path parameter', () => h.call('GET', `/api/v1/console/apps/${appId}%00`, member()), 'params/app_id'],
      ['POST JSON', () => h.call('POST', '/api/v1/console/apps', { ...member(), body: { name: 'Bad\u0000', description: 'd', type: 'workflow', icon: { icon: 'bot' } } }), 'body/name'],
      ['POST JSON, a lone surrogate', () => h.call('POST', '/api/v1/console/apps', { ...member(), body: { name: 'Bad \ud800 name', description: 'd', type: 'workflow', icon: { icon: 'bot' } } }), 'body/name'],
      [
        'POST JSON, nested',
        () => h.call('POST', '/api/v1/console/prompts', { ...member(), body: { name: 'P', description: '', content: { list: [{ text: 'ok' }, { text: 'x\udc00' }] } } }),
        'body/content/list/1/text',
      ],
      ['POST JSON, an object key', () => h.call('POST', '/api/v1/console/prompts', { ...member(), body: { name: 'P', description: '', ['k\u0000']: 1 } }), 'body/k\\u0000'],
      ['PUT JSON, deep in a flow', () => h.call('PUT', '/api/v1/console/apps/workflow', { ...member(), body: { app_id: appId, base_revision: draft.revision, document: deep } }), 'body/document/nodes/0/config/variables/0/label'],
      ['DELETE with a query', () => h.call('DELETE', `${CUSTOM}?model=a%00b&model_type=llm`, { token: h.adminToken }), 'querystring/model'],
      ['an id header', () => h.call('GET', '/api/v1/console/apps', { token: f.u.member.token, headers: { 'x-workspace-id': `${f.wsA}\u0000` } }), 'headers/x-workspace-id'],
    ];
    for (const [what, send, path] of cases) {
      const r = await send();
      expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBe(400);
      expectRefused(r, path);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('multipart: a field value or a file name with NUL is refused and no file is stored', async () => {
    const before = await snapshot();
    for (const [fields, name, path] of [
      [{ biz_type: 'dataset' }, 'a\u0000.txt', 'body/file/filename'],
      [{ biz_type: 'data\u0000set' }, 'a.txt', 'body/biz_type'],
    ] as const) {
      const { payload, contentType } = await multipartBody(fields, { name, bytes: 'hello' });
      const r = await h.call('POST', '/api/v1/console/files/upload', { ...member(), body: payload, headers: { 'content-type': contentType } });
      expectRefused(r, path);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a custom model with a lone surrogate in its name is refused and never listed; delete really deletes', async () => {
    const token = h.adminToken;
    expectRefused(await h.call('POST', CUSTOM, { token, body: { model: 'bad\ud800name' } }), 'body/model');
    expect(expectOk(await h.call('GET', CUSTOM, { token }))).toEqual([]);
    expectOk(await h.call('POST', CUSTOM, { token, body: { model: 'good-one' } }));
    expect(expectOk(await h.call('DELETE', CUSTOM, { token, query: { model: 'good-one', model_type: 'llm' } }))).toBeNull();
    expect(expectOk(await h.call('GET', CUSTOM, { token }))).toEqual([]);
    // Deleting what is not there again is refused, not a 200 that did nothing.
    expect((await h.call('DELETE', CUSTOM, { token, query: { model: 'good-one', model_type: 'llm' } })).body.code).toBe('VALIDATION-1000');
  });

  it('the service answers the model as stored, or stores nothing (it stored, then failed reading it back)', async () => {
    // Past the request rule (a caller inside the server): the driver stores U+FFFD for the lone half.
    const caller = { userId: f.u.owner.id, tenantId: DEFAULT_TENANT_ID, role: 'super_admin' as const, username: 'x', sessionId: randomUUID() };
    const body = { model: 'direct\ud800', model_type: 'llm' as const, label: '', features: [], context_size: 1, max_output_tokens: 1 };
    const answered = await addCustomModel(h.studio.ctx, caller, 'ollama', body);
    const listed = await listCustomModels(h.studio.ctx, DEFAULT_TENANT_ID, 'ollama');
    expect(listed.map((m) => m.model)).toEqual([answered.model]);
  });
});
