import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { createApp, flow } from './runs-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// POST /api/v1/console/apps/{app_id}/import: the editor's import dialog through the server. The file
// replaces the app's draft (same body and report as /apps/import), with the draft save's role checks;
// a file of another mode is refused with APP-1001, and bad input changes nothing.

const h = useStudio();
let f: Fixture;
const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../../src/canvas/dsl/fixtures', name), 'utf8');
const INTO = (appId: string) => `/api/v1/console/apps/${appId}/import`;
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });
const draftOf = async (appId: string) => expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, member()));
const blank = () => flow([['s', 'start'], ['e', 'end']], [['s', 'e']]);

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'importinto');
});

describe('POST /apps/{app_id}/import', () => {
  it('replaces the draft of a workflow app with a Dify file and answers the report', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Into', blank());
    const before = await draftOf(app);
    const r = expectOk(await h.call('POST', INTO(app), { ...member(), body: { content: fixture('dify-real/seo-slug.yml') } }));
    expect(r.app).toMatchObject({ id: app, name: 'Into', type: 'workflow' });
    expect(r.report).toMatchObject({ format: 'dify', unmapped: [] });
    expect(r.report.mapped).toBeGreaterThan(2);
    const after = await draftOf(app);
    expect(after.revision).toBe(before.revision + 1);
    expect(after.document.nodes.map((n: { kind: string }) => n.kind)).toContain('llm');
    expect(r.app.draft_revision).toBe(after.revision);
  });

  it('refuses a file of another mode with APP-1001, and bad input with VALIDATION-1000, changing nothing', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Into 2', blank());
    const before = await draftOf(app);
    const other = await h.call('POST', INTO(app), { ...member(), body: { content: fixture('dify-real/simple-kimi.yml') } });
    expectCode(other, 400, 'APP-1001');
    expect(other.body.data).toMatchObject({ mode: 'chatflow', expected: 'workflow' });
    expectCode(await h.call('POST', INTO(app), { ...member(), body: { content: 'app: [' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', INTO(app), { ...member(), body: { content: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', INTO(app), { ...member(), body: { content: 'x', extra: 1 } }), 400, 'VALIDATION-1000');
    expect((await draftOf(app)).revision).toBe(before.revision);
  });

  it('checks the caller: no token 401; an outsider, another workspace or another tenant cannot import into the app', async () => {
    const app = await createApp(h, f.u.member.token, f.wsA, 'Into 3', blank());
    const before = await draftOf(app);
    const body = { content: fixture('dify-real/seo-slug.yml') };
    expect((await h.call('POST', INTO(app), { workspaceId: f.wsA, body })).status).toBe(401);
    // Not a member: the workspace is as if it did not exist (the convention of every console route).
    expectCode(await h.call('POST', INTO(app), { token: f.u.outsider.token, workspaceId: f.wsA, body }), 400, 'VALIDATION-1000');
    // The owner's other workspace does not hold the app; the foreign tenant's user sees nothing.
    const elsewhere = await h.call('POST', INTO(app), { token: f.u.owner.token, workspaceId: f.wsB, body });
    expect(elsewhere.status, elsewhere.raw.body).toBeGreaterThanOrEqual(400);
    expect(elsewhere.status).toBeLessThan(500);
    expect(elsewhere.body.msg).toMatch(/does not exist/);
    const foreign = await h.call('POST', INTO(app), { token: f.u.foreign.token, workspaceId: f.wsA, body });
    expect(foreign.status).toBeGreaterThanOrEqual(400);
    expect(foreign.status).toBeLessThan(500);
    expect((await draftOf(app)).revision).toBe(before.revision);
  });
});
