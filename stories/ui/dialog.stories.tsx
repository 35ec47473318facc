import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, waitFor } from 'storybook/test';
import { Button } from '../../src/ui/button';
import {
  Dialog,
  DialogBody,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
  type DialogSize,
} from '../../src/ui/dialog';
import { Field } from '../../src/ui/field';
import { Input } from '../../src/ui/input';
import { Textarea } from '../../src/ui/textarea';

interface DemoProps {
  size?: DialogSize;
  defaultOpen?: boolean;
  saving?: boolean;
}

function CreateWorkspaceDialog({ size, defaultOpen, saving }: DemoProps) {
  return (
    <Dialog defaultOpen={defaultOpen}>
      <DialogTrigger asChild>
        <Button variant="primary">New workspace</Button>
      </DialogTrigger>
      <DialogContent size={size}>
        <DialogHeader>
          <DialogTitle>Create workspace</DialogTitle>
          <DialogDescription>Members of a workspace share its apps and knowledge.</DialogDescription>
        </DialogHeader>
        <DialogBody style={{ display: 'flex', flexDirection: 'column', gap: 16 }}>
          <Field label="Name" required>
            <Input placeholder="Marketing" />
          </Field>
          <Field label="Description">
            <Textarea />
          </Field>
        </DialogBody>
        <DialogFooter>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button variant="primary" loading={saving}>
            Create
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

const meta = {
  title: 'UI/Dialog',
  component: CreateWorkspaceDialog,
  argTypes: { size: { control: 'inline-radio', options: ['sm', 'md', 'lg', 'xl'] } },
} satisfies Meta<typeof CreateWorkspaceDialog>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'New workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create workspace' });
    await expect(dialog).toHaveAccessibleDescription('Members of a workspace share its apps and knowledge.');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Name' })).toBeVisible());
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(canvas.getByRole('button', { name: 'New workspace' }));
    await screen.findByRole('dialog');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  },
};

export const Open: Story = { args: { defaultOpen: true } };
export const Saving: Story = { args: { defaultOpen: true, saving: true } };
export const Large: Story = { args: { defaultOpen: true, size: 'lg' } };
