import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import * as codeEditor from '../../../kit/widgets/code-editor';
import type { CodeEditorProps } from '../../../kit/widgets/code-editor';
import { createMemoryPromptApi, parseTemplate, type MemoryPromptOptions } from './memory-prompt-api';
import PromptAddPage from './prompt-add-page';
import { PromptApiContext } from './prompt-api';
import PromptsPage from './prompts-page';
import { mergeVariables } from './variables-widget';

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
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

function setup(opts: MemoryPromptOptions = {}, start?: string) {
  const api = createMemoryPromptApi({
    seed: [{ name: 'support reply', tags: ['support'], template_type: 'jinja2', scene: 'retrieval_chain', content: 'Answer {{ question }}', variables: [{ name: 'question', description: 'asked', default: '' }] }],
    ...opts,
  });
  const base = `/operation/workspace/${api.workspaceId}`;
  const router = createMemoryRouter(
    [
      { path: '/operation/workspace/:workspace_id/prompt', element: <PromptsPage /> },
      { path: '/operation/workspace/:workspace_id/prompt-add/:promptId?', element: <PromptAddPage /> },
    ],
    { initialEntries: [start ? `${base}/${start}` : `${base}/prompt`] },
  );
  render(
    <PromptApiContext value={api}>
      <RouterProvider router={router} />
      <Toaster />
    </PromptApiContext>,
  );
  return { api, router, user: userEvent.setup() };
}

const row = (name: string) => screen.findByRole('row', { name: new RegExp(name) }, { timeout: 4000 });

describe('PromptsPage', () => {
  it('lists prompts with tags, template type and scene labels', async () => {
    setup();
    const r = await row('support reply');
    expect(within(r).getByText('support')).toBeInTheDocument();
    expect(within(r).getByText('Jinja2')).toBeInTheDocument();
    expect(within(r).getByText('Retrieval chain')).toBeInTheDocument();
  });

  it('deletes after confirming', async () => {
    const { api, user } = setup();
    await user.click(within(await row('support reply')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this prompt?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No prompts yet')).toBeInTheDocument();
    expect(api.stored).toHaveLength(0);
  });

  it('creates a prompt: required messages, variables parsed by the server, back to the list', async () => {
    const { api, user, router } = setup();
    await row('support reply');
    await user.click(screen.getByRole('button', { name: 'New prompt' }));
    expect(await screen.findByRole('heading', { name: 'New prompt' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText('This form field is required!')).toHaveLength(2);

    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'greeting');
    await user.click(screen.getByRole('textbox', { name: /^Content/ }));
    await user.paste('Hi {name}, about {topic}');
    // f-string is the default template type: {name} and {topic} are its variables.
    await waitFor(() => expect(screen.getByTestId('prompt-variables').querySelectorAll('tr[data-variable]')).toHaveLength(2), { timeout: 3000 });
    expect(api.calls.some((c) => c.method === 'parseVariables' && c.args[0] === 'f-string')).toBe(true);
    await user.type(screen.getByRole('textbox', { name: 'Description topic' }), 'what to talk about');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(router.state.location.pathname).toMatch(/\/prompt$/));
    expect(api.calls.find((c) => c.method === 'create')?.args[0]).toMatchObject({
      name: 'greeting',
      content: 'Hi {name}, about {topic}',
      template_type: 'f-string',
      variables: [
        { name: 'name', description: '', default: '' },
        { name: 'topic', description: 'what to talk about', default: '' },
      ],
    });
    expect(await row('greeting')).toBeInTheDocument();
  });

  it('edits an existing prompt and shows a template error with its position', async () => {
    const { api, user } = setup();
    const id = api.stored[0].id;
    await user.click(within(await row('support reply')).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByRole('heading', { name: 'Edit prompt' })).toBeInTheDocument();
    const content = await screen.findByRole('textbox', { name: /^Content/ });
    expect(content).toHaveValue('Answer {{ question }}');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Description question' })).toHaveValue('asked'));
    await user.click(content);
    await user.paste(' {{ broken');
    expect(await screen.findByText(/Template error \(line 1, column 23\): Unclosed placeholder/, {}, { timeout: 3000 })).toBeInTheDocument();
    expect(api.stored[0].id).toBe(id);
  });

  it('marks the same fields required on the edit form as on the new one, with no clear button on them', async () => {
    const required = () => Array.from(document.querySelectorAll('main [aria-required="true"], [data-testid="prompt-add-page"] [aria-required="true"]')).map((el) => el.closest('[data-slot="field"]')?.querySelector('label')?.textContent ?? '');
    const clears = () => screen.queryAllByRole('button', { name: 'Clear' }).length;
    const { api } = setup({}, 'prompt-add');
    await screen.findByRole('heading', { name: 'New prompt' });
    const create = { required: required(), clears: clears() };
    cleanup();
    setup({}, `prompt-add/${api.stored[0].id}`);
    await screen.findByRole('textbox', { name: /^Content/ });
    expect(create.required.length).toBeGreaterThan(0);
    expect({ required: required(), clears: clears() }).toEqual(create);
  });

  it('shows "not found" for a prompt that does not exist', async () => {
    setup({}, 'prompt-add/0a000000-0000-4000-8000-00000000ffff');
    expect(await screen.findByText('The prompt does not exist or was deleted')).toBeInTheDocument();
  });

  it('hides changes from an ordinary member', async () => {
    setup({ role: 'ordinary_member' });
    const r = await row('support reply');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'New prompt' })).not.toBeInTheDocument());
    expect(within(r).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});

describe('mergeVariables', () => {
  it('keeps the description and default of names that remain, in the new order', () => {
    const current = [
      { name: 'a', description: 'A', default: '1' },
      { name: 'b', description: 'B', default: '' },
    ];
    expect(mergeVariables(['b', 'c'], current)).toEqual([
      { name: 'b', description: 'B', default: '' },
      { name: 'c', description: '', default: '' },
    ]);
  });

  it('matches the fake parser used by the stories', () => {
    expect(parseTemplate('f-string', 'x {a} {{b}} {c} {a}')).toEqual(['a', 'c']);
    expect(parseTemplate('jinja2', '{{ a }} {{b}}')).toEqual(['a', 'b']);
  });
});
