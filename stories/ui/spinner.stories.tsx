import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Spinner } from '../../src/ui/spinner';

const meta = { title: 'UI/Spinner', component: Spinner } satisfies Meta<typeof Spinner>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('status', { name: 'Loading' })).toBeVisible();
  },
};
export const Large: Story = { args: { size: 32, style: { color: 'var(--color-primary)' } } };
export const InText: Story = {
  render: () => (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center', color: 'var(--color-text-secondary)' }}>
      <Spinner size={14} label="" /> Indexing 12 documents…
    </span>
  ),
};
