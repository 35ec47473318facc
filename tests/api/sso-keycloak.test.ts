/**
 * Keycloak mode (spec 7.2 mode 3, issue 29): configured by url, realm and clientId only; discovery at
 * {url}/realms/{realm}/.well-known/openid-configuration, a public client (PKCE, no secret), the role
 * from a nested claim. The provider is a real oidc-provider mounted under /realms/weft, as Keycloak
 * serves a realm. Also: the operator turns the break-glass local sign-in off.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DEFAULT_TENANT_ID, useStudio, type StudioSettings } from './harness';
import { startOidcProvider, type OidcFixture } from './oidc-fixture';

const PUBLIC_URL = 'http://weft.test';
const CALLBACK = `${PUBLIC_URL}/api/v1/common/sso/callback`;
const settings: StudioSettings = { authMode: 'keycloak', keycloakRealm: 'weft', oidcClientId: 'weft-console', publicUrl: PUBLIC_URL };
let op: OidcFixture;
beforeAll(async () => {
  op = await startOidcProvider({ clientId: 'weft-console', redirectUris: [CALLBACK], issuerPath: '/realms/weft' });
  settings.keycloakUrl = op.issuer.replace(/\/realms\/weft$/, '');
  op.accounts.set('kim', { sub: 'f7c1d7a0-kim', preferred_username: 'kim', email: 'kim@example.com', name: 'Kim', weft_tenant: 'Default tenant', weft_role: 'tenant_admin' });
});
const h = useStudio(settings);
afterAll(() => op?.close());

describe('Keycloak mode', () => {
  it('discovers the realm, signs in with PKCE as a public client and names the tenant by its name', async () => {
    const r = await h.call('GET', '/api/v1/common/sso/auth-url', { query: { redirectUri: '/operation' } });
    expect(r.status).toBe(302);
    const auth = new URL(r.raw.headers.location as string);
    expect(auth.href.startsWith(`${op.issuer}/auth?`)).toBe(true);
    // Mode 3 sends the provider plain OpenID parameters only.
    expect(auth.searchParams.has('appCode')).toBe(false);
    const back = await op.signIn(auth.href, 'kim');
    const cb = await h.call('GET', back.pathname + back.search);
    const landing = new URL(cb.raw.headers.location as string, PUBLIC_URL);
    expect(landing.pathname).toBe('/operation');
    const pair = await h.call('POST', '/api/v1/common/sso/ticket', { body: { ticket: landing.searchParams.get('ticket') } });
    expect(pair.status).toBe(200);
    const me = await h.call('GET', '/api/v1/console/base/userinfo', { token: pair.body.data.access_token });
    expect(me.body.data).toMatchObject({ username: 'kim', role: 'tenant_admin', tenant_id: DEFAULT_TENANT_ID });
    const config = await h.call('GET', '/config.json');
    expect((config.body as unknown as { authMode: string }).authMode).toBe('keycloak');
  });

  it('turns account and password off for everyone when the operator says so', async () => {
    h.studio.ctx.settings.localLogin = 'off';
    try {
      const r = await h.call('POST', '/api/v1/console/base/login', { body: { tenantId: DEFAULT_TENANT_ID, username: ADMIN.username, password: ADMIN.password } });
      expect(r.status).toBe(403);
      expect(r.body.code).toBe('SSO-1003');
    } finally {
      h.studio.ctx.settings.localLogin = 'super_admin';
    }
  });
});
