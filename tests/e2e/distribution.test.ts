/**
 * The builder's side of distribution in Chromium against the real server: the owner sets a
 * chatflow's opening statement and suggested questions in the Features dialog (the debug chat shows
 * them), publishes it, distributes it to the portal from the Distribution tab, publishes a newer
 * version and moves the distribution to it; an admin of the same project space sees every action
 * disabled with the reason (and the server refuses them too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import type { DistributionList } from '../../schemas/distribution';
import type { FlowDocument } from '../../schemas/flow';
import { createAppInUi, launchBrowser, openFirstWorkspaceApps, releaseBrowser, saveDraftInBrowser, sessionApi, signIn, snap, startStudio, type RunningStudio } from './server';

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

const DANA = { username: 'dana', password: 'Passw0rd123', realName: 'Dana Admin' };
const QUESTIONS = ['Where is my order?', 'How do I return an item?'];

const field = (scope: Locator, name: string) => scope.locator(`[data-field="${name}"]`);
const card = (page: Page, platform: string) => page.getByTestId(`distribution-card-${platform}`);

async function openTab(page: Page, name: string, path: string) {
  await page.getByTestId('editor-tabs').getByRole('link', { name }).click();
  await page.waitForURL((u) => u.pathname.endsWith(path));
}

describe('the distribute tab and the app features', () => {
  it('the owner sets the features, publishes, distributes to the portal and moves to a newer version; an admin sees the actions disabled', async () => {
    const { context, page } = await signIn(browser, studio.url, { width: 1400, height: 900 });
    await openFirstWorkspaceApps(page);
    const appId = await createAppInUi(page, { name: 'Order helper', description: 'Answers about orders', mode: 'chatflow' });
    // The breadcrumb names the app's mode (not the editor's "Agent flow").
    await expect.poll(() => page.getByTestId('breadcrumb').textContent()).toContain('Chatflow');
    const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
    const doc = draft.data.document as FlowDocument;
    const answer = doc.nodes.find((n) => n.kind === 'answer')!;
    answer.config = { ...answer.config, answer: 'You said {{#sys.query#}}' };
    // A new chatflow starts start → LLM → answer; no model is configured here, so the flow is start → answer.
    const start = doc.nodes.find((n) => n.kind === 'start')!;
    const fromStart = doc.edges.find((e) => e.source === start.id)!;
    doc.nodes = doc.nodes.filter((n) => n.kind === 'start' || n.kind === 'answer');
    doc.edges = [{ ...fromStart, target: answer.id }];
    await saveDraftInBrowser(page, appId, doc);
    await page.reload();

    // Features: an opening statement and two questions, one shown at a time (never more than there are).
    await page.getByTestId('toolbar-features').click();
    const dialog = page.getByTestId('features-dialog');
    await field(dialog, 'opening_statement').locator('textarea').fill('Hello! I answer questions about your orders.');
    for (const [i, q] of QUESTIONS.entries()) {
      await dialog.getByTestId('features-question-add').click();
      await dialog.getByTestId('features-question').nth(i).fill(q);
    }
    const count = field(dialog, 'suggested_questions_random_count').locator('input');
    await count.fill('3');
    await dialog.getByTestId('features-save').click();
    await dialog.getByText('The number shown cannot exceed the number of suggested questions').waitFor();
    await count.fill('1');
    await snap(page, 'distribution-01-features');
    // Uploads: their kinds, count and image detail show once they are on.
    await field(dialog, 'file_upload.enabled').getByRole('switch').click();
    await field(dialog, 'file_upload.max_count').locator('input').fill('4');
    await field(dialog, 'file_upload.max_count').scrollIntoViewIfNeeded();
    await snap(page, 'distribution-01b-features-upload');
    await dialog.getByTestId('features-save').click();
    await expect.poll(() => dialog.count()).toBe(0);
    // Autosaved into the draft's document.
    await expect
      .poll(async () => ((await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`)).data.document as FlowDocument).features, { timeout: 15_000 })
      .toMatchObject({
        opening_statement: 'Hello! I answer questions about your orders.',
        suggested_questions: QUESTIONS,
        suggested_questions_random_count: 1,
        file_upload: { enabled: true, types: ['image'], max_count: 4 },
      });

    // The debug chat opens as end users will see it: the statement and one of the questions.
    await page.getByTestId('debug-open').click();
    await expect.poll(() => page.getByTestId('chat-opening').textContent()).toContain('Hello! I answer questions about your orders.');
    const suggestions = page.getByTestId('chat-suggestions').getByRole('button');
    await expect.poll(() => suggestions.count()).toBe(1);
    expect(QUESTIONS).toContain(await suggestions.first().textContent());

    // Publish v1.0.0 from the Versions tab.
    await openTab(page, 'Versions', '/agent-flow/version');
    await page.getByTestId('version-page').getByRole('button', { name: 'Publish' }).click();
    const publish = page.getByTestId('publish-dialog');
    await expect.poll(() => publish.getByTestId('publish-version').inputValue()).toBe('v1.0.0');
    await publish.getByRole('button', { name: 'Publish' }).click();
    await expect.poll(() => page.locator('[data-testid^="version-row-"]').count()).toBe(1);

    // Distribute to the portal: the newest version is chosen.
    await openTab(page, 'Distribution', '/agent-flow/distribute');
    const portal = card(page, 'portal');
    await expect.poll(() => portal.getByTestId('distribution-state').textContent()).toBe('Not distributed');
    await portal.getByTestId('distribution-distribute').click();
    const choose = page.getByTestId('distribution-dialog');
    await expect.poll(() => choose.getByRole('combobox').textContent()).toContain('v1.0.0');
    await choose.getByTestId('distribution-dialog-submit').click();
    await expect.poll(() => portal.getByTestId('distribution-state').textContent()).toBe('Distributed');
    expect(await portal.getByTestId('distribution-version').textContent()).toBe('v1.0.0');
    expect(await portal.getByTestId('distribution-portal-link').getAttribute('href')).toBe(`/portal/sessions/chat/${appId}`);
    expect(await portal.getByTestId('distribution-embed-code').inputValue()).toContain(`<iframe src="${studio.url}/portal/chat/${appId}"`);

    // A newer version: the card says so, and the distribution moves to it (the newest is chosen).
    expect((await sessionApi(page, 'POST', `/api/v1/console/apps/${appId}/publish`, { version: 'v1.0.1' })).status).toBe(200);
    await page.reload();
    await expect.poll(() => portal.getByTestId('distribution-newer').textContent()).toContain('A newer version is available: v1.0.1');
    await portal.getByTestId('distribution-move').click();
    await expect.poll(() => choose.getByRole('combobox').textContent()).toContain('v1.0.1');
    await choose.getByTestId('distribution-dialog-submit').click();
    await expect.poll(() => portal.getByTestId('distribution-version').textContent()).toBe('v1.0.1');
    expect(await portal.getByTestId('distribution-newer').count()).toBe(0);
    await expect.poll(() => choose.count()).toBe(0);
    await snap(page, 'distribution-02-owner');
    const served = (await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/distribution`)).data as unknown as DistributionList;
    expect(served.platforms.find((p) => p.platform === 'portal')).toMatchObject({ state: 'distributed', distribution: { version: { version: 'v1.0.1' } } });
    const version = served.platforms.find((p) => p.platform === 'portal')!.distribution!.version!;
    const frozen = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/publish/${version.id}`);
    expect((frozen.data.document as FlowDocument).features).toMatchObject({ opening_statement: 'Hello! I answer questions about your orders.' });

    // An admin of the same project space.
    const workspaceId = await page.evaluate(() => JSON.parse(localStorage.getItem('weft.session') ?? '{}').state.workspaceId as string);
    const dana = await sessionApi(page, 'POST', '/api/v1/admin/users', DANA);
    expect(dana.status).toBe(200);
    expect((await sessionApi(page, 'POST', `/api/v1/console/workspaces/${workspaceId}/members`, { user_ids: [dana.data.id], role: 'admin' })).status).toBe(200);
    await context.close();

    const theirs = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'en-US' });
    const admin = await theirs.newPage();
    admin.setDefaultTimeout(40_000);
    await admin.goto(`${studio.url}/operation/app/${appId}/agent-flow/distribute`);
    await admin.waitForURL((u) => u.pathname === '/login');
    await admin.getByTestId('login-username').fill(DANA.username);
    await admin.getByTestId('login-password').fill(DANA.password);
    await admin.getByTestId('login-submit').click();
    await admin.waitForURL((u) => u.pathname.endsWith('/agent-flow/distribute'));
    await admin.getByTestId('distribute-owner-only').waitFor();
    const cards = admin.locator('[data-testid^="distribution-card-"]');
    await expect.poll(() => cards.count()).toBe(4);
    for (const platform of ['current_project', 'portal', 'store', 'tool']) {
      const c = card(admin, platform);
      expect(await c.getByTestId('distribution-blocked').textContent()).toBe("Only the project space's owner can distribute the app.");
      const actions = c.locator('[data-testid="distribution-distribute"], [data-testid="distribution-move"], [data-testid="distribution-cancel"]');
      expect(await actions.count()).toBeGreaterThan(0);
      for (const b of await actions.all()) expect(await b.isDisabled()).toBe(true);
    }
    expect(await card(admin, 'portal').getByTestId('distribution-version').textContent()).toBe('v1.0.1');
    await snap(admin, 'distribution-03-admin');
    // The server refuses them too.
    const refused = await sessionApi(admin, 'DELETE', `/api/v1/console/apps/${appId}/distribution/${served.platforms[1].distribution!.id}`);
    expect(refused.status).toBe(403);
    await theirs.close();
  });
});
