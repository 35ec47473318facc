/**
 * Issue 27: the code editor in the inspector shows ~28 characters per line. "Open large" opens the
 * same editor in a dialog of most of the viewport (100+ characters per line) that edits the node's
 * code: text typed there, spaces and all, is in the node, Ctrl+Z on the canvas takes it back, and
 * Escape closes first Monaco's suggestions, then the dialog.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { createAppInUi, launchBrowser, openFirstWorkspaceApps, saveDraftInBrowser, sessionApi, signIn, snap, startStudio, type RunningStudio } from './server';

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

const node = (id: string, kind: string, x: number, y: number, config: Record<string, unknown> = {}) => ({ id, kind, kindVersion: 1, title: '', position: { x, y }, config });
const edge = (source: string, target: string) => ({ id: `${source}-source-${target}-target`, source, target, sourceHandle: 'source', targetHandle: 'target' });
const flow = () => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [node('start', 'start', 0, 0), node('code_1', 'code', 320, 0), node('end', 'end', 640, 0)],
  edges: [edge('start', 'code_1'), edge('code_1', 'end')],
  variables: { env: [], conversation: [] },
  notes: '',
});

/** The text of a Monaco editor as shown (it draws spaces as no-break spaces). */
const codeText = (code: Locator) => code.locator('.view-lines').evaluate((el) => (el.textContent ?? '').replace(/\u00a0/g, ' '));
const readyEditor = (scope: Locator) => scope.locator('[data-slot="code-editor"][data-state="ready"]');

async function openFlow(page: Page) {
  await openFirstWorkspaceApps(page);
  const appId = await createAppInUi(page, { name: `Large ${Math.random().toString(36).slice(2, 7)}`, description: 'Large editor', mode: 'workflow' });
  await saveDraftInBrowser(page, appId, flow());
  await page.reload();
  await expect.poll(() => page.getByTestId('flow-editor').locator('.react-flow__node').count(), { timeout: 20_000 }).toBe(3);
  await page.getByTestId('flow-editor').locator('.react-flow__node[data-id="code_1"]').click({ position: { x: 30, y: 12 } });
  await expect.poll(() => page.getByTestId('inspector-slot').locator('[data-slot="node-inspector"]').getAttribute('data-kind')).toBe('code');
  return appId;
}

/** The code node's code as the saved draft holds it ('' before any edit: the flow above sets none). */
async function savedCode(page: Page, appId: string): Promise<string> {
  await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');
  const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
  return (draft.data.document as { nodes: { id: string; config: { code?: string } }[] }).nodes.find((n) => n.id === 'code_1')!.config.code ?? '';
}

describe('the code editor opened large', () => {
  it('edits the node in a large dialog, Escape closes suggestions first, undo takes it back', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1600, height: 1000 });
    const appId = await openFlow(page);
    const inspector = page.getByTestId('inspector-slot');
    const panel = readyEditor(inspector);
    await expect.poll(() => panel.count(), { timeout: 30_000 }).toBe(1);

    await inspector.getByTestId('open-large-editor').click();
    const dialog = page.locator('[data-slot="large-editor"]');
    const large = readyEditor(dialog);
    await expect.poll(() => large.count(), { timeout: 30_000 }).toBe(1);
    // At least 80% of the viewport, and 100 characters per line (Monaco's font 16 is ~9.6 px a character).
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(1600 * 0.8);
    expect(box.height).toBeGreaterThanOrEqual(1000 * 0.8);
    const lines = (await large.locator('.view-lines').boundingBox())!;
    const charWidth = await large.locator('.view-lines').evaluate((el) => {
      const probe = document.createElement('span');
      probe.textContent = 'x'.repeat(100);
      el.appendChild(probe);
      const w = probe.getBoundingClientRect().width;
      probe.remove();
      return w / 100;
    });
    expect(lines.width / charWidth).toBeGreaterThanOrEqual(100);

    // Typed with spaces, at the end of the code.
    await large.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('// a b c');
    await snap(page, 'canvas-editor-large-typed');
    await expect.poll(() => codeText(large)).toContain('// a b c');

    // Escape in Monaco's suggest widget closes the suggestions, not the dialog.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => dialog.locator('.suggest-widget.visible').count(), { timeout: 10_000 }).toBe(1);
    await snap(page, 'canvas-editor-large-suggest');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.locator('.suggest-widget.visible').count()).toBe(0);
    expect(await dialog.count()).toBe(1);
    await snap(page, 'canvas-editor-large-open');

    // A second Escape closes the dialog; the node holds the text, spaces and all.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => savedCode(page, appId), { timeout: 20_000 }).toContain('\n// a b c');

    // Undo on the canvas (focus on its pane) takes the edits back.
    await page.getByTestId('flow-editor').locator('.react-flow__pane').click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Control+Z');
      await page.waitForTimeout(100);
      if (!(await savedCode(page, appId)).includes('// a b c')) break;
    }
    const undone = await savedCode(page, appId);
    expect(undone).not.toContain('// a b c');
    await context.close();
  });
});
