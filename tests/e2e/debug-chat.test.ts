/**
 * The debug chat in Chromium against the real server and a fake OpenAI-compatible provider speaking
 * the real protocol: sign in as admin, point the OpenAI provider at the fake in the admin model
 * screen, create a chatflow app with start → llm → answer as its draft through the API, open the
 * editor, chat in the debug pane, and see the streamed answer, the nodes' status and the trace; then
 * find the run in the log tab with the same trace.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import type { FlowDocument } from '../../schemas/flow';
import { ANSWER_CHUNKS, fakeOpenAi, GOOD_KEY, type FakeServer } from '../api/fake-providers';
import { fakeSpeech, FIXTURES, type FakeSpeech } from '../api/fake-speech';
import { scriptedOpenAi, type ScriptedModel } from '../api/runs-kit';
import { launchBrowser, releaseBrowser, startStudio, type RunningStudio } from './server';
import { look, openAppWithDraft, signInOnce, type SignedIn } from './session-helpers';

let studio: RunningStudio;
let browser: Browser;
let fake: FakeServer;
/** The agent team's model: the triage agent hands off to billing, which answers. */
let team: ScriptedModel;
/** The tenant's speech models (the voice test). */
let speech: FakeSpeech;
/** The seeded admin, signed in through the login page once; each test's context starts signed in. */
let admin: SignedIn;

beforeAll(async () => {
  fake = await fakeOpenAi();
  team = await scriptedOpenAi((body) => {
    const system = body.messages[0]?.role === 'system' ? String(body.messages[0].content) : '';
    if (system.startsWith('You triage.')) return { tool: 'transfer_to_billing', args: '{"reason":"an invoice question"}' };
    if (system.startsWith('You do billing.')) return 'Your invoice is fixed: the refund is on its way.';
    return 'Hello.';
  });
  // The fake providers are local model servers: the operator's allow-list opens exactly them.
  speech = await fakeSpeech();
  studio = await startStudio({ WEFT_OUTBOUND_ALLOW: [fake.baseUrl, team.baseUrl, speech.baseUrl].map((u) => new URL(u).host).join(',') });
  // Chromium's fake microphone says the espeak-ng fixture (the voice test); answers may play without a gesture.
  browser = await launchBrowser([
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${fileURLToPath(new URL('ask-en.wav', FIXTURES))}`,
    '--autoplay-policy=no-user-gesture-required',
  ]);
  admin = await signInOnce(browser, studio.url, undefined, { workspace: true });
});

afterAll(async () => {
  await releaseBrowser(browser);
  await studio?.stop();
  await fake?.close();
  await team?.close();
  await speech?.close();
});

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
});

const deepseek = { provider: 'deepseek', name: 'deepseek-chat', mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } };
const agentNode = (id: string, title: string, x: number, y: number, config: Record<string, unknown>) => ({
  id,
  kind: 'agent',
  kindVersion: 2,
  title,
  position: { x, y },
  config: { model: deepseek, ...config },
});
/** An agent team: start → Triage → answer; Billing stands apart and takes Triage's hand-offs. */
const teamDoc = (): FlowDocument => ({
  schemaVersion: 1,
  mode: 'agent_team',
  nodes: [
    { id: 'start', kind: 'start', kindVersion: 1, title: '', position: { x: 80, y: 200 }, config: { variables: [] } },
    agentNode('triage', 'Triage', 420, 200, { instructions: 'You triage.', handoffs: ['billing'] }),
    { id: 'answer', kind: 'answer', kindVersion: 1, title: '', position: { x: 760, y: 200 }, config: { answer: '{{#triage.text#}}' } },
    agentNode('billing', 'Billing', 420, 420, { instructions: 'You do billing.', handoffDescription: 'Invoices and refunds' }),
  ],
  edges: [
    { id: 'start-source-triage-target', source: 'start', sourceHandle: 'source', target: 'triage', targetHandle: 'target' },
    { id: 'triage-source-answer-target', source: 'triage', sourceHandle: 'source', target: 'answer', targetHandle: 'target' },
  ],
  variables: { env: [], conversation: [] },
  notes: '',
});



/** Opens an answer's trace (a click toggles it: the answer may still be turning from the live one into the finished one). */
async function openTrace(pane: Locator): Promise<void> {
  const details = pane.getByTestId('chat-trace').last();
  await expect
    .poll(async () => {
      if (!(await details.evaluate((e) => (e as HTMLDetailsElement).open))) await details.locator('summary').first().click();
      return details.evaluate((e) => (e as HTMLDetailsElement).open);
    })
    .toBe(true);
}

describe('the debug chat', () => {
  it('streams the answer of a start → llm → answer chatflow and shows its trace', async () => {
    const opened = await admin.open({ viewport: { width: 1500, height: 900 } });
    const { context, page } = opened;

    // The admin model screen: OpenAI pointed at the fake server.
    await page.goto(`${studio.url}/operation/system/model`);
    const openai = page.getByTestId('provider-openai');
    // A retry of this test finds the provider set up by the first attempt.
    const setUp = openai.getByRole('button', { name: 'Set up OpenAI', exact: true });
    const configured = openai.getByText('Configured', { exact: true });
    await expect.poll(async () => (await setUp.count()) + (await configured.count())).toBeGreaterThan(0);
    if ((await configured.count()) === 0) {
      await setUp.click();
      const dialog = page.getByRole('dialog', { name: 'OpenAI credentials' });
      await dialog.getByLabel(/^API key/).fill(GOOD_KEY);
      await dialog.getByLabel(/^API base URL/).fill(fake.baseUrl);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    }
    await expect.poll(() => openai.getByText('Configured').count()).toBe(1);

    // A chatflow app in the default project space, its draft loaded through the API.
    const appId = await openAppWithDraft(opened, studio.url, { name: 'Debug chat', mode: 'chatflow' }, chatDoc());

    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-llm').isVisible()).toBe(true);
    // The LLM's inspector offers the tenant's models from the model API, the node's own chosen.
    await editor.getByTestId('node-llm').click();
    const picker = page.getByRole('combobox', { name: 'Model', exact: true });
    // The kit's Select shows the node's own model; its list (opened) offers the tenant's.
    await expect.poll(() => picker.textContent()).toContain('GPT-4o mini · openai');
    await picker.click();
    await expect.poll(() => page.getByRole('option', { name: 'GPT-4o mini · openai' }).count()).toBe(1);
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('checklist-count').textContent()).toBe('0');
    // A click on the empty canvas closes the inspector (the whole flow stays in view).
    await editor.locator('.react-flow__pane').click({ position: { x: 700, y: 80 } });
    await expect.poll(() => page.getByRole('combobox', { name: 'Model', exact: true }).count()).toBe(0);

    // Open the debug pane and chat.
    await page.getByTestId('debug-open').click();
    const pane = page.getByTestId('debug-pane');
    await pane.getByTestId('chat-input').fill('Say hello');
    await pane.getByTestId('chat-send').click();
    const answer = pane.getByTestId('chat-answer-text');
    await expect.poll(() => answer.textContent(), { timeout: 30_000 }).toBe(ANSWER_CHUNKS.join(''));
    await expect.poll(() => pane.getByTestId('chat-answer').getAttribute('data-status')).toBe('succeeded');
    await expect.poll(() => editor.getByTestId('node-llm').getAttribute('data-run-status')).toBe('succeeded');
    expect(await editor.getByTestId('node-answer').getAttribute('data-run-status')).toBe('succeeded');
    // The fake model answered a streamed request with the user's text.
    const sent = fake.requests.find((r) => r.path === '/v1/chat/completions');
    expect(JSON.stringify(sent?.body)).toContain('Say hello');

    await openTrace(pane);
    const llmRow = pane.getByTestId('trace-item-llm');
    await expect.poll(() => llmRow.getAttribute('data-status')).toBe('succeeded');
    expect(await llmRow.textContent()).toContain('17 tokens');
    await llmRow.locator('summary').first().click();
    await llmRow.getByTestId('trace-outputs').locator('summary').click();
    expect(await llmRow.getByTestId('trace-outputs').textContent()).toContain(ANSWER_CHUNKS.join(''));
    await look(page, 'debug-01-chat-trace');

    // The log tab lists the run; its trace opens in the sheet.
    await page.goto(`${studio.url}/operation/app/${appId}/agent-flow/log`);
    const row = page.locator('[data-testid^="run-row-"]').first();
    await expect.poll(() => row.textContent()).toContain('Say hello');
    await row.getByRole('button', { name: 'View' }).click();
    const sheet = page.getByTestId('run-sheet');
    await expect.poll(() => sheet.getByTestId('trace-item-llm').count()).toBe(1);
    await look(page, 'debug-02-log-trace');
    await context.close();
  });

  it('runs an agent team: the triage agent hands off, the billing agent answers, the trace shows the chain', async () => {
    const opened = await admin.open({ viewport: { width: 1500, height: 900 } });
    const { context, page } = opened;
    // DeepSeek (OpenAI-compatible) pointed at the scripted model, through the admin API.
    expect((await opened.api('POST', '/api/v1/admin/models/model-providers/deepseek/credentials', { credentials: { base_url: team.baseUrl, api_key: GOOD_KEY } })).status).toBe(200);

    await openAppWithDraft(opened, studio.url, { name: 'Help desk', mode: 'agent_team' }, teamDoc());

    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-billing').isVisible()).toBe(true);
    // Billing has no edges: a team member, not an unconnected step (nothing on the checklist).
    await page.getByTestId('toolbar-checklist').click();
    await expect.poll(() => page.getByTestId('checklist-count').textContent()).toBe('0');
    expect(await page.getByTestId('checklist-entry-billing').count()).toBe(0);
    await page.getByTestId('toolbar-checklist').click();

    await page.getByTestId('debug-open').click();
    const pane = page.getByTestId('debug-pane');
    await pane.getByTestId('chat-input').fill('My invoice is wrong');
    await pane.getByTestId('chat-send').click();
    await expect.poll(() => pane.getByTestId('chat-answer-text').textContent(), { timeout: 30_000 }).toBe('Your invoice is fixed: the refund is on its way.');
    await expect.poll(() => pane.getByTestId('chat-answer').getAttribute('data-status')).toBe('succeeded');
    // The billing agent got the same message, told about the hand-off.
    const billing = team.requests.map((r) => r.body).find((b) => String(b.messages[0]?.content).startsWith('You do billing.'));
    expect(billing.messages[0].content).toContain('"Triage" handed this conversation to "Billing" because: an invoice question');
    expect(billing.messages.at(-1)).toEqual({ role: 'user', content: 'My invoice is wrong' });

    await openTrace(pane);
    const row = pane.getByTestId('trace-item-triage');
    await expect.poll(() => row.getAttribute('data-status')).toBe('succeeded');
    expect(await row.getByTestId('trace-answered-by').textContent()).toBe('answered by Billing');
    await row.locator('summary').first().click();
    expect(await row.getByTestId('trace-handoffs').textContent()).toBe('Hand-offs: Triage → Billing (an invoice question)');
    await look(page, 'debug-03-agent-team');
    await context.close();
  });

  it("shows a failed model call in the trace in words, with the provider's message and the code", async () => {
    const opened = await admin.open({ viewport: { width: 1500, height: 900 } });
    const { context, page } = opened;
    const doc = chatDoc();
    const llm = doc.nodes.find((n) => n.id === 'llm')!;
    llm.config = { ...llm.config, model: { provider: 'anthropic', name: 'claude-sonnet-4-5', mode: 'chat', params: { temperature: 0.7, stop: [], response_format: 'text' } } };
    await openAppWithDraft(opened, studio.url, { name: 'Failing chat', mode: 'chatflow' }, doc);
    const editor = page.getByTestId('flow-editor');
    await expect.poll(() => editor.getByTestId('node-llm').isVisible()).toBe(true);
    // The checklist warns first (a warning: the run is not refused).
    await page.getByTestId('toolbar-checklist').click();
    await expect.poll(() => page.getByTestId('checklist-count').textContent()).toBe('1');
    expect(await page.getByTestId('checklist-entry-llm').textContent()).toContain('The model claude-sonnet-4-5 (anthropic) is not available in this workspace');
    // On the canvas the node's badge is amber (a warning), not red.
    expect(await editor.getByTestId('node-issues-llm').getAttribute('data-severity')).toBe('warning');
    await look(page, 'debug-04-checklist-model');
    await page.getByTestId('toolbar-checklist').click();

    await page.getByTestId('debug-open').click();
    const pane = page.getByTestId('debug-pane');
    await pane.getByTestId('chat-input').fill('Hello?');
    await pane.getByTestId('chat-send').click();
    await expect.poll(() => editor.getByTestId('node-llm').getAttribute('data-run-status'), { timeout: 30_000 }).toBe('failed');
    await openTrace(pane);
    const llmRow = pane.getByTestId('trace-item-llm');
    await llmRow.locator('summary').first().click();
    const error = llmRow.getByTestId('trace-error').first();
    await expect.poll(() => error.textContent()).toMatch(/^The model call failed: .*Anthropic.* MODEL-not_configured$/);
    await look(page, 'debug-04-failed-node');
    await context.close();
  });

  it('voice: the builder asks by microphone in the debug chat and hears the answer read aloud', async () => {
    const opened = await admin.open({ viewport: { width: 1500, height: 900 } });
    const { context, page } = opened;
    const models = async (method: string, path: string, body?: unknown) => {
      const r = await opened.api(method, `/api/v1/admin/models${path}`, body);
      expect(r.status, JSON.stringify(r.data).slice(0, 300)).toBe(200);
    };
    // The chat's model and the tenant's speech models (an OpenAI-compatible server, as defaults).
    await models('POST', '/model-providers/openai/credentials', { credentials: { base_url: fake.baseUrl, api_key: GOOD_KEY } });
    await models('POST', '/model-providers/openai_api_compatible/credentials', { credentials: { base_url: speech.baseUrl, api_key: GOOD_KEY } });
    for (const [model_type, model] of [['tts', 'tts-1'], ['speech2text', 'whisper-1']]) {
      await models('POST', '/model-providers/openai_api_compatible/models/model-custom', { model, model_type, label: model });
      await models('PUT', '/tenant-default', { model_type, provider: 'openai_api_compatible', model });
    }
    await openAppWithDraft(opened, studio.url, { name: 'Voice debug', mode: 'chatflow' }, chatDoc());
    await expect.poll(() => page.getByTestId('flow-editor').getByTestId('node-llm').isVisible()).toBe(true);

    await page.getByTestId('debug-open').click();
    const pane = page.getByTestId('debug-pane');
    const bar = pane.getByTestId('voice-bar');
    const mic = bar.getByTestId('voice-mic');
    await expect.poll(() => mic.isEnabled()).toBe(true);
    // The app's spoken answers are off: the builder turns reading aloud on here.
    await bar.getByTestId('voice-speaker').click();
    expect(await bar.getByTestId('voice-speaker').getAttribute('aria-pressed')).toBe('true');
    speech.transcript = 'Say hello';
    const before = speech.speech.length;
    await mic.click();
    await expect.poll(() => bar.getAttribute('data-mic')).toBe('recording');
    await page.waitForTimeout(1500);
    await mic.click();
    // The recording was written down and sent; the answer is written and read aloud.
    await expect.poll(() => pane.getByTestId('chat-question').last().textContent(), { timeout: 30_000 }).toContain('Say hello');
    await expect.poll(() => pane.getByTestId('chat-answer').last().getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded');
    await expect.poll(async () => Number(await bar.getAttribute('data-spoken')), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(speech.transcriptions.at(-1)).toMatchObject({ model: 'whisper-1', fileType: expect.stringMatching(/^audio\/webm/) });
    expect(speech.speech.slice(before).map((r) => r.input).join(' ')).toBe(ANSWER_CHUNKS.join('').trim());
    await look(page, 'debug-05-voice');
    await context.close();
  });
});
