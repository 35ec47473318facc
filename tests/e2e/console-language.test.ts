/**
 * The console in the user's language (issue 28), in Chromium against the real server: the built-in
 * tools, parameter locations and column headers, and the seeded project space and administrator read
 * in Chinese in the Chinese UI; the prompt editor wraps its lines and has no minimap; with no model
 * configured, prompt debug, optimize, test questions and Q&A generation are disabled before the click, saying what is
 * missing, with a link to System › Models for an administrator and "ask an administrator" for others.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { releaseBrowser, snap, startStudio, type RunningStudio } from './server';
import { consolePages, launchWithScrollbars, MEMBER, openPage, seedConsole, signInAs, type Seeded } from './console-fixtures';

let studio: RunningStudio;
let browser: Browser;
let seeded: Seeded;

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

const text = (page: Page, selector = '#main') => page.locator(selector).first().innerText();

describe('the Chinese console', () => {
  it('shows built-in tools, parameter locations, headers and the seeded names in Chinese', async () => {
    const { context, page } = await signInAs(browser, studio.url, 'zh', { width: 1440, height: 900 });
    const pages = consolePages(seeded);

    await openPage(page, studio.url, pages.tools);
    await snap(page, 'console-language-zh-tools');
    const tools = await text(page);
    for (const english of ['The current date and time in a time zone', 'Evaluates an arithmetic expression', 'Fetches a web page and returns its readable text']) expect(tools).not.toContain(english);
    expect(tools).toContain('当前日期和时间');

    await openPage(page, studio.url, pages.function);
    await snap(page, 'console-language-zh-function');
    const params = page.getByRole('table', { name: '请求参数' });
    const locations = await params.getByRole('combobox', { name: '参数位置' }).allInnerTexts();
    expect(locations.map((x) => x.trim())).toEqual(['路径', '查询']);
    const headers = (await page.locator('main th').allInnerTexts()).map((h) => h.trim());
    expect(headers.filter((h) => /[A-Za-z]/.test(h))).toEqual([]);

    await openPage(page, studio.url, pages.home);
    const home = await text(page, 'body');
    expect(home).not.toContain('Default project space');
    expect(home).not.toContain('Administrator');
    expect(home).toContain('默认项目空间');
    // The seeded admin has no real name: the user menu names them by their username, in any language.
    expect(await page.getByTestId('user-menu-trigger').innerText()).toContain('admin');
    await openPage(page, studio.url, pages.members);
    await snap(page, 'console-language-zh-members');
    expect(await text(page, 'body')).not.toContain('Default project space');
    expect(await page.getByTestId('breadcrumb').innerText()).toContain('默认项目空间');
    await context.close();
  });
});

describe('the prompt editor', () => {
  it('wraps a long line and shows no minimap', async () => {
    const { context, page } = await signInAs(browser, studio.url, 'en', { width: 1280, height: 900 });
    await openPage(page, studio.url, consolePages(seeded).promptEdit);
    const editor = page.locator('[data-testid="prompt-add-page"] .monaco-editor').first();
    await editor.waitFor();
    await page.waitForTimeout(500);
    await snap(page, 'console-language-prompt-editor');
    // One line of content shown on more than one screen line: it wraps.
    await expect.poll(() => editor.locator('.view-line').count()).toBeGreaterThan(1);
    expect(await editor.locator('.minimap').evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetWidth > 0).length)).toBe(0);
    await context.close();
  });
});

describe.each([
  ['zh', 'admin'],
  ['en', 'member'],
] as const)('AI features with no model configured (%s, %s)', (lang, who) => {
  it('are disabled before the click and say what is missing', async () => {
    const { context, page } = await signInAs(browser, studio.url, lang, { width: 1280, height: 900 }, who === 'member' ? MEMBER : undefined);
    const pages = consolePages(seeded);
    const T =
      lang === 'zh'
        ? { run: '运行', optimize: '优化', questions: '生成问题', missing: '未配置对话模型', link: '系统 › 模型', ask: '请联系管理员' }
        : { run: 'Run', optimize: 'Optimize', questions: 'Generate questions', missing: 'No chat model is configured', link: 'System › Models', ask: 'ask an administrator' };

    await openPage(page, studio.url, pages.promptEdit);
    const debug = page.getByTestId('prompt-debug-panel');
    for (const name of [T.run, T.optimize, T.questions]) await expect.poll(() => debug.getByRole('button', { name, exact: true }).isDisabled()).toBe(true);
    const notice = debug.getByTestId('no-model-notice');
    expect(await notice.innerText()).toContain(T.missing);
    await snap(page, `console-language-${lang}-${who}-prompt-no-model`);
    if (who === 'admin') {
      expect(await notice.getByRole('link', { name: T.link }).getAttribute('href')).toBe('/operation/system/model');
    } else {
      expect(await notice.innerText()).toContain(T.ask);
      expect(await notice.getByRole('link').count()).toBe(0);
    }

    // Q&A generation of a knowledge unit: the same state before the click.
    await openPage(page, studio.url, `${pages.unitDetails}&tab=qa`);
    const generate = page.getByTestId('qa-generate');
    await expect.poll(() => generate.isDisabled()).toBe(true);
    const qaNotice = page.getByTestId('qa-generation').getByTestId('no-model-notice');
    expect(await qaNotice.innerText()).toContain(T.missing);
    if (who === 'admin') expect(await qaNotice.getByRole('link', { name: T.link }).getAttribute('href')).toBe('/operation/system/model');
    else expect(await qaNotice.getByRole('link').count()).toBe(0);
    await snap(page, `console-language-${lang}-${who}-qa-no-model`);

    await context.close();
  });
});
