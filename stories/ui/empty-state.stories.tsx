import type { Meta, StoryObj } from '@storybook/react-vite';
import { Plus, SearchX } from 'lucide-react';
import { expect, fn } from 'storybook/test';
import { Button } from '../../src/ui/button';
import { EmptyState } from '../../src/ui/empty-state';

const meta = {
  title: 'UI/EmptyState',
  component: EmptyState,
  args: { title: 'No apps yet', description: 'Create an agent, a chatflow or a workflow to get started.' },
} satisfies Meta<typeof EmptyState>;

export default meta;
type Story = StoryObj<typeof meta>;

const onCreate = fn();

export const Default: Story = {};
export const WithAction: Story = {
  args: { action: <Button variant="primary" icon={<Plus />} onClick={onCreate}>Create app</Button> },
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Create app' }));
    await expect(onCreate).toHaveBeenCalled();
  },
};
export const NoResults: Story = { args: { icon: <SearchX />, title: 'No results', description: 'Try another keyword.', size: 'sm' } };
export const TitleOnly: Story = { args: { icon: null, description: undefined, title: 'Nothing here' } };
