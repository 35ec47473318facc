/**
 * Single sign-on (issue 29, spec 7.2 mode 2) against a real OpenID provider on loopback: the
 * get-auth-URL redirect, the provider's login, the callback's ticket and its exchange for Weft's
 * tokens, and the failures: a wrong state, a replayed and an expired code, a replayed ticket, a user
 * without the tenant claim. The provider's host is in no allow-list: the configuration allows it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { ADMIN, DEFAULT_TENANT_ID, useStudio, type StudioSettings } from './harness';
import { startOidcProvider, type OidcFixture } from './oidc-fixture';
import { users } from '../../src/server/db/schema';

const PUBLIC_URL = 'http://weft.test';
const CALLBACK = `${PUBLIC_URL}/api/v1/common/sso/callback`;
const settings: StudioSettings = { authMode: 'sso', oidcClientId: 'weft', oidcClientSecret: 'weft-secret', oidcProviderName: 'Test IdP', publicUrl: PUBLIC_URL };
let op: OidcFixture;
beforeAll(async () => {
  op = await startOidcProvider({ clientId: 'weft', clientSecret: 'weft-secret', redirectUris: [CALLBACK], postLogoutRedirectUris: [`${PUBLIC_URL}/login`] });
  settings.oidcIssuer = op.issuer;
  op.accounts.set('alice', { sub: 'alice', preferred_username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', weft_tenant: DEFAULT_TENANT_ID, weft_role: 'tenant_admin' });
  op.accounts.set('nobody', { sub: 'nobody', preferred_username: 'nobody', email: 'nobody@example.com' });
  op.accounts.set('root', { sub: 'root', preferred_username: ADMIN.username, weft_tenant: DEFAULT_TENANT_ID });
});
const h = useStudio(settings);
afterAll(() => op?.close());

const userCount = async () => (await h.studio.ctx.db.select({ n: count() }).from(users))[0].n;

/** get-auth-URL → the provider's URL. */
async function authUrl(query: Record<string, string> = {}) {
  const r = await h.call('GET', '/api/v1/common/sso/auth-url', { query: { appCode: 'weft', redirectUri: '/operation/workspace', tenantId: DEFAULT_TENANT_ID, loginType: 'oidc', ...query } });
  expect(r.status).toBe(302);
  return new URL(r.raw.headers.location as string);
}

/** The provider's redirect back, as the browser brings it to Weft: where Weft sends the browser next. */
async function callback(back: URL) {
  expect(back.href.startsWith(CALLBACK)).toBe(true);
  const r = await h.call('GET', back.pathname + back.search);
  expect(r.status).toBe(302);
  return new URL(r.raw.headers.location as string, PUBLIC_URL);
}

describe('single sign-on through an OpenID provider', () => {
  it('tells the client the mode and the provider on /config.json', async () => {
    const r = await h.call('GET', '/config.json');
    expect(r.body).toMatchObject({ authMode: 'sso', sso: { providerName: 'Test IdP', localLogin: 'super_admin' } });
  });

  it('hides verification-code sign-in when no mail or SMS sender is configured, and refuses it with LOGIN-1006', async () => {
    expect((await h.call('GET', '/config.json')).body).toMatchObject({ codeLogin: [] });
    const r = await h.call('POST', '/api/v1/console/base/send_code', { body: { tenantId: DEFAULT_TENANT_ID, channel: 'email', target: 'alice@example.com' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('LOGIN-1006');
  });

  it('sends the browser to the provider with PKCE, state, nonce and the get-auth-URL parameters', async () => {
    const url = await authUrl();
    expect(url.origin + url.pathname).toBe(`${op.issuer}/auth`);
    const p = url.searchParams;
    expect(p.get('client_id')).toBe('weft');
    expect(p.get('redirect_uri')).toBe(CALLBACK);
    expect(p.get('code_challenge_method')).toBe('S256');
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(p.get('state')).toBeTruthy();
    expect(p.get('nonce')).toBeTruthy();
    expect(p.get('appCode')).toBe('weft');
    expect(p.get('loginType')).toBe('oidc');
  });

  it('signs a new user in: created from the claims, Weft tokens from a one-time ticket, matched again later', async () => {
    const before = await userCount();
    const landing = await callback(await op.signIn((await authUrl()).href, 'alice'));
    expect(landing.pathname).toBe('/operation/workspace');
    const ticket = landing.searchParams.get('ticket')!;
    expect(ticket).toBeTruthy();
    const r = await h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket } });
    expect(r.status).toBe(200);
    const token = r.body.data.access_token;
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token });
    expect(me.body.data).toMatchObject({ username: 'alice', email: 'alice@example.com', realName: 'Alice Liddell', role: 'tenant_admin', tenant_id: DEFAULT_TENANT_ID });
    // The refresh token works as a local sign-in's does.
    const refreshed = await h.call('POST', '/api/v1/console/base/refresh', { body: { refresh_token: r.body.data.refresh_token } });
    expect(refreshed.status).toBe(200);
    // A ticket is used once.
    const again = await h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket } });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('SSO-1001');
    // The second sign-in matches the same user; the role follows the provider's claim.
    op.accounts.get('alice')!.weft_role = 'user';
    const second = await callback(await op.signIn((await authUrl()).href, 'alice'));
    const r2 = await h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket: second.searchParams.get('ticket') } });
    const me2 = await h.call('GET', '/api/v1/console/base/userinfo', { token: r2.body.data.access_token });
    expect(me2.body.data.id).toBe(me.body.data.id);
    expect(me2.body.data.role).toBe('user');
    expect(await userCount()).toBe(before + 1);
  });

  it('creates one user when two first sign-ins of a new account arrive at once', async () => {
    op.accounts.set('frank', { sub: 'frank', preferred_username: 'frank', email: 'frank@example.com', weft_tenant: DEFAULT_TENANT_ID });
    const before = await userCount();
    // Two browsers came back from the provider: both callbacks race to create the user.
    const backs = [await op.signIn((await authUrl()).href, 'frank'), await op.signIn((await authUrl()).href, 'frank')];
    const landings = await Promise.all(backs.map((b) => callback(b)));
    for (const landing of landings) expect(landing.searchParams.get('sso_error')).toBeNull();
    const pairs = await Promise.all(landings.map((l) => h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket: l.searchParams.get('ticket') } })));
    const ids = await Promise.all(pairs.map(async (p) => (await h.call('GET', '/api/v1/console/base/userinfo', { token: p.body.data.access_token })).body.data.id));
    expect(ids[0]).toBe(ids[1]);
    expect(await userCount()).toBe(before + 1);
  });

  it('refuses a wrong state and a replayed code with Social login failure, creating nothing', async () => {
    op.accounts.set('carol', { sub: 'carol', preferred_username: 'carol', weft_tenant: DEFAULT_TENANT_ID });
    const before = await userCount();
    const back = await op.signIn((await authUrl()).href, 'carol');
    const forged = new URL(back);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    const wrong = await callback(forged);
    expect(wrong.pathname).toBe('/login');
    expect(wrong.searchParams.get('sso_error')).toBe('SSO-1000');
    expect(await userCount()).toBe(before);
    // The right state once: signed in; the same redirect again (a replayed code) is refused.
    const ok = await callback(back);
    expect(ok.searchParams.get('ticket')).toBeTruthy();
    const replay = await callback(back);
    expect(replay.searchParams.get('sso_error')).toBe('SSO-1000');
  });

  it('refuses an expired code (the provider refuses it) with Social login failure', async () => {
    op.accounts.set('dave', { sub: 'dave', preferred_username: 'dave', weft_tenant: DEFAULT_TENANT_ID });
    const before = await userCount();
    op.codeTtlSeconds = 1;
    try {
      const back = await op.signIn((await authUrl()).href, 'dave');
      await new Promise((r) => setTimeout(r, 2100));
      const landing = await callback(back);
      expect(landing.pathname).toBe('/login');
      expect(landing.searchParams.get('sso_error')).toBe('SSO-1000');
    } finally {
      op.codeTtlSeconds = 60;
    }
    expect(await userCount()).toBe(before);
  });

  it('refuses a user without the tenant claim (SSO-1002) and creates nothing', async () => {
    const before = await userCount();
    const landing = await callback(await op.signIn((await authUrl()).href, 'nobody'));
    expect(landing.pathname).toBe('/login');
    expect(landing.searchParams.get('sso_error')).toBe('SSO-1002');
    expect(await userCount()).toBe(before);
    const [row] = await h.studio.ctx.db.select().from(users).where(eq(users.username, 'nobody'));
    expect(row).toBeUndefined();
  });

  it('never signs the super admin in through the provider (the break-glass account stays local)', async () => {
    const landing = await callback(await op.signIn((await authUrl()).href, 'root'));
    expect(landing.searchParams.get('sso_error')).toBe('SSO-1000');
  });

  it('lands only on paths of this app', async () => {
    for (const redirectUri of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
      const landing = await callback(await op.signIn((await authUrl({ redirectUri })).href, 'alice'));
      expect(landing.origin).toBe(PUBLIC_URL);
      expect(landing.pathname).toBe('/operation');
    }
  });

  it('keeps account and password for the super admin only', async () => {
    const created = await h.call('POST', '/api/v1/admin/users', { token: h.adminToken, body: { username: 'eve', password: 'Secret1234', role: 'user', realName: 'Eve' } });
    expect(created.status).toBe(200);
    const r = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: 'eve', password: 'Secret1234' } });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('SSO-1003');
    const admin = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: ADMIN.username, password: ADMIN.password } });
    expect(admin.status).toBe(200);
  });

  it("signs out of Weft and answers the provider's end-session URL", async () => {
    const landing = await callback(await op.signIn((await authUrl()).href, 'alice'));
    const r = await h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket: landing.searchParams.get('ticket') } });
    const token = r.body.data.access_token;
    const out = await h.call('POST', '/api/v1/common/sso/logout', { token, body: {} });
    expect(out.status).toBe(200);
    const end = new URL(out.body.data.end_session_url);
    expect(end.origin + end.pathname).toBe(`${op.issuer}/session/end`);
    expect(end.searchParams.get('id_token_hint')).toBeTruthy();
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC_URL}/login`);
    const after = await h.call('GET', '/api/v1/console/base/userinfo', { token });
    expect(after.status).toBe(401);
  });

  it('rejects a malformed ticket with a validation error', async () => {
    const r = await h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('VALIDATION-1000');
  });
});
