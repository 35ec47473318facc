import type { Meta, StoryObj } from '@storybook/react-vite';
import { Copy } from 'lucide-react';
import { expect, screen } from 'storybook/test';
import { Button } from '../../src/ui/button';
import { Tooltip } from '../../src/ui/tooltip';

const meta = {
  title: 'UI/Tooltip',
  component: Tooltip,
  args: {
    content: 'Copy API key',
    children: (
      <Button iconOnly variant="ghost" aria-label="Copy">
        <Copy />
      </Button>
    ),
  },
  parameters: { layout: 'centered' },
} satisfies Meta<typeof Tooltip>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.hover(canvas.getByRole('button', { name: 'Copy' }));
    await expect(await screen.findByRole('tooltip')).toHaveTextContent('Copy API key');
  },
};

export const Open: Story = { args: { defaultOpen: true, side: 'bottom' } };
export const Long: Story = {
  args: { defaultOpen: true, content: 'Tokens used by this run, counted by the provider, including the system prompt and tool calls.' },
};
export const Empty: Story = { args: { content: '' } };
