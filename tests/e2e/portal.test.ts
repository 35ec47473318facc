/**
 * The portal in Chromium against the real server and the local fake OpenAI-compatible provider.
 * The distribution is set up through the API (the owner publishes a chatflow and a workflow and
 * distributes them to the tenant's portal); then a second user signs in, finds the chatflow in
 * discover, chats with it (the answer streamed from the fake provider), sees the conversation in
 * the sessions page, renames it, puts it in a group and deletes it; runs the workflow; uses the chat
 * at phone width; and after the owner cancels the chatflow's distribution sees the clear state, the
 * past conversation still readable. With WEFT_E2E_SNAPS=1, screenshots go to test-results/ (portal-*.png).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AppFeatures, type FlowDocument } from '../../schemas/flow';
import { fileURLToPath } from 'node:url';
import { ANSWER_CHUNKS, fakeOpenAi, GOOD_KEY, type FakeServer } from '../api/fake-providers';
import { fakeSpeech, FIXTURES, type FakeSpeech } from '../api/fake-speech';
import { runFfmpeg } from '../../src/server/digital-human/ffmpeg';
import { launchBrowser, openFirstWorkspaceApps, releaseBrowser, sessionApi, signIn, startStudio, type RunningStudio } from './server';
import { look, pauseForPicture, signInOnce, SNAPS, type SignedIn } from './session-helpers';

let studio: RunningStudio;
let browser: Browser;
let fake: FakeServer;
let speech: FakeSpeech;
let owner: { context: BrowserContext; page: Page };
/** The second user, signed in through the login page once (beforeAll); each test's contexts start signed in. */
let pat: SignedIn;
const USER = { username: 'pat', password: 'Patricia12345' };
const ANSWER = ANSWER_CHUNKS.join('');
const ids = { chat: '', workflow: '' };

const chatDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'chatflow',
  nodes: [
    { id: 'start', kind: 'start', kindVersion: 1, title: '', position: { x: 80, y: 200 }, config: { variables: [] } },
    {
      id: 'llm',
      kind: 'llm',
      kindVersion: 1,
      title: '',
      position: { x: 420, y: 200 },
      config: {
        model: { provider: 'openai', name: 'gpt-4o-mini', mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } },
        prompts: [
          { role: 'system', text: 'Be brief.' },
          { role: 'user', text: '{{#sys.query#}}' },
        ],
      },
    },
    { id: 'answer', kind: 'answer', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { answer: '{{#llm.text#}}' } },
  ],
  edges: [
    { id: 'start-source-llm-target', source: 'start', sourceHandle: 'source', target: 'llm', targetHandle: 'target' },
    { id: 'llm-source-answer-target', source: 'llm', sourceHandle: 'source', target: 'answer', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
  features: AppFeatures.parse({
    opening_statement: 'Hi! I answer questions about **Weft**.',
    suggested_questions: ['What is Weft?', 'How do I start?', 'Who builds the apps?', 'Is it free?'],
    suggested_questions_random_count: 2,
  }),
});

/** A workflow without a model: start (text) → template → end. */
const workflowDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'workflow',
  nodes: [
    { id: 's', kind: 'start', kindVersion: 1, title: 'Start', position: { x: 80, y: 200 }, config: { variables: [{ name: 'word', label: 'Word', type: 'text', required: true, options: [], allowed_extensions: [] }] } },
    { id: 't', kind: 'template-transform', kindVersion: 1, title: 'Shout it', position: { x: 400, y: 200 }, config: { inputs: [{ name: 'word', selector: ['s', 'word'] }], template: '**{{ word | upper }}!**' } },
    { id: 'e', kind: 'end', kindVersion: 1, title: 'End', position: { x: 720, y: 200 }, config: { outputs: [{ name: 'said', selector: ['t', 'output'] }] } },
  ],
  edges: [
    { id: 's-source-t-target', source: 's', sourceHandle: 'source', target: 't', targetHandle: 'target' },
    { id: 't-source-e-target', source: 't', sourceHandle: 'source', target: 'e', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});

/** The owner (the seeded admin, owner of the first project space) makes an app, publishes it and distributes it to the portal. */
async function distributedApp(page: Page, name: string, document: FlowDocument): Promise<string> {
  const ok = (r: { status: number; data: Record<string, unknown> }) => {
    expect(r.status, JSON.stringify(r.data).slice(0, 400)).toBe(200);
    return r.data;
  };
  const app = ok(await sessionApi(page, 'POST', '/api/v1/console/apps', { name, description: `${name}, distributed to the portal`, type: document.mode, icon: { icon: document.mode === 'workflow' ? 'workflow' : 'bot' } }));
  const id = app.id as string;
  const draft = ok(await sessionApi(page, 'GET', `/api/v1/console/apps/${id}/workflow`));
  ok(await sessionApi(page, 'PUT', '/api/v1/console/apps/workflow', { app_id: id, base_revision: draft.revision, document }));
  ok(await sessionApi(page, 'POST', `/api/v1/console/apps/${id}/publish`, { version: '1.0.0' }));
  ok(await sessionApi(page, 'POST', `/api/v1/console/apps/${id}/distribution`, { platform: 'portal' }));
  return id;
}

/** A new context of the second user, signed in, and its page (on about:blank). */
async function userPage(viewport = { width: 1400, height: 900 }, locale = 'en-US'): Promise<{ context: BrowserContext; page: Page }> {
  const { context, page } = await pat.open({ viewport, locale });
  return { context, page };
}

beforeAll(async () => {
  fake = await fakeOpenAi();
  speech = await fakeSpeech();
  // The studio's outbound policy is closed: open exactly the fake providers.
  studio = await startStudio({ WEFT_OUTBOUND_ALLOW: `${new URL(fake.baseUrl).host},${new URL(speech.baseUrl).host}` });
  // Chromium's fake microphone says the espeak-ng fixture (looped); answers may play without a gesture.
  browser = await launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${fileURLToPath(new URL('ask-en.wav', FIXTURES))}`,
    '--autoplay-policy=no-user-gesture-required',
  ]);
  owner = await signIn(browser, studio.url, { width: 1400, height: 900 });
  expect((await sessionApi(owner.page, 'POST', '/api/v1/admin/models/model-providers/openai/credentials', { credentials: { base_url: fake.baseUrl, api_key: GOOD_KEY } })).status).toBe(200);
  expect((await sessionApi(owner.page, 'POST', '/api/v1/admin/users', { ...USER, realName: 'Pat Lee' })).status).toBe(200);
  await openFirstWorkspaceApps(owner.page);
  ids.chat = await distributedApp(owner.page, 'Weft helper', chatDoc());
  ids.workflow = await distributedApp(owner.page, 'Shouter', workflowDoc());
  pat = await signInOnce(browser, studio.url, USER);
});

afterAll(async () => {
  await owner?.context.close();
  await releaseBrowser(browser);
  await studio?.stop();
  await fake?.close();
  await speech?.close();
});

describe('the portal', () => {
  it('a second user finds the app in discover, chats with it, manages the conversation in the sessions page, runs a workflow', async () => {
    const { context, page } = await userPage();

    // Discover: both apps, one card each; the mode filter narrows to the workflow.
    await page.goto(`${studio.url}/portal/sessions/discover`);
    const cards = page.getByTestId('portal-app-card');
    await expect.poll(() => cards.count()).toBe(2);
    await page.getByTestId('portal-mode-filter').getByRole('button', { name: 'Workflow' }).click();
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByTestId('portal-mode-filter').getByRole('button', { name: 'All' }).click();
    await expect.poll(() => cards.count()).toBe(2);
    await look(page, 'portal-01-discover');

    // The chat (opened in the page, not by loading it again): the opening statement, two of the four
    // suggested questions, a streamed answer.
    await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
    await cards.filter({ hasText: 'Weft helper' }).getByTestId('portal-app-open').click();
    await page.waitForURL((u) => u.pathname === `/portal/sessions/chat/${ids.chat}`);
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
    await expect.poll(() => page.getByTestId('chat-opening').textContent()).toContain('I answer questions about Weft');
    expect(await page.getByTestId('chat-suggested').getByRole('button').count()).toBe(2);
    await page.getByTestId('chat-input').fill('Say hello');
    await page.getByTestId('chat-input').press('Enter');
    const answer = page.getByTestId('chat-answer').last();
    await expect.poll(async () => (await answer.textContent())?.trim(), { timeout: 30_000 }).toBe(ANSWER);
    await expect.poll(() => page.getByTestId('chat-message').last().getAttribute('data-status')).toBe('succeeded');
    expect(JSON.stringify(fake.requests.find((r) => r.path === '/v1/chat/completions')?.body)).toContain('Say hello');
    // The conversation is in the URL and the side list; the answer can be rated.
    await page.waitForURL((u) => u.searchParams.has('conversation'));
    await expect.poll(() => page.getByTestId('chat-conversation').count()).toBe(1);
    await page.getByTestId('chat-like').click();
    await expect.poll(() => page.getByTestId('chat-like').getAttribute('aria-pressed')).toBe('true');
    await look(page, 'portal-02-chat');
    // A second conversation, to keep after the first is deleted.
    await page.getByTestId('chat-new').click();
    await page.getByTestId('chat-input').fill('Second question');
    await page.getByTestId('chat-input').press('Enter');
    await expect.poll(() => page.getByTestId('chat-conversation').count()).toBe(2);
    await expect.poll(() => page.getByTestId('chat-message').last().getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');

    // The sessions page: rename the first conversation, group it, delete it.
    await page.getByTestId('portal-nav').getByRole('link', { name: 'My conversations' }).click();
    await page.waitForURL((u) => u.pathname === '/portal/sessions/sessions-page');
    const items = page.getByTestId('session-item');
    await expect.poll(() => items.count()).toBe(2);
    const first = items.filter({ hasText: 'Say hello' });
    await first.getByTestId('session-actions').click();
    await page.getByRole('menuitem', { name: 'Session settings' }).click();
    const settings = page.getByTestId('session-settings-dialog');
    await settings.getByRole('textbox').fill('Greetings');
    await settings.getByRole('button', { name: 'Save' }).click();
    const renamed = items.filter({ hasText: 'Greetings' });
    await expect.poll(() => renamed.count()).toBe(1);

    await page.getByTestId('sessions-manage-groups').click();
    const groups = page.getByTestId('group-manager-dialog');
    await groups.getByTestId('group-name').fill('Daily');
    await groups.getByRole('button', { name: 'Add group' }).click();
    await expect.poll(() => groups.getByTestId('group-row').count()).toBe(1);
    await look(page, 'portal-03-sessions-groups');
    await page.keyboard.press('Escape');
    await renamed.getByTestId('session-actions').click();
    await page.getByRole('menuitem', { name: 'Move to group' }).click();
    const move = page.getByTestId('move-group-dialog');
    await move.getByRole('combobox').click();
    await page.getByRole('option', { name: 'Daily' }).click();
    await move.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => renamed.getByTestId('session-group').textContent()).toBe('Daily');
    await page.getByTestId('sessions-groups').getByRole('button', { name: /Daily/ }).click();
    await expect.poll(() => items.count()).toBe(1);
    await look(page, 'portal-04-sessions');

    await renamed.getByTestId('session-actions').click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => items.count()).toBe(0);
    await page.getByTestId('sessions-groups').getByRole('button', { name: /All conversations/ }).click();
    await expect.poll(() => items.count()).toBe(1);

    // The workflow page: the form from the start node, a run, its steps and result, the history.
    await page.goto(`${studio.url}/portal/sessions/workflow/${ids.workflow}`);
    await page.getByRole('textbox', { name: /Word/ }).fill('hello');
    await page.getByRole('button', { name: 'Run' }).click();
    const result = page.getByTestId('workflow-result');
    await expect.poll(() => result.getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');
    expect(await result.locator('strong').textContent()).toBe('HELLO!');
    expect(await page.getByTestId('workflow-step').count()).toBe(3);
    await expect.poll(() => page.getByTestId('workflow-history-run').count()).toBe(1);
    await look(page, 'portal-05-workflow');
    await context.close();
  });

  it('the chat works at phone width: the conversation list is a drawer, the box stays usable', async () => {
    const { context, page } = await userPage({ width: 390, height: 844 });
    await page.goto(`${studio.url}/portal/sessions/chat/${ids.chat}`);
    await expect.poll(() => page.getByTestId('chat-opening').isVisible()).toBe(true);
    expect(await page.getByTestId('chat-conversations').isVisible()).toBe(false);
    const box = await page.getByTestId('chat-input').boundingBox();
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    expect(box!.width).toBeGreaterThan(200);
    await page.getByTestId('chat-input').fill('From my phone');
    await page.getByTestId('chat-input').press('Enter');
    await expect.poll(() => page.getByTestId('chat-message').last().getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');
    await look(page, 'portal-06-chat-phone');
    await page.getByTestId('chat-open-list').click();
    await expect.poll(() => page.getByTestId('chat-conversations').isVisible()).toBe(true);
    // The drawer slides in (160 ms); the picture after it.
    await expect.poll(async () => (await page.getByTestId('chat-conversations').boundingBox())?.x).toBe(0);
    await look(page, 'portal-07-chat-phone-drawer');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('chat-conversations').isVisible()).toBe(false);
    await context.close();
  });

  it('every portal page fits 1280 px and 390 px in Chinese and English (screenshots to look at)', async () => {
    const texts = { zh: { nav: '我的会话', run: '运行' }, en: { nav: 'My conversations', run: 'Run' } };
    for (const [locale, lang] of [['zh-CN', 'zh'], ['en-US', 'en']] as const) {
      for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
        const { context, page } = await userPage(viewport, locale);
        const where = (name: string) => `${name} ${lang} ${viewport.width}px`;
        /** The page's language and no sideways scrolling, then its picture. */
        const check = async (name: string) => {
          expect(await page.evaluate(() => document.documentElement.lang), where(name)).toMatch(new RegExp(`^${lang}`));
          expect(await page.getByTestId('portal-nav').textContent(), where(name)).toContain(texts[lang].nav);
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          expect(overflow, `${where(name)} scrolls sideways`).toBeLessThanOrEqual(0);
          // Headings are whole, not cut short by the buttons beside them.
          const cut = await page.locator('h1').evaluateAll((hs) => hs.filter((h) => h.scrollWidth > h.clientWidth).map((h) => h.textContent));
          expect(cut, `${where(name)} cut headings`).toEqual([]);
          await look(page, `portal-lang-${lang}-${viewport.width}-${name}`);
        };

        await page.goto(`${studio.url}/portal/sessions/discover`);
        await expect.poll(() => page.getByTestId('portal-app-card').count(), { message: where('discover') }).toBe(2);
        await check('discover');

        // The chat with a streamed answer in it.
        await page.goto(`${studio.url}/portal/sessions/chat/${ids.chat}`);
        await expect.poll(() => page.getByTestId('chat-opening').isVisible(), { message: where('chat') }).toBe(true);
        await page.getByTestId('chat-input').fill(`A question in ${lang}`);
        await page.getByTestId('chat-input').press('Enter');
        await expect.poll(() => page.getByTestId('chat-message').last().getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');
        // Its end came: the conversation is in the URL and the side list, the answer can be rated.
        await page.waitForURL((u) => u.searchParams.has('conversation'));
        await expect.poll(() => page.getByTestId('chat-like').count()).toBe(1);
        if (viewport.width > 640) {
          await expect.poll(() => page.getByTestId('chat-conversation').filter({ hasText: `A question in ${lang}` }).count()).toBe(1);
          // The opening statement lines up with the answer (beside the app's icon).
          const opening = await page.getByTestId('chat-opening').boundingBox();
          const answer = await page.getByTestId('chat-answer').last().boundingBox();
          expect(Math.abs(opening!.x - answer!.x)).toBeLessThanOrEqual(20);
        }
        await check('chat');

        await page.goto(`${studio.url}/portal/sessions/sessions-page`);
        await expect.poll(() => page.getByTestId('session-item').count(), { message: where('sessions') }).toBeGreaterThan(0);
        await check('sessions');

        // The workflow with a finished run.
        await page.goto(`${studio.url}/portal/sessions/workflow/${ids.workflow}`);
        await page.getByRole('textbox', { name: /Word/ }).fill('hello');
        await page.getByRole('button', { name: texts[lang].run, exact: true }).click();
        await expect.poll(() => page.getByTestId('workflow-result').getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');
        await expect.poll(() => page.getByTestId('workflow-history-run').count()).toBeGreaterThan(0);
        // A step of a few milliseconds reads "<0.01", never "0.00".
        expect(await page.getByTestId('workflow-steps').textContent()).not.toContain('0.00');
        await check('workflow');
        await context.close();
      }
    }
  });

  it('after the owner cancels the distribution the user sees the clear state, the past conversation read-only', async () => {
    const list = await sessionApi(owner.page, 'GET', `/api/v1/console/apps/${ids.chat}/distribution`);
    const portal = (list.data.platforms as { platform: string; distribution: { id: string } | null }[]).find((p) => p.platform === 'portal')!;
    expect((await sessionApi(owner.page, 'DELETE', `/api/v1/console/apps/${ids.chat}/distribution/${portal.distribution!.id}`)).status).toBe(200);

    const { context, page } = await userPage();
    await page.goto(`${studio.url}/portal/sessions/discover`);
    await expect.poll(() => page.getByTestId('portal-app-card').count()).toBe(1);
    await page.goto(`${studio.url}/portal/sessions/chat/${ids.chat}`);
    await expect.poll(() => page.getByTestId('lost-access-banner').textContent()).toContain('You can no longer use this app');
    await expect.poll(() => page.getByTestId('chat-answer').first().isVisible()).toBe(true);
    expect(await page.getByTestId('chat-input').isDisabled()).toBe(true);
    expect(await page.getByTestId('chat-input').getAttribute('placeholder')).toBe('You can no longer use this app: past conversations are read-only');
    await look(page, 'portal-08-lost-access');
    // The sessions page marks its conversations as no longer available.
    await page.goto(`${studio.url}/portal/sessions/sessions-page`);
    await expect.poll(() => page.getByTestId('session-unavailable').count()).toBeGreaterThan(0);
    // The embedded chat shows the same clear state without the portal's chrome.
    await page.goto(`${studio.url}/portal/chat/${ids.chat}`);
    await expect.poll(() => page.getByTestId('lost-access-banner').count()).toBe(1);
    expect(await page.getByTestId('portal-nav').count()).toBe(0);
    await context.close();
  });

  it('GBI: the owner uploads a spreadsheet, previews and saves it, asks a question and sees the SQL, the table and the chart (en, then zh)', async () => {
    expect((await sessionApi(owner.page, 'PUT', '/api/v1/admin/models/tenant-default', { model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' })).status).toBe(200);
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('Sales');
    sheet.addRow(['Region', 'Amount']);
    for (const [region, amount] of [['North', 120], ['South', 80], ['East', 45], ['North', 30], ['West', 60], ['South', 20], ['Central', 15]] as const) sheet.addRow([region, amount]);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());

    const page = owner.page;
    await page.goto(`${studio.url}/portal/gbi-data-settings/gbi-data-settings-page/file-management`);
    await page.getByTestId('gbi-file-input').setInputFiles({ name: 'sales.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    const preview = page.getByTestId('gbi-preview');
    await expect.poll(() => preview.textContent()).toContain('Header row detected');
    expect(await preview.textContent()).toContain('amount · BIGINT');
    await look(page, 'portal-gbi-01-preview-en');
    await preview.getByRole('button', { name: 'Save as a data source' }).click();
    await expect.poll(() => page.getByTestId('gbi-describe').textContent()).toContain('sales.xlsx');
    expect(await page.getByTestId('gbi-describe').textContent()).toContain('North');
    // The table's own name and description fields say what they are (no column header above them).
    expect(await page.getByTestId('gbi-describe').getByPlaceholder('Description', { exact: true }).count()).toBe(1);
    await look(page, 'portal-gbi-02-described-en');
    // Re-read the samples; the nav leads to GBI for a user in a project space.
    await page.getByTestId('gbi-reread').click();
    await expect.poll(() => page.getByText('Tables, columns and samples read again').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('portal-nav').getByRole('link', { name: 'Data settings' }).count()).toBe(1);
    expect(await page.getByTestId('portal-nav').getByRole('link', { name: 'Ask your data' }).getAttribute('href')).toBe('/portal/gbi');
    // A table's own page (table-display) from its row in the data settings: described columns, the first rows.
    await page.getByTestId('gbi-view-table').first().click();
    await expect.poll(() => page.getByTestId('gbi-table-rows').getByTestId('gbi-result-table').locator('tbody tr').count()).toBe(7);
    expect(new URL(page.url()).pathname).toBe('/portal/gbi/table-display');
    expect(await page.getByTestId('gbi-table-rows').locator('thead').textContent()).toBe('Region (region)Amount (amount)');
    expect(await page.getByTestId('gbi-table-rows').locator('tbody tr').first().textContent()).toBe('North120');
    expect(await page.getByTestId('gbi-table-columns').textContent()).toContain('BIGINT');
    expect(await page.getByTestId('gbi-table-item').count()).toBe(1);
    if (SNAPS) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await look(page, 'portal-gbi-09-table-en');
      await page.setViewportSize({ width: 390, height: 844 });
      await look(page, 'portal-gbi-10-table-phone-en');
      await page.setViewportSize({ width: 1400, height: 900 });
    }

    await page.goto(`${studio.url}/portal/gbi/ask`);
    // The source is chosen once the sources have loaded (its "view tables" link shows then).
    await page.getByTestId('gbi-view-tables').waitFor();
    await page.getByRole('textbox', { name: 'Ask' }).fill('Total amount by region?');
    await page.getByRole('textbox', { name: 'Ask' }).press('Enter');
    const answer = page.getByTestId('gbi-answer').last();
    await expect.poll(() => answer.getAttribute('data-status'), { timeout: 30_000 }).toBe('ok');
    expect(await answer.getByTestId('gbi-sql').textContent()).toContain('select region, sum(amount) as total from sales');
    await expect.poll(() => answer.getByTestId('gbi-result-table').locator('tbody tr').count()).toBe(5);
    expect(await answer.getByTestId('gbi-result-table').locator('tbody tr').first().textContent()).toBe('North150');
    // Five rows show whole: the box is as tall as its rows, with no scrollbar (it was a guess, a row short).
    await expect.poll(() => answer.getByTestId('gbi-result-table').evaluate((el) => el.scrollHeight - el.clientHeight)).toBeLessThanOrEqual(0);
    // Five non-negative parts: a pie, drawn once echarts (its own chunk) has loaded.
    await expect.poll(() => answer.getByTestId('gbi-chart').getAttribute('data-ready')).toBe('true');
    expect(await answer.getByTestId('gbi-chart').getAttribute('data-kind')).toBe('pie');
    expect(await answer.locator('canvas').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByTestId('gbi-session').count()).toBe(1);
    await pauseForPicture(page, 1200); // the pie's opening animation
    await look(page, 'portal-gbi-03-ask-en');
    await answer.getByRole('button', { name: 'Open the table' }).click();
    await expect.poll(() => page.getByTestId('gbi-data-popup').getByTestId('gbi-result-table').locator('tbody tr').count()).toBe(5);
    await look(page, 'portal-gbi-04-popup-en');
    await page.keyboard.press('Escape');
    // The session opened on its own page (session-list-item); its pictures at 1280 px and at a phone's width.
    await page.getByTestId('gbi-session').first().getByRole('link', { name: 'Open this session on its own page' }).click();
    const sessionPage = page.getByTestId('gbi-session-page');
    await expect.poll(() => sessionPage.getByTestId('gbi-answer').count()).toBe(1);
    await expect.poll(() => sessionPage.getByTestId('gbi-chart').getAttribute('data-ready')).toBe('true');
    expect(await sessionPage.locator('h1').textContent()).toBe('Total amount by region?');
    if (SNAPS) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await pauseForPicture(page, 1200);
      await look(page, 'portal-gbi-07-session-en');
      await page.setViewportSize({ width: 390, height: 844 });
      await look(page, 'portal-gbi-08-session-phone-en');
      await page.setViewportSize({ width: 1400, height: 900 });
    }

    // The same signed-in owner in a Chinese browser.
    const zhContext = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'zh-CN', storageState: await owner.context.storageState() });
    const zh = { context: zhContext, page: await zhContext.newPage() };
    await zh.page.goto(`${studio.url}/portal/gbi/ask`);
    await zh.page.getByTestId('gbi-session').first().getByRole('button').first().click();
    const zhAnswer = zh.page.getByTestId('gbi-answer').last();
    await expect.poll(() => zhAnswer.getByTestId('gbi-chart').getAttribute('data-ready')).toBe('true');
    expect(await zh.page.getByRole('button', { name: '查看表格' }).count()).toBe(1);
    await look(zh.page, 'portal-gbi-05-ask-zh');
    await zh.page.getByTestId('gbi-session').first().getByRole('link', { name: '在单独页面打开此会话' }).click();
    await expect.poll(() => zh.page.getByTestId('gbi-session-page').getByTestId('gbi-answer').count()).toBe(1);
    expect(await zh.page.getByTestId('portal-nav').getByRole('link', { name: '问数' }).count()).toBe(1);
    await look(zh.page, 'portal-gbi-07-session-zh');
    await zh.page.goto(`${studio.url}/portal/gbi-data-settings/gbi-data-settings-page/file-management`);
    await expect.poll(() => zh.page.getByTestId('gbi-describe').textContent()).toContain('业务名称');
    await look(zh.page, 'portal-gbi-06-files-zh');
    // From the ask page's "view tables" link to the source's tables, in Chinese.
    await zh.page.goto(`${studio.url}/portal/gbi/ask`);
    await zh.page.getByRole('link', { name: '查看数据表' }).click();
    await expect.poll(() => zh.page.getByTestId('gbi-table-rows').locator('tbody tr').count()).toBe(7);
    expect(await zh.page.getByRole('heading', { name: '表格展示' }).count()).toBe(1);
    await look(zh.page, 'portal-gbi-11-table-zh');
    await zh.context.close();
  });

  it('voice: the user asks by microphone and gets a written and a spoken answer, sentence by sentence (en, then zh)', async () => {
    // The tenant's speech models: an OpenAI-compatible server with a tts and a speech2text model, as defaults.
    const admin = async (method: string, path: string, body?: unknown) => {
      const r = await sessionApi(owner.page, method, `/api/v1/admin/models${path}`, body);
      expect(r.status, JSON.stringify(r.data).slice(0, 300)).toBe(200);
    };
    await admin('POST', '/model-providers/openai_api_compatible/credentials', { credentials: { base_url: speech.baseUrl, api_key: GOOD_KEY } });
    for (const [model_type, model] of [['tts', 'tts-1'], ['speech2text', 'whisper-1']]) {
      await admin('POST', '/model-providers/openai_api_compatible/models/model-custom', { model, model_type, label: model });
      await admin('PUT', '/tenant-default', { model_type, provider: 'openai_api_compatible', model });
    }
    const doc = chatDoc();
    doc.nodes = doc.nodes.map((n) => (n.id === 'answer' ? { ...n, config: { answer: '{{#llm.text#}}. Paris is the capital! Bye?' } } : n));
    doc.features = AppFeatures.parse({ speech_to_text: true, text_to_speech: true });
    const appId = await distributedApp(owner.page, 'Voice helper', doc);
    speech.transcript = 'What is the capital of France?';

    for (const [locale, lang] of [['en-US', 'en'], ['zh-CN', 'zh']] as const) {
      const before = { speech: speech.speech.length, stt: speech.transcriptions.length };
      const { context, page } = await userPage({ width: 1280, height: 800 }, locale);
      await page.goto(`${studio.url}/portal/sessions/chat/${appId}`);
      const bar = page.getByTestId('voice-bar');
      const mic = bar.getByTestId('voice-mic');
      await expect.poll(() => mic.isEnabled()).toBe(true);
      // The avatar's highest level while it speaks, and what the conversation shows once it is heard.
      await watchSpeaking(page);
      await mic.click();
      await expect.poll(() => bar.getAttribute('data-mic')).toBe('recording');
      await page.waitForTimeout(2000);
      await look(page, `portal-voice-1-listening-${lang}`);
      await mic.click();
      // The recording was written down and sent as the message; the answer is written and spoken.
      await expect.poll(() => page.getByTestId('chat-message').last().textContent(), { timeout: 30_000 }).toContain('What is the capital of France?');
      await expect.poll(() => page.getByTestId('chat-message').last().getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');
      expect(await page.getByTestId('chat-answer').last().textContent()).toContain(`${ANSWER}. Paris is the capital! Bye?`);
      await look(page, `portal-voice-2-speaking-${lang}`);
      await expect.poll(() => bar.getAttribute('data-spoken'), { timeout: 30_000 }).toBe('3');
      expect(await page.evaluate(() => (window as unknown as { maxLevel: number }).maxLevel)).toBeGreaterThan(0);
      expect(await page.evaluate(() => (window as unknown as { answerWhileSpeaking: string | null }).answerWhileSpeaking)).toContain(ANSWER);
      expect(speech.transcriptions.slice(before.stt)).toEqual([expect.objectContaining({ model: 'whisper-1', fileType: expect.stringMatching(/^audio\/webm/) })]);
      expect(speech.transcriptions.at(-1)!.fileBytes).toBeGreaterThan(1000);
      expect(speech.speech.slice(before.speech).map((r) => r.input)).toEqual([`${ANSWER}.`, 'Paris is the capital!', 'Bye?']);
      await look(page, `portal-voice-3-done-${lang}`);
      await context.close();
    }
  });
  it('a digital human: its greeting opens the conversation, its portrait speaks while the answer shows, the character settings popup (en, then zh)', async () => {
    // Runs after the voice test: the tenant's default tts model is the fake speech server, which records the speed asked.
    const portrait = await runFfmpeg(
      ['-f', 'lavfi', '-i', 'color=c=0xe8c4a0:s=120x160', '-vf', 'drawbox=x=35:y=55:w=12:h=8:c=0x303030:t=fill,drawbox=x=73:y=55:w=12:h=8:c=0x303030:t=fill,drawbox=x=45:y=102:w=30:h=5:c=0xa04040:t=fill', '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'],
      { timeoutMs: 10_000 },
    );
    const fileId = await owner.page.evaluate(async (b64) => {
      const session = JSON.parse(localStorage.getItem('weft.session') ?? '{}').state;
      const form = new FormData();
      form.append('biz_type', 'icon');
      form.append('file', new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }), 'guide.png');
      const r = await fetch('/api/v1/console/files/upload', { method: 'POST', body: form, headers: { Authorization: `Bearer ${session.accessToken}`, 'X-Tenant-Id': session.tenantId, 'X-Workspace-Id': session.workspaceId } });
      return ((await r.json()).data as { id: string }).id;
    }, portrait.toString('base64'));
    const greeting = 'Hello, I am Guide. 你好，我是向导。';
    const made = await sessionApi(owner.page, 'POST', '/api/v1/console/characters', { name: 'Guide 向导', portrait_file_id: fileId, voice: { speed: 1.2 }, greeting });
    expect(made.status, JSON.stringify(made.data)).toBe(200);
    const doc = chatDoc();
    doc.features = AppFeatures.parse({ text_to_speech: true });
    const appId = await distributedApp(owner.page, 'Guide', doc);
    expect((await sessionApi(owner.page, 'PUT', `/api/v1/console/apps/${appId}/digital-human`, { kind: 'conversation', character_id: made.data.id })).status).toBe(200);

    for (const [locale, lang] of [['en-US', 'en'], ['zh-CN', 'zh']] as const) {
      const { context, page } = await userPage({ width: 1280, height: 800 }, locale);
      await page.goto(`${studio.url}/portal/sessions/chat/${appId}`);
      // The character's greeting is the opening statement; its portrait is the avatar.
      await expect.poll(async () => (await page.getByTestId('chat-opening').textContent())?.trim()).toBe(greeting);
      const avatar = page.getByTestId('voice-bar').getByTestId('speaking-avatar');
      expect(await avatar.getAttribute('aria-label')).toBe('Guide 向导');
      expect(await avatar.locator('img').getAttribute('src')).toBe(`/api/v1/common/files/${fileId}/icon`);
      await watchSpeaking(page);
      const before = speech.speech.length;
      await page.getByTestId('chat-input').fill(lang === 'zh' ? '你是谁？' : 'Who are you?');
      await page.getByTestId('chat-input').press('Enter');
      await expect.poll(() => page.evaluate(() => (window as unknown as { answerWhileSpeaking: string | null }).answerWhileSpeaking), { timeout: 20_000 }).toContain(ANSWER);
      expect(await page.getByTestId('chat-answer-portrait').first().getAttribute('src')).toBe(`/api/v1/common/files/${fileId}/icon`);
      await look(page, `portal-character-1-speaking-${lang}`);
      await expect.poll(() => page.getByTestId('voice-bar').getAttribute('data-spoken'), { timeout: 20_000 }).toBe('1');
      expect(await page.evaluate(() => (window as unknown as { maxLevel: number }).maxLevel)).toBeGreaterThan(0);
      expect(speech.speech.slice(before)).toEqual([expect.objectContaining({ input: ANSWER, speed: 1.2 })]);
      // The answer stays after the speech, and after a reload.
      expect(await page.getByTestId('chat-answer').last().textContent()).toContain(ANSWER);

      // Character settings from the sessions page: the character, and the user's voice choices.
      await page.goto(`${studio.url}/portal/sessions/sessions-page`);
      const item = page.getByTestId('session-item').filter({ hasText: lang === 'zh' ? '你是谁？' : 'Who are you?' }).first();
      const openPopup = async () => {
        await item.getByTestId('session-actions').click();
        await page.getByRole('menuitem', { name: lang === 'zh' ? '角色设定' : 'Character settings' }).click();
        await expect.poll(() => page.getByTestId('character-card-name').textContent()).toBe('Guide 向导');
      };
      await openPopup();
      const dialog = page.getByTestId('character-dialog');
      expect(await dialog.getByTestId('character-card-greeting').textContent()).toBe(greeting);
      expect(await dialog.getByTestId('character-card').locator('img').getAttribute('src')).toBe(`/api/v1/common/files/${fileId}/icon`);
      expect(await dialog.getByTestId('character-speed').inputValue()).toBe('1.2');
      await dialog.getByTestId('character-speed').fill('1.5');
      await look(page, `portal-character-2-settings-${lang}`);
      await dialog.getByRole('button', { name: lang === 'zh' ? '保存' : 'Save' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      if (lang === 'en') {
        // Kept across a reload, and the chat speaks at the user's speed.
        await page.reload();
        await openPopup();
        expect(await dialog.getByTestId('character-speed').inputValue()).toBe('1.5');
        await page.keyboard.press('Escape');
        await item.getByTestId('session-open').click();
        await expect.poll(() => page.getByTestId('chat-answer').count()).toBe(1);
        const again = speech.speech.length;
        await page.getByTestId('chat-input').fill('Again?');
        await page.getByTestId('chat-input').press('Enter');
        await expect.poll(() => speech.speech.length, { timeout: 20_000 }).toBe(again + 1);
        expect(speech.speech.at(-1)).toMatchObject({ input: ANSWER, speed: 1.5 });
      }
      await context.close();
    }
  });
});

/**
 * Keeps in the page the avatar's highest level while it speaks (it changes every frame) and what the
 * conversation shows the moment the first sentence is heard (the written answer must be there too).
 */
function watchSpeaking(page: Page): Promise<void> {
  return page.evaluate(() => {
    const w = window as unknown as { maxLevel: number; answerWhileSpeaking: string | null };
    w.maxLevel = 0;
    w.answerWhileSpeaking = null;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="speaking-avatar"]');
      const level = Number(el?.getAttribute('data-level') ?? 0);
      w.maxLevel = Math.max(w.maxLevel, level);
      if (el?.hasAttribute('data-speaking') && level > 0) w.answerWhileSpeaking ??= document.querySelector('[data-testid="chat-answer"]')?.textContent ?? '';
    }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['data-level'] });
  });
}
