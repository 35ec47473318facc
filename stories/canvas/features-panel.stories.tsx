import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { featuresOf, type AppFeatures, type FlowMode } from '../../schemas/flow';
import { builtinPlugins } from '../../src/canvas/builtin-plugins';
import { createFlowStore } from '../../src/canvas';
import { FeaturesDialog } from '../../src/canvas/editor/features-dialog';
import { FlowStoreProvider } from '../../src/canvas/react/flow-store-context';
import { createNodeRegistry } from '../../src/plugin-sdk';
import { Button } from '../../src/ui/button';
import { Toaster } from '../../src/ui/toast';

/** The app's features (chat apps) as the canvas toolbar's Features button opens them, drawn from AppFeatures' metadata. */

const registry = createNodeRegistry(builtinPlugins);

type Args = { mode: FlowMode; features?: Partial<AppFeatures>; readOnly?: boolean };

function Panel({ mode, features, readOnly }: Args) {
  const [store] = useState(() => {
    const s = createFlowStore({ registry, mode, readOnly: false });
    if (features) s.edit((d) => void (d.features = { ...featuresOf({}), ...features }));
    s.setReadOnly(Boolean(readOnly));
    return s;
  });
  const [open, setOpen] = useState(true);
  return (
    <FlowStoreProvider store={store}>
      <Button onClick={() => setOpen(true)}>Features</Button>
      <pre data-testid="saved-features" style={{ fontSize: 11 }}>
        {JSON.stringify(store.toDocument().features ?? null, null, 2)}
      </pre>
      <FeaturesDialog open={open} onOpenChange={setOpen} />
      <Toaster />
    </FlowStoreProvider>
  );
}

const meta = {
  title: 'Canvas/App features',
  render: (args) => <Panel {...args} />,
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A new app: the defaults (citations and feedback on, nothing else). */
export const Defaults: Story = { args: { mode: 'chatflow' } };

/** An app with an opening statement, questions shown two at a time, follow-ups and image upload. */
export const Filled: Story = {
  args: {
    mode: 'agent',
    features: {
      opening_statement: 'Hello! I answer questions about your orders and our return policy.',
      suggested_questions: ['Where is my order?', 'How do I return an item?', 'Do you ship abroad?'],
      suggested_questions_random_count: 2,
      suggested_questions_after_answer: true,
      file_upload: { enabled: true, types: ['image', 'document'], max_count: 5, image_detail: 'high' },
    },
  },
};

/** More questions shown than there are: the count says why it cannot be saved. */
export const CountAboveQuestions: Story = {
  args: { mode: 'chatflow' },
  play: async () => {
    const dialog = await screen.findByTestId('features-dialog');
    await userEvent.click(within(dialog).getByTestId('features-question-add'));
    await userEvent.type(within(dialog).getByTestId('features-question'), 'Where is my order?');
    const count = within(dialog.querySelector<HTMLElement>('[data-field="suggested_questions_random_count"]')!).getByRole('textbox');
    await userEvent.clear(count);
    await userEvent.type(count, '2');
    await userEvent.click(within(dialog).getByTestId('features-save'));
    await expect(await within(dialog).findByText('The number shown cannot exceed the number of suggested questions')).toBeInTheDocument();
  },
};

/** Saved into the flow document (what the canvas autosaves). */
export const Save: Story = {
  args: { mode: 'agent_team' },
  play: async ({ canvas }) => {
    const dialog = await screen.findByTestId('features-dialog');
    await userEvent.type(within(dialog.querySelector<HTMLElement>('[data-field="opening_statement"]')!).getByRole('textbox'), 'Hi there!');
    await userEvent.click(within(dialog).getByTestId('features-save'));
    await waitFor(() => expect(screen.queryByTestId('features-dialog')).toBeNull());
    await userEvent.click(canvas.getByRole('button', { name: 'Features' }));
    const again = await screen.findByTestId('features-dialog');
    await expect(within(again.querySelector<HTMLElement>('[data-field="opening_statement"]')!).getByRole('textbox')).toHaveValue('Hi there!');
  },
};

/** A published version opened read-only: values shown, nothing to save. */
export const ReadOnly: Story = { args: { ...Filled.args, readOnly: true } };
