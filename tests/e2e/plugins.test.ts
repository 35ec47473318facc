/**
 * Plugin packages in Chromium against the real server: the super admin uploads a damaged package
 * (a clear error, nothing installed), then the example plugin packed by the real script; a workflow
 * app's editor then offers the kind in its palette, the node passes the checklist and runs in the
 * debug pane with the package's executor on the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FlowDocument } from '../../schemas/flow';
import { packPlugin } from '../../scripts/plugin-pack';
import { createAppInUi, launchBrowser, openFirstWorkspaceApps, releaseBrowser, saveDraftInBrowser, signIn, snap, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;
let dir = '';
let good = '';
let bad = '';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weft-plugin-e2e-'));
  const { bytes } = await packPlugin('plugins/examples/text-stats');
  good = path.join(dir, 'weft.text-stats-1.0.0.tgz');
  bad = path.join(dir, 'broken.tgz');
  fs.writeFileSync(good, bytes);
  fs.writeFileSync(bad, bytes.subarray(0, bytes.length - 40));
  studio = await startStudio();
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const statsDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    { id: 'start', kind: 'start', kindVersion: 1, title: '', position: { x: 80, y: 200 }, config: { variables: [{ name: 'text', label: 'Text', type: 'text', required: true, options: [], allowed_extensions: [] }] } },
    { id: 'ts', kind: 'text-stats', kindVersion: 2, title: '', position: { x: 420, y: 200 }, config: { source: ['start', 'text'], countWords: true, trim: true } },
    { id: 'end', kind: 'end', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { outputs: [{ name: 'words', selector: ['ts', 'words'] }, { name: 'lines', selector: ['ts', 'lines'] }] } },
  ],
  edges: [
    { id: 'start-source-ts-target', source: 'start', sourceHandle: 'source', target: 'ts', targetHandle: 'target' },
    { id: 'ts-source-end-target', source: 'ts', sourceHandle: 'source', target: 'end', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});

describe('plugin packages in the browser', () => {
  it('installs through the plugin page, then the kind is in the palette and runs in the debug pane', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await page.goto(`${studio.url}/operation/system/plugin`);
    await expect.poll(() => page.getByTestId('plugins-page').isVisible()).toBe(true);

    // A damaged package: a clear error, and nothing is installed.
    await page.getByTestId('plugin-file').setInputFiles(bad);
    await expect.poll(() => page.getByTestId('plugin-error').textContent()).toMatch(/cannot be read.*Not a gzip archive, or truncated/s);
    expect(await page.getByTestId('plugin-table').count()).toBe(0);
    await snap(page, 'plugins-01-damaged');

    await page.getByTestId('plugin-file').setInputFiles(good);
    const row = page.getByTestId('plugin-weft.text-stats');
    await expect.poll(() => row.isVisible()).toBe(true);
    expect(await row.textContent()).toContain('Active');
    expect(await row.textContent()).toContain('text-stats');
    await snap(page, 'plugins-02-installed');

    // The detail page: manifest, kinds, and no app using them yet.
    await row.getByRole('link', { name: 'Text statistics' }).click();
    const detail = page.getByTestId('plugin-detail-page');
    await expect.poll(() => detail.getByTestId('plugin-kinds').textContent()).toContain('text-stats');
    expect(await detail.getByTestId('plugin-manifest').textContent()).toContain('1.0.0');
    expect(await detail.getByTestId('plugin-usage-list').textContent()).toContain('No app uses its kinds.');
    await snap(page, 'plugins-02b-detail');

    await page.goto(`${studio.url}/operation`);
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Stats', description: 'Counts words', mode: 'workflow' });
    await saveDraftInBrowser(page, appId, statsDoc());
    await page.reload();
    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-ts').isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('checklist-count').textContent()).toBe('0');

    // The palette offers the installed kind.
    await page.mouse.click(700, 700, { button: 'right' });
    await page.getByTestId('pane-menu').getByTestId('menu-addNodeHere').click();
    await expect.poll(() => page.getByTestId('palette-item-text-stats').isVisible()).toBe(true);
    expect(await page.getByTestId('palette-item-text-stats').textContent()).toContain('Text statistics');
    await page.getByTestId('palette-item-text-stats').scrollIntoViewIfNeeded();
    await snap(page, 'plugins-03-palette');
    await page.keyboard.press('Escape');

    await page.getByTestId('debug-open').click();
    const pane = page.getByTestId('debug-pane');
    await pane.getByTestId('run-field-text').locator('textarea, input').first().fill('one two three four');
    await pane.getByTestId('workflow-run').click();
    const outputs = pane.getByTestId('workflow-outputs');
    await expect.poll(() => outputs.isVisible(), { timeout: 30_000 }).toBe(true);
    const text = (await outputs.textContent()) ?? '';
    expect(text).toMatch(/"words":\s*4/);
    expect(text).toMatch(/"lines":\s*1/);
    await snap(page, 'plugins-04-run');
    await context.close();
  });
});
