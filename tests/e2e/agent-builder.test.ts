/**
 * The zero-code agent builder in Chromium against the real server and a scripted OpenAI-compatible
 * model: a new agent app opens the builder; it gets instructions, a knowledge base and a tool
 * through the same widgets as the canvas inspector; the preview chats with the draft; "Optimize
 * the instructions" streams a rewrite shown as a diff, accepted then undone; the app is published
 * from the version tab; "Turn into a canvas flow" opens the canvas from then on. Screenshots at
 * 1440 and 1280 px wide.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { GOOD_KEY } from '../api/fake-providers';
import { scriptedOpenAi, type ScriptedModel } from '../api/runs-kit';
import { createAppInUi, launchBrowser, openFirstWorkspaceApps, releaseBrowser, sessionApi, signIn, snap, startStudio, type RunningStudio } from './server';

let studio: RunningStudio;
let browser: Browser;
let model: ScriptedModel;

const ORIGINAL = 'Help visitors plan a day in the city.';
const REWRITE = '# Role\nYou are a city guide. Help visitors plan a day in the city.\n\n## Answers\n- Three places, in order.\n- Short lists.';
const ANSWER = 'Start at the old market, then the river walk.';
const GENERATED = {
  instructions: 'You plan a day in {{#start.city#}} for visitors.',
  opening_statement: 'Which city shall we explore?',
  suggested_questions: ['A rainy day?', 'With children?'],
  variables: [{ name: 'city', label: 'City', type: 'text', required: true, options: [] }],
};

beforeAll(async () => {
  model = await scriptedOpenAi((body) => {
    const system = body.messages[0]?.role === 'system' ? String(body.messages[0].content) : '';
    if (system.startsWith('You design AI assistants')) return JSON.stringify(GENERATED);
    return system.startsWith('You are an expert prompt engineer') ? REWRITE : ANSWER;
  });
  studio = await startStudio({ WEFT_OUTBOUND_ALLOW: new URL(model.baseUrl).host });
  browser = await launchBrowser();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  await model?.close();
});

let attempt = 0;

describe('the agent builder', () => {
  it('configures, previews, optimizes (accept, undo), publishes and turns into a canvas flow', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1440, height: 900 });
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // OpenAI pointed at the scripted model, and made the tenant's default LLM (the admin API).
    expect((await sessionApi(page, 'POST', '/api/v1/admin/models/model-providers/openai/credentials', { credentials: { base_url: model.baseUrl, api_key: GOOD_KEY } })).status).toBe(200);
    expect((await sessionApi(page, 'PUT', '/api/v1/admin/models/tenant-default', { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' })).status).toBe(200);

    await openFirstWorkspaceApps(page);
    // A retry runs on the same studio: its knowledge base and app need names of their own.
    attempt += 1;
    const tag = attempt > 1 ? ` ${attempt}` : '';
    const kb = await sessionApi(page, 'POST', '/api/v1/console/datasets', { name: `City notes${tag}`, description: 'Places and opening hours' });
    expect(kb.status).toBe(200);
    const appId = await createAppInUi(page, { name: `City guide${tag}`, description: 'Plans a day in the city', mode: 'agent' });
    const builder = page.getByTestId('builder-page');
    await builder.waitFor();
    // The default model is set: the AI helpers are on, with no note about a missing model.
    expect(await page.getByTestId('builder-no-model').count()).toBe(0);
    expect(await page.getByTestId('builder-optimize').isEnabled()).toBe(true);

    // Generate from a description: instructions, opening statement, questions and a user input, as one undo step.
    const instructions = builder.locator('[data-field="instructions"] textarea');
    const opening = builder.locator('[data-field="opening_statement"] textarea');
    await page.getByTestId('builder-generate').click();
    await page.getByTestId('generate-description').fill('A guide that plans a day in a city');
    await page.getByTestId('generate-run').click();
    await expect.poll(() => instructions.inputValue()).toBe(GENERATED.instructions);
    await expect.poll(() => opening.inputValue()).toBe(GENERATED.opening_statement);
    const inputValues = () => page.getByTestId('builder-section-variables').locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
    await expect.poll(inputValues).toEqual(expect.arrayContaining(['city', 'City']));
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');
    await snap(page, 'agent-builder-00-generated-1440');
    await page.getByTestId('builder-undo').click();
    await expect.poll(() => instructions.inputValue()).toBe('');
    expect(await opening.inputValue()).toBe('');

    // Instructions, a knowledge base and a tool, through the inspector's widgets.
    await instructions.fill(ORIGINAL);
    await instructions.blur();
    const knowledge = page.getByTestId('builder-section-knowledge');
    await knowledge.getByRole('checkbox', { name: new RegExp(`City notes${tag}(?!\\d)`) }).check();
    await expect.poll(() => knowledge.locator('[data-field="knowledgeTopK"]').count()).toBe(1);
    const tools = page.getByTestId('builder-section-tools');
    const addTool = tools.getByRole('combobox', { name: 'Add a tool' });
    await addTool.waitFor();
    // The kit's Select (a listbox in a portal): open it and take its first tool.
    await addTool.click();
    await page.getByRole('option').first().click();
    await expect.poll(() => tools.getByRole('switch').count()).toBe(1);
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');

    // The preview chats with the saved draft.
    const pane = builder.getByTestId('debug-pane');
    await pane.getByTestId('chat-input').fill('Plan my Sunday');
    await pane.getByTestId('chat-send').click();
    await expect.poll(() => pane.getByTestId('chat-answer-text').textContent(), { timeout: 30_000 }).toBe(ANSWER);
    const asked = model.requests.at(-1)!.body;
    expect(asked.model).toBe('gpt-4o-mini');
    expect(JSON.stringify(asked.messages[0])).toContain(ORIGINAL);
    expect(asked.tools?.length).toBeGreaterThan(0);
    await snap(page, 'agent-builder-01-preview-1440');

    // Optimize: the rewrite streams, shows as a diff, is accepted, then undone.
    await page.getByTestId('builder-optimize').click();
    const dialog = page.getByTestId('optimize-dialog');
    await dialog.getByTestId('optimize-goal').fill('short lists');
    await dialog.getByTestId('optimize-start').click();
    const diff = dialog.getByTestId('optimize-diff');
    await diff.waitFor({ timeout: 30_000 });
    expect(await diff.locator('ins').count()).toBeGreaterThan(0);
    expect(await diff.textContent()).toContain('You are a city guide.');
    expect(JSON.stringify(model.requests.at(-1)!.body.messages[1])).toContain('short lists');
    await snap(page, 'agent-builder-02-optimize-diff-1440');
    await dialog.getByTestId('optimize-accept').click();
    await expect.poll(() => instructions.inputValue()).toBe(REWRITE);
    await page.getByTestId('builder-undo').click();
    await expect.poll(() => instructions.inputValue()).toBe(ORIGINAL);
    await page.getByTestId('builder-redo').click();
    await expect.poll(() => instructions.inputValue()).toBe(REWRITE);
    await page.getByTestId('builder-undo').click();
    await expect.poll(() => instructions.inputValue()).toBe(ORIGINAL);
    await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');

    await page.setViewportSize({ width: 1280, height: 800 });
    await snap(page, 'agent-builder-03-1280');
    // The page fits the window: the configuration scrolls inside its column, the window stays put.
    const fit = await page.evaluate(() => ({
      scrollY: window.scrollY,
      overflowY: document.documentElement.scrollHeight - window.innerHeight,
      overflowX: document.documentElement.scrollWidth - window.innerWidth,
    }));
    expect(fit).toEqual({ scrollY: 0, overflowY: 0, overflowX: 0 });

    // The draft holds what the form shows: one flow document.
    const draft = (await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`)).data as { document: { nodes: { kind: string; config: Record<string, unknown> }[] } };
    const agent = draft.document.nodes.find((n) => n.kind === 'agent')!;
    expect(agent.config).toMatchObject({ instructions: ORIGINAL, knowledgeIds: [kb.data.id] });
    expect((agent.config.tools as unknown[]).length).toBe(1);

    // Publish from the builder's version tab.
    await page.getByTestId('editor-tabs').getByRole('link', { name: 'Versions' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-builder/version'));
    const versionPage = page.getByTestId('version-page');
    await versionPage.getByRole('button', { name: 'Publish' }).click();
    const publish = page.getByTestId('publish-dialog');
    await publish.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => versionPage.locator('[data-testid^="version-row-"]').count()).toBe(1);

    // "Turn into a canvas flow": confirmed, the canvas opens, and the builder's address leads there too.
    await page.getByTestId('editor-tabs').getByRole('link', { name: 'Configuration' }).click();
    await builder.waitFor();
    await page.getByTestId('builder-to-canvas').click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Turn into a canvas flow' }).click();
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/base'));
    await page.getByTestId('flow-editor').waitFor();
    await page.goto(`${studio.url}/operation/app/${appId}/agent-builder/base`);
    await page.waitForURL((u) => u.pathname.endsWith('/agent-flow/base'));
    await page.getByTestId('flow-editor').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
