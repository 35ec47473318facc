/**
 * The Tools tab against the real server in Chromium: a custom tool made by hand, a function whose
 * json request body has a nested object and arrays, built in the parameter table the way a user
 * does (add rows, pick types, tick "Array", add children); saved, the page reloaded, and the same
 * tree (keys, types, arrays, nesting) shows again, and is what the server stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN, launchBrowser, releaseBrowser, signIn, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
});

/** One row of the body table as the screen shows it: depth, key, type, array ticked. */
type ShownRow = [depth: number, key: string, type: string, array: boolean];

const bodyTable = (page: Page) => page.getByRole('table', { name: 'Request body' });

/** The rows of the request body table, read from the screen. */
async function shownRows(page: Page): Promise<ShownRow[]> {
  const rows = bodyTable(page).locator('tbody tr[data-row-id]');
  const out: ShownRow[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    const row = rows.nth(i);
    const depth = Number(await row.getAttribute('data-depth'));
    const key = await row.getByRole('textbox', { name: 'Field key' }).inputValue();
    const type = (await row.getByRole('combobox', { name: 'Field type' }).textContent())?.trim() ?? '';
    const array = (await row.getByRole('checkbox', { name: 'Array' }).getAttribute('aria-checked')) === 'true';
    out.push([depth, key, type, array]);
  }
  return out;
}

/** The body row whose key is `key` (the last one when several are empty). */
const rowByKey = (page: Page, key: string): Locator =>
  bodyTable(page)
    .locator('tbody tr[data-row-id]')
    .filter({ has: page.locator(`input[aria-label="Field key"][value="${key}"]`) });

async function setKey(row: Locator, key: string) {
  const input = row.getByRole('textbox', { name: 'Field key' });
  await input.fill(key);
  await expect.poll(() => input.inputValue()).toBe(key);
}

async function chooseType(page: Page, row: Locator, type: string) {
  await row.getByRole('combobox', { name: 'Field type' }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
  await expect.poll(async () => (await row.getByRole('combobox', { name: 'Field type' }).textContent())?.trim()).toBe(type);
}

/** The last row of the table (a row just added below or as the last child is the last one shown here). */
const lastRow = (page: Page) => bodyTable(page).locator('tbody tr[data-row-id]').last();

describe('the Tools tab', () => {
  it('creates a custom tool and a function with a nested json body that survives a reload', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1600, height: 1000 });

    await page.getByTestId('workspace-card').first().getByTestId('workspace-link').click();
    await page.waitForURL((u) => /^\/operation\/workspace\/[^/]+\/app$/.test(u.pathname));
    await page.getByTestId('project-tab-tool').click();
    await page.waitForURL((u) => /\/tool$/.test(u.pathname));

    // New tool → Create by hand.
    await page.getByTestId('tool-create').click();
    await page.getByRole('menuitem', { name: 'Create by hand' }).click();
    const dialog = page.getByTestId('create-tool-dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Orders API');
    await dialog.getByRole('textbox', { name: 'Intro' }).fill('Creates orders');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL((u) => /\/tool\/[0-9a-f-]{36}$/.test(u.pathname));
    await page.getByTestId('tool-detail-page').getByRole('heading', { name: 'Orders API' }).waitFor();

    // Add function: name, POST, URL.
    await page.getByRole('button', { name: 'Add function' }).click();
    await page.waitForURL((u) => /\/capability\/new$/.test(u.pathname));
    const fnPage = page.getByTestId('function-page');
    await fnPage.getByRole('textbox', { name: 'Name' }).fill('create_order');
    await fnPage.getByRole('combobox', { name: 'Method' }).click();
    await page.getByRole('option', { name: 'POST', exact: true }).click();
    await fnPage.getByRole('textbox', { name: 'URL' }).fill('https://shop.example.com/orders');

    // The body is json: "Add parameter" makes the `data` object with a first child.
    const body = fnPage.locator('[data-slot="param-table"][data-kind="body"]');
    await expect.poll(() => body.getByRole('tab', { name: 'json' }).getAttribute('aria-selected')).toBe('true');
    await body.getByRole('button', { name: 'Add parameter' }).click();
    await setKey(lastRow(page), 'title');

    // data › customer: an object with name and email.
    const data = rowByKey(page, 'data');
    await data.getByRole('button', { name: 'Add a child parameter' }).click();
    const customer = lastRow(page);
    await setKey(customer, 'customer');
    await chooseType(page, rowByKey(page, 'customer'), 'object');
    await setKey(lastRow(page), 'name');
    await rowByKey(page, 'customer').getByRole('button', { name: 'Add a child parameter' }).click();
    await setKey(lastRow(page), 'email');

    // data › tags: an array of strings.
    await data.getByRole('button', { name: 'Add a child parameter' }).click();
    await setKey(lastRow(page), 'tags');
    await chooseType(page, rowByKey(page, 'tags'), 'string');
    await rowByKey(page, 'tags').getByRole('checkbox', { name: 'Array' }).click();

    // data › items: an array of objects with sku and qty.
    await data.getByRole('button', { name: 'Add a child parameter' }).click();
    await setKey(lastRow(page), 'items');
    await chooseType(page, rowByKey(page, 'items'), 'object');
    await rowByKey(page, 'items').getByRole('checkbox', { name: 'Array' }).click();
    await setKey(lastRow(page), 'sku');
    await rowByKey(page, 'items').getByRole('button', { name: 'Add a child parameter' }).click();
    await setKey(lastRow(page), 'qty');
    await chooseType(page, rowByKey(page, 'qty'), 'integer');

    const expected: ShownRow[] = [
      [0, 'data', 'object', false],
      [1, 'title', 'string', false],
      [1, 'customer', 'object', false],
      [2, 'name', 'string', false],
      [2, 'email', 'string', false],
      [1, 'tags', 'string', true],
      [1, 'items', 'object', true],
      [2, 'sku', 'string', false],
      [2, 'qty', 'integer', false],
    ];
    expect(await shownRows(page)).toEqual(expected);

    await page.getByTestId('function-save').click();
    await page.waitForURL((u) => /\/capability\/[0-9a-f-]{36}$/.test(u.pathname));
    const functionUrl = page.url();

    // Reload, then open the function again from the Tools tab.
    await page.reload();
    await page.getByTestId('function-page').waitFor();
    await page.getByTestId('project-tab-tool').click();
    await page.getByTestId('tools-page').getByRole('link', { name: 'Orders API' }).click();
    await page.getByTestId('tool-functions').getByRole('link', { name: 'create_order' }).click();
    await page.waitForURL(functionUrl);
    await bodyTable(page).waitFor();
    await expect.poll(() => shownRows(page)).toEqual(expected);
    expect(await page.getByTestId('function-page').getByRole('textbox', { name: 'Name' }).first().inputValue()).toBe('create_order');
    expect((await page.getByTestId('function-page').getByRole('combobox', { name: 'Method' }).textContent())?.trim()).toBe('POST');

    // What the server stored is the same tree.
    const stored = await page.evaluate(async (url) => {
      const session = JSON.parse(localStorage.getItem('weft.session') ?? '{}').state;
      const [, toolId] = /\/tool\/([^/]+)\//.exec(url)!;
      const r = await fetch(`/api/v1/console/tools/${toolId}`, { headers: { Authorization: `Bearer ${session.accessToken}`, 'X-Tenant-Id': session.tenantId, 'X-Workspace-Id': session.workspaceId } });
      return (await r.json()).data;
    }, new URL(functionUrl).pathname);
    type Row = { param_key: string; data_type: string; is_array?: boolean; children?: Row[] };
    const tree = (rows: Row[] = []): unknown[] => rows.map((r) => [r.param_key, r.data_type, !!r.is_array, ...(r.children?.length ? [tree(r.children)] : [])]);
    const fn = stored.functions.find((f: { name: string }) => f.name === 'create_order');
    expect(fn).toMatchObject({ method: 'POST', url: 'https://shop.example.com/orders', body_subtype: 'json' });
    expect(tree(fn.body)).toEqual([
      [
        'data',
        'object',
        false,
        [
          ['title', 'string', false],
          ['customer', 'object', false, [['name', 'string', false], ['email', 'string', false]]],
          ['tags', 'string', true],
          ['items', 'object', true, [['sku', 'string', false], ['qty', 'integer', false]]],
        ],
      ],
    ]);

    await page.screenshot({ path: '/tmp/e2e-tools.png', fullPage: true });
    await context.close();
  });
});
