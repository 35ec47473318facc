import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { featuresOf, type FlowMode } from '../../../schemas/flow';
import { builtinPlugins } from '../builtin-plugins';
import { i18n, initI18n } from '../../i18n';
import { createNodeRegistry } from '../../plugin-sdk';
import { Toaster } from '../../ui';
import { createFlowStore } from '../store/create-flow-store';
import { saveFeatures } from './features-dialog';
import { FlowEditor } from './flow-editor';
import { stubBrowserForReactFlow } from './test-setup';

const registry = createNodeRegistry(builtinPlugins);

function setup(mode: FlowMode = 'chatflow', readOnly = false) {
  const store = createFlowStore({ registry, mode, readOnly });
  render(
    <>
      <FlowEditor store={store} checklistDelayMs={0} />
      <Toaster />
    </>,
  );
  return { store, user: userEvent.setup() };
}

// Radix selects use pointer capture and scrollIntoView, which jsdom lacks.
beforeAll(async () => {
  stubBrowserForReactFlow();
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 30_000 });

const field = (dialog: HTMLElement, name: string) => dialog.querySelector<HTMLElement>(`[data-field="${name}"]`)!;

describe('the app features', () => {
  it('are written into the document as one undo step, only when they change', () => {
    const store = createFlowStore({ registry, mode: 'agent' });
    expect(store.toDocument().features).toBeUndefined();
    expect(saveFeatures(store, featuresOf(store.toDocument()))).toBe(false);
    expect(saveFeatures(store, { ...featuresOf({}), opening_statement: 'Hi', suggested_questions: ['a'], suggested_questions_random_count: 1 })).toBe(true);
    expect(store.toDocument().features).toMatchObject({ opening_statement: 'Hi', suggested_questions: ['a'], suggested_questions_random_count: 1 });
    expect(store.undo()).toBe(true);
    expect(store.toDocument().features).toBeUndefined();
  });

  it('have a Features button in chat modes only', () => {
    setup('workflow');
    expect(screen.queryByTestId('toolbar-features')).toBeNull();
    cleanup();
    setup('agent_team');
    expect(screen.getByTestId('toolbar-features')).toHaveTextContent('Features');
  });

  it('are edited in a form drawn from the schema: opening statement, questions with the shown count (never above their number), follow-ups, uploads', async () => {
    const { store, user } = setup('chatflow');
    await user.click(screen.getByTestId('toolbar-features'));
    const dialog = await screen.findByTestId('features-dialog');
    // The schema's groups and fields, with their defaults.
    expect(within(dialog).getByRole('region', { name: 'Opening' })).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Conversation' })).toBeInTheDocument();
    expect(within(field(dialog, 'citations')).getByRole('switch')).toBeChecked();
    expect(within(field(dialog, 'feedback')).getByRole('switch')).toBeChecked();
    expect(within(field(dialog, 'suggested_questions_after_answer')).getByRole('switch')).not.toBeChecked();
    expect(within(dialog).getByText('No suggested questions yet')).toBeInTheDocument();
    // The upload settings show their kinds, count and detail only once uploads are on.
    expect(field(dialog, 'file_upload.types')).toBeNull();

    await user.type(within(field(dialog, 'opening_statement')).getByRole('textbox'), 'Hello! Ask me about orders.');
    await user.click(within(dialog).getByTestId('features-question-add'));
    await user.type(within(dialog).getAllByTestId('features-question')[0], 'Where is my order?');
    await user.click(within(dialog).getByTestId('features-question-add'));
    await user.type(within(dialog).getAllByTestId('features-question')[1], 'How do I return an item?');
    const count = within(field(dialog, 'suggested_questions_random_count')).getByRole('textbox');
    await user.clear(count);
    await user.type(count, '3');
    await user.click(within(dialog).getByTestId('features-save'));
    expect(await within(field(dialog, 'suggested_questions_random_count')).findByText('The number shown cannot exceed the number of suggested questions')).toBeInTheDocument();
    expect(store.toDocument().features).toBeUndefined();

    // A third question makes 3 valid (the message goes as the form checks again).
    await user.click(within(dialog).getByTestId('features-question-add'));
    await user.type(within(dialog).getAllByTestId('features-question')[2], 'Do you ship abroad?');
    await waitFor(() => expect(within(field(dialog, 'suggested_questions_random_count')).queryByText('The number shown cannot exceed the number of suggested questions')).toBeNull());

    await user.click(within(field(dialog, 'suggested_questions_after_answer')).getByRole('switch'));
    await user.click(within(field(dialog, 'file_upload.enabled')).getByRole('switch'));
    expect(field(dialog, 'file_upload.types')).toBeInTheDocument();
    const max = within(field(dialog, 'file_upload.max_count')).getByRole('textbox');
    await user.clear(max);
    await user.type(max, '5');
    // Voice (issue 31): spoken answers on, voice input left off.
    await user.click(within(field(dialog, 'text_to_speech')).getByRole('switch'));
    await user.click(within(dialog).getByTestId('features-save'));
    await waitFor(() => expect(screen.queryByTestId('features-dialog')).toBeNull());
    expect(store.toDocument().features).toEqual({
      opening_statement: 'Hello! Ask me about orders.',
      suggested_questions: ['Where is my order?', 'How do I return an item?', 'Do you ship abroad?'],
      suggested_questions_random_count: 3,
      suggested_questions_after_answer: true,
      file_upload: { enabled: true, types: ['image'], max_count: 5, image_detail: 'low' },
      citations: true,
      feedback: true,
      speech_to_text: false,
      text_to_speech: true,
    });
    expect(await screen.findByText('Features updated')).toBeInTheDocument();

    // Undoable like every edit; the dialog opens on what the document holds.
    await user.click(screen.getByTestId('toolbar-undo'));
    expect(store.toDocument().features).toBeUndefined();
    await user.click(screen.getByTestId('toolbar-redo'));
    await user.click(screen.getByTestId('toolbar-features'));
    const again = await screen.findByTestId('features-dialog');
    expect(within(again).getAllByTestId('features-question').map((i) => (i as HTMLInputElement).value)).toEqual(['Where is my order?', 'How do I return an item?', 'Do you ship abroad?']);
  });

  it('refuse an empty suggested question', async () => {
    const { store, user } = setup('agent');
    await user.click(screen.getByTestId('toolbar-features'));
    const dialog = await screen.findByTestId('features-dialog');
    await user.click(within(dialog).getByTestId('features-question-add'));
    await user.click(within(dialog).getByTestId('features-save'));
    expect(await within(field(dialog, 'suggested_questions')).findByText('This form field is required!')).toBeInTheDocument();
    expect(store.toDocument().features).toBeUndefined();
    await user.click(within(dialog).getByRole('button', { name: 'Remove question 1' }));
    await user.click(within(dialog).getByTestId('features-save'));
    await waitFor(() => expect(screen.queryByTestId('features-dialog')).toBeNull());
    // Nothing changed from the defaults: the document stays without features.
    expect(store.toDocument().features).toBeUndefined();
  });

  it('are read-only in a read-only editor', async () => {
    const { user } = setup('chatflow', true);
    await user.click(screen.getByTestId('toolbar-features'));
    const dialog = await screen.findByTestId('features-dialog');
    expect(within(dialog).queryByTestId('features-save')).toBeNull();
    expect(within(dialog).queryByTestId('features-question-add')).toBeNull();
    expect(within(field(dialog, 'opening_statement')).getByRole('textbox')).toHaveAttribute('readonly');
  });
});
