import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Badge } from '../../src/ui/badge';

const variants = ['neutral', 'primary', 'success', 'warning', 'danger', 'info'] as const;

const meta = {
  title: 'UI/Badge',
  component: Badge,
  args: { children: 'Published', variant: 'success' },
  argTypes: { variant: { control: 'inline-radio', options: variants } },
} satisfies Meta<typeof Badge>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Published')).toHaveAttribute('data-variant', 'success');
  },
};
export const WithDot: Story = { args: { dot: true, children: 'Running', variant: 'info' } };

export const All: Story = {
  render: () => (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      {(['soft', 'outline'] as const).map((appearance) => (
        <div key={appearance} style={{ display: 'flex', gap: 8 }}>
          {variants.map((v) => (
            <Badge key={v} variant={v} appearance={appearance} dot={appearance === 'outline'}>
              {v}
            </Badge>
          ))}
        </div>
      ))}
    </div>
  ),
};
