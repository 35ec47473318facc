/**
 * A Python code node in Chromium against the real server (issue 26), in English and in Chinese:
 * choose Python 3 in the code node's language select (the editor swaps in Python's template and
 * highlights Python), type a function with spaces and indentation into Monaco, run the node alone in
 * the inspector's debug section with a typed input, and see its outputs; the draft keeps the code as
 * typed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import type { FlowDocument } from '../../schemas/flow';
import { launchBrowser, releaseBrowser, sessionApi, startStudio, type RunningStudio } from './server';
import { look, openAppWithDraft, signInOnce, type SignedIn } from './session-helpers';

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

/** start (text `q`) → code (JavaScript, the new node's template; input `text` = start.q) → end. */
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
        inputs: [{ name: 'text', selector: ['start', 'q'] }],
        outputs: [
          { name: 'shout', type: 'string' },
          { name: 'count', type: 'number' },
        ],
      },
    },
    { id: 'end', kind: 'end', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { outputs: [{ name: 'out', selector: ['code', 'shout'] }] } },
  ],
  edges: [
    { id: 'start-source-code-target', source: 'start', sourceHandle: 'source', target: 'code', targetHandle: 'target' },
    { id: 'code-source-end-target', source: 'code', sourceHandle: 'source', target: 'end', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});

/**
 * What is typed, line by line. Monaco indents the line after a colon by itself and keeps the indent
 * on the next line, and it closes brackets and quotes (typing the closer steps over it).
 */
const LINES = ['def main(text: str) -> dict:', 'words = text.split(" ")', 'return {"shout": text.upper() + " !", "count": len(words)}'];
const TYPED = 'def main(text: str) -> dict:\n    words = text.split(" ")\n    return {"shout": text.upper() + " !", "count": len(words)}';

const TEXTS = {
  en: { language: 'Language', python: 'Python 3', succeeded: 'Succeeded' },
  zh: { language: '语言', python: 'Python 3', succeeded: '成功' },
} as const;

/** The text of a Monaco editor as shown, line by line (it draws spaces as no-break spaces). */
const codeLines = (code: Locator) =>
  code.locator('.view-line').evaluateAll((els) =>
    els
      .map((el) => ({ top: parseFloat((el as HTMLElement).style.top) || 0, text: (el.textContent ?? '').replace(/\u00a0/g, ' ') }))
      .sort((a, b) => a.top - b.top)
      .map((l) => l.text)
      .join('\n'),
  );

describe('a Python code node in the editor', () => {
  // A retry makes its app under another name: the first attempt's app keeps its name.
  const attempts = { en: 0, zh: 0 };
  for (const lang of ['en', 'zh'] as const) {
    it(`chooses Python, types a function, runs it alone and shows the output (${lang})`, async () => {
      const t = TEXTS[lang];
      attempts[lang] += 1;
      const opened = await admin.open({ lang, viewport: { width: 1500, height: 950 } });
      const { context, page } = opened;
      const appId = await openAppWithDraft(opened, studio.url, { name: `Python ${lang}${attempts[lang] > 1 ? ` ${attempts[lang]}` : ''}`, mode: 'workflow' }, workflowDoc());
      const editor = page.getByTestId('flow-editor');
      await expect.poll(() => editor.locator('.react-flow__node').count(), { timeout: 20_000 }).toBe(3);

      await editor.getByTestId('node-code').click();
      const inspector = page.getByTestId('inspector-slot').locator('[data-slot="node-inspector"]');
      await expect.poll(() => inspector.getAttribute('data-kind')).toBe('code');
      const code = inspector.locator('[data-field="code"] [data-slot="code-editor"][data-state="ready"]');
      await expect.poll(() => code.count(), { timeout: 30_000 }).toBe(1);
      expect(await codeLines(code)).toContain('function main({ arg1, arg2 })');

      // Python 3: the template becomes Python's, highlighted as Python.
      await inspector.locator('[data-field="language"]').getByRole('combobox', { name: t.language }).click();
      await page.getByRole('option', { name: t.python }).click();
      await expect.poll(() => inspector.locator('[data-field="code"] [data-mode-id="python"]').count(), { timeout: 30_000 }).toBe(1);
      await expect.poll(() => codeLines(code)).toContain('def main(arg1: str, arg2: str) -> dict:');
      await look(page, `code-python-${lang}-01-template`);

      // Type a function over it: spaces, indentation and brackets as written.
      await code.locator('.view-lines').click();
      await page.keyboard.press('Control+A');
      await page.keyboard.press('Delete');
      for (const [i, line] of LINES.entries()) {
        if (i) await page.keyboard.press('Enter');
        await page.keyboard.type(line);
      }
      await expect.poll(() => codeLines(code)).toBe(TYPED);
      // The draft keeps it as typed (autosave).
      await expect.poll(() => page.getByTestId('save-status').getAttribute('data-status'), { timeout: 15_000 }).toBe('saved');
      const draft = await sessionApi(page, 'GET', `/api/v1/console/apps/${appId}/workflow`);
      expect((draft.data.document as FlowDocument).nodes.find((n) => n.id === 'code')!.config).toMatchObject({ language: 'python3', code: TYPED });

      // Run the node alone with a typed input: its outputs show.
      const run = inspector.getByTestId('single-run');
      await run.locator('summary').first().click();
      await run.locator('[data-testid^="single-run-field-"]').locator('input, textarea').first().fill('hello weft');
      await run.getByTestId('single-run-start').click();
      const result = run.getByTestId('single-run-result');
      await expect.poll(() => result.count(), { timeout: 60_000 }).toBe(1);
      // The server loads Python on its first Python job: seconds, more on a loaded machine.
      await expect.poll(() => result.getAttribute('data-status'), { timeout: 90_000 }).not.toBe('running');
      const status = await result.getAttribute('data-status');
      if (status !== 'succeeded') throw new Error(`The run ended ${status}: ${await result.textContent()}`);
      const outputs = await result.getByTestId('single-run-outputs').textContent();
      expect(outputs).toContain('"shout": "HELLO WEFT !"');
      expect(outputs).toContain('"count": 2');
      expect(await result.getByTestId('run-status').textContent()).toBe(t.succeeded);
      await run.scrollIntoViewIfNeeded();
      await look(page, `code-python-${lang}-02-run`);
      await context.close();
    });
  }
});
