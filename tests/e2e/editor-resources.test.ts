/**
 * The flow inspector against the real server in Chromium: the tool picker lists a custom tool made
 * through the API, choosing its function fills the tool node's parameters; then a code node runs
 * alone through "Run this node" with a typed input, and its output shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FlowDocument } from '../../schemas/flow';
import { ADMIN, createAppInUi, launchBrowser, releaseBrowser, sessionApi, signIn, snap, startStudio, type RunningStudio } from './server';

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

const CODE = `function main({ text }) {
  return { shout: String(text).toUpperCase() + '!', size: String(text).length };
}
`;

/** Busy for 20 s (within the node's 30 s timeout): long enough to be stopped. */
const SLOW = `function main() {
  const end = Date.now() + 20000;
  while (Date.now() < end) {}
  return { result: 'late' };
}
`;

/** start (a text field `q`) → code (`text` = start.q; outputs shout, size) → end, and start → slow → end. */
const workflowDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    {
      id: 'start',
      kind: 'start',
      kindVersion: 1,
      title: '',
      position: { x: 80, y: 200 },
      config: { variables: [{ name: 'q', label: 'Question', type: 'text', required: true, options: [], allowed_extensions: [] }] },
    },
    {
      id: 'code',
      kind: 'code',
      kindVersion: 1,
      title: 'Shout',
      position: { x: 420, y: 200 },
      config: {
        language: 'javascript',
        inputs: [{ name: 'text', selector: ['start', 'q'] }],
        code: CODE,
        outputs: [
          { name: 'shout', type: 'string' },
          { name: 'size', type: 'number' },
        ],
      },
    },
    {
      id: 'slow',
      kind: 'code',
      kindVersion: 1,
      title: 'Slow',
      position: { x: 420, y: 360 },
      config: { language: 'javascript', inputs: [], code: SLOW, outputs: [{ name: 'result', type: 'string' }] },
    },
    { id: 'end', kind: 'end', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { outputs: [{ name: 'out', selector: ['code', 'shout'] }] } },
  ],
  edges: [
    { id: 'start-source-code-target', source: 'start', sourceHandle: 'source', target: 'code', targetHandle: 'target' },
    { id: 'code-source-end-target', source: 'code', sourceHandle: 'source', target: 'end', targetHandle: 'target' },
    { id: 'start-source-slow-target', source: 'start', sourceHandle: 'source', target: 'slow', targetHandle: 'target' },
    { id: 'slow-source-end-target', source: 'slow', sourceHandle: 'source', target: 'end', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});


describe('the flow inspector with the workspace and the server', () => {
  it('picks a custom tool’s function with its parameters, and runs a code node alone', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1500, height: 950 });

    // A workflow app in the default project space (its session header names that space).
    await page.getByTestId('workspace-card').first().getByTestId('workspace-link').click();
    await page.waitForURL((u) => /^\/operation\/workspace\/[^/]+\/app$/.test(u.pathname));

    // A custom tool with one function taking a required city and an optional day count.
    const tool = await sessionApi(page, 'POST', '/api/v1/console/tools', { name: 'Weather', intro: 'Forecasts' });
    expect(tool.status).toBe(200);
    const fn = await sessionApi(page, 'POST', `/api/v1/console/tools/${tool.data.id}/functions`, {
      name: 'forecast',
      description: 'The forecast of a city',
      url: 'https://weather.example.com/forecast',
      params: [
        { param_key: 'city', param_name: 'City', data_type: 'string', is_not_null: true, request_type: 'query_params' },
        { param_key: 'days', data_type: 'integer', request_type: 'query_params' },
      ],
    });
    expect(fn.status).toBe(200);

    const appId = await createAppInUi(page, { name: 'Resources flow', description: 'Tools and single-node runs', mode: 'workflow' });
    const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
    const saved = await sessionApi(page, 'PUT', '/api/v1/console/apps/workflow', { app_id: appId, base_revision: draft.data.revision, document: workflowDoc() });
    expect(saved.status).toBe(200);
    await page.reload();

    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-code').isVisible()).toBe(true);

    // A tool node from the palette: it opens in the inspector.
    await page.getByTestId('toolbar-add-node').click();
    await page.getByTestId('palette').getByTestId('palette-item-tool').click();
    await expect.poll(() => editor.getByTestId('node-tool_1').isVisible()).toBe(true);
    // The palette's button closes it again.
    await page.getByTestId('toolbar-add-node').click();
    await expect.poll(() => page.getByTestId('palette').count()).toBe(0);
    await editor.getByTestId('node-tool_1').click();
    const inspector = page.locator('[data-slot="node-inspector"]');
    await expect.poll(() => inspector.getAttribute('data-kind')).toBe('tool');
    const toolField = inspector.locator('[data-field="toolId"]');
    const toolSelect = toolField.getByRole('combobox', { name: 'Tool', exact: true });
    // The workspace's tool and the built-in tools are offered.
    // The kit's Select: its options are in a listbox opened from the trigger.
    await toolSelect.click();
    const offered = page.getByRole('listbox');
    await expect.poll(async () => (await offered.getByRole('option').allTextContents()).join('|')).toContain('Weather');
    expect(await offered.getByRole('option').allTextContents()).toContain('Built-in tools');
    await offered.getByRole('option', { name: 'Weather', exact: true }).click();
    await toolField.getByRole('combobox', { name: 'Tool function' }).click();
    await page.getByRole('option', { name: 'forecast', exact: true }).click();
    // The function's parameters fill the params form and are described under the picker.
    const params = inspector.locator('[data-field="params"]');
    await expect.poll(() => params.getByRole('textbox', { name: 'Variable name' }).count()).toBe(2);
    expect(await params.getByRole('textbox', { name: 'Variable name' }).evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))).toEqual(['city', 'days']);
    const hints = toolField.getByTestId('tool-parameters');
    expect(await hints.textContent()).toMatch(/city.*string.*required.*City/);
    expect(await hints.textContent()).toMatch(/days.*integer/);
    await snap(page, 'editor-resources-01-tool');

    // The choice is saved with the draft: the function by id, its params by name.
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');
    const after = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
    const toolNode = (after.data.document as FlowDocument).nodes.find((n) => n.kind === 'tool')!;
    expect(toolNode.config).toMatchObject({ toolId: tool.data.id, functionId: fn.data.id, params: [{ name: 'city' }, { name: 'days' }] });

    // The new node was placed in free space (never over another node): nothing to move out of the way.

    // The code node alone, with the start's question typed in. The draft around it is unfinished
    // (the tool node is not connected): only the node's own problems would refuse it, so it runs.
    await editor.getByTestId('node-code').click();
    await expect.poll(() => inspector.getAttribute('data-kind')).toBe('code');
    const run = inspector.getByTestId('single-run');
    await run.locator('summary').first().click();
    await run.getByRole('textbox', { name: 'Value of start.q' }).fill('hello weft');
    await run.getByTestId('single-run-start').click();
    const result = run.getByTestId('single-run-result');
    await expect.poll(() => result.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).not.toBe('running');
    expect(`${await result.getAttribute('data-status')} ${await result.textContent()}`).toMatch(/^succeeded /);
    // The whole flow still cannot run: the checklist names the unconnected tool node.
    expect(Number(await page.getByTestId('checklist-count').textContent())).toBeGreaterThan(0);
    // Out of the way again (the tool node is not needed further); the code node's result stays.
    await editor.getByTestId('node-tool_1').click();
    await page.keyboard.press('Delete');
    await expect.poll(() => editor.getByTestId('node-tool_1').count()).toBe(0);
    await editor.getByTestId('node-code').click();
    await expect.poll(() => inspector.getAttribute('data-kind')).toBe('code');
    await expect.poll(() => result.getAttribute('data-status')).toBe('succeeded');
    const outputs = await result.getByTestId('single-run-outputs').textContent();
    expect(outputs).toContain('"shout": "HELLO WEFT!"');
    expect(outputs).toContain('"size": 10');
    expect(await result.getByTestId('run-status').textContent()).toBe('Succeeded');
    expect(await result.getByTestId('single-run-elapsed').textContent()).toMatch(/\d+(\.\d+)? (ms|s)/);
    await run.scrollIntoViewIfNeeded();
    await page.screenshot({ path: '/tmp/single-node.png' });
    await snap(page, 'editor-resources-02-single-node');

    // The run is in the log as a single-node run of the code node.
    const runs = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/runs`);
    const list = runs.data.list as { source: string; node_id: string; status: string }[];
    expect(list[0]).toMatchObject({ source: 'single-node', node_id: 'code', status: 'succeeded' });

    // Back to the node later: the last input and result are still there.
    // End is half under the inspector: click its visible left part (its centre may be covered).
    await editor.getByTestId('node-end').click({ position: { x: 24, y: 16 } });
    await expect.poll(() => inspector.getAttribute('data-kind')).toBe('end');
    await editor.getByTestId('node-code').click();
    await expect.poll(() => inspector.getAttribute('data-kind')).toBe('code');
    // The section opens again by itself on what was left.
    expect(await inspector.getByRole('textbox', { name: 'Value of start.q' }).inputValue()).toBe('hello weft');
    expect(await inspector.getByTestId('single-run-result').getAttribute('data-status')).toBe('succeeded');

    // A node that takes long: Stop ends it on the server, and the result says stopped.
    await editor.getByTestId('node-slow').click();
    await expect.poll(() => inspector.getAttribute('data-kind')).toBe('code');
    const slow = inspector.getByTestId('single-run');
    await slow.locator('summary').first().click();
    expect(await slow.textContent()).toContain('This node reads no variables');
    await slow.getByTestId('single-run-start').click();
    await expect.poll(() => slow.getAttribute('data-status')).toBe('running');
    const started = Date.now();
    await slow.getByTestId('single-run-stop').click();
    await expect.poll(() => slow.getAttribute('data-status'), { timeout: 15_000 }).toBe('stopped');
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(await slow.getByTestId('single-run-error').textContent()).toContain('stopped');
    expect(await slow.getByTestId('run-status').textContent()).toBe('Stopped');
    const stoppedRuns = ((await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/runs`)).data.list as { node_id: string; status: string }[]).filter((r) => r.node_id === 'slow');
    expect(stoppedRuns.map((r) => r.status)).toEqual(['stopped']);
    await context.close();
  });
});
