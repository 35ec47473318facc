/**
 * The version tab in Chromium against the real server: create a workflow app, load a draft through
 * the API, publish it from the version tab (the number prefilled), change the draft, restore the
 * version into the draft and see it on the canvas. In the same studio, digital humans (issue 31): a
 * character with a portrait made in the characters tab, a broadcast app made from the create dialog,
 * a broadcast rendered by the server's ffmpeg and played in the page's <video> (zh and en).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { FlowDocument } from '../../schemas/flow';
import { createAppInUi, launchBrowser, openFirstWorkspaceApps, releaseBrowser, saveDraftInBrowser, signIn, snap, startStudio, type RunningStudio } from './server';

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

/** start(topic) → template (titled `title`) → end. */
const doc = (title: string): FlowDocument => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    { id: 'start', kind: 'start', kindVersion: 1, title: '', position: { x: 80, y: 200 }, config: { variables: [{ name: 'topic', label: '', type: 'text', required: true, options: [], allowed_extensions: [] }] } },
    { id: 'tpl', kind: 'template-transform', kindVersion: 1, title, position: { x: 420, y: 200 }, config: { inputs: [{ name: 'topic', selector: ['start', 'topic'] }], template: 'On {{ topic }}' } },
    { id: 'end', kind: 'end', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { outputs: [{ name: 'out', selector: ['tpl', 'output'] }] } },
  ],
  edges: [
    { id: 'start-source-tpl-target', source: 'start', sourceHandle: 'source', target: 'tpl', targetHandle: 'target' },
    { id: 'tpl-source-end-target', source: 'tpl', sourceHandle: 'source', target: 'end', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});


describe('the version tab', () => {
  it('publishes the draft, and restores a version into the draft so the canvas shows it', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Versioned flow', description: 'Has versions', mode: 'workflow' });
    await saveDraftInBrowser(page, appId, doc('First words'));

    // Publish from the version tab: v1.0.0 is suggested for the first version.
    await page.getByTestId('editor-tabs').getByRole('link', { name: 'Versions' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/version'));
    const versionPage = page.getByTestId('version-page');
    await expect.poll(() => versionPage.getByText('No version published yet').count()).toBe(1);
    await versionPage.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByTestId('publish-dialog');
    await expect.poll(() => dialog.getByTestId('publish-version').inputValue()).toBe('v1.0.0');
    await dialog.getByRole('textbox', { name: 'Description' }).fill('The first words');
    await dialog.getByRole('button', { name: 'Publish' }).click();
    const rows = versionPage.locator('[data-testid^="version-row-"]');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('The first words');

    // The draft moves on; the version stays. Restore it and open the canvas.
    await saveDraftInBrowser(page, appId, doc('Second words'));
    await page.reload();
    await expect.poll(() => rows.count()).toBe(1);
    await rows.first().getByRole('button', { name: 'Restore to draft' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore to draft' }).click();
    // (Radix toasts also announce their text in a hidden live region for a moment: hence first().)
    await page.getByText(/Version v1\.0\.0 restored to the draft/).first().waitFor();
    await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
    await snap(page, 'versions-01-restored');
    await versionPage.getByRole('link', { name: 'Open the canvas' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/base'));
    const node = page.getByTestId('flow-editor').getByTestId('node-tpl');
    await expect.poll(() => node.textContent(), { timeout: 20_000 }).toContain('First words');
    await context.close();
  });
});

/** A small PNG portrait drawn in the page (a face-coloured square with eyes and lips). */
async function portraitFile(page: Page): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  const base64 = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 160;
    c.height = 200;
    const g = c.getContext('2d')!;
    g.fillStyle = '#8fb3d9';
    g.fillRect(0, 0, 160, 200);
    g.fillStyle = '#e8c4a0';
    g.beginPath();
    g.ellipse(80, 100, 55, 72, 0, 0, Math.PI * 2);
    g.fill();
    g.fillStyle = '#333';
    g.fillRect(52, 80, 14, 8);
    g.fillRect(94, 80, 14, 8);
    g.fillStyle = '#a04040';
    g.fillRect(62, 132, 36, 6);
    return c.toDataURL('image/png').split(',')[1]!;
  });
  return { name: 'portrait.png', mimeType: 'image/png', buffer: Buffer.from(base64, 'base64') };
}

describe('digital humans', () => {
  it('makes a character with a portrait, a broadcast app, renders a broadcast and plays it (en, then zh)', async () => {
    const { page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await openFirstWorkspaceApps(page);
    const workspacePath = new URL(page.url()).pathname.replace(/\/app$/, '');

    // The characters tab of the project space.
    await page.getByTestId('project-tab-character').click();
    await page.waitForURL((u) => u.pathname === `${workspacePath}/character`);
    await page.getByTestId('character-add').click();
    const dialog = page.getByTestId('character-dialog');
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Anchor Wei');
    await dialog.getByTestId('character-portrait-input').setInputFiles(await portraitFile(page));
    await expect.poll(() => dialog.getByTestId('character-portrait').locator('img').count()).toBe(1);
    await dialog.getByRole('textbox', { name: 'Greeting' }).fill('Good evening.');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.getByTestId('character-list').getByText('Anchor Wei').count()).toBe(1);
    await expect.poll(() => page.getByTestId('character-list').locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await snap(page, 'digital-human-characters-en');

    // A broadcast digital human from the create dialog opens its page; choose the character.
    await page.getByTestId('project-tab-app').click();
    await page.getByTestId('app-create').click();
    await page.getByTestId('app-name').fill('Evening news');
    await page.getByTestId('app-description').fill('Read by Wei');
    await page.getByTestId('app-type').locator('[data-mode="workflow"]').click();
    await page.getByTestId('app-digital-human').locator('[data-kind="broadcast"]').click();
    await page.getByTestId('app-dialog-submit').click();
    await page.waitForURL((u) => /^\/operation\/app\/[^/]+\/digital-human$/.test(u.pathname));
    const dhPage = page.getByTestId('digital-human-page');
    await dhPage.getByTestId('dh-character').getByRole('combobox').click();
    await page.getByRole('option', { name: 'Anchor Wei' }).click();
    await dhPage.getByTestId('dh-save').click();
    await expect.poll(() => dhPage.getByTestId('dh-character-card').getByText('Anchor Wei').count()).toBe(1);

    // A broadcast: over 1000 words is counted as too long before anything is sent.
    await dhPage.getByTestId('broadcast-add').click();
    const form = page.getByTestId('broadcast-dialog');
    await form.getByRole('textbox', { name: 'Title' }).fill('Headlines');
    await form.getByTestId('broadcast-script').fill('Good evening. Here is the news.');
    await expect.poll(() => form.getByTestId('broadcast-words').textContent()).toBe('6 / 1000 words');
    await form.getByRole('button', { name: 'Render video' }).click();
    const row = dhPage.locator('[data-testid^="broadcast-row-"]').first();
    await expect.poll(() => row.getByTestId('broadcast-state').getAttribute('data-state'), { timeout: 60_000 }).toBe('done');
    await row.getByTestId('broadcast-play').click();
    const video = page.getByTestId('broadcast-video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    const duration = await video.evaluate((v: HTMLVideoElement) => v.duration);
    expect(duration).toBeGreaterThan(1);
    expect(duration).toBeLessThan(10);
    await video.evaluate((v: HTMLVideoElement) => {
      v.pause();
      v.currentTime = 1;
    });
    await snap(page, 'digital-human-broadcast-en');
    await page.keyboard.press('Escape');

    // The same page in Chinese.
    await page.evaluate(() => localStorage.setItem('weft.lang', 'zh'));
    await page.reload();
    await expect.poll(() => page.getByTestId('digital-human-page').getByText('播报视频').count()).toBe(1);
    await expect.poll(() => page.locator('[data-testid^="broadcast-row-"]').first().getByText('已完成').count()).toBe(1);
    await snap(page, 'digital-human-broadcast-zh');
    await page.goto(`${studio.url}${workspacePath}/character`);
    await expect.poll(() => page.getByTestId('characters-page').getByText('数字人角色').count()).toBeGreaterThan(0);
    await snap(page, 'digital-human-characters-zh');
  });
});
