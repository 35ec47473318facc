import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn, screen, waitFor } from 'storybook/test';
import { Button } from '../../src/ui/button';
import { ConfirmDialog, ConfirmHost, confirm } from '../../src/ui/confirm-dialog';

const meta = {
  title: 'UI/ConfirmDialog',
  component: ConfirmDialog,
  args: {
    open: true,
    onOpenChange: fn(),
    onConfirm: fn(),
    title: 'Delete "Customer support bot"?',
    description: 'The app, its logs and its published links are removed. This cannot be undone.',
    danger: true,
    confirmLabel: 'Delete',
  },
} satisfies Meta<typeof ConfirmDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Danger: Story = {
  play: async ({ args, userEvent }) => {
    const dialog = await screen.findByRole('alertdialog', { name: /Delete/ });
    await waitFor(() => expect(dialog).toBeVisible());
    // Focus starts on Cancel so Enter does not destroy anything.
    await expect(screen.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await expect(args.onConfirm).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(args.onOpenChange).toHaveBeenCalledWith(false));
  },
};

export const Neutral: Story = {
  args: { danger: false, title: 'Publish this version?', description: undefined, confirmLabel: 'Publish' },
};

export const Pending: Story = {
  args: { onConfirm: fn(() => new Promise<void>(() => {})) },
  play: async ({ userEvent }) => {
    const action = await screen.findByRole('button', { name: 'Delete' });
    await userEvent.click(action);
    await expect(action).toHaveAttribute('aria-busy', 'true');
  },
};

function ImperativeDemo() {
  const [result, setResult] = useState('none');
  const ask = async () => {
    const ok = await confirm({ title: 'Remove member?', description: 'They lose access at once.', danger: true, confirmLabel: 'Remove' });
    setResult(ok ? 'confirmed' : 'cancelled');
  };
  return (
    <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
      <Button variant="danger" onClick={ask}>
        Remove member
      </Button>
      <output aria-label="result">{result}</output>
      <ConfirmHost cancelLabel="Cancel" />
    </div>
  );
}

export const Imperative: Story = {
  render: () => <ImperativeDemo />,
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Remove member' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(canvas.getByLabelText('result')).toHaveTextContent('confirmed'));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());

    await userEvent.click(canvas.getByRole('button', { name: 'Remove member' }));
    await screen.findByRole('alertdialog');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(canvas.getByLabelText('result')).toHaveTextContent('cancelled'));
  },
};
