import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp } from '../../src/server/app';
import { apiKeys } from '../../src/server/db/schema';
import { loggerOptions, REDACTED } from '../../src/server/http/log-options';
import { API_KEYS_MAX } from '../../schemas/app-api';
import { useStudio } from './harness';
import { createKey, expectDifyError, KEYS, publishedApp, sayFlow, v1, type Owner } from './public-kit';
import { expectCode, expectOk, MISSING, setUpWorkspaces, type Fixture } from './workspace-fixture';

// App API keys (issue 22): created with the secret shown once, listed masked, revoked (the key stops
// at once), roles checked on the server, only a hash stored, last use recorded, keys never logged,
// and the public group's own OpenAPI security scheme.

const h = useStudio();
let f: Fixture;
let appId = '';
const owner = (): Owner => ({ token: f.u.owner.token, workspaceId: f.wsA });
const as = (who: 'admin' | 'member' | 'outsider') => ({ token: f.u[who].token, workspaceId: f.wsA });

beforeAll(async () => {
  f = await setUpWorkspaces(h, 'keys');
  appId = await publishedApp(h, owner(), 'Keyed', sayFlow());
});

describe('app API keys', () => {
  it('creates a key whose secret is answered once; the list shows it masked; only a hash is stored', async () => {
    const created = await createKey(h, owner(), appId, { name: 'backend', rate_limit_per_minute: 30 });
    expect(created.secret).toMatch(/^wk-[A-Za-z0-9_-]{40}$/);
    expect(created.masked).toBe(`${created.secret.slice(0, 7)}…${created.secret.slice(-4)}`);
    expect(created).toMatchObject({ name: 'backend', rate_limit_per_minute: 30, last_used_at: null, created_by_name: 'keys_owner' });

    const list = expectOk(await h.call('GET', KEYS(appId), as('member')));
    const listed = list.find((k: { id: string }) => k.id === created.id);
    expect(listed).toEqual({ id: created.id, name: 'backend', masked: created.masked, created_by_name: 'keys_owner', created_at: created.created_at, last_used_at: null, rate_limit_per_minute: 30 });
    expect(JSON.stringify(list)).not.toContain(created.secret);

    const [row] = await h.studio.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(JSON.stringify(row)).not.toContain(created.secret);
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets owner and admin create and revoke; a member only lists; an outsider sees nothing', async () => {
    expectOk(await h.call('POST', KEYS(appId), { ...as('admin'), body: { name: 'by admin' } }));
    expectCode(await h.call('POST', KEYS(appId), { ...as('member'), body: { name: 'by member' } }), 403, 'PERMISSION-1000');
    expectCode(await h.call('GET', KEYS(appId), as('outsider')), 400, 'VALIDATION-1000');
    expectCode(await h.call('GET', KEYS(MISSING), owner()), 400, 'VALIDATION-1000');
    const k = await createKey(h, owner(), appId, { name: 'to revoke' });
    expectCode(await h.call('DELETE', `${KEYS(appId)}/${k.id}`, as('member')), 403, 'PERMISSION-1000');
    expectOk(await h.call('DELETE', `${KEYS(appId)}/${k.id}`, as('admin')));
    expectCode(await h.call('DELETE', `${KEYS(appId)}/${k.id}`, owner()), 400, 'VALIDATION-1000');
  });

  it('refuses bad bodies with VALIDATION-1000 and changes nothing', async () => {
    const before = expectOk(await h.call('GET', KEYS(appId), owner())).length;
    for (const body of [{ name: '' }, { name: 'x'.repeat(51) }, { name: 'ok', rate_limit_per_minute: 0 }, { name: 'ok', extra: 1 }, {}]) {
      expectCode(await h.call('POST', KEYS(appId), { ...owner(), body }), 400, 'VALIDATION-1000');
    }
    expect(expectOk(await h.call('GET', KEYS(appId), owner())).length).toBe(before);
  });

  it(`keeps at most ${API_KEYS_MAX} live keys per app`, async () => {
    const other = await publishedApp(h, owner(), 'Many keys', sayFlow());
    for (let i = 0; i < API_KEYS_MAX; i++) await createKey(h, owner(), other, { name: `k${i}` });
    expectCode(await h.call('POST', KEYS(other), { ...owner(), body: { name: 'one too many' } }), 400, 'VALIDATION-1000');
  });
});

describe('the key on /v1', () => {
  it('answers 401 AUTH-1007 in Dify’s error shape for a missing, malformed, wrong or revoked key', async () => {
    expectDifyError(await v1(h, null, 'GET', '/info'), 401, 'AUTH-1007');
    expectDifyError(await v1(h, 'not-a-key', 'GET', '/info'), 401, 'AUTH-1007');
    expectDifyError(await v1(h, `wk-${'A'.repeat(40)}`, 'GET', '/info'), 401, 'AUTH-1007');
    const k = await createKey(h, owner(), appId, { name: 'short-lived' });
    const r = await v1(h, k.secret, 'GET', '/info');
    expect(r.status, r.raw.body).toBe(200);
    expect(r.body).toEqual({ name: 'Keyed', description: 'Keyed', tags: [], mode: 'workflow' });
    expectOk(await h.call('DELETE', `${KEYS(appId)}/${k.id}`, owner()));
    expectDifyError(await v1(h, k.secret, 'GET', '/info'), 401, 'AUTH-1007');
    // A session token is not a key.
    expectDifyError(await v1(h, f.u.owner.token, 'GET', '/info'), 401, 'AUTH-1007');
  });

  it('records the last use (in the background, not on every request)', async () => {
    const k = await createKey(h, owner(), appId, { name: 'used' });
    expect((await v1(h, k.secret, 'GET', '/parameters')).status).toBe(200);
    let used: string | null = null;
    for (let i = 0; i < 50 && !used; i++) {
      used = expectOk(await h.call('GET', KEYS(appId), owner())).find((x: { id: string }) => x.id === k.id).last_used_at;
      if (!used) await new Promise((r) => setTimeout(r, 20));
    }
    expect(used).not.toBeNull();
    // Within the minute further uses write nothing.
    await h.studio.ctx.db.update(apiKeys).set({ lastUsedAt: new Date('2020-01-01T00:00:00Z') }).where(eq(apiKeys.id, k.id));
    expect((await v1(h, k.secret, 'GET', '/parameters')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    const [row] = await h.studio.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, k.id));
    expect(row!.lastUsedAt!.toISOString()).toBe('2020-01-01T00:00:00.000Z');
  });

  it('never writes a key to the log, wherever a logged object carries the Authorization header', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const app = await buildApp(h.studio.ctx, { logger: { ...loggerOptions('trace'), stream } });
    try {
      const k = await createKey(h, owner(), appId, { name: 'logged' });
      for (const url of ['/v1/info', '/v1/parameters', '/v1/no-such-route', '/v1/workflows/run']) {
        await app.inject({ method: url.endsWith('run') ? 'POST' : 'GET', url, headers: { authorization: `Bearer ${k.secret}` }, ...(url.endsWith('run') ? { payload: { user: 'u' } } : {}) });
      }
      await app.inject({ method: 'GET', url: '/v1/info', headers: { authorization: `Bearer ${k.secret.slice(0, -1)}x` } });
      app.log.info({ req: { headers: { authorization: `Bearer ${k.secret}` } }, headers: { authorization: k.secret, 'x-api-key': k.secret } }, 'a request');
      app.log.error({ err: Object.assign(new Error('upstream'), { config: { headers: { authorization: `Bearer ${k.secret}` } } }) }, 'a failed call');
      const all = lines.join('');
      expect(lines.length).toBeGreaterThan(5);
      expect(all).not.toContain(k.secret);
      expect(all).not.toContain(k.secret.slice(3, 20));
      expect(all).toContain(REDACTED);
    } finally {
      await app.close();
    }
  });

  it('documents /v1 under its own security scheme (AppKey), apart from the console’s bearer tokens', async () => {
    const doc = (await h.call('GET', '/api/v1/openapi.json')).raw.json();
    expect(doc.components.securitySchemes.AppKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, method] of [
      ['/v1/chat-messages', 'post'],
      ['/v1/workflows/run', 'post'],
      ['/v1/conversations', 'get'],
      ['/v1/chat/completions', 'post'],
      ['/v1/models', 'get'],
      ['/v1/parameters', 'get'],
    ]) {
      expect(doc.paths[path]?.[method]?.security, path).toEqual([{ AppKey: [] }]);
    }
    expect(doc.paths['/api/v1/console/apps/{app_id}/api-keys'].post.security).toBeUndefined();
  });
});
