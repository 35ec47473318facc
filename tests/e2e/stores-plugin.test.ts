/**
 * The plugin store in Chromium against the real server: the example plugin is packed with
 * `npm run plugin:pack`, installed by upload, published from System › Plugins, released in the store
 * manager, then seen in the plugin store's gallery and detail (author, kinds, versions, installs) in
 * English and Chinese, downloaded, and installed again from the store after it was deleted (counted).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, releaseBrowser, signIn, snap, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;
let dir = '';
let pkg = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-plugin-store-e2e-'));
  pkg = path.join(dir, 'weft.text-stats-1.0.0.tgz');
  execFileSync('npm', ['run', '--silent', 'plugin:pack', '--', 'plugins/examples/text-stats', '--out', pkg], { stdio: 'pipe' });
  studio = await startStudio();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the plugin store in the browser', () => {
  it('publishes an installed plugin, releases it, lists it, shows its detail and installs it from the store', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await page.goto(`${studio.url}/operation/system/plugin`);
    await page.getByTestId('plugin-file').setInputFiles(pkg);
    const row = page.getByTestId('plugin-weft.text-stats');
    await expect.poll(() => row.isVisible()).toBe(true);
    await row.getByTestId('plugin-publish').click();
    await expect.poll(() => page.getByText('was submitted to the plugin store').first().isVisible()).toBe(true);
    await snap(page, 'plugin-store-01-published');

    // Awaiting release: not in the gallery yet.
    await page.goto(`${studio.url}/operation/store/plugin`);
    await expect.poll(() => page.getByTestId('store-empty').isVisible()).toBe(true);

    // The store manager releases it.
    await page.goto(`${studio.url}/operation/system/store`);
    await page.getByText('Text statistics').first().click();
    await expect.poll(() => page.getByTestId('system-store-item').getAttribute('data-state')).toBe('awaiting_release');
    expect(await page.getByTestId('store-plugin-kinds').textContent()).toContain('text-stats');
    // The manager sees the plugin's own fields, not a project space or copies.
    expect(await page.getByTestId('store-plugin-checksum').textContent()).toMatch(/\S{16,}/);
    expect(await page.getByTestId('store-plugin-installs').textContent()).toBe('0');
    expect(await page.getByTestId('system-store-facts').textContent()).not.toContain('Project space');
    await page.getByTestId('system-store-release').click();
    await expect.poll(() => page.getByTestId('system-store-item').getAttribute('data-state')).toBe('released');
    await snap(page, 'plugin-store-02-released');

    // The gallery: name, version, description; then the detail with its kinds and versions.
    await page.goto(`${studio.url}/operation/store/plugin`);
    const gallery = page.getByTestId('store-gallery');
    await expect.poll(() => gallery.getByText('Text statistics').first().isVisible()).toBe(true);
    const card = gallery.getByTestId('store-card').first();
    expect(await card.getByTestId('store-card-adds').textContent()).toContain('text-stats');
    expect(await card.getByTestId('store-card-author').textContent()).toBe('By Weft · v1.0.0');
    expect(await card.getByTestId('store-card-installs').textContent()).toBe('0 installs');
    await snap(page, 'plugin-store-03-gallery');
    await gallery.getByText('Text statistics').first().click();
    const detail = page.getByTestId('store-detail');
    await expect.poll(() => detail.isVisible()).toBe(true);
    expect(await detail.getByTestId('store-plugin-version').textContent()).toBe('1.0.0');
    expect(await detail.getByTestId('store-plugin-kinds').textContent()).toContain('text-stats');
    expect(await detail.getByTestId('store-plugin-version-row').count()).toBe(1);
    // Download: the package file, byte for byte, under its plugin id and version.
    const [download] = await Promise.all([page.waitForEvent('download'), detail.getByTestId('store-download').click()]);
    expect(download.suggestedFilename()).toBe('weft.text-stats-1.0.0.tgz');
    const saved = path.join(dir, 'downloaded.tgz');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved).equals(fs.readFileSync(pkg))).toBe(true);
    await snap(page, 'plugin-store-04-detail');

    // Deleted, then installed again from the store: the same checks as an upload, and it is active.
    const detailUrl = page.url();
    await page.goto(`${studio.url}/operation/system/plugin`);
    await page.getByTestId('plugin-weft.text-stats').getByRole('button', { name: 'Delete' }).click();
    await page.locator('[data-slot="confirm-dialog-action"]').click();
    await expect.poll(() => page.getByTestId('plugin-weft.text-stats').count()).toBe(0);
    await page.goto(detailUrl);
    await page.getByTestId('store-install').click();
    await expect.poll(() => page.getByText('is installed: every editor can use its nodes').first().isVisible()).toBe(true);
    // The install is counted: on the detail at once, and on the card and the detail once reloaded.
    expect(await page.getByTestId('store-plugin-installs').textContent()).toBe('1');
    await page.reload();
    await expect.poll(() => page.getByTestId('store-plugin-installs').textContent()).toBe('1');
    await page.goto(`${studio.url}/operation/store/plugin`);
    await expect.poll(() => page.getByTestId('store-card-installs').first().textContent()).toBe('1 install');
    await page.goto(`${studio.url}/operation/system/plugin`);
    await expect.poll(async () => (await page.getByTestId('plugin-weft.text-stats').textContent()) ?? '').toContain('Active');

    // The same pages in Chinese.
    await page.evaluate(() => localStorage.setItem('weft.lang', 'zh'));
    await page.goto(`${studio.url}/operation/store/plugin`);
    await expect.poll(() => page.getByText('插件商店').first().isVisible()).toBe(true);
    await snap(page, 'plugin-store-05-gallery-zh');
    await page.goto(detailUrl);
    await expect.poll(() => page.getByText('新增的节点类型').first().isVisible()).toBe(true);
    await snap(page, 'plugin-store-06-detail-zh');
    await context.close();
  });
});
