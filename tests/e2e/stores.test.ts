/**
 * The stores in Chromium against the real server (issue 23): a prompt's owner publishes it to the
 * prompt store from the prompt's page; the store manager (the seeded super admin) rejects it with a
 * reason, which the prompt's page shows; it is published again and released from the system store; the
 * prompt store's gallery lists it, its detail shows the content and variables, and the copy dialog
 * copies it into another project space (the copy count goes up; the copy has the content). An app
 * published through its store distribution is released and shown with its read-only flow, then copied;
 * its distribute tab shows the review. A tool with an API key is published from its page; its copy gets
 * a credential of the target space in the copy dialog (the store carries none).
 * Screenshots at 1280 px in English and Chinese (with WEFT_E2E_SNAPS=1).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, releaseBrowser, sessionApi, startStudio, type RunningStudio } from './server';
import { look, signInOnce, type SignedIn } from './session-helpers';
import { signInAs } from './console-fixtures';

let studio: RunningStudio;
let browser: Browser;
/** The seeded admin (owner of the first project space), signed in through the login page once. */
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

const VIEWPORT = { width: 1280, height: 800 };

/** One API call with the browser's session in a given project space; throws unless it answered 200. */
async function apiIn(page: Page, workspaceId: string, method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await page.evaluate(
    async ({ workspaceId, method, url, body }) => {
      const session = JSON.parse(localStorage.getItem('weft.session') ?? '{}').state;
      const headers: Record<string, string> = { Authorization: `Bearer ${session.accessToken}`, 'X-Tenant-Id': session.tenantId, 'X-Workspace-Id': workspaceId };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const r = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: r.status, json: await r.json().catch(() => ({})) };
    },
    { workspaceId, method, url, body },
  );
  if (answer.status !== 200) throw new Error(`${method} ${url} answered ${answer.status}: ${JSON.stringify(answer.json)}`);
  return answer.json.data as Record<string, unknown>;
}

async function openSystemItem(page: Page, name: string) {
  await page.goto(`${studio.url}/operation/system/store`);
  const row = page.getByTestId('system-store-row').filter({ hasText: name });
  await row.getByTestId('system-store-open').click();
  await page.waitForURL((u) => u.pathname.startsWith('/operation/system/store/'));
  await page.getByTestId('system-store-item').waitFor();
}

describe('the stores', () => {
  it('publish → reject with a reason → publish again → release → gallery → detail → copy, for a prompt, an app and a tool (with its authorization)', async () => {
    const opened = await admin.open({ viewport: VIEWPORT });
    const { context, page } = opened;
    const workspaceId = admin.workspaceId!;
    const target = await opened.api('POST', '/api/v1/console/workspaces', { name: 'Copies' });
    expect(target.status).toBe(200);
    const targetId = target.data.id as string;

    // An app with a published version, submitted through its store distribution.
    const app = await opened.api('POST', '/api/v1/console/apps', { name: 'Order helper', description: 'Answers questions about orders', type: 'workflow', icon: { icon: 'workflow' } });
    expect(app.status).toBe(200);
    const appId = app.data.id as string;
    expect((await opened.api('POST', `/api/v1/console/apps/${appId}/publish`, { version: 'v1.0.0' })).status).toBe(200);
    const appItem = await opened.api('POST', '/api/v1/console/store/apps/publish', { id: appId, tags: ['support'] });
    expect(appItem.data).toMatchObject({ review_state: 'awaiting_release' });

    // The prompt: published from its own page.
    const prompt = await opened.api('POST', '/api/v1/console/prompts', { name: 'Summariser', description: 'Short summaries', content: 'Summarise {text} in {words} words.', template_type: 'f-string', tags: ['writing'] });
    expect(prompt.status).toBe(200);
    const promptId = prompt.data.id as string;
    await page.goto(`${studio.url}/operation/workspace/${workspaceId}/prompt-add/${promptId}`);
    const state = page.getByTestId('store-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('none');
    await page.getByTestId('publish-to-store').click();
    const publish = page.getByTestId('publish-to-store-dialog');
    await publish.getByTestId('publish-to-store-description').fill('Summaries of any text in a given number of words');
    await look(page, 'stores-01-publish-dialog');
    await publish.getByTestId('publish-to-store-submit').click();
    await expect.poll(() => state.getAttribute('data-state')).toBe('awaiting_release');

    // The store manager's list: both wait; the prompt is rejected with a reason.
    await page.goto(`${studio.url}/operation/system/store`);
    await expect.poll(() => page.getByTestId('system-store-row').count()).toBe(2);
    await look(page, 'stores-02-system-list-en');
    await openSystemItem(page, 'Summariser');
    await page.getByTestId('system-store-reject').click();
    const ask = page.getByTestId('system-store-reason-dialog');
    await ask.getByTestId('system-store-reason-confirm').click();
    await ask.getByText('Give a reason').or(ask.getByRole('alert')).first().waitFor();
    await ask.getByTestId('system-store-reason').fill('Say what the variables mean');
    await ask.getByTestId('system-store-reason-confirm').click();
    await expect.poll(() => page.getByTestId('system-store-item').getAttribute('data-state')).toBe('rejected');

    // The publisher sees the state and the reason, and publishes again.
    await page.goto(`${studio.url}/operation/workspace/${workspaceId}/prompt-add/${promptId}`);
    await expect.poll(() => state.getAttribute('data-state')).toBe('rejected');
    expect(await page.getByTestId('store-reason').textContent()).toContain('Say what the variables mean');
    await look(page, 'stores-03-rejected-on-prompt');
    await page.getByTestId('publish-to-store').click();
    await publish.getByTestId('publish-to-store-description').fill('Summarises {text} in {words} words: text is the input, words the length');
    await publish.getByTestId('publish-to-store-submit').click();
    await expect.poll(() => state.getAttribute('data-state')).toBe('awaiting_release');

    // Released, both.
    for (const name of ['Summariser', 'Order helper']) {
      await openSystemItem(page, name);
      if (name === 'Order helper') {
        // The snapshot's flow on the read-only canvas, loaded lazily.
        await page.locator('.react-flow__node').first().waitFor();
        await look(page, 'stores-04-system-item-app-en');
      }
      await page.getByTestId('system-store-release').click();
      await expect.poll(() => page.getByTestId('system-store-item').getAttribute('data-state')).toBe('released');
    }

    // The prompt store: the gallery, the detail, the copy into "Copies".
    await page.goto(`${studio.url}/operation/store/prompt`);
    const cards = page.getByTestId('store-card');
    await expect.poll(() => cards.count()).toBe(1);
    expect(await cards.first().textContent()).toContain('Summariser');
    await look(page, 'stores-05-prompt-gallery-en');
    await cards.first().getByTestId('store-card-open').click();
    await page.getByTestId('store-detail').waitFor();
    expect(await page.getByTestId('store-detail').textContent()).toContain('Summarise {text} in {words} words.');
    await look(page, 'stores-06-prompt-detail-en');
    await page.getByTestId('store-copy').click();
    const dialog = page.getByTestId('store-copy-dialog');
    await dialog.getByRole('combobox', { name: 'Project space' }).click();
    await page.getByRole('option', { name: 'Copies' }).click();
    await dialog.getByTestId('store-copy-name').fill('Summariser (copy)');
    await expect.poll(() => page.getByRole('option').count()).toBe(0);
    await look(page, 'stores-07-prompt-copy-dialog-en');
    await dialog.getByTestId('store-copy-submit').click();
    await dialog.getByTestId('store-copy-done').waitFor();
    await expect.poll(() => page.getByTestId('store-detail-copies').textContent()).toBe('1');
    await dialog.getByTestId('store-copy-open').click();
    await page.waitForURL((u) => u.pathname.startsWith(`/operation/workspace/${targetId}/prompt-add/`));
    const copyId = new URL(page.url()).pathname.split('/').pop()!;
    const copied = await apiIn(page, targetId, 'GET', `/api/v1/console/prompts/${copyId}`);
    expect(copied).toMatchObject({ name: 'Summariser (copy)', content: 'Summarise {text} in {words} words.' });

    // The app store: the read-only flow, a copy (its flow uses no knowledge base or tool).
    await page.goto(`${studio.url}/operation/store/app`);
    await expect.poll(() => cards.count()).toBe(1);
    await cards.first().getByTestId('store-card-open').click();
    await page.getByTestId('store-detail').waitFor();
    await page.locator('.react-flow__node').first().waitFor();
    await look(page, 'stores-08-app-detail-en');
    await page.getByTestId('store-copy').click();
    await dialog.getByTestId('store-copy-mapping').getByText('The app uses no knowledge base or tool').waitFor();
    await dialog.getByTestId('store-copy-submit').click();
    await dialog.getByTestId('store-copy-done').waitFor();
    await expect.poll(() => page.getByTestId('store-detail-copies').textContent()).toBe('1');
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    // The app's distribute tab shows the store's review.
    await page.goto(`${studio.url}/operation/app/${appId}/agent-flow/distribute`);
    await expect.poll(() => page.getByTestId('distribution-card-store').getByTestId('distribution-review').textContent()).toContain('Released');

    // A tool with an API key: published to the store from its page (released here by the API); its copy
    // has no credential until the copy dialog gives it one of the target space.
    const sourceKey = await apiIn(page, workspaceId, 'POST', '/api/v1/console/credentials', { identifier: 'weather key', sk: 'sk-source-secret' });
    const tool = await apiIn(page, workspaceId, 'POST', '/api/v1/console/tools', { name: 'Weather', intro: 'Today’s weather of a city', auth: { type: 'api_key', location: 'header', key: 'X-Key', credential_id: sourceKey.id } });
    const toolId = tool.id as string;
    await apiIn(page, workspaceId, 'POST', `/api/v1/console/tools/${toolId}/functions`, { name: 'forecast', url: 'https://weather.example/forecast' });
    await apiIn(page, workspaceId, 'POST', `/api/v1/console/tools/${toolId}/publish`, {});
    await page.goto(`${studio.url}/operation/workspace/${workspaceId}/tool/${toolId}`);
    await page.getByTestId('publish-to-store').click();
    await publish.getByTestId('publish-to-store-submit').click();
    await expect.poll(() => state.getAttribute('data-state')).toBe('awaiting_release');
    const toolItem = await apiIn(page, workspaceId, 'GET', `/api/v1/console/tools/${toolId}/distributions`);
    await apiIn(page, workspaceId, 'POST', `/api/v1/admin/store/tool/${toolItem.id}/release`, {});
    const copiesKey = await apiIn(page, targetId, 'POST', '/api/v1/console/credentials', { identifier: 'copies key', sk: 'sk-copies-secret' });
    await page.goto(`${studio.url}/operation/store/tool/${toolItem.id}`);
    await page.getByTestId('store-detail').getByText('forecast').first().waitFor();
    await look(page, 'stores-09-tool-detail-en');
    await page.getByTestId('store-copy').click();
    await dialog.getByRole('combobox', { name: 'Project space' }).click();
    await page.getByRole('option', { name: 'Copies' }).click();
    await dialog.getByTestId('store-copy-submit').click();
    const auth = dialog.getByTestId('store-tool-authorization');
    await expect.poll(() => auth.getByRole('combobox', { name: 'Credential' }).textContent()).toBe('copies key');
    await auth.getByTestId('store-tool-authorize').click();
    await expect.poll(() => auth.getByTestId('store-tool-authorized').textContent()).toBe('The copy uses the credential “copies key”');
    await look(page, 'stores-10-tool-copied-en');
    const toolCopyId = new URL(await dialog.getByTestId('store-copy-open').getAttribute('href') ?? '', studio.url).pathname.split('/').pop()!;
    const toolCopy = await apiIn(page, targetId, 'GET', `/api/v1/console/tools/${toolCopyId}`);
    expect(toolCopy.auth).toEqual({ type: 'api_key', location: 'header', key: 'X-Key', credential_id: copiesKey.id });
    await page.keyboard.press('Escape');

    // The same pages in Chinese.
    await page.evaluate(() => localStorage.setItem('weft.lang', 'zh'));
    await page.goto(`${studio.url}/operation/store/prompt`);
    await expect.poll(() => cards.count()).toBe(1);
    await look(page, 'stores-11-prompt-gallery-zh');
    await cards.first().getByTestId('store-card-open').click();
    await page.getByTestId('store-detail').waitFor();
    await look(page, 'stores-12-prompt-detail-zh');
    await page.goto(`${studio.url}/operation/store/app`);
    await cards.first().getByTestId('store-card-open').click();
    await page.locator('.react-flow__node').first().waitFor();
    await look(page, 'stores-13-app-detail-zh');
    await page.getByTestId('store-copy').click();
    await dialog.getByTestId('store-copy-mapping').waitFor();
    await look(page, 'stores-14-app-copy-dialog-zh');
    await page.keyboard.press('Escape');
    await page.goto(`${studio.url}/operation/system/store`);
    await page.getByRole('combobox', { name: '状态' }).click();
    await page.getByRole('option').nth(0).click();
    await expect.poll(() => page.getByTestId('system-store-row').count()).toBe(3);
    await look(page, 'stores-15-system-list-zh');
    await page.getByTestId('system-store-row').filter({ hasText: 'Summariser' }).getByTestId('system-store-open').click();
    await page.getByTestId('system-store-item').waitFor();
    await look(page, 'stores-16-system-item-prompt-zh');
    await page.goto(`${studio.url}/operation/store/knowledge`);
    await page.getByTestId('store-empty').waitFor();
    await look(page, 'stores-17-knowledge-empty-zh');
    await context.close();
  });

  it('goes through approval when the tenant turns it on: submitted, returned with a comment, resubmitted, agreed, then awaiting release (issue 33)', async () => {
    const opened = await admin.open({ viewport: VIEWPORT });
    const { context, page } = opened;
    const workspaceId = admin.workspaceId!;
    const APPROVER = { username: 'shen', password: 'Passw0rd123', realName: 'Shen Approver' };
    expect((await opened.api('POST', '/api/v1/admin/users', APPROVER)).status).toBe(200);

    // The tenant admin turns approval on for store submissions, with Shen as approver (person picker).
    await page.goto(`${studio.url}/operation/system/approval`);
    await page.getByTestId('approval-settings-page').getByTestId('approval-setting-store').click();
    await page.getByTestId('picker-field').getByRole('button').last().click();
    await page.getByTestId('picker-search').fill('Shen');
    await page.locator('[data-testid^="picker-user-checkbox-"]').first().click();
    await expect.poll(() => page.getByTestId('picker-selected').textContent()).toContain(APPROVER.realName);
    await page.getByTestId('picker-confirm').click();
    await expect.poll(() => page.getByTestId('picker-field').textContent()).toContain(APPROVER.realName);
    await page.getByTestId('approval-settings-save').click();
    await page.getByText('Approval settings saved').first().waitFor();
    await look(page, 'approvals-01-settings-en');

    // The space's owner submits a prompt: it waits for approval, not for release.
    const prompt = await sessionApi(page, 'POST', '/api/v1/console/prompts', { name: 'Release notes writer', description: 'Drafts release notes', content: 'Write release notes for {changes}.', template_type: 'f-string', tags: [] });
    const promptPage = `${studio.url}/operation/workspace/${workspaceId}/prompt-add/${prompt.data.id as string}`;
    await page.goto(promptPage);
    const state = page.getByTestId('store-state');
    await expect.poll(() => state.getAttribute('data-state')).toBe('none');
    await page.getByTestId('publish-to-store').click();
    await page.getByTestId('publish-to-store-submit').click();
    await expect.poll(() => page.getByTestId('store-approval').getAttribute('data-state')).toBe('processing');
    expect(await state.getAttribute('data-state')).not.toBe('awaiting_release');

    // The approver: the bell counts it, the approvals page lists it; returned with a comment.
    const approver = await signInAs(browser, studio.url, 'en', VIEWPORT, APPROVER);
    await expect.poll(() => approver.page.getByTestId('approval-bell').getAttribute('data-count')).toBe('1');
    await approver.page.getByTestId('approval-bell').click();
    await approver.page.waitForURL((u) => u.pathname === '/operation/approvals');
    const row = approver.page.getByTestId('approval-row').filter({ hasText: 'Release notes writer' });
    await expect.poll(() => row.getAttribute('data-state')).toBe('processing');
    await look(approver.page, 'approvals-02-todo-en');
    await row.getByTestId('approval-open').click();
    const dialog = approver.page.getByTestId('approval-dialog');
    await dialog.getByTestId('approval-return').click();
    await dialog.getByText('Say what to change before returning it').waitFor();
    await dialog.getByTestId('approval-comment').fill('Say which changes go in');
    await dialog.getByTestId('approval-return').click();
    await expect.poll(() => dialog.getByTestId('approval-state').getAttribute('data-state')).toBe('returned');
    await approver.page.keyboard.press('Escape');
    await expect.poll(() => approver.page.getByTestId('approval-bell').getAttribute('data-count')).toBe('0');

    // The submitter sees it returned with the comment (the item's page, the bell, My page) and resubmits.
    await page.goto(promptPage);
    await expect.poll(() => page.getByTestId('store-approval').getAttribute('data-state')).toBe('returned');
    expect(await page.getByTestId('store-approval').textContent()).toContain('Say which changes go in');
    await expect.poll(() => page.getByTestId('approval-bell').getAttribute('data-count')).toBe('1');
    await page.goto(`${studio.url}/operation/my`);
    await page.getByRole('tab', { name: /Approvals/ }).click();
    const mine = page.getByTestId('my-approvals-submitted');
    await expect.poll(() => mine.textContent()).toContain('Say which changes go in');
    await look(page, 'approvals-03-my-returned-en');
    await page.goto(promptPage);
    await page.getByTestId('publish-to-store').click();
    await page.getByTestId('publish-to-store-submit').click();
    await expect.poll(() => page.getByTestId('store-approval').getAttribute('data-state')).toBe('processing');

    // The approver agrees: the item reaches "awaiting release" (the store manager's review).
    await approver.page.reload();
    await expect.poll(() => row.getAttribute('data-state')).toBe('processing');
    await row.getByTestId('approval-open').click();
    expect(await dialog.getByTestId('approval-steps').textContent()).toContain('Say which changes go in');
    await dialog.getByTestId('approval-agree').click();
    await expect.poll(() => dialog.getByTestId('approval-state').getAttribute('data-state')).toBe('agreed');
    await look(approver.page, 'approvals-04-agreed-dialog-en');
    await approver.page.keyboard.press('Escape');
    await page.goto(promptPage);
    await expect.poll(() => state.getAttribute('data-state')).toBe('awaiting_release');
    expect(await page.getByTestId('store-approval').getAttribute('data-state')).toBe('agreed');

    // The pages with their real items, in both languages.
    for (const lang of ['en', 'zh'] as const) {
      await page.evaluate((l) => localStorage.setItem('weft.lang', l), lang);
      await page.goto(`${studio.url}/operation/approvals?box=mine`);
      await expect.poll(() => page.getByTestId('approval-row').filter({ hasText: 'Release notes writer' }).getAttribute('data-state')).toBe('agreed');
      await look(page, `approvals-05-mine-${lang}`);
      await page.goto(`${studio.url}/operation/my`);
      await page.getByRole('tab').nth(2).click();
      await expect.poll(() => page.getByTestId('my-approvals-submitted').textContent()).toContain('Release notes writer');
      await look(page, `approvals-06-my-approvals-${lang}`);
    }
    await page.evaluate(() => localStorage.setItem('weft.lang', 'en'));
    await approver.context.close();
    await context.close();
  });
});
