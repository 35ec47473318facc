/**
 * The canvas's finishing touches (issue 27), in Chromium against the real server: a run the
 * checklist blocks lists the checklist in the debug pane, the checklist panel closes on Escape and
 * an outside click, the minimap colours nodes by kind, fit view stays at 1× on a small flow, a
 * selected edge stands out, the palette offers no second start node and the delete warning names
 * nodes and fields as the builder sees them. Screenshots go to test-results/canvas-finish-*.png.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
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

const node = (id: string, kind: string, x: number, y: number, config: Record<string, unknown> = {}, title = '') => ({ id, kind, kindVersion: 1, title, position: { x, y }, config });
const edge = (source: string, target: string) => ({ id: `${source}-source-${target}-target`, source, target, sourceHandle: 'source', targetHandle: 'target' });
const doc = (nodes: unknown[], edges: unknown[]) => ({ schemaVersion: 1, mode: 'workflow', nodes, edges, variables: { env: [], conversation: [] }, notes: '' });

async function openFlow(page: Page, document: ReturnType<typeof doc>) {
  await openFirstWorkspaceApps(page);
  const appId = await createAppInUi(page, { name: `Finish ${Math.random().toString(36).slice(2, 7)}`, description: 'Canvas', mode: 'workflow' });
  await saveDraftInBrowser(page, appId, document);
  await page.reload();
  await expect.poll(() => page.getByTestId('flow-editor').locator('.react-flow__node').count(), { timeout: 20_000 }).toBe(document.nodes.length);
  return appId;
}

/** A click on the empty canvas (below the flow, clear of the toolbar, the zoom buttons and the minimap). */
async function clickEmptyCanvas(page: Page) {
  const pane = page.getByTestId('flow-editor').locator('.react-flow__pane');
  const box = (await pane.boundingBox())!;
  await pane.click({ position: { x: box.width * 0.5, y: box.height * 0.92 } });
}

const zoomOf = (page: Page) => page.getByTestId('flow-editor').evaluate((root) => new DOMMatrixReadOnly(getComputedStyle(root.querySelector('.react-flow__viewport')!).transform).m11);

describe('the canvas, finished', () => {
  it('fit view keeps a small flow at 1×, and a selected edge is drawn thicker in the accent colour', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await openFlow(page, doc([node('start', 'start', 0, 0), node('end', 'end', 400, 80)], [edge('start', 'end')]));
    const editor = page.getByTestId('flow-editor');
    expect(await zoomOf(page)).toBeLessThanOrEqual(1);
    await page.getByTestId('zoom-out').click();
    await page.getByTestId('fit-view').click();
    await page.waitForTimeout(400);
    expect(await zoomOf(page)).toBeCloseTo(1, 2);

    const path = editor.locator('.react-flow__edge-path').first();
    const stroke = () => path.evaluate((p) => ({ width: parseFloat(getComputedStyle(p).strokeWidth), color: getComputedStyle(p).stroke }));
    const plain = await stroke();
    // A quarter along the curve (its middle holds the edge's hover "+", which inserts a node).
    const middle = await path.evaluate((p) => {
      const el = p as SVGPathElement;
      const pt = el.getPointAtLength(el.getTotalLength() / 4).matrixTransform(el.getScreenCTM()!);
      return { x: pt.x, y: pt.y };
    });
    await page.mouse.click(middle.x, middle.y);
    await expect.poll(() => editor.locator('.react-flow__edge.selected').count()).toBe(1);
    const picked = await stroke();
    const accent = await editor.evaluate((root) => {
      const probe = document.createElement('span');
      probe.style.color = 'var(--color-primary)';
      root.append(probe);
      const c = getComputedStyle(probe).color;
      probe.remove();
      return c;
    });
    expect(picked.width).toBeGreaterThanOrEqual(plain.width + 1);
    expect(picked.color).toBe(accent);
    await snap(page, 'canvas-finish-selected-edge');
    await context.close();
  });

  it('a run the checklist blocks lists the checklist in the debug pane; an entry opens its node; the checklist panel closes on Escape and outside; the minimap has the kinds’ colours', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1600, height: 1000 });
    await openFlow(page, doc([node('start', 'start', 0, 0), node('llm_1', 'llm', 320, 160, {}, 'Summarise'), node('end', 'end', 640, 0, { outputs: [{ name: 'summary', selector: ['llm_1', 'text'] }] })], [edge('start', 'end')]));
    const editor = page.getByTestId('flow-editor');

    await page.getByTestId('debug-open').click();
    await page.getByTestId('workflow-run').click();
    const blocked = page.getByTestId('debug-checklist-blocked');
    await expect.poll(() => blocked.count(), { timeout: 20_000 }).toBe(1);
    expect(await page.getByTestId('debug-error').count()).toBe(0);
    expect(await blocked.textContent()).toContain('Summarise');
    await snap(page, 'canvas-finish-run-blocked');
    await blocked.getByTestId('debug-checklist-llm_1').first().click();
    await expect.poll(() => page.getByTestId('inspector-slot').locator('[data-slot="node-inspector"]').getAttribute('data-kind')).toBe('llm');
    await expect.poll(() => editor.locator('.react-flow__node.selected').getAttribute('data-id')).toBe('llm_1');
    await snap(page, 'canvas-finish-run-blocked-opened');

    await clickEmptyCanvas(page);
    await page.getByTestId('toolbar-checklist').click();
    await expect.poll(() => page.getByTestId('checklist-panel').count()).toBe(1);
    await snap(page, 'canvas-finish-checklist-open');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('checklist-panel').count()).toBe(0);
    await page.getByTestId('toolbar-checklist').click();
    await expect.poll(() => page.getByTestId('checklist-panel').count()).toBe(1);
    await clickEmptyCanvas(page);
    await expect.poll(() => page.getByTestId('checklist-panel').count()).toBe(0);

    const colours = await editor.getByTestId('rf__minimap').getByTestId('minimap-nodes').evaluateAll((paths) => paths.map((p) => getComputedStyle(p).fill));
    expect(new Set(colours).size).toBeGreaterThan(1);
    await editor.getByTestId('rf__minimap').screenshot({ path: 'test-results/canvas-finish-minimap.png' });

    // The palette shows the start the flow has as not addable, with why.
    await page.getByTestId('toolbar-add-node').click();
    const start = page.getByTestId('palette').getByTestId('palette-item-start');
    expect(await start.isDisabled()).toBe(true);
    expect(await start.textContent()).toContain('only one is allowed');
    await snap(page, 'canvas-finish-palette');
    await page.getByTestId('toolbar-add-node').click();

    // The delete warning names the end node, its field and the node deleted as the builder sees them.
    await editor.locator('.react-flow__node[data-id="llm_1"]').click({ position: { x: 30, y: 12 } });
    await page.keyboard.press('Delete');
    const refs = page.getByTestId('delete-references');
    await expect.poll(() => refs.count()).toBe(1);
    const text = (await refs.textContent()) ?? '';
    expect(text).toContain('End: Output variables #1 uses Summarise / text');
    expect(text).not.toContain('llm_1');
    await snap(page, 'canvas-finish-delete-warning');
    await page.getByTestId('delete-cancel').click();
    await context.close();
  });
});
