/**
 * The version tab in Chromium against the real server: create a workflow app, load a draft through
 * the API, publish it from the version tab (the number prefilled), change the draft, restore the
 * version into the draft and see it on the canvas.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FlowDocument } from '../../schemas/flow';
import { createAppInUi, launchBrowser, openFirstWorkspaceApps, saveDraftInBrowser, signIn, snap, startStudio, type RunningStudio } from './server';

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
