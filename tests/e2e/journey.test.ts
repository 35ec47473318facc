/**
 * The user journey of the runnable studio, in Chromium against the real server (`src/server/main.ts`
 * serving dist/) on a temporary embedded database: sign in, create users and a project space, open
 * it, visit every project-space tab, add a member through the person/org picker, change their role,
 * transfer ownership, switch the language (kept across a reload), sign out; then a user of a second
 * tenant signs in and sees none of it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, launchBrowser, releaseBrowser, snap, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;
/** The created space's path, /operation/workspace/{id}. */
let wsPath = '';

const SPACE = 'Research lab';
const ALICE = { username: 'alice', password: 'Alice12345', realName: 'Alice Zhang' };
const OTHER = { tenant: 'Acme Corp', username: 'oscar', password: 'Oscar12345' };

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
});

async function newPage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

const atPath = (path: string) => (u: URL) => u.pathname === path;

async function signIn(page: Page, user: { username: string; password: string }, tenant?: string) {
  await page.goto(`${studio.url}/`);
  await page.waitForURL((u) => u.pathname === '/login');
  if (tenant) {
    await page.getByRole('combobox', { name: /tenant/i }).click();
    await page.getByRole('option', { name: tenant }).click();
  }
  await page.getByTestId('login-username').fill(user.username);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(atPath('/operation'));
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu-trigger').click();
  await page.getByTestId('sign-out').click();
  await page.waitForURL((u) => u.pathname === '/login');
}

/** Fills the system-admin "Create user" dialog. */
async function createUser(page: Page, user: { username: string; password: string; realName: string }, tenant?: string) {
  await page.getByRole('button', { name: 'Create user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create user' });
  if (tenant) {
    await dialog.getByRole('combobox', { name: 'Tenant' }).click();
    await page.getByRole('option', { name: tenant }).click();
  }
  await dialog.locator('input[name="username"]').fill(user.username);
  await dialog.locator('input[name="password"]').fill(user.password);
  await dialog.locator('input[name="confirm_password"]').fill(user.password);
  await dialog.locator('input[name="realName"]').fill(user.realName);
  // Put the user in the tenant's root organisation, so the member picker's tree shows them.
  await dialog.locator('[data-slot="org-multi-select"] [role="checkbox"]').first().click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect.poll(() => dialog.isVisible()).toBe(false);
  await expect.poll(() => page.getByRole('cell', { name: user.username, exact: true }).count()).toBe(1);
}

describe('the studio journey', () => {
  it('signs in, builds a project space with a member, transfers it, switches language, signs out', async () => {
    const { context, page } = await newPage();
    // An unknown path before sign-in goes to the login page, keeping where the user wanted to go.
    await page.goto(`${studio.url}/operation/workspace`);
    await page.waitForURL((u) => u.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('redirect_uri')).toBeTruthy();
    await snap(page, 'journey-01-login');

    // A wrong password is refused with the server's message and changes nothing.
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill('wrong-password-1');
    await page.getByTestId('login-submit').click();
    await expect.poll(() => page.getByRole('alert').or(page.locator('[data-sonner-toast],[role="status"]')).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/login');

    await signIn(page, ADMIN);
    await expect.poll(() => page.getByTestId('workspace-card').count()).toBeGreaterThan(0); // the seeded default space

    // System admin: a user for this tenant.
    await page.goto(`${studio.url}/operation/system/user`);
    await createUser(page, ALICE);
    await snap(page, 'journey-02-users');

    // A project space.
    await page.goto(`${studio.url}/operation`);
    await page.getByTestId('workspace-create').click();
    await page.getByTestId('workspace-name').fill(SPACE);
    await page.getByTestId('workspace-description').fill('Where the research apps live');
    await page.getByTestId('workspace-dialog-submit').click();
    const card = page.getByTestId('workspace-card').filter({ hasText: SPACE });
    await expect.poll(() => card.count()).toBe(1);
    await card.getByTestId('workspace-link').click();
    await page.waitForURL((u) => /^\/operation\/workspace\/[^/]+\/app$/.test(u.pathname));
    wsPath = new URL(page.url()).pathname.replace(/\/app$/, '');

    // Every project-space tab opens its page.
    const tabs = ['Application', 'Tools', 'Knowledge Base', 'Database', 'Credential Management', 'Prompt Management', 'Member Management'];
    const nav = page.getByTestId('project-tabs');
    for (const name of tabs) await expect.poll(() => nav.getByRole('link', { name }).isVisible()).toBe(true);
    const slugs = ['app', 'tool', 'knowledge', 'database', 'certificate', 'prompt', 'member'];
    for (const slug of slugs) {
      await page.getByTestId(`project-tab-${slug}`).click();
      await page.waitForURL(atPath(`${wsPath}/${slug}`));
      await expect.poll(() => page.getByTestId('breadcrumb').textContent()).toContain(SPACE);
    }
    await snap(page, 'journey-03-members');

    // Add Alice through the picker: search, tick, confirm.
    await page.getByTestId('member-add').click();
    const picker = page.getByTestId('person-org-picker');
    await picker.getByTestId('picker-search').fill('Alice');
    const aliceRow = picker.locator('[data-testid^="picker-user-checkbox-"]').first();
    await aliceRow.click();
    await expect.poll(() => picker.getByTestId('picker-selected').textContent()).toContain(ALICE.realName);
    await snap(page, 'journey-04-picker');
    await picker.getByTestId('picker-confirm').click();
    await expect.poll(() => picker.isVisible()).toBe(false);
    const aliceMember = page.getByTestId('member-table').locator('tr', { hasText: ALICE.username });
    await expect.poll(() => aliceMember.count()).toBe(1);
    expect(await aliceMember.textContent()).toContain('Ordinary member');

    // Change her role to admin.
    await aliceMember.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Admin' }).click();
    await expect.poll(() => aliceMember.getByRole('combobox').textContent()).toContain('Admin');

    // It sticks after a reload (it went to the server).
    await page.reload();
    await expect.poll(async () => (await page.getByTestId('member-table').locator('tr', { hasText: ALICE.username }).getByRole('combobox').textContent()) ?? '').toContain('Admin');

    // Transfer ownership to Alice; the admin becomes an admin of the space.
    await page.getByTestId('member-table').locator('tr', { hasText: ALICE.username }).locator('[data-testid^="member-transfer-"]').click();
    const confirmDialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await confirmDialog.getByRole('button', { name: /transfer/i }).last().click();
    const me = page.getByTestId('member-table').locator('tr', { hasText: 'admin' }).filter({ hasText: 'You' });
    await expect.poll(async () => (await me.textContent()) ?? '').toContain('Admin');
    await expect.poll(async () => (await page.getByTestId('member-table').locator('tr', { hasText: ALICE.username }).textContent()) ?? '').toContain('Owner');
    await snap(page, 'journey-05-transferred');

    // Chinese, kept across a reload.
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-option-zh').click();
    await expect.poll(() => page.getByTestId('project-tab-member').textContent()).toBe('成员管理');
    await page.reload();
    await expect.poll(() => page.getByTestId('project-tab-member').textContent()).toBe('成员管理');
    expect(await page.evaluate(() => document.documentElement.lang)).toMatch(/^zh/);
    await expect.poll(() => page.getByTestId('member-table').locator('tr', { hasText: ALICE.username }).count()).toBe(1);
    expect(await page.getByTestId('member-table').textContent()).toContain('所有者'); // Alice's role, translated
    await snap(page, 'journey-06-chinese');
    // Back to English for the rest.
    await page.getByTestId('language-switcher').click();
    await page.getByTestId('language-option-en').click();
    await expect.poll(() => page.getByTestId('project-tab-member').textContent()).toBe('Member Management');

    // A second tenant with its own user.
    await page.goto(`${studio.url}/operation/system/tenant`);
    await page.getByRole('button', { name: 'Create tenant' }).click();
    const tenantDialog = page.getByRole('dialog', { name: 'Create tenant' });
    await tenantDialog.getByLabel('Tenant name').fill(OTHER.tenant);
    await tenantDialog.getByLabel('Admin username').fill(OTHER.username);
    await tenantDialog.getByLabel('Login password').fill(OTHER.password);
    await tenantDialog.getByLabel('Confirm password').fill(OTHER.password);
    await tenantDialog.locator('button[type="submit"]').click();
    await expect.poll(() => tenantDialog.isVisible()).toBe(false);
    await expect.poll(() => page.getByRole('cell', { name: OTHER.tenant, exact: true }).count()).toBeGreaterThan(0);

    await signOut(page);
    // Signed out: the session is gone, protected pages send back to the login.
    await page.goto(`${studio.url}${wsPath}/member`);
    await page.waitForURL((u) => u.pathname === '/login');
    await context.close();
  });

  it('lets the new owner in, and shows a second tenant none of it', async () => {
    const { context, page } = await newPage();
    await signIn(page, ALICE, 'Default tenant');
    const card = page.getByTestId('workspace-card').filter({ hasText: SPACE });
    await expect.poll(() => card.count()).toBe(1);
    expect(await card.textContent()).toContain('Owner');
    await signOut(page);

    await signIn(page, OTHER, OTHER.tenant);
    await expect.poll(() => page.getByTestId('operation-home').isVisible()).toBe(true);
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('workspace-card').filter({ hasText: SPACE }).count()).toBe(0);
    expect(await page.getByText(SPACE).count()).toBe(0);
    await snap(page, 'journey-07-other-tenant');

    // Typing the first tenant's workspace URL shows the error screen with the id, not the space.
    await page.goto(`${studio.url}${wsPath}/member`);
    await expect.poll(() => page.getByTestId('error-screen').isVisible()).toBe(true);
    expect(await page.getByTestId('error-id').textContent()).toContain(wsPath.split('/').pop());
    expect(await page.getByText(ALICE.username).count()).toBe(0);
    await snap(page, 'journey-08-foreign-space');
    await context.close();
  });
});
