import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Input } from '../../src/ui/input';
import { Label } from '../../src/ui/label';

const meta = {
  title: 'UI/Label',
  component: Label,
  args: { children: 'Workspace name' },
} satisfies Meta<typeof Label>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Required: Story = { args: { required: true } };

export const FocusesControl: Story = {
  render: (args) => (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 6, width: 280 }}>
      <Label {...args} htmlFor="ws-name" />
      <Input id="ws-name" />
    </div>
  ),
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByText('Workspace name'));
    await expect(canvas.getByRole('textbox', { name: 'Workspace name' })).toHaveFocus();
  },
};
