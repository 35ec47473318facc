import { describe, expect, it } from 'vitest';
import { ADMIN, DEFAULT_TENANT_ID, useStudio } from './harness';

const h = useStudio();

describe('console base: login, refresh, userinfo, profile, password, logout', () => {
  it('signs in with tenant id and credentials and answers data.access_token', async () => {
    const r = await h.call('POST', '/api/v1/console/base/login', {
      body: { tenantId: DEFAULT_TENANT_ID, username: ADMIN.username, password: ADMIN.password },
    });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe(0);
    expect(r.body.data.access_token).toMatch(/^ey/);
    expect(r.body.data.refresh_token.length).toBeGreaterThan(20);
    expect(r.body.data.token_type).toBe('Bearer');
  });

  it('refuses a wrong password with AUTH-1002 and bad input with VALIDATION-1000', async () => {
    const wrong = await h.call('POST', '/api/v1/console/base/login', {
      body: { tenantId: DEFAULT_TENANT_ID, username: ADMIN.username, password: 'nope-nope1' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('AUTH-1002');
    const bad = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION-1000');
    // Each field issue names its rule and limit, so a client can say it in the user's language (issue 28).
    const long = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: 'u'.repeat(65), password: '' } });
    expect(long.body.code).toBe('VALIDATION-1000');
    expect(long.body.data).toEqual(
      expect.arrayContaining([
        { path: 'body/username', message: expect.any(String), rule: 'too_big', origin: 'string', limit: 64 },
        { path: 'body/password', message: expect.any(String), rule: 'too_small', origin: 'string', limit: 1 },
      ]),
    );
    const notJson = await h.call('POST', '/api/v1/console/base/login', { body: '{oops', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe('VALIDATION-1000');
  });

  it('answers 401 AUTH-1001 without a token or with a forged one', async () => {
    expect((await h.call('GET', '/api/v1/console/base/userinfo')).body.code).toBe('AUTH-1001');
    const forged = await h.call('GET', '/api/v1/console/base/userinfo', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.x' });
    expect(forged.status).toBe(401);
  });

  it('returns the current user and refuses a mismatched tenant header', async () => {
    const r = await h.call('GET', '/api/v1/console/base/userinfo', { token: h.adminToken, tenantId: DEFAULT_TENANT_ID });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ username: 'admin', role: 'super_admin', tenant_id: DEFAULT_TENANT_ID });
    expect(r.body.data).not.toHaveProperty('password_hash');
    const other = await h.call('GET', '/api/v1/console/base/userinfo', { token: h.adminToken, tenantId: '11111111-1111-4111-8111-111111111111' });
    expect(other.status).toBe(403);
  });

  it('rotates refresh tokens: a used one cannot be used again', async () => {
    const login = await h.call('POST', '/api/v1/console/base/login', {
      body: { tenantId: DEFAULT_TENANT_ID, username: ADMIN.username, password: ADMIN.password },
    });
    const first = await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: login.body.data.refresh_token } });
    expect(first.status).toBe(200);
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token: first.body.data.access_token });
    expect(me.status).toBe(200);
    const again = await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: login.body.data.refresh_token } });
    expect(again.status).toBe(401);
    expect(again.body.code).toBe('AUTH-1004');
  });

  it('updates the profile and refuses an all-empty one with VALIDATION-1012', async () => {
    const r = await h.call('PUT', '/api/v1/console/base/profile', { token: h.adminToken, body: { nickname: 'Boss', email: 'boss@example.com' } });
    expect(r.status).toBe(200);
    expect(r.body.data.nickname).toBe('Boss');
    const empty = await h.call('PUT', '/api/v1/console/base/profile', { token: h.adminToken, body: {} });
    expect(empty.body.code).toBe('VALIDATION-1012');
    const bad = await h.call('PUT', '/api/v1/console/base/profile', { token: h.adminToken, body: { email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token: h.adminToken });
    expect(me.body.data.email).toBe('boss@example.com');
  });

  it('changes the password: old tokens stop working, the new password signs in', async () => {
    const token = await h.login(ADMIN.username, ADMIN.password);
    const mismatch = await h.call('POST', '/api/v1/console/base/update_password', {
      token,
      body: { old_password: ADMIN.password, new_password: 'Newpass123', confirm_password: 'Other123' },
    });
    expect(mismatch.status).toBe(400);
    const wrongOld = await h.call('POST', '/api/v1/console/base/update_password', {
      token,
      body: { old_password: 'wrong-pass1', new_password: 'Newpass123', confirm_password: 'Newpass123' },
    });
    expect(wrongOld.body.code).toBe('AUTH-1005');
    const r = await h.call('POST', '/api/v1/console/base/update_password', {
      token,
      body: { old_password: ADMIN.password, new_password: 'Newpass123', confirm_password: 'Newpass123' },
    });
    expect(r.status).toBe(200);
    expect((await h.call('GET', '/api/v1/console/base/userinfo', { token })).status).toBe(401);
    const fresh = await h.login(ADMIN.username, 'Newpass123');
    // restore for other tests
    await h.call('POST', '/api/v1/console/base/update_password', {
      token: fresh,
      body: { old_password: 'Newpass123', new_password: ADMIN.password, confirm_password: ADMIN.password },
    });
    h.adminToken = await h.login(ADMIN.username, ADMIN.password);
  });

  it('logs out, revoking the refresh token', async () => {
    const login = await h.call('POST', '/api/v1/console/base/login', {
      body: { tenantId: DEFAULT_TENANT_ID, username: ADMIN.username, password: ADMIN.password },
    });
    const out = await h.call('POST', '/api/v1/console/base/logout', {
      token: login.body.data.access_token,
      body: { refresh_token: login.body.data.refresh_token },
    });
    expect(out.status).toBe(200);
    const refresh = await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: login.body.data.refresh_token } });
    expect(refresh.status).toBe(401);
  });
});

describe('common and system', () => {
  it('serves the default tenant info and list without a token', async () => {
    const info = await h.call('GET', '/api/v1/common/tenants/default/info');
    expect(info.body.data).toMatchObject({ id: DEFAULT_TENANT_ID, is_default: true });
    const list = await h.call('GET', '/api/v1/common/tenants/default/list');
    expect(list.body.data[0].id).toBe(DEFAULT_TENANT_ID);
  });

  it('serves /config.json and the OpenAPI document', async () => {
    const cfg = await h.call('GET', '/config.json');
    expect(cfg.body).toMatchObject({ authMode: 'local', defaultTenantId: DEFAULT_TENANT_ID, sandbox: { maxTimeoutSeconds: 60 } });
    const doc = await h.call('GET', '/api/v1/openapi.json');
    expect(doc.status).toBe(200);
    const spec = doc.raw.json();
    expect(spec.openapi).toBe('3.1.0');
    expect(Object.keys(spec.paths)).toContain('/api/v1/console/base/login');
    // Every API route the server registered is in the document, with its request schema.
    const routes = h.studio.app.printRoutes({ commonPrefix: false });
    for (const path of ['/api/v1/console/workspaces', '/api/v1/admin/users', '/api/v1/admin/tenants', '/api/v1/console/users/users-ensure-status', '/api/v1/common/org/tree-list']) {
      expect(routes).toContain(path.split('/').pop());
      expect(Object.keys(spec.paths)).toContain(path);
    }
    expect(spec.paths['/api/v1/console/base/login'].post.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['tenantId', 'username', 'password']),
    );
  });

  it('answers an unknown API route with 404 in the envelope', async () => {
    const r = await h.call('GET', '/api/v1/console/nope', { token: h.adminToken });
    expect(r.status).toBe(404);
    expect(r.body.code).toBe('SYSTEM-1404');
  });
});
