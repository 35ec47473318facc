import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Textarea } from '../../src/ui/textarea';

const meta = {
  title: 'UI/Textarea',
  component: Textarea,
  args: { placeholder: 'Describe the app', 'aria-label': 'Description' },
  decorators: [(Story) => <div style={{ width: 360 }}><Story /></div>],
} satisfies Meta<typeof Textarea>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    const box = canvas.getByRole('textbox', { name: 'Description' });
    await userEvent.type(box, 'Line one{Enter}Line two');
    await expect(box).toHaveValue('Line one\nLine two');
  },
};
export const Invalid: Story = { args: { invalid: true, defaultValue: 'x' } };
export const Disabled: Story = { args: { disabled: true, defaultValue: 'Cannot edit' } };
export const Tall: Story = { args: { rows: 8, resize: 'none' } };
