/**
 * One error path for every console page (issue 28), in Chromium against the real server, in Chinese
 * and in English: what the server refuses is told from its code and data through the client's
 * catalogue (never the server's English sentence in the Chinese UI), once; a missing id on an id page
 * is an "unauthorized operation" that names what is missing; a missing knowledge base says it does not
 * exist instead of offering a retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { releaseBrowser, sessionApi, snap, startStudio, type RunningStudio } from './server';
import { launchWithScrollbars, recordToasts, seedConsole, signInAs, toastsOf, trackRequests, type Seeded } from './console-fixtures';

let studio: RunningStudio;
let browser: Browser;
let seeded: Seeded;

const BOGUS = '00000000-0000-4000-8000-0000000000b0';

const TEXT = {
  zh: {
    unauthorized: '无权操作',
    toolMissing: '工具不存在或无权访问',
    kbMissing: '知识库不存在或无权访问',
    unitMissing: '知识单元不存在或无权访问',
    functionMissing: '方法不存在或无权访问',
    noFunctions: '发布工具前请先添加至少一个方法',
    retry: '重试',
  },
  en: {
    unauthorized: 'Unauthorized operation',
    toolMissing: 'The tool does not exist or you have no permission',
    kbMissing: 'The knowledge base does not exist or you have no permission',
    unitMissing: 'The knowledge unit does not exist or you have no permission',
    functionMissing: 'The function does not exist or you have no permission',
    noFunctions: 'Add at least one function before publishing the tool',
    retry: 'Retry',
  },
} as const;

beforeAll(async () => {
  studio = await startStudio();
  browser = await launchWithScrollbars();
  const { context, page } = await signInAs(browser, studio.url, 'en', { width: 1280, height: 900 });
  await page.getByTestId('workspace-card').first().getByTestId('workspace-link').click();
  await page.waitForURL((u) => /\/app$/.test(u.pathname));
  seeded = await seedConsole(page);
  await context.close();
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
});

/** Latin words (three letters or more) in a Chinese sentence: server English leaking through. */
const english = (texts: string[]) => texts.filter((x) => /[A-Za-z]{3,}/.test(x.replace(/Weft|JSON|URL|ID/g, '')));

async function visit(page: Page, path: string): Promise<string[]> {
  trackRequests(page);
  await page.goto(`${studio.url}${path}`);
  await page.locator('[data-slot="page"]').first().waitFor();
  return toastsOf(page);
}

describe.each(['zh', 'en'] as const)('server refusals in %s', (lang) => {
  const T = TEXT[lang];
  const ws = () => `/operation/workspace/${seeded.workspaceId}`;

  it('a missing tool or function: one toast, "unauthorized operation", naming what is missing', async () => {
    const { context, page } = await signInAs(browser, studio.url, lang, { width: 1280, height: 900 });
    await recordToasts(context);
    const tool = await visit(page, `${ws()}/tool/${BOGUS}`);
    await snap(page, `console-errors-${lang}-missing-tool`);
    expect(tool).toEqual([`${T.unauthorized} ${T.toolMissing}`]);
    await expect.poll(() => page.locator('[data-slot="page"]').innerText()).toContain(T.toolMissing);

    const fn = await visit(page, `${ws()}/tool/${seeded.toolId}/capability/${BOGUS}`);
    expect(fn).toEqual([`${T.unauthorized} ${T.functionMissing}`]);
    await expect.poll(() => page.locator('[data-slot="page"]').innerText()).toContain(T.functionMissing);
    await context.close();
  });

  it('a missing knowledge base or unit says it does not exist, with no retry', async () => {
    const { context, page } = await signInAs(browser, studio.url, lang, { width: 1280, height: 900 });
    await recordToasts(context);
    const kb = await visit(page, `${ws()}/knowledge-unit?dataset_id=${BOGUS}`);
    await snap(page, `console-errors-${lang}-missing-kb`);
    const body = await page.locator('[data-slot="page"]').innerText();
    expect(body).toContain(T.kbMissing);
    expect(body).not.toContain(T.retry);
    // Nothing to add to a base that is not there.
    expect(await page.getByTestId('unit-add-text').count()).toBe(0);
    expect(kb).toEqual([`${T.unauthorized} ${T.kbMissing}`]);

    const unit = await visit(page, `${ws()}/knowledge-unit-details?dataset_id=${seeded.datasetId}&document_id=${BOGUS}`);
    expect(unit).toEqual([`${T.unauthorized} ${T.unitMissing}`]);
    await context.close();
  });

  it('a refusal in the middle of a page is told in the user’s language, from its code', async () => {
    const { context, page } = await signInAs(browser, studio.url, lang, { width: 1280, height: 900 });
    await recordToasts(context);
    // A custom tool without functions cannot be published (the server's rule).
    // Inside the project space first: the session's workspace is the one the tool is made in.
    await visit(page, `${ws()}/tool`);
    const empty = await sessionApi(page, 'POST', '/api/v1/console/tools', { name: `Empty ${lang}`, intro: '' });
    await visit(page, `${ws()}/tool/${empty.data.id}`);
    await page.getByRole('button', { name: lang === 'zh' ? '发布' : 'Publish', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: lang === 'zh' ? '发布' : 'Publish', exact: true }).click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { __toasts: string[] }).__toasts)).toHaveLength(1);
    const shown = await toastsOf(page);
    await snap(page, `console-errors-${lang}-publish-refused`);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toContain(T.noFunctions);
    if (lang === 'zh') expect(english(shown)).toEqual([]);
    await context.close();
  });
});
