/**
 * The rest of issue 24 in Chromium against the real server, at 1280 px: the super admin installs
 * the example plugin, adds its credentials on the plugin's page (the form drawn from its schema;
 * the secret comes back masked) and sees its version history, finds the built-in tools in
 * System › Tools with a tool's detail, and opens System › Resources — in English, then in Chinese.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { packPlugin } from '../../scripts/plugin-pack';
import { launchBrowser, releaseBrowser, signIn, snap, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;
let dir = '';
let good = '';
const KEY = 'sk-example-0123456789';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-plugin-more-e2e-'));
  good = path.join(dir, 'weft.text-stats-1.0.0.tgz');
  fs.writeFileSync(good, (await packPlugin('plugins/examples/text-stats')).bytes);
  studio = await startStudio();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('plugin credentials, System › Tools and System › Resources in the browser', () => {
  it('adds a credential to the example plugin, lists the tools and shows the resources', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1280, height: 900 });
    await page.goto(`${studio.url}/operation/system/plugin`);
    await page.getByTestId('plugin-file').setInputFiles(good);
    const row = page.getByTestId('plugin-weft.text-stats');
    await expect.poll(() => row.isVisible()).toBe(true);
    await row.getByRole('link', { name: 'Text statistics' }).click();

    const creds = page.getByTestId('plugin-credentials');
    await expect.poll(() => creds.textContent()).toContain('Not set');
    await creds.getByLabel('API key').fill(KEY);
    await creds.getByLabel('Endpoint').fill('https://stats.example.com');
    await creds.getByRole('button', { name: 'Save credentials' }).click();
    await expect.poll(() => creds.textContent()).toContain('Updated by admin');
    expect(await creds.getByLabel('API key').inputValue()).toBe('sk-e****6789');
    expect(await page.content()).not.toContain(KEY);
    expect(await page.getByTestId('plugin-history').textContent()).toMatch(/1\.0\.0.*Installed.*admin/);
    await snap(page, 'system-more-01-credentials-en');

    await page.goto(`${studio.url}/operation/system/tool`);
    const tools = page.getByTestId('system-tools');
    await expect.poll(() => tools.isVisible()).toBe(true);
    expect(await page.getByTestId('tool-row-builtin/calculator').textContent()).toContain('Calculator: evaluates an arithmetic expression');
    // The table fits the 1280 px window: no horizontal scrolling.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await snap(page, 'system-more-02-tools-en');
    await page.getByTestId('tool-row-builtin/calculator').getByRole('link', { name: 'calculator' }).click();
    await expect.poll(() => page.getByTestId('tool-facts').textContent()).toContain('Built-in');
    expect(await page.getByTestId('system-tool-detail-page').textContent()).toContain('"expression"');
    await snap(page, 'system-more-03-tool-detail-en');

    await page.goto(`${studio.url}/operation/system/resource`);
    await expect.poll(() => page.getByTestId('resource-database').textContent()).toMatch(/Embedded \(PGlite\)/);
    expect(await page.getByTestId('resource-plugins').textContent()).toContain('Installed 1 · active 1 · failed 0');
    expect(await page.getByTestId('resource-memory').textContent()).toMatch(/MB/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await snap(page, 'system-more-04-resource-en');

    // The same pages in Chinese.
    await page.evaluate(() => localStorage.setItem('weft.lang', 'zh'));
    await page.reload();
    await expect.poll(() => page.getByTestId('resource-plugins').textContent()).toContain('已安装 1');
    await snap(page, 'system-more-05-resource-zh');
    await page.goto(`${studio.url}/operation/system/tool`);
    await expect.poll(() => page.getByTestId('tool-row-builtin/calculator').textContent()).toContain('计算器');
    await snap(page, 'system-more-06-tools-zh');
    await page.goto(`${studio.url}/operation/system/plugin/detail?id=weft.text-stats`);
    await expect.poll(() => page.getByTestId('plugin-credentials').textContent()).toContain('已设置');
    expect(await page.getByTestId('plugin-credentials').getByLabel('API 密钥').inputValue()).toBe('sk-e****6789');
    await snap(page, 'system-more-07-credentials-zh');
    await context.close();
  });
});
