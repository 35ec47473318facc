import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStudio } from './harness';
import { multipartBody } from './knowledge-kit';
import { expectCode, expectOk, setUpWorkspaces, type Fixture } from './workspace-fixture';

// POST /api/v1/console/apps/import: an app from a Dify DSL file or one exported here, with the report.

const h = useStudio();
let f: Fixture;
const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, '../../src/canvas/dsl/fixtures', name), 'utf8');
const IMPORT = '/api/v1/console/apps/import';

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'import');
});
const member = () => ({ token: f.u.member.token, workspaceId: f.wsA });

describe('POST /apps/import', () => {
  it('creates a chatflow app from a Dify file (JSON body) with its draft and the report', async () => {
    const r = expectOk(await h.call('POST', IMPORT, { ...member(), body: { content: fixture('dify-real/simple-kimi.yml') } }));
    expect(r.app).toMatchObject({ name: 'simple-kimi', type: 'chatflow', draft_revision: 2 });
    expect(r.report).toMatchObject({ format: 'dify', mapped: 38, unmapped: [] });
    expect(r.report.warnings.map((w: { key: string }) => w.key)).toContain('warnings.toolNeedsSetup');
    const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${r.app.id}/workflow`, member()));
    expect(draft.document.nodes.find((n: { id: string }) => n.id === '1729777763543')).toMatchObject({ kind: 'list-operator' });
  });

  it('takes a multipart file with a name of one’s own, and lists the nodes it could not map', async () => {
    const { payload, contentType } = await multipartBody({ name: 'Unknown kinds' }, { name: 'unknown-node.yml', bytes: Buffer.from(fixture('unknown-node.yml')) });
    const r = expectOk(await h.call('POST', IMPORT, { ...member(), body: payload, headers: { 'content-type': contentType } }));
    expect(r.app).toMatchObject({ name: 'Unknown kinds', type: 'workflow' });
    expect(r.report.unmapped.map((u: { type: string }) => u.type)).toEqual(['datasource', 'loop-end']);
  });

  it('imports a flow exported here', async () => {
    const apps = expectOk(await h.call('GET', '/api/v1/console/apps', member()));
    const source = apps.items.find((a: { name: string }) => a.name === 'simple-kimi');
    const exported = expectOk(await h.call('GET', `/api/v1/console/apps/${source.id}/workflow`, member()));
    const { exportFlowYaml } = await import('../../src/canvas/dsl');
    const content = exportFlowYaml(exported.document, { name: 'Kimi copy', description: 'copied' });
    const r = expectOk(await h.call('POST', IMPORT, { ...member(), body: { content } }));
    expect(r.app).toMatchObject({ name: 'Kimi copy', description: 'copied', type: 'chatflow' });
    expect(r.report).toMatchObject({ format: 'weft', mapped: 38, unmapped: [], warnings: [] });
  });

  it('refuses what it cannot import with VALIDATION-1000 and the reasons, creating nothing', async () => {
    const before = expectOk(await h.call('GET', '/api/v1/console/apps', member())).total;
    const chat = 'kind: app\napp: { name: Old chat, mode: agent-chat }\nmodel_config: {}\n';
    const refused = await h.call('POST', IMPORT, { ...member(), body: { content: chat } });
    expectCode(refused, 400, 'VALIDATION-1000');
    expect(refused.body.data.errors).toEqual([{ key: 'errors.modeUnsupported', params: { mode: 'agent-chat' } }]);
    const broken = await h.call('POST', IMPORT, { ...member(), body: { content: 'a: 1\nb: [1, 2\nc: 3\n' } });
    expectCode(broken, 400, 'VALIDATION-1000');
    expect(broken.body.data.errors[0]).toMatchObject({ key: 'errors.yamlInvalid', params: { line: 3 } });
    expectCode(await h.call('POST', IMPORT, { ...member(), body: { content: '' } }), 400, 'VALIDATION-1000');
    expectCode(await h.call('POST', IMPORT, { ...member(), body: { content: 'x', extra: 1 } }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', '/api/v1/console/apps', member())).total).toBe(before);
  });

  it('checks the caller: no token 401; an outsider or another tenant’s user cannot import into the workspace', async () => {
    const body = { content: fixture('dify-real/seo-slug.yml') };
    expect((await h.call('POST', IMPORT, { workspaceId: f.wsA, body })).status).toBe(401);
    for (const who of ['outsider', 'foreign'] as const) {
      const r = await h.call('POST', IMPORT, { token: f.u[who].token, workspaceId: f.wsA, body });
      expect(r.status, who).toBeGreaterThanOrEqual(400);
      expect(r.status, who).toBeLessThan(500);
    }
    const names = expectOk(await h.call('GET', '/api/v1/console/apps', member())).items.map((a: { name: string }) => a.name);
    expect(names).not.toContain('SEO Slug Generator');
  });
});
