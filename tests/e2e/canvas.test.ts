/**
 * The canvas in Chromium against the real server: sign in, create a workflow app in the default
 * project space through the apps page, open its editor, build start → template transform → end with
 * the mouse (the "+" of a handle, dragging a connection, deleting the old edge), rename the new node
 * (undo and redo it), write its template in the inspector, wait for the autosave, reload, and find
 * the three nodes, two edges, the title and the template as they were left.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN, createAppInUi, launchBrowser, openFirstWorkspaceApps, releaseBrowser, saveDraftInBrowser, signIn, snap, startStudio, type RunningStudio } from './server';
import { deflateSync } from 'node:zlib';

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

async function center(locator: Locator) {
  const box = await locator.boundingBox();
  if (!box) throw new Error('element has no box');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Drags with real pointer moves (React Flow needs several moves to start a connection). */
async function drag(page: Page, from: Locator, to: Locator) {
  const a = await center(from);
  const b = await center(to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(a.x + ((b.x - a.x) * i) / 12, a.y + ((b.y - a.y) * i) / 12);
  await page.mouse.up();
}

/** A real 2×2 PNG (signature, IHDR, IDAT, IEND with their CRCs). */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (b: Buffer) => {
    let c = 0xffffffff;
    for (const x of b) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0]);
  const rows = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 255, 0, 255, 255, 255, 255]);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

const TT = 'template-transform_1';
const TEMPLATE = 'Hello from the inspector';

/** The text of a Monaco editor as shown (it draws spaces as no-break spaces). */
const codeText = (code: Locator) => code.locator('.view-lines').evaluate((el) => (el.textContent ?? '').replace(/\u00a0/g, ' '));

describe('the canvas', () => {
  it('builds a three-node flow with the mouse, saves it, and finds it intact after a reload', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });

    // The seeded default project space, its apps page, a new workflow app.
    await page.getByTestId('workspace-card').first().getByTestId('workspace-link').click();
    await page.waitForURL((u) => /^\/operation\/workspace\/[^/]+\/app$/.test(u.pathname));
    await page.getByTestId('app-create').click();
    await page.getByTestId('app-name').fill('Greeting flow');
    await page.getByTestId('app-description').fill('Says hello');
    await page.getByTestId('app-type').locator('[data-mode="workflow"]').click();
    // An uploaded image as the icon: stored on the server, shown from its public icon URL.
    await page.getByTestId('app-dialog').getByRole('button', { name: 'Icon' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose an icon' });
    await picker.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: tinyPng() });
    await expect.poll(() => page.getByTestId('app-dialog').locator('img[data-slot="app-icon"]').count()).toBe(1);
    await page.keyboard.press('Escape');
    await page.getByTestId('app-dialog-submit').click();
    const card = page.getByTestId('app-card').filter({ hasText: 'Greeting flow' });
    await expect.poll(() => card.count()).toBe(1);
    const icon = card.locator('img[data-slot="app-icon"]');
    await expect.poll(() => icon.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    expect(await icon.getAttribute('src')).toMatch(/^\/api\/v1\/common\/files\/[^/]+\/icon$/);
    await snap(page, 'canvas-00-app-with-uploaded-icon');
    await card.getByTestId('app-open').click();
    await page.waitForURL((u) => /^\/operation\/app\/[^/]+\/agent-flow\/base$/.test(u.pathname));

    // A new workflow starts as start → end.
    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-start').isVisible()).toBe(true);
    await expect.poll(() => editor.getByTestId('node-end').isVisible()).toBe(true);
    await expect.poll(() => editor.locator('.react-flow__edge').count()).toBe(1);
    await snap(page, 'canvas-01-new-workflow');

    // "+" on the start's handle → template transform, connected from start.
    await editor.getByTestId('node-start').hover();
    await editor.getByTestId('add-next-start-source').click();
    const popover = page.getByTestId('add-from-popover');
    await popover.getByTestId('add-from-search').fill('template');
    await snap(page, 'canvas-02-add-from-plus');
    await popover.getByTestId(`add-from-item-template-transform`).click();
    await expect.poll(() => editor.getByTestId(`node-${TT}`).isVisible()).toBe(true);
    await expect.poll(() => editor.getByTestId(`rf__edge-start-source-${TT}-target`).count()).toBe(1);
    // The new node is selected, so the inspector opened beside the canvas; close it to see end again.
    const inspector = page.getByTestId('inspector-slot');
    await inspector.locator('[data-slot="node-inspector"] header').getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => inspector.count()).toBe(0);

    // Connect the template transform to end by dragging from its handle to end's.
    await drag(page, editor.getByTestId(`handle-${TT}-source`), editor.locator('.react-flow__node[data-id="end"] .react-flow__handle.target'));
    await expect.poll(() => editor.getByTestId(`rf__edge-${TT}-source-end-target`).count()).toBe(1);

    // The old start → end edge: click it, press Delete.
    // A straight edge has a box of no height, so click its line between the two handles, a quarter
    // along (its middle holds the hover "+", which inserts a node).
    const from = await center(editor.getByTestId('handle-start-source'));
    const to = await center(editor.locator('.react-flow__node[data-id="end"] .react-flow__handle.target'));
    await page.mouse.click(from.x + (to.x - from.x) / 4, from.y + (to.y - from.y) / 4);
    await expect.poll(() => editor.getByTestId('rf__edge-start-source-end-target').getAttribute('class')).toContain('selected');
    await page.keyboard.press('Delete');
    await expect.poll(() => editor.getByTestId('rf__edge-start-source-end-target').count()).toBe(0);

    // Rename the node in place (double-click its title).
    await editor.getByTestId(`node-title-${TT}`).dblclick();
    await editor.getByTestId(`node-title-input-${TT}`).fill('Greeting');
    await page.keyboard.press('Enter');
    await expect.poll(() => editor.getByTestId(`node-title-${TT}`).textContent()).toBe('Greeting');

    // Undo and redo the rename with the toolbar.
    await page.getByTestId('toolbar-undo').click();
    await expect.poll(() => editor.getByTestId(`node-title-${TT}`).textContent()).not.toBe('Greeting');
    await page.getByTestId('toolbar-redo').click();
    await expect.poll(() => editor.getByTestId(`node-title-${TT}`).textContent()).toBe('Greeting');

    // Select the node: the inspector opens; write its template in the code editor there.
    await editor.getByTestId(`node-${TT}`).click();
    await expect.poll(() => inspector.locator('[data-slot="node-inspector"]').getAttribute('data-kind')).toBe('template-transform');
    const code = inspector.locator('[data-slot="code-editor"][data-state="ready"]');
    await expect.poll(() => code.count(), { timeout: 30_000 }).toBe(1);
    await code.locator('.view-lines').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(TEMPLATE);
    await expect.poll(() => codeText(code)).toBe(TEMPLATE);
    fs.mkdirSync('/tmp/shots', { recursive: true });
    await page.screenshot({ path: '/tmp/shots/canvas-inspector.png' });

    // Copy, paste and undo with the keyboard (the paste is taken back, so the flow stays three nodes).
    await editor.getByTestId(`node-${TT}`).click();
    await page.keyboard.press('Control+C');
    await page.keyboard.press('Control+V');
    await expect.poll(() => editor.getByTestId('node-template-transform_2').count()).toBe(1);
    await page.keyboard.press('Control+Z');
    await expect.poll(() => editor.getByTestId('node-template-transform_2').count()).toBe(0);

    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');
    await snap(page, 'canvas-03-built');

    await page.reload();
    await expect.poll(() => editor.getByTestId(`node-${TT}`).isVisible()).toBe(true);
    for (const id of ['start', TT, 'end']) expect(await editor.getByTestId(`node-${id}`).count()).toBe(1);
    await expect.poll(() => editor.locator('.react-flow__edge').count()).toBe(2);
    expect(await editor.getByTestId(`rf__edge-start-source-${TT}-target`).count()).toBe(1);
    expect(await editor.getByTestId(`rf__edge-${TT}-source-end-target`).count()).toBe(1);
    expect(await editor.getByTestId(`node-title-${TT}`).textContent()).toBe('Greeting');
    // The template written in the inspector came back with the draft.
    await editor.getByTestId(`node-${TT}`).click();
    const reloaded = page.getByTestId('inspector-slot').locator('[data-slot="code-editor"][data-state="ready"]');
    await expect.poll(() => reloaded.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => codeText(reloaded)).toBe(TEMPLATE);
    await page.screenshot({ path: '/tmp/shots/canvas-inspector-reloaded.png' });
    // The edges are drawn, not only present: an svg of no width renders nothing.
    const edgeSvgWidth = await editor.getByTestId(`rf__edge-start-source-${TT}-target`).evaluate((g) => parseFloat(getComputedStyle(g.closest('svg')!).width));
    expect(edgeSvgWidth).toBeGreaterThan(0);
    await snap(page, 'canvas-04-reloaded');

    // A container: "add node here" from the pane's menu puts an iteration (with its start) below.
    await page.getByTestId('zoom-out').click();
    await page.getByTestId('zoom-out').click();
    await page.mouse.click(200, 640, { button: 'right' });
    await page.getByTestId('pane-menu').getByTestId('menu-addNodeHere').click();
    await page.getByTestId('palette-item-iteration').click();
    const iteration = editor.getByTestId('node-iteration_1');
    await expect.poll(() => iteration.isVisible()).toBe(true);
    await expect.poll(() => editor.locator('[data-kind="iteration-start"]').isVisible()).toBe(true);
    // Drag a code step from the palette into the iteration's body.
    const box = (await iteration.boundingBox())!;
    const pane = editor.locator('.react-flow__pane');
    const paneBox = (await pane.boundingBox())!;
    await page.getByTestId('palette-item-code').dragTo(pane, { targetPosition: { x: box.x + box.width / 2 - paneBox.x, y: box.y + box.height - 70 - paneBox.y } });
    await expect.poll(() => editor.getByTestId('node-code_1').isVisible()).toBe(true);
    // Inside: moving the iteration by its header carries the code step along.
    const before = (await editor.getByTestId('node-code_1').boundingBox())!;
    const header = await center(iteration.locator('[data-testid="node-title-iteration_1"]'));
    await page.mouse.move(header.x, header.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(header.x + i * 5, header.y - i * 3);
    await page.mouse.up();
    await expect.poll(async () => (await editor.getByTestId('node-code_1').boundingBox())!.x - before.x).toBeGreaterThan(20);
    await snap(page, 'canvas-05-container');

    // An environment variable through the toolbar dialog.
    await page.getByTestId('toolbar-env-variables').click();
    const vars = page.getByTestId('variables-dialog-env');
    await vars.getByTestId('variable-add').click();
    await vars.getByTestId('variable-name').fill('greeting');
    await vars.getByTestId('variable-value').fill('Hello');
    await page.screenshot({ path: '/tmp/shots/canvas-env-variables.png' });
    await vars.getByTestId('variables-save').click();
    await expect.poll(() => vars.count()).toBe(0);

    // Tidy up: elk in its worker moves the nodes (one undo step).
    const codeBox = (await editor.getByTestId('node-code_1').boundingBox())!;
    await page.getByTestId('toolbar-layout').click();
    await expect.poll(async () => JSON.stringify(await editor.getByTestId('node-code_1').boundingBox()), { timeout: 20_000 }).not.toBe(JSON.stringify(codeBox));
    // The view fits the tidied flow: its nodes are on screen.
    await expect.poll(() => editor.getByTestId('node-start').isVisible()).toBe(true);
    await expect.poll(() => editor.getByTestId('node-code_1').isVisible()).toBe(true);
    await page.waitForTimeout(400);
    await page.screenshot({ path: '/tmp/shots/canvas-tidied.png' });
    await context.close();
  });

  it('opens a spread-out flow in the overview with its nodes shown and edges drawn, at the sizes it assumed', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Overview flow', description: 'Far apart', mode: 'workflow' });
    const node = (id: string, kind: string, x: number, y: number, config: Record<string, unknown> = {}) => ({ id, kind, kindVersion: 1, title: '', position: { x, y }, config });
    const edge = (source: string, target: string, sourceHandle = 'source') => ({ id: `${source}-${sourceHandle}-${target}`, source, target, sourceHandle, targetHandle: 'target' });
    const cases = [
      { id: 'c1', logical_operator: 'and', conditions: [] },
      { id: 'c2', logical_operator: 'and', conditions: [] },
    ];
    await saveDraftInBrowser(page, appId, {
      schemaVersion: 1,
      mode: 'workflow',
      nodes: [node('start', 'start', 0, 0), node('if_else_1', 'if-else', 3000, 0, { cases }), node('template-transform_1', 'template-transform', 0, 2000), node('end', 'end', 3000, 2000)],
      edges: [edge('start', 'if_else_1'), edge('if_else_1', 'template-transform_1', 'c1'), edge('if_else_1', 'end', 'c2'), edge('if_else_1', 'end', 'false'), edge('template-transform_1', 'end')],
      variables: { env: [], conversation: [] },
      notes: '',
    });
    await page.reload();
    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.locator('.react-flow__node [data-overview]').count(), { timeout: 20_000 }).toBe(4);
    await expect.poll(() => editor.locator('.react-flow__edge-path').count()).toBe(5);
    // Nor do edges draw their "+" there (too small to hit; four elements an edge on a big flow).
    expect(await editor.locator('[data-testid^="edge-add-"]').count()).toBe(0);
    // A step's one unnamed source handle sits in its header without the row that holds a "+" (at the same place, below).
    expect(await editor.locator('.react-flow__node[data-id="template-transform_1"] [data-handle]').count()).toBe(0);
    await page.waitForTimeout(300);
    // The boxes flow-elements.ts (overviewBox) gives steps before the browser measures them: the
    // browser's own sizes and handle places must be the same, or the first frame draws edges off
    // their handles and every node is rendered twice.
    const boxes = await editor.evaluate((root) => {
      const zoom = new DOMMatrixReadOnly(getComputedStyle(root.querySelector('.react-flow__viewport')!).transform).m22;
      const out: Record<string, string> = {};
      for (const n of root.querySelectorAll<HTMLElement>('.react-flow__node')) {
        const r = n.getBoundingClientRect();
        const handles = [...n.querySelectorAll<HTMLElement>('.react-flow__handle')].map((h) => {
          const b = h.getBoundingClientRect();
          return `${h.dataset.handleid}@${Math.round((b.left - r.left) / zoom)},${Math.round((b.top - r.top) / zoom)}`;
        });
        out[n.dataset.id!] = `${n.offsetWidth}x${n.offsetHeight} ${handles.join(' ')}`;
      }
      return { zoom, out };
    });
    expect(boxes.zoom).toBeLessThan(0.5);
    expect(boxes.out).toEqual({
      start: '240x42 source@240,16',
      if_else_1: '240x120 target@-10,16 c1@240,47 c2@240,71 false@240,95',
      'template-transform_1': '240x42 target@-10,16 source@240,16',
      end: '240x42 target@-10,16',
    });
    await snap(page, 'canvas-overview-open');

    // The minimap draws the four steps (one path per kind colour) and pans and zooms the canvas.
    const minimap = editor.getByTestId('rf__minimap');
    const drawn = await minimap.getByTestId('minimap-nodes').evaluateAll((paths) => paths.map((p) => p.getAttribute('d') ?? '').join(''));
    expect(drawn.match(/M/g)?.length).toBe(4);
    const viewport = () => editor.evaluate((root) => {
      const m = new DOMMatrixReadOnly(getComputedStyle(root.querySelector('.react-flow__viewport')!).transform);
      return { x: m.m41, y: m.m42, zoom: m.m11 };
    });
    const before = await viewport();
    const mb = (await minimap.boundingBox())!;
    await page.mouse.move(mb.x + mb.width / 2, mb.y + mb.height / 2);
    await page.mouse.down();
    await page.mouse.move(mb.x + mb.width / 2 + 30, mb.y + mb.height / 2 + 20, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await viewport()).x).not.toBe(before.x);
    const panned = await viewport();
    expect(panned.zoom).toBe(before.zoom);
    await page.mouse.move(mb.x + mb.width / 2, mb.y + mb.height / 2);
    await page.mouse.wheel(0, -300);
    await expect.poll(async () => (await viewport()).zoom).toBeGreaterThan(before.zoom);
    await snap(page, 'canvas-overview-minimap');
    await context.close();
  });
});
