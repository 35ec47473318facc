/**
 * "Create from file" on the apps page in Chromium against the real server: a real Dify export
 * becomes a chatflow app through POST /apps/import, the dialog shows the report (nodes imported,
 * notes such as tools to pick again), the app opens in the editor with the imported nodes; a Dify
 * chat export is refused with the unsupported-mode message. In the editor, the toolbar's import sends
 * another Dify chatflow to POST /apps/{app_id}/import and the canvas shows it, also after a reload.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openFirstWorkspaceApps, releaseBrowser, signIn, snap, startStudio, type RunningStudio } from './server';

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

const fixture = path.resolve('src/canvas/dsl/fixtures/dify-real/simple-kimi.yml');

describe('create an app from a Dify file', () => {
  it('shows the report and opens the new app in the editor', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await openFirstWorkspaceApps(page);

    // A Dify chat app (no flow) is refused by name, and nothing is created.
    const chat = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'weft-import-')), 'old-chat.yml');
    fs.writeFileSync(chat, 'app:\n  name: Old chat\n  mode: chat\nkind: app\nmodel_config: {}\nversion: 0.1.5\n');
    await page.getByTestId('app-import').click();
    const dialog = page.getByTestId('import-app-dialog');
    await dialog.getByTestId('import-app-file').setInputFiles(chat);
    await dialog.getByTestId('import-app-errors').waitFor();
    expect(await dialog.getByTestId('import-app-errors').textContent()).toContain('Unsupported app mode chat');
    await snap(page, 'dify-import-01-refused');

    await dialog.getByTestId('import-app-file').setInputFiles(fixture);
    const report = dialog.getByTestId('import-app-report');
    await report.waitFor({ timeout: 20_000 });
    const text = (await report.textContent()) ?? '';
    expect(text).toContain('Created “simple-kimi”');
    expect(text).toContain('38 nodes imported');
    expect(await dialog.getByTestId('import-app-report-warnings').textContent()).toContain('again in this workspace');
    await snap(page, 'dify-import-02-report');

    await dialog.getByTestId('import-app-open').click();
    await page.waitForURL((u) => /\/operation\/app\/[^/]+\/agent-flow/.test(u.pathname), { timeout: 20_000 });
    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-1729777763543').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => editor.getByTestId('node-1729777092216').count()).toBe(1);
    await snap(page, 'dify-import-03-editor');

    // The editor's import: the server replaces this chatflow's draft with another Dify chatflow and
    // answers its report; the canvas reloads the stored draft, and a page reload finds it there.
    await page.getByTestId('toolbar-import').click();
    const editorImport = page.getByTestId('import-dialog');
    await editorImport.getByTestId('import-file').setInputFiles(path.resolve('src/canvas/dsl/fixtures/dify-real/llm2o1.yml'));
    await editorImport.getByTestId('import-chosen').waitFor();
    await editorImport.getByTestId('import-replace').click();
    const editorReport = editorImport.getByTestId('import-report');
    await editorReport.waitFor({ timeout: 20_000 });
    expect(await editorReport.textContent()).toContain('10 nodes imported');
    await snap(page, 'dify-import-04-editor-import');
    await editorImport.getByTestId('import-close').click();
    await expect.poll(() => editor.getByTestId('node-1727189041788').count(), { timeout: 20_000 }).toBe(1);
    expect(await editor.getByTestId('node-1729777763543').count()).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByTestId('flow-editor').getByTestId('node-1727189151263').count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByTestId('flow-editor').getByTestId('node-1729777763543').count()).toBe(0);
    await context.close();
  });
});
