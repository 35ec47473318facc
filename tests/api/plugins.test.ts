import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPlugin } from '../../scripts/plugin-pack';
import { createUser } from '../../src/server/services/users';
import { buildApp } from '../../src/server/app';
import { createPluginHost } from '../../src/server/plugins/host';
import { bundleChecksum, writeArchive } from '../../src/server/plugins/archive';
import { pluginPackages } from '../../src/server/db/schema';
import { DEFAULT_TENANT_ID, useStudio, type Harness } from './harness';
import { multipartBody, useTempDataDir } from './knowledge-kit';
import { startSecondServer, type SecondServer } from './second-server';
import { createApp, flow, parseSse, RUNS, textInput } from './runs-kit';
import { expectCode, expectOk, PASSWORD } from './workspace-fixture';

// Plugin packages end to end on the real server: pack the example plugin, install it, run its node,
// upgrade to a version whose kind changed its config shape, delete (refused while used, then forced),
// and refuse damaged packages before anything of them runs.

const h = useStudio();
useTempDataDir(h);
const URL = '/api/v1/admin/plugins';
let v1: Buffer;
let v2: Buffer;
let tenantAdmin = '';
let user = '';
let workspaceId = '';
/** Another server on the same database (a process of its own on a PostgreSQL server). */
let second: SecondServer;
let secondDir = '';

/** What the second server's editors are offered, as soon as it shows `want` (it checks every 5 s). */
const secondSees = (want: string[]) =>
  expect
    .poll(async () => ((await second.call('GET', '/api/v1/console/plugins/installed', { token: user })).body.data ?? []).map((p: { id: string; version: string }) => `${p.id}@${p.version}`), {
      timeout: 20_000,
      interval: 500,
    })
    .toEqual(want);

const send = async (h: Harness, token: string, url: string, bytes: Buffer, fields: Record<string, string> = {}) => {
  const { payload, contentType } = await multipartBody(fields, { name: 'plugin.tgz', bytes });
  return h.call('POST', url, { token, body: payload, headers: { 'content-type': contentType } });
};

// The example's node as an old flow saved it (kind version 1: the source was called `input`).
const statsFlow = () =>
  flow(
    [
      ['s', 'start', { variables: [textInput('text')] }],
      ['ts', 'text-stats', { input: ['s', 'text'] }],
      ['e', 'end', { outputs: [{ name: 'chars', selector: ['ts', 'characters'] }, { name: 'words', selector: ['ts', 'words'] }, { name: 'lines', selector: ['ts', 'lines'] }] }],
    ],
    [
      ['s', 'ts'],
      ['ts', 'e'],
    ],
  );

beforeAll(async () => {
  v1 = (await packPlugin('plugins/examples/text-stats')).bytes;
  v2 = (await packPlugin('tests/fixtures/plugins/text-stats-v2')).bytes;
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'pl_tadmin', password: PASSWORD, role: 'tenant_admin' });
  await createUser(h.studio.ctx.db, { tenantId: DEFAULT_TENANT_ID, username: 'pl_user', password: PASSWORD, role: 'user' });
  tenantAdmin = await h.login('pl_tadmin', PASSWORD);
  user = await h.login('pl_user', PASSWORD);
  workspaceId = expectOk(await h.call('POST', '/api/v1/console/workspaces', { token: user, body: { name: 'plugin space' } })).id;
  // Its own data directory: it unpacks the bundles it loads there.
  secondDir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-second-'));
  second = await startSecondServer(h, { WEFT_DATA_DIR: secondDir });
}, 90_000);

afterAll(async () => {
  await second?.stop();
  if (secondDir) fs.rmSync(secondDir, { recursive: true, force: true });
});

describe('plugin packages', () => {
  it('are for super admins only', async () => {
    for (const token of [tenantAdmin, user]) {
      expectCode(await h.call('GET', URL, { token }), 403, 'PERMISSION-1000');
      expectCode(await send(h, token, `${URL}/install`, v1), 403, 'PERMISSION-1000');
      expectCode(await h.call('DELETE', `${URL}/weft.text-stats`, { token }), 403, 'PERMISSION-1000');
    }
  });

  it('refuse a damaged package with a clear code and install nothing', async () => {
    // Truncated: the gzip stream is cut.
    expectCode(await send(h, h.adminToken, `${URL}/install`, v1.subarray(0, Math.floor(v1.length / 2))), 400, 'PLUGIN-1000');
    // Not an archive at all.
    expectCode(await send(h, h.adminToken, `${URL}/install`, Buffer.from('hello')), 400, 'PLUGIN-1000');
    // A tar cut before its end marker, gzip'd again.
    const tar = gunzipSync(v1);
    const cut = await send(h, h.adminToken, `${URL}/install`, gzipSync(tar.subarray(0, tar.length - 1536)));
    expectCode(cut, 400, 'PLUGIN-1000');
    expect(cut.body.msg).toMatch(/truncated|cut short/);
    // A package without its browser bundle.
    const { readArchive: read } = await import('../../src/server/plugins/archive');
    const noBrowser = Object.fromEntries([...read(v1)].filter(([name]) => name !== 'browser.mjs'));
    const missing = await send(h, h.adminToken, `${URL}/install`, writeArchive(noBrowser));
    expectCode(missing, 400, 'PLUGIN-1000');
    expect(missing.body.msg).toBe('browser.mjs is missing');
    // A bundle changed after packing: the checksum no longer matches.
    const files = new Map<string, Buffer>();
    const { readArchive } = await import('../../src/server/plugins/archive');
    for (const [name, bytes] of readArchive(v1)) files.set(name, bytes);
    const tampered = writeArchive({ ...Object.fromEntries(files), 'server.mjs': Buffer.concat([files.get('server.mjs')!, Buffer.from('\nglobalThis.pwned = true;\n')]) });
    const r = await send(h, h.adminToken, `${URL}/install`, tampered);
    expectCode(r, 400, 'PLUGIN-1001');
    expect((globalThis as { pwned?: boolean }).pwned).toBeUndefined();
    // A package from neither an upload nor the plugin store (tests/api/stores-plugin.test.ts).
    expectCode(await send(h, h.adminToken, `${URL}/install`, v1, { source: 'elsewhere' }), 400, 'VALIDATION-1000');
    expect(expectOk(await h.call('GET', URL, { token: h.adminToken }))).toEqual([]);
  });

  let appId = '';

  it('install the example, whose node then runs in a flow', async () => {
    const installed = expectOk(await send(h, h.adminToken, `${URL}/install`, v1));
    expect(installed).toMatchObject({ id: 'weft.text-stats', version: '1.0.0', state: 'active', error: null, kinds: [{ kind: 'text-stats', version: 2 }], installed_by: 'admin' });
    expectCode(await send(h, h.adminToken, `${URL}/install`, v1), 400, 'VALIDATION-1001');
    expect(expectOk(await h.call('GET', URL, { token: h.adminToken })).map((p: { id: string }) => p.id)).toEqual(['weft.text-stats']);

    appId = await createApp(h, user, workspaceId, 'stats app', statsFlow());
    const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: '  hello wide\nworld  ' } } });
    expect(r.status, r.raw.body).toBe(200);
    expect(parseSse(r.raw.body).at(-1)).toMatchObject({ type: 'run_finished', outputs: { chars: 16, words: 3, lines: 2 } });
    await secondSees(['weft.text-stats@1.0.0']);
  });

  it("runs an installed kind at once in another process that has not looked yet (its timer's period is long)", async () => {
    // A second app on the same database with a plugin host of its own whose timer never fires: it
    // has loaded no package when the kind is installed; its first run must go by what the database
    // holds, not by what it loaded.
    const host = await createPluginHost({ db: h.studio.ctx.db, dataDir: () => secondDir, reloadMs: 3_600_000 });
    const other = await buildApp({ ...h.studio.ctx, plugins: host });
    try {
      const otherApp = await createApp(h, user, workspaceId, 'other process app', statsFlow());
      await h.studio.ctx.db.delete(pluginPackages);
      await host.sync();
      expect(host.registries().nodes.get('text-stats')).toBeUndefined();
      expectOk(await send(h, h.adminToken, `${URL}/install`, v1));
      const r = await other.inject({ method: 'POST', url: `${RUNS(otherApp)}/draft/workflow-runs`, headers: { authorization: `Bearer ${user}`, 'x-workspace-id': workspaceId }, payload: { inputs: { text: 'a b' } } });
      expect(r.statusCode, r.body).toBe(200);
      expect(parseSse(r.body).at(-1)).toMatchObject({ type: 'run_finished', outputs: { chars: 3, words: 2, lines: 1 } });
      expectOk(await h.call('DELETE', `/api/v1/console/apps/${otherApp}`, { token: user, workspaceId }));
    } finally {
      host.close();
      await other.close();
    }
  });

  it('upgrade to version 2, migrating the drafts that use the kind', async () => {
    const other = (await packPlugin('tests/fixtures/plugins/text-stats-v2')).manifest;
    expect(other.kinds).toEqual([{ kind: 'text-stats', version: 3 }]);
    expectCode(await send(h, h.adminToken, `${URL}/weft.other/upgrade`, v2), 400, 'VALIDATION-1000');
    const up = expectOk(await send(h, h.adminToken, `${URL}/weft.text-stats/upgrade`, v2));
    expect(up).toMatchObject({ plugin: { version: '2.0.0', state: 'active', kinds: [{ kind: 'text-stats', version: 3 }] }, migrated_drafts: 1, failed_drafts: [] });
    const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, { token: user, workspaceId }));
    const node = draft.document.nodes.find((n: { id: string }) => n.id === 'ts');
    expect(node).toMatchObject({ kindVersion: 3, config: { source: ['s', 'text'], countWords: true, blanks: 'ignore' } });
    const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: 'one two' } } });
    expect(parseSse(r.raw.body).at(-1)).toMatchObject({ type: 'run_finished', outputs: { chars: 7, words: 2, lines: 1 } });
    await secondSees(['weft.text-stats@2.0.0']);
  });

  it('refuse a delete while flows use the kind, and a forced one leaves those nodes failing their check', async () => {
    const detail = expectOk(await h.call('GET', `${URL}/weft.text-stats`, { token: h.adminToken }));
    expect(detail.usage).toEqual([{ app_id: appId, app_name: 'stats app', kinds: ['text-stats'] }]);
    const refused = await h.call('DELETE', `${URL}/weft.text-stats`, { token: h.adminToken });
    expectCode(refused, 409, 'PLUGIN-1002');
    expect(refused.body.data.usage).toEqual(detail.usage);
    expect(expectOk(await h.call('GET', URL, { token: h.adminToken }))).toHaveLength(1);

    expectOk(await h.call('DELETE', `${URL}/weft.text-stats`, { token: h.adminToken, query: { force: 'true' } }));
    expect(expectOk(await h.call('GET', URL, { token: h.adminToken }))).toEqual([]);
    expect(h.studio.ctx.plugins.registries().nodes.get('text-stats')).toBeUndefined();
    // The flow is kept as it is; running it says which node cannot run and why.
    const r = await h.call('POST', `${RUNS(appId)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: 'x' } } });
    expectCode(r, 400, 'VALIDATION-1000');
    expect(r.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ node_id: 'ts' })]));
    const draft = expectOk(await h.call('GET', `/api/v1/console/apps/${appId}/workflow`, { token: user, workspaceId }));
    expect(draft.document.nodes.map((n: { id: string }) => n.id)).toContain('ts');
    await secondSees([]);
  });

  it('report a stored package that fails to load, leave it out and keep serving', async () => {
    // As if stored by an older server: its code now throws when imported (nothing refuses it on the way in).
    const server = Buffer.from('throw new Error("this bundle needs an API the server no longer has");\n');
    const browser = Buffer.from('export const plugins = [];\nexport const views = [];\n');
    const manifest = { format: 1, id: 'acme.broken', name: 'Broken', version: '1.0.0', author: '', description: '', icon: 'puzzle', kinds: [{ kind: 'broken-kind', version: 1 }], tools: [], credentials_schema: null, min_weft_version: '0.1.0', checksum: bundleChecksum(server, browser) };
    const archive = writeArchive({ 'manifest.json': JSON.stringify(manifest), 'server.mjs': server, 'browser.mjs': browser });
    await h.studio.ctx.db.insert(pluginPackages).values({ id: manifest.id, version: manifest.version, manifest, archive: archive.toString('base64'), checksum: manifest.checksum, installedBy: 'admin' });
    const list = expectOk(await h.call('GET', URL, { token: h.adminToken }));
    expect(list).toEqual([expect.objectContaining({ id: 'acme.broken', state: 'failed', error: expect.stringContaining('needs an API the server no longer has') })]);
    expect(h.studio.ctx.plugins.registries().nodes.get('broken-kind')).toBeUndefined();
    expect(expectOk(await h.call('GET', '/api/v1/console/plugins/installed', { token: user }))).toEqual([]);
    // The built-in kinds still run.
    const app = await createApp(h, user, workspaceId, 'still running', flow([['s', 'start', { variables: [textInput('text')] }], ['e', 'end', { outputs: [{ name: 'echo', selector: ['s', 'text'] }] }]], [['s', 'e']]));
    const r = await h.call('POST', `${RUNS(app)}/draft/workflow-runs`, { token: user, workspaceId, body: { inputs: { text: 'ok' } } });
    expect(parseSse(r.raw.body).at(-1)).toMatchObject({ type: 'run_finished', outputs: { echo: 'ok' } });
    expectOk(await h.call('DELETE', `${URL}/acme.broken`, { token: h.adminToken }));
  });
});
