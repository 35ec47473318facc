import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import * as codeEditor from '../../../kit/widgets/code-editor';
import type { CodeEditorProps } from '../../../kit/widgets/code-editor';
import { createMemoryPromptApi, renderTemplate, type MemoryPromptOptions } from './memory-prompt-api';
import PromptAddPage from './prompt-add-page';
import { PromptApiContext } from './prompt-api';
import { useSession } from '../../session';

// Monaco does not run in jsdom: the content field is a plain text area here. Spied on, not vi.mock'ed:
// the file then runs in the shared module graph (vite.config.ts) instead of a worker of its own, and
// vitest restores the real editor after the file.
function TextAreaEditor({ value, onChange, id, ...rest }: CodeEditorProps) {
  return <textarea id={id} aria-invalid={rest['aria-invalid']} value={value} onChange={(e) => onChange(e.target.value)} />;
}
beforeAll(() => {
  vi.spyOn(codeEditor, 'CodeEditor').mockImplementation(TextAreaEditor);
});

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

/** The edit page of a prompt 'Hello {name}, about {topic}' whose saved model is OpenAI's. */
function setup(opts: MemoryPromptOptions = {}) {
  const api = createMemoryPromptApi({
    seed: [
      {
        name: 'greeting',
        content: 'Hello {name}, about {topic}',
        variables: [
          { name: 'name', description: 'who', default: 'Ada' },
          { name: 'topic', description: '', default: '' },
        ],
        model: { provider: 'openai', name: 'gpt-4o-mini' },
      },
    ],
    ...opts,
  });
  const router = createMemoryRouter([{ path: '/operation/workspace/:workspace_id/prompt-add/:promptId?', element: <PromptAddPage /> }], {
    initialEntries: [`/operation/workspace/${api.workspaceId}/prompt-add/${api.stored[0].id}`],
  });
  render(
    <PromptApiContext value={api}>
      <RouterProvider router={router} />
      <Toaster />
    </PromptApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const panel = async () => within(await screen.findByTestId('prompt-debug-panel', {}, { timeout: 4000 }));
const lastCall = (api: ReturnType<typeof createMemoryPromptApi>, method: string) => api.calls.filter((c) => c.method === method).at(-1)?.args[0] as Record<string, any>;

describe('PromptDebugPanel', () => {
  it('renders the memory stand-in templates like the server', () => {
    expect(renderTemplate('f-string', '{a} {{b}} {c}', { a: '1', c: '3' })).toBe('1 {b} 3');
    expect(renderTemplate('jinja2', '{{ a }}-{{b}}', { a: 'x', b: 'y' })).toBe('x-y');
  });

  it('runs the form’s content with the values and the saved model: streamed answer, rendered prompt, tokens', async () => {
    const { api, user } = setup({ debugChunks: ['Hi', ' there', '!'], debugDelayMs: 5 });
    const p = await panel();
    // A field per parsed variable, filled with the defaults.
    const name = await p.findByRole('textbox', { name: 'name' });
    expect(name).toHaveValue('Ada');
    await user.type(p.getByRole('textbox', { name: 'topic' }), 'cats');
    await waitFor(() => expect(p.getByRole('button', { name: 'Run' })).toBeEnabled());
    await user.click(p.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(p.getByTestId('prompt-answer')).toHaveTextContent('Hi there!'));
    expect(p.getByTestId('prompt-rendered')).toHaveTextContent('Hello Ada, about cats');
    expect(await p.findByText(/Tokens: \d+ in, 9 out, \d+ in all/)).toBeInTheDocument();
    expect(lastCall(api, 'debug')).toMatchObject({
      content: 'Hello {name}, about {topic}',
      template_type: 'f-string',
      variables: { name: 'Ada', topic: 'cats' },
      model: { provider: 'openai', name: 'gpt-4o-mini' },
    });
    expect(lastCall(api, 'debug').query).toBeUndefined();
  });

  it('stops a running answer: the stop call is made and the answer is marked stopped', async () => {
    const { api, user } = setup({ debugChunks: Array.from({ length: 100 }, (_, i) => `w${i} `), debugDelayMs: 20 });
    const p = await panel();
    await waitFor(() => expect(p.getByRole('button', { name: 'Run' })).toBeEnabled());
    await user.click(p.getByRole('button', { name: 'Run' }));
    await waitFor(() => expect(p.getByTestId('prompt-answer')).toHaveTextContent('w1'));
    await user.click(p.getByRole('button', { name: 'Stop' }));
    expect(await p.findByText('Stopped')).toBeInTheDocument();
    expect(lastCall(api, 'stopDebug')).toBe('m1');
    expect(p.getByTestId('prompt-answer').textContent!.split(' ').length).toBeLessThan(60);
    expect(p.getByRole('button', { name: 'Run' })).toBeInTheDocument();
  });

  it('optimizes: the rewrite can be discarded or accepted into the content', async () => {
    const { api, user } = setup({ optimize: (c) => `Be kind. ${c}` });
    const p = await panel();
    await user.click(await p.findByRole('button', { name: 'Optimize' }));
    const rewrite = await p.findByTestId('prompt-rewrite');
    expect(rewrite).toHaveTextContent('Be kind. Hello {name}, about {topic}');
    await user.click(within(rewrite).getByRole('button', { name: 'Discard' }));
    expect(p.queryByTestId('prompt-rewrite')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Content/ })).toHaveValue('Hello {name}, about {topic}');

    await user.click(p.getByRole('button', { name: 'Optimize' }));
    await user.click(within(await p.findByTestId('prompt-rewrite')).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Content/ })).toHaveValue('Be kind. Hello {name}, about {topic}'));
    expect(lastCall(api, 'optimize')).toMatchObject({ content: 'Hello {name}, about {topic}', model: { provider: 'openai', name: 'gpt-4o-mini' } });
  });

  it('shows why an optimization was refused', async () => {
    const { user } = setup({
      optimize: () => {
        throw new Error("The model's rewrite dropped {topic}");
      },
    });
    const p = await panel();
    await user.click(await p.findByRole('button', { name: 'Optimize' }));
    expect(await p.findByText("Optimization failed: The model's rewrite dropped {topic}")).toBeInTheDocument();
  });

  it('generates questions and sends one with the run', async () => {
    const { api, user } = setup({ questions: ['What is a cat?', 'Why purr?', 'Third?'] });
    const p = await panel();
    await user.click(await p.findByRole('button', { name: 'Generate questions' }));
    const item = (await p.findByText('Why purr?')).closest('li')!;
    expect(p.getByText('What is a cat?')).toBeInTheDocument();
    await user.click(within(item as HTMLElement).getByRole('button', { name: 'Ask' }));
    await waitFor(() => expect(lastCall(api, 'debug')).toMatchObject({ query: 'Why purr?' }));
    expect(p.getByRole('textbox', { name: /User question/ })).toHaveValue('Why purr?');
    await waitFor(() => expect(p.getByTestId('prompt-answer')).toHaveTextContent('Hello, world'));
    expect(lastCall(api, 'generateQuestions')).toMatchObject({ content: 'Hello {name}, about {topic}', count: 3, variables: { name: 'Ada', topic: '' } });
  });

  it('without models it says what is missing and every AI action is off before the click (issue 28)', async () => {
    // unit-dom shares modules between files (isolate: false): a file run before may have left an admin signed in.
    useSession.getState().setUser(null);
    setup({ models: [] });
    const p = await panel();
    // No session user here: not an administrator, so no link, "ask an administrator".
    expect(await p.findByTestId('no-model-notice')).toHaveTextContent('No chat model is configured. Please ask an administrator to add a model provider.');
    expect(within(p.getByTestId('no-model-notice')).queryByRole('link')).toBeNull();
    for (const name of ['Run', 'Optimize', 'Generate questions']) expect(p.getByRole('button', { name })).toBeDisabled();
  });
});
