/**
 * Finding one's way in the console (issue 28), in Chromium against the real server, in Chinese and
 * English: the breadcrumb names the knowledge base (a link back) on its unit and segmentation pages,
 * the tool and the function on their pages, "New prompt" on a new prompt and the prompt's name on an
 * existing one. And what the login page and the console home cost on the wire on a first load.
 */
import { execSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { describeFirstLoad, FIRST_LOAD_BUDGET_KB, measureFirstLoad } from './first-load';
import { releaseBrowser, sessionApi, startStudio, type RunningStudio } from './server';
import { look, signInOnce, type SignedIn } from './session-helpers';
import { consolePages, launchWithScrollbars, MEMBER, openPage, seedConsole, signInAs, type Seeded } from './console-fixtures';

let studio: RunningStudio;
let browser: Browser;
let seeded: Seeded;
/** The seeded admin, signed in through the login page once (and the project space seeded then); the tests' contexts start signed in. */
let admin: SignedIn;

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchWithScrollbars();
  admin = await signInOnce(browser, studio.url, undefined, { workspace: true, then: async (page) => void (seeded = await seedConsole(page)) });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
});

const crumbs = async (page: Page) => (await page.getByTestId('breadcrumb').locator('li').allInnerTexts()).map((x) => x.trim()).filter(Boolean);

describe.each(['zh', 'en'] as const)('breadcrumbs in %s', (lang) => {
  it('name the knowledge base, the tool and a new prompt, with links back', async () => {
    const { context, page } = await admin.open({ lang, viewport: { width: 1280, height: 900 } });
    const pages = consolePages(seeded);
    const ws = `/operation/workspace/${seeded.workspaceId}`;

    for (const p of [pages.unitDetails, pages.units, `${ws}/knowledge-slice-method-config?dataset_id=${seeded.datasetId}`]) {
      await openPage(page, studio.url, p);
      await expect.poll(() => crumbs(page)).toContain('Product handbook');
    }
    await openPage(page, studio.url, pages.unitDetails);
    await look(page, `console-navigation-${lang}-unit-details`);
    await page.getByTestId('breadcrumb').getByRole('link', { name: 'Product handbook' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/knowledge-unit') && u.searchParams.get('dataset_id') === seeded.datasetId);

    const toolName = 'Order service for the shop front (v2)';
    await openPage(page, studio.url, pages.toolDetail);
    await expect.poll(() => crumbs(page)).toContain(toolName);
    expect(await crumbs(page)).not.toContain(lang === 'zh' ? '工具详情' : 'Tool detail');
    await openPage(page, studio.url, pages.function);
    await expect.poll(() => crumbs(page)).toEqual(expect.arrayContaining([toolName, 'create_order']));
    await page.getByTestId('breadcrumb').getByRole('link', { name: toolName }).click();
    await page.waitForURL((u) => u.pathname === `${ws}/tool/${seeded.toolId}`);

    await openPage(page, studio.url, pages.promptNew);
    await expect.poll(async () => (await crumbs(page)).at(-1)).toBe(lang === 'zh' ? '新建提示词' : 'New prompt');
    await openPage(page, studio.url, pages.promptEdit);
    await expect.poll(async () => (await crumbs(page)).at(-1)).toBe('Support reply');
    await context.close();
  });
});

describe('the screens’ details', () => {
  it('shows the whole role label, tooltips on icon-only buttons and truncated names, and counts files as plurals', async () => {
    const { context, page } = await admin.open({ lang: 'en', viewport: { width: 1280, height: 900 } });
    const pages = consolePages(seeded);
    await openPage(page, studio.url, pages.members);
    const role = page.getByTestId('member-page').getByRole('combobox').filter({ hasText: 'Ordinary member' }).first();
    await role.waitFor();
    // Nothing inside the select is cut short ("Ordinary mem…").
    expect(await role.evaluate((el) => [el, ...Array.from(el.querySelectorAll('*'))].every((n) => n.scrollWidth <= n.clientWidth + 1))).toBe(true);
    await look(page, 'console-navigation-members');

    const problems: string[] = [];
    for (const name of ['tools', 'toolDetail', 'units', 'unitDetails', 'prompts', 'certificate', 'database', 'members']) {
      await openPage(page, studio.url, pages[name]!);
      // Every visible icon-only button says what it does on hover.
      const buttons = page.locator('main button[data-slot="button"]:visible:not([disabled])');
      for (let i = 0; i < (await buttons.count()); i++) {
        const b = buttons.nth(i);
        if ((await b.innerText()).trim() !== '') continue;
        const label = await b.getAttribute('aria-label');
        if (await b.getAttribute('title')) continue;
        await b.hover();
        const shown = await page.locator('[data-slot="tooltip-content"]').filter({ hasText: label ?? '' }).first().waitFor({ timeout: 1500 }).then(() => true, () => false);
        if (!shown) problems.push(`${name}: icon-only button "${label}" has no tooltip`);
        await page.mouse.move(0, 0);
      }
      // Every name cut short with an ellipsis can be read whole on hover.
      const cut = await page.evaluate(() =>
        Array.from(document.querySelectorAll('main *'))
          .filter((el) => getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && (el as HTMLElement).offsetParent !== null)
          .filter((el) => !el.closest('[title]'))
          .map((el) => (el as HTMLElement).innerText.slice(0, 40)),
      );
      for (const c of cut) problems.push(`${name}: "${c}" is cut short with no tooltip`);
    }
    expect(problems).toEqual([]);

    await openPage(page, studio.url, pages.unitAddTable);
    const hint = await page.locator('[data-slot="page"]').innerText();
    expect(hint).toContain('1 file at most');
    expect(hint).not.toContain('1 files');
    await context.close();
  });
});

describe('the first load', () => {
  it('of the login page and of the console home is at most 250 KB of JS and CSS on the wire, brotli, with no editor code', async () => {
    const login = await measureFirstLoad(browser, `${studio.url}/login`, (p) => p.getByTestId('login-submit').waitFor(), { locale: 'zh-CN' });
    const storageState = await admin.freshState('zh');
    const home = await measureFirstLoad(browser, `${studio.url}/operation`, (p) => p.getByTestId('workspace-card').first().waitFor(), { locale: 'zh-CN', storageState });
    // Figures for the log (bytes do not depend on the machine's load; `uptime` says how busy it was).
    console.log(`${describeFirstLoad('login page', login)}\n${describeFirstLoad('console home', home)}\nuptime: ${execSync('uptime').toString().trim()}`);

    for (const [name, load] of [['login page', login], ['console home', home]] as const) {
      // Every file the build compressed comes compressed.
      expect(load.files.filter((f) => f.brotli < f.transferred - 1024 && f.encoding !== 'br').map((f) => f.file), name).toEqual([]);
      expect(load.files.map((f) => f.file).filter((f) => /canvas|flow-page|editor|monaco|elk|xyflow/i.test(f)), name).toEqual([]);
      // The budget by the build's brotli files (what is fetched, not how fast), and as Chromium counted it, headers included.
      expect(Math.round(load.brotli / 1024), `${name}: brotli KB`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
      expect(Math.round(load.transferred / 1024), `${name}: transferred KB`).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_KB);
    }
  });
});

describe.each(['zh', 'en'] as const)('my space and system roles in %s (issue 33)', (lang) => {
  it('opens the my page with what the admin made, and the role page with the rules and holders', async () => {
    const { context, page } = await admin.open({ lang, viewport: { width: 1280, height: 900 } });
    await page.goto(`${studio.url}/operation/my`);
    const created = page.getByTestId('my-created');
    await created.waitFor();
    expect(await created.getByRole('link').count()).toBeGreaterThan(0);
    await look(page, `my-page-${lang}`);
    await page.goto(`${studio.url}/operation/system/role`);
    await page.getByTestId('role-matrix').waitFor();
    await page.getByTestId('role-holders').locator('tbody tr[data-user-id]').first().waitFor();
    await look(page, `role-page-${lang}`);
    await context.close();
  });
});

describe('assigning a system role on System › Roles (issue 33)', () => {
  /** The holder row of `username` on the role page (searched for, so paging cannot hide it). */
  const holder = async (page: Page, username: string) => {
    await page.getByRole('searchbox', { name: 'Search users' }).fill(username);
    const row = page.getByTestId('role-holders').locator('tbody tr[data-user-id]').filter({ has: page.getByRole('cell', { name: username, exact: true }) });
    // Searched (after the box's debounce): only that user is listed.
    await expect.poll(() => page.getByTestId('role-holders').locator('tbody tr[data-user-id]').count()).toBe(1);
    await expect.poll(() => row.count()).toBe(1);
    return row;
  };
  const give = async (page: Page, username: string, role: string) => {
    const row = await holder(page, username);
    await row.getByRole('combobox', { name: `Role of ${username}` }).click();
    await page.getByRole('option', { name: role }).click();
    const confirm = page.getByRole('alertdialog');
    expect(await confirm.textContent()).toContain(`Give ${username} the role "${role}"?`);
    await confirm.getByRole('button', { name: 'Change role' }).click();
    await page.getByText(`${username} now has the role "${role}"`).first().waitFor();
    await expect.poll(() => row.getByRole('combobox', { name: `Role of ${username}` }).textContent()).toBe(role);
  };

  it('lets the super admin make a user tenant admin, who then has it, and keeps a tenant admin to their limit', async () => {
    const superAdmin = await admin.open({ lang: 'en', viewport: { width: 1280, height: 900 } });
    const other = { username: 'qiao', password: 'Passw0rd123', realName: 'Qiao Assigned' };
    expect((await superAdmin.api('POST', '/api/v1/admin/users', other)).status).toBe(200);
    await superAdmin.page.goto(`${studio.url}/operation/system/role`);
    await superAdmin.page.getByTestId('role-matrix').waitFor();
    await give(superAdmin.page, MEMBER.username, 'Tenant admin');
    await look(superAdmin.page, 'role-assign-super-en');
    const users = await sessionApi(superAdmin.page, 'GET', `/api/v1/admin/users?name=${MEMBER.username}`);
    expect((users.data.items as { username: string; role: string }[]).find((u) => u.username === MEMBER.username)?.role).toBe('tenant_admin');
    await superAdmin.context.close();

    // The user now has the role: signed in, they reach System › Roles and act as a tenant admin.
    const lin = await signInAs(browser, studio.url, 'en', { width: 1280, height: 900 }, MEMBER);
    await lin.page.goto(`${studio.url}/operation/system/role`);
    await lin.page.getByTestId('role-matrix').waitFor();
    // Above their limit: a super admin's role is locked, and "Super admin" cannot be given.
    const adminRow = await holder(lin.page, 'admin');
    expect(await adminRow.getByRole('combobox').isDisabled()).toBe(true);
    const qiao = await holder(lin.page, other.username);
    await qiao.getByRole('combobox', { name: `Role of ${other.username}` }).click();
    expect(await lin.page.getByRole('option', { name: 'Super admin' }).getAttribute('aria-disabled')).toBe('true');
    await look(lin.page, 'role-assign-tenant-admin-en');
    await lin.page.keyboard.press('Escape');
    // Nor through the API the page calls: the server refuses, and the role stays.
    const qiaoId = await qiao.getAttribute('data-user-id');
    const refused = await sessionApi(lin.page, 'PUT', `/api/v1/admin/roles/users/${qiaoId}`, { role: 'super_admin' });
    expect(refused.status).toBe(403);
    expect(refused.data).toMatchObject({ code: 'PERMISSION-1000' });
    // Within it: tenant admin.
    await give(lin.page, other.username, 'Tenant admin');
    await lin.context.close();
  });
});
