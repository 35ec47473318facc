/**
 * The Database tab against the real server in Chromium and a real PostgreSQL server: a database
 * added with the server's host, port, account and password passes the connection check (in the
 * dialog, and the background check after saving marks the row connected); a wrong password fails
 * with a clear message, in the dialog and in the list.
 *
 * The PostgreSQL server is a throwaway one started here by scripts/with-postgres.mjs (the same as the
 * API run on a real server). Without a PostgreSQL install this test fails, saying how to install it
 * (apt-get install -y postgresql); it never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
// @ts-expect-error plain ESM helper shared with the scripts
import { startPostgres } from '../../scripts/with-postgres.mjs';
import { ADMIN, launchBrowser, releaseBrowser, signIn, startStudio, type RunningStudio } from './server';

interface Postgres {
  host: string;
  port: number;
  user: string;
  password: string;
  database: string;
  stop(): void;
}

let studio: RunningStudio;
let browser: Browser;
let pg: Postgres;

beforeAll(async () => {
  pg = (await startPostgres()) as Postgres;
  // The throwaway PostgreSQL server listens on loopback: the operator's allow-list opens exactly it.
  studio = await startStudio({ WEFT_OUTBOUND_ALLOW: `${pg.host.includes(':') ? `[${pg.host}]` : pg.host}:${pg.port}` });
  browser = await launchBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  pg?.stop();
});

async function fillDatabase(dialog: Locator, values: { name: string; password: string }) {
  await dialog.getByLabel('Name').fill(values.name);
  await dialog.getByLabel('Host').fill(pg.host);
  await dialog.getByLabel('Port').fill(String(pg.port));
  await dialog.getByLabel('Account').fill(pg.user);
  await dialog.getByLabel('Password', { exact: false }).first().fill(values.password);
  await dialog.getByLabel('Database', { exact: true }).fill(pg.database);
}

/** The status badge of the list row named `name`, once its background check has ended. */
async function settledStatus(page: Page, name: string) {
  const badge = page.getByTestId('databases-page').getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) }).locator('[data-value]').first();
  await expect.poll(() => badge.getAttribute('data-value'), { timeout: 20_000 }).not.toBe('detecting');
  return badge;
}

describe('the Database tab with a real PostgreSQL server', () => {
  it('connects with the right password and fails clearly with a wrong one', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1500, height: 950 });
    await page.getByTestId('workspace-card').first().getByTestId('workspace-link').click();
    await page.waitForURL((u) => /^\/operation\/workspace\/[^/]+\/app$/.test(u.pathname));
    await page.getByTestId('project-tab-database').click();
    await page.getByTestId('databases-page').waitFor();

    // The right settings: the check in the dialog connects.
    await page.getByTestId('database-add').click();
    const dialog = page.getByTestId('database-dialog');
    await expect.poll(async () => (await dialog.getByRole('combobox', { name: 'Type' }).textContent())?.trim()).toBe('PostgreSQL');
    await fillDatabase(dialog, { name: 'Orders PG', password: pg.password });
    await dialog.getByTestId('database-check').click();
    const outcome = dialog.getByTestId('database-check-result');
    await expect.poll(() => outcome.getAttribute('data-status')).toBe('success');
    expect(await outcome.textContent()).toMatch(/^Connected \(\d+ ms\)$/);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Saved: the background check marks the row connected.
    const ok = await settledStatus(page, 'Orders PG');
    expect(await ok.getAttribute('data-value')).toBe('success');

    // A wrong password: the check fails and says why, once.
    await page.getByTestId('database-add').click();
    await fillDatabase(dialog, { name: 'Orders PG wrong', password: `${pg.password}-wrong` });
    await dialog.getByTestId('database-check').click();
    await expect.poll(() => outcome.getAttribute('data-status')).toBe('failed');
    expect(await outcome.textContent()).toBe('Connection failed: Wrong account or password');
    // Another port of the same host is not on the allow-list: refused before any connection.
    await dialog.getByLabel('Port').fill(String(pg.port + 1));
    await dialog.getByTestId('database-check').click();
    await expect.poll(() => outcome.textContent()).toBe("Connection failed: The server's network policy does not allow this host or port: ask the operator to open it");
    await dialog.getByLabel('Port').fill(String(pg.port));
    await page.screenshot({ path: '/tmp/e2e-databases.png' });
    // Saved anyway: the list shows it failed, with the reason on the row.
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const failed = await settledStatus(page, 'Orders PG wrong');
    expect(await failed.getAttribute('data-value')).toBe('failed');
    // The list shows why as the status badge's tooltip, once, in the user's language.
    await failed.hover();
    await expect.poll(() => page.getByRole('tooltip').first().textContent()).toBe('Wrong account or password');
    expect(await failed.textContent()).toBe('Failed');
    expect(await ok.getAttribute('data-value')).toBe('success');
    expect(await ok.textContent()).not.toBe('Failed');
    await page.screenshot({ path: '/tmp/e2e-databases-list.png', fullPage: true });
    await context.close();
  });
});
