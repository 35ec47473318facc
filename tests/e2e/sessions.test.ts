/**
 * Sessions in the browser against the real server: refresh tokens rotate and the reuse of a used one
 * ends the whole session, so two tabs renewing the same token at once must not both send it (the
 * second would end the session of both). And signing out ends the session on the server at once.
 * The studio can mail verification codes (a real SMTP server on loopback): the login page's email
 * tab signs in with a mailed code (issue 29), in en; in zh a second send too soon is refused with a countdown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, releaseBrowser, sessionApi, signIn, snap, startStudio, type RunningStudio } from './server';
import { startMailbox, type Mailbox } from '../api/smtp-fixture';

let studio: RunningStudio;
let browser: Browser;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await startMailbox();
  studio = await startStudio({ WEFT_SMTP_URL: mailbox.url });
  browser = await launchBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  await mailbox?.close();
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
    second.setDefaultTimeout(40_000);
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
      // Polled: on a busy machine a tab may still be finishing its navigation; a tab signed out stays on /login.
      await expect.poll(() => new URL(page.url()).pathname, { message: `${tab(page)} tab; ${trace.join('; ')}` }).toBe('/operation');
      expect((await sessionApi(page, 'GET', '/api/v1/console/base/userinfo')).status, trace.join('; ')).toBe(200);
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
  it('signs in with a code mailed through the SMTP server, after the email check (en); a resend too soon waits (zh)', async () => {
    // The admin gets an email address, as in the profile page.
    const admin = await signIn(browser, studio.url, { width: 1200, height: 800 });
    expect((await sessionApi(admin.page, 'PUT', '/api/v1/console/base/profile', { email: 'admin@example.com' })).status).toBe(200);
    await admin.context.close();

    const context = await browser.newContext({ viewport: { width: 1200, height: 800 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(40_000);
    await page.goto(`${studio.url}/login`);
    await page.getByTestId('login-tab-email').click();
    const form = page.getByTestId('login-code-form-email');
    await form.getByTestId('login-code-target').fill('admin@example');
    await form.getByTestId('login-code-send').click();
    await form.getByText('Please enter a valid email').waitFor();
    expect(mailbox.mails.length).toBe(0);
    await form.getByTestId('login-code-target').fill('admin@example.com');
    await form.getByTestId('login-code-send').click();
    await form.getByTestId('login-code-sent').waitFor();
    await expect.poll(() => form.getByTestId('login-code-send').innerText()).toMatch(/^Resend in \d+ s$/);
    expect(await form.getByTestId('login-code-send').isDisabled()).toBe(true);
    const code = mailbox.codeFor('admin@example.com')!;
    expect(code).toMatch(/^\d{6}$/);
    await form.getByTestId('login-code-code').fill(code);
    await snap(page, 'login-code-en-email');
    await form.getByTestId('login-code-submit').click();
    await page.waitForURL((u) => u.pathname === '/operation');
    await page.getByTestId('user-menu-trigger').waitFor();
    expect((await sessionApi(page, 'GET', '/api/v1/console/base/userinfo')).data).toMatchObject({ username: 'admin' });
    await context.close();

    const zh = await browser.newContext({ viewport: { width: 1200, height: 800 }, locale: 'zh-CN' });
    const zhPage = await zh.newPage();
    zhPage.setDefaultTimeout(40_000);
    await zhPage.goto(`${studio.url}/login`);
    await zhPage.getByTestId('login-tab-email').click();
    expect(await zhPage.getByTestId('login-tab-email').innerText()).toBe('邮箱验证码');
    const zhForm = zhPage.getByTestId('login-code-form-email');
    await zhForm.getByTestId('login-code-target').fill('admin@example.com');
    await zhForm.getByTestId('login-code-send').click();
    await expect.poll(() => zhForm.getByTestId('login-error').innerText()).toMatch(/^请求过于频繁，请 \d+ 秒后再试$/);
    await expect.poll(() => zhForm.getByTestId('login-code-send').innerText()).toMatch(/^\d+ 秒后重发$/);
    await snap(zhPage, 'login-code-zh-wait');
    await zh.close();
  });
});
