/**
 * Single sign-on in Chromium against the real server (issue 29): the login page's "Sign in with
 * <provider>", the provider's own login and consent pages (a real oidc-provider on loopback), the
 * return with a ticket that the page exchanges and strips, and the console. A user the provider
 * assigns no tenant comes back to the login page with the catalogue's message. In zh and en.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, releaseBrowser, sessionApi, snap, startStudio, type RunningStudio } from './server';
import { startOidcProvider, type OidcFixture } from '../api/oidc-fixture';
import { DEFAULT_TENANT_ID } from '../../schemas/common';

let studio: RunningStudio;
let browser: Browser;
let op: OidcFixture;

/** A free port for the studio: the provider must know the redirect URI before the studio starts. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  op = await startOidcProvider({ clientId: 'weft', redirectUris: [`${base}/api/v1/common/sso/callback`], postLogoutRedirectUris: [`${base}/login`] });
  op.accounts.set('alice', { sub: 'alice', preferred_username: 'alice', email: 'alice@example.com', name: 'Alice Liddell', weft_tenant: DEFAULT_TENANT_ID });
  op.accounts.set('nobody', { sub: 'nobody', preferred_username: 'nobody' });
  // A public client (no secret): PKCE alone protects the code.
  studio = await startStudio({ WEFT_PORT: String(port), WEFT_AUTH_MODE: 'sso', WEFT_OIDC_ISSUER: op.issuer, WEFT_OIDC_CLIENT_ID: 'weft', WEFT_OIDC_PROVIDER_NAME: 'Test IdP' });
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  await op?.close();
});

/** At the provider: its development login page, then its consent page. */
async function signInAtProvider(page: Page, login: string, lang: string) {
  await page.waitForURL((u) => u.href.startsWith(op.issuer) && u.pathname.startsWith('/interaction/'));
  const loginPath = new URL(page.url()).pathname;
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any');
  await snap(page, `sso-${lang}-provider-login`);
  await page.locator('button[type=submit]').click();
  // The consent page (a new interaction), or already back (consent given before).
  await page.waitForURL((u) => !u.href.startsWith(op.issuer) || (u.pathname.startsWith('/interaction/') && u.pathname !== loginPath));
  if (page.url().startsWith(op.issuer)) await page.locator('button[type=submit]').click();
}

describe('single sign-on in the browser', () => {
  for (const [lang, locale, button] of [
    ['en', 'en-US', 'Sign in with Test IdP'],
    ['zh', 'zh-CN', '使用Test IdP登录'],
  ] as const) {
    it(`signs in through the provider's login page and lands on the console (${lang})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale });
      const page = await context.newPage();
      page.setDefaultTimeout(40_000);
      await page.goto(`${studio.url}/operation`);
      await page.waitForURL((u) => u.pathname === '/login');
      await expect.poll(() => page.getByTestId('login-sso').innerText()).toBe(button);
      await snap(page, `sso-${lang}-login`);
      await page.getByTestId('login-sso').click();
      await signInAtProvider(page, 'alice', lang);
      // Back with a ticket: exchanged, stripped from the URL, the console shown.
      await page.waitForURL((u) => u.origin === studio.url && u.pathname === '/operation' && !u.searchParams.has('ticket'));
      await page.getByTestId('user-menu-trigger').waitFor();
      await page.waitForLoadState('networkidle');
      await snap(page, `sso-${lang}-console`);
      const me = await sessionApi(page, 'GET', '/api/v1/console/base/userinfo');
      expect(me.status).toBe(200);
      expect(me.data).toMatchObject({ username: 'alice', email: 'alice@example.com', role: 'user' });
      await context.close();
    });

    it(`shows why a user without a tenant cannot sign in (${lang})`, async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale });
      const page = await context.newPage();
      page.setDefaultTimeout(40_000);
      await page.goto(`${studio.url}/login`);
      await page.getByTestId('login-sso').click();
      await signInAtProvider(page, 'nobody', `${lang}-nobody`);
      await page.waitForURL((u) => u.origin === studio.url && u.pathname === '/login' && u.searchParams.get('sso_error') === 'SSO-1002');
      const text = await page.getByTestId('login-sso-error').innerText();
      expect(text).toBe(lang === 'en' ? 'Your account at the identity provider is not assigned to a tenant of this studio' : '您在身份提供方的账号未分配到本平台的租户');
      await snap(page, `sso-${lang}-no-tenant`);
      await context.close();
    });
  }
});
