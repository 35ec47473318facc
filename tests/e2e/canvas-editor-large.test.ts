/**
 * Issue 27: the code editor in the inspector shows ~28 characters per line. "Open large" opens the
 * same editor in a dialog of most of the viewport (100+ characters per line) that edits the node's
 * code: text typed there, spaces and all, is in the node, Ctrl+Z on the canvas takes it back, and
 * Escape closes first Monaco's suggestions, then the dialog. Monaco's suggest list is drawn at the
 * caret in the dialog. The template node's Jinja2 editor opens large the same way, and the inspector
 * widens by dragging its left edge (or with the arrow keys on it), remembered per user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, releaseBrowser, sessionApi, startStudio, type RunningStudio } from './server';
import { look, openAppWithDraft, signInOnce, type Opened, type SignedIn } from './session-helpers';

let studio: RunningStudio;
let browser: Browser;
let admin: SignedIn;

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchBrowser();
  admin = await signInOnce(browser, studio.url, undefined, { workspace: true });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
});

const node = (id: string, kind: string, x: number, y: number, config: Record<string, unknown> = {}) => ({ id, kind, kindVersion: 1, title: '', position: { x, y }, config });
const edge = (source: string, target: string) => ({ id: `${source}-source-${target}-target`, source, target, sourceHandle: 'source', targetHandle: 'target' });
const flow = () => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [node('start', 'start', 0, 0), node('code_1', 'code', 320, 0), node('tpl_1', 'template-transform', 320, 200), node('end', 'end', 640, 0)],
  edges: [edge('start', 'code_1'), edge('code_1', 'end'), edge('start', 'tpl_1')],
  variables: { env: [], conversation: [] },
  notes: '',
});

/** The text of a Monaco editor as shown (it draws spaces as no-break spaces). */
const codeText = (code: Locator) => code.locator('.view-lines').evaluate((el) => (el.textContent ?? '').replace(/\u00a0/g, ' '));
const readyEditor = (scope: Locator) => scope.locator('[data-slot="code-editor"][data-state="ready"]');

/** A signed-in page on the editor of a new app with the flow above, `nodeId`'s inspector open. */
async function openFlow(nodeId = 'code_1', kind = 'code'): Promise<Opened & { appId: string }> {
  const opened = await admin.open({ viewport: { width: 1600, height: 1000 } });
  const { page } = opened;
  const appId = await openAppWithDraft(opened, studio.url, { name: `Large ${Math.random().toString(36).slice(2, 7)}`, mode: 'workflow' }, flow());
  await expect.poll(() => page.getByTestId('flow-editor').locator('.react-flow__node').count(), { timeout: 20_000 }).toBe(4);
  await page.getByTestId('flow-editor').locator(`.react-flow__node[data-id="${nodeId}"]`).click({ position: { x: 30, y: 12 } });
  await expect.poll(() => page.getByTestId('inspector-slot').locator('[data-slot="node-inspector"]').getAttribute('data-kind')).toBe(kind);
  return { ...opened, appId };
}

/** A node's text field as the saved draft holds it ('' before any edit: the flow above sets none). */
async function savedCode(page: Page, appId: string, nodeId = 'code_1', field = 'code'): Promise<string> {
  await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');
  const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
  const config = (draft.data.document as { nodes: { id: string; config: Record<string, unknown> }[] }).nodes.find((n) => n.id === nodeId)!.config;
  return typeof config[field] === 'string' ? (config[field] as string) : '';
}

/** How many characters a line of a Monaco editor shows (its visible text area over a character's width). */
const charsPerLine = (code: Locator) =>
  code.locator('.monaco-editor .lines-content').evaluate((el) => {
    const probe = document.createElement('span');
    probe.textContent = 'x'.repeat(100);
    el.appendChild(probe);
    const char = probe.getBoundingClientRect().width / 100;
    probe.remove();
    const visible = el.closest('.editor-scrollable')!.getBoundingClientRect().width;
    return Math.floor(visible / char);
  });

describe('the code editor opened large', () => {
  it('edits the node in a large dialog, Escape closes suggestions first, undo takes it back', async () => {
    const { context, page, appId } = await openFlow();
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
    await look(page, 'canvas-editor-large-typed');
    await expect.poll(() => codeText(large)).toContain('// a b c');

    // Escape in Monaco's suggest widget closes the suggestions, not the dialog.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Control+Space');
    await expect.poll(() => dialog.locator('.suggest-widget.visible').count(), { timeout: 10_000 }).toBe(1);
    await look(page, 'canvas-editor-large-suggest');
    // The list sits at the caret: just below its line (or just above it), starting near it. In a
    // transformed dialog Monaco's fixed-position list was ~70 px off in both directions.
    const caret = (await large.locator('.cursors-layer .cursor').first().boundingBox())!;
    const list = (await dialog.locator('.suggest-widget.visible').boundingBox())!;
    const below = Math.abs(list.y - (caret.y + caret.height));
    const above = Math.abs(list.y + list.height - caret.y);
    expect(Math.min(below, above), `suggest list at ${JSON.stringify(list)}, caret at ${JSON.stringify(caret)}`).toBeLessThanOrEqual(12);
    expect(Math.abs(list.x - caret.x), `suggest list at ${JSON.stringify(list)}, caret at ${JSON.stringify(caret)}`).toBeLessThanOrEqual(40);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.locator('.suggest-widget.visible').count()).toBe(0);
    expect(await dialog.count()).toBe(1);
    await look(page, 'canvas-editor-large-open');

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

  it("opens the template node's Jinja2 editor large; the text typed there is the node's", async () => {
    const { context, page, appId } = await openFlow('tpl_1', 'template-transform');
    const inspector = page.getByTestId('inspector-slot');
    await expect.poll(() => readyEditor(inspector).count(), { timeout: 30_000 }).toBe(1);

    await inspector.getByTestId('open-large-editor').click();
    const dialog = page.locator('[data-slot="large-editor"]');
    const large = readyEditor(dialog);
    await expect.poll(() => large.count(), { timeout: 30_000 }).toBe(1);
    const box = (await dialog.boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(1600 * 0.8);
    expect(await charsPerLine(large)).toBeGreaterThanOrEqual(100);

    await large.locator('.view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' and {{ arg1 | upper }}');
    await expect.poll(() => codeText(large)).toContain('and {{ arg1 | upper }}');
    await look(page, 'canvas-template-large');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => savedCode(page, appId, 'tpl_1', 'template'), { timeout: 20_000 }).toBe('{{ arg1 }} and {{ arg1 | upper }}');
    // The panel's editor shows the same text.
    await expect.poll(() => codeText(readyEditor(inspector))).toContain('and {{ arg1 | upper }}');
    await context.close();
  });

  it('widens the inspector by dragging its left edge or with the arrow keys, remembered per user', async () => {
    const { context, page } = await openFlow();
    const inspector = page.getByTestId('inspector-slot');
    const panel = readyEditor(inspector);
    await expect.poll(() => panel.count(), { timeout: 30_000 }).toBe(1);
    const width = async () => (await inspector.boundingBox())!.width;
    expect(await width()).toBe(400);
    const narrow = await charsPerLine(panel);

    // Dragged 360 px to the left: 760 px wide, and the code shows more per line.
    const handle = page.getByTestId('inspector-resize');
    const edge = (await handle.boundingBox())!;
    await page.mouse.move(edge.x + edge.width / 2, edge.y + 300);
    await page.mouse.down();
    for (let i = 1; i <= 6; i++) await page.mouse.move(edge.x + edge.width / 2 - 60 * i, edge.y + 300);
    await page.mouse.up();
    await expect.poll(width).toBe(760);
    expect(await handle.getAttribute('aria-valuenow')).toBe('760');
    await expect.poll(() => charsPerLine(panel)).toBeGreaterThanOrEqual(narrow + 30);
    await look(page, 'canvas-inspector-wide');

    // Keys on the handle: left widens, right narrows, Home is the narrowest; the node stays put.
    await handle.focus();
    await page.keyboard.press('ArrowLeft');
    await expect.poll(width).toBe(776);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect.poll(width).toBe(744);
    await page.keyboard.press('Home');
    await expect.poll(width).toBe(320);
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(width).toBe(400);
    await page.keyboard.press('End');
    await expect.poll(width).toBe(960);
    // Never wider than leaves the canvas room, whatever is dragged.
    const wide = (await handle.boundingBox())!;
    await page.mouse.move(wide.x + wide.width / 2, wide.y + 300);
    await page.mouse.down();
    await page.mouse.move(20, wide.y + 300);
    await page.mouse.up();
    await expect.poll(width).toBe(960);
    // The selected node stays in view beside the wider inspector (the canvas pans to it).
    const inView = async () => {
      const n = await page.getByTestId('flow-editor').locator('.react-flow__node[data-id="code_1"]').boundingBox();
      const pane = (await page.getByTestId('flow-editor').locator('.react-flow').boundingBox())!;
      return !!n && n.x >= pane.x && n.x + n.width <= pane.x + pane.width;
    };
    await expect.poll(inView).toBe(true);

    // Remembered for this user across a reload (localStorage, keyed by the user's id).
    await handle.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(width).toBe(400);
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(width).toBe(480);
    const keys = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('weft.inspector-width.')));
    const userId = await page.evaluate(() => JSON.parse(localStorage.getItem('weft.session') ?? '{}').state.user.id as string);
    expect(keys).toEqual([`weft.inspector-width.${userId}`]);
    await page.reload();
    await page.getByTestId('flow-editor').locator('.react-flow__node[data-id="code_1"]').click({ position: { x: 30, y: 12 } });
    await expect.poll(width, { timeout: 20_000 }).toBe(480);
    await context.close();
  });
});
