import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, waitFor } from 'storybook/test';
import { Button } from '../../src/ui/button';
import { Toaster, toast, type ToasterProps } from '../../src/ui/toast';

function ToastDemo(props: ToasterProps) {
  return (
    <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>
      <Button onClick={() => toast.success('Saved')}>Success</Button>
      <Button onClick={() => toast.error('Request failed', { description: 'VALIDATION-1000 · The workspace does not exist' })}>
        Error
      </Button>
      <Button onClick={() => toast.warning('Quota almost used up')}>Warning</Button>
      <Button onClick={() => toast.info('A new version is available', { duration: Infinity })}>Sticky info</Button>
      <Button variant="ghost" onClick={() => toast.dismiss()}>
        Dismiss all
      </Button>
      <Toaster {...props} />
    </div>
  );
}

const meta = {
  title: 'UI/Toast',
  component: ToastDemo,
  args: { position: 'bottom-right' },
  argTypes: { position: { control: 'inline-radio', options: ['bottom-right', 'top-center'] } },
} satisfies Meta<typeof ToastDemo>;

export default meta;
type Story = StoryObj<typeof meta>;

export const BottomRight: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Success' }));
    await expect(await screen.findByText('Saved')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Error' }));
    await expect(await screen.findByText('Request failed')).toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Dismiss all' }));
    await waitFor(() => expect(screen.queryByText('Saved')).not.toBeInTheDocument());
  },
};

export const AutoDismiss: Story = {
  args: { duration: 300 },
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Warning' }));
    await expect(await screen.findByText('Quota almost used up')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Quota almost used up')).not.toBeInTheDocument(), { timeout: 2000 });
  },
};

export const TopCenter: Story = { args: { position: 'top-center' } };
