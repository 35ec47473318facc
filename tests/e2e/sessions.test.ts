/**
 * Sessions in the browser against the real server: refresh tokens rotate and the reuse of a used one
 * ends the whole session, so two tabs renewing the same token at once must not both send it (the
 * second would end the session of both). And signing out ends the session on the server at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, sessionApi, signIn, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await studio?.stop();
});

/** The stored session's access token is due now: the next call of any tab renews it first. */
const expireStoredToken = (page: Page) =>
  page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem('weft.session')!);
    stored.state.tokenExpiresAt = Date.now();
    localStorage.setItem('weft.session', JSON.stringify(stored));
  });

describe('sessions in the browser', () => {
  it('two tabs renewing at the same moment send the refresh token once and both stay signed in', async () => {
    const { context, page: first } = await signIn(browser, studio.url, { width: 1200, height: 800 });
    const second = await context.newPage();
    second.setDefaultTimeout(20_000);
    await second.goto(`${studio.url}/operation`);
    await second.waitForURL((u) => u.pathname === '/operation');

    // Every refresh answers slowly, so both tabs are renewing at once.
    const sent: string[] = [];
    const trace: string[] = [];
    const t0 = Date.now();
    const tab = (page: Page | null) => (page === first ? 'first' : 'second');
    await context.route('**/api/v1/console/base/refresh', async (route) => {
      sent.push(JSON.parse(route.request().postData() ?? '{}').refresh_token);
      // Which tab sent which token when: what a failure needs to tell a cancelled send from a second renewal.
      trace.push(`${tab(route.request().frame().page())} sent ${sent.at(-1)?.slice(0, 8)} +${Date.now() - t0} ms`);
      await new Promise((r) => setTimeout(r, 800));
      await route.continue().catch((e: Error) => trace.push(`not continued: ${e.message.split('\n')[0]}`));
    });
    // The sends that reached the server and were answered: a token must never be among them twice
    // (the server would end the session). A send the browser cancelled before it left is harmless.
    const answered: { token: string; status: number }[] = [];
    context.on('requestfinished', (req) => {
      if (!req.url().endsWith('/api/v1/console/base/refresh')) return;
      void req.response().then((res) => {
        answered.push({ token: JSON.parse(req.postData() ?? '{}').refresh_token, status: res?.status() ?? 0 });
        trace.push(`${tab(req.frame().page())} answered ${res?.status()} +${Date.now() - t0} ms`);
      });
    });
    context.on('requestfailed', (req) => {
      if (req.url().endsWith('/api/v1/console/base/refresh')) trace.push(`${tab(req.frame().page())} failed ${req.failure()?.errorText} +${Date.now() - t0} ms`);
    });
    await expireStoredToken(first);
    await Promise.all([first.reload(), second.reload()]);
    for (const page of [first, second]) {
      await page.waitForLoadState('networkidle');
      expect(new URL(page.url()).pathname).toBe('/operation');
      expect((await sessionApi(page, 'GET', '/api/v1/console/base/userinfo')).status).toBe(200);
    }
    const why = trace.join('; ');
    expect(answered.length, why).toBeGreaterThanOrEqual(1);
    expect(answered.map((a) => a.status), why).toEqual(answered.map(() => 200));
    expect(new Set(answered.map((a) => a.token)).size, why).toBe(answered.length);
    // The tab that waited took the other's new tokens: one renewal in all, unless a send was cancelled.
    expect(answered, why).toHaveLength(1);
    await context.close();
  });

  it('signing out ends the session on the server: its access token is refused at once', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1200, height: 800 });
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('weft.session')!).state.accessToken as string);
    const userinfo = (t: string) =>
      page.evaluate(async (bearer) => (await fetch('/api/v1/console/base/userinfo', { headers: { Authorization: `Bearer ${bearer}` } })).status, t);
    expect(await userinfo(token)).toBe(200);
    await page.getByTestId('user-menu-trigger').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL((u) => u.pathname === '/login');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('weft.session') ?? '{"state":{}}').state.accessToken ?? null)).toBeNull();
    // The logout call is on its way as the page changes: the token is refused as soon as it arrived.
    await expect.poll(() => userinfo(token), { timeout: 3_000 }).toBe(401);
    await context.close();
  });
});
