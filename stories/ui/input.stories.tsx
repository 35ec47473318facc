import type { Meta, StoryObj } from '@storybook/react-vite';
import { Search } from 'lucide-react';
import { expect } from 'storybook/test';
import { Input } from '../../src/ui/input';

const meta = {
  title: 'UI/Input',
  component: Input,
  args: { placeholder: 'Type here', 'aria-label': 'Demo input' },
  decorators: [(Story) => <div style={{ width: 320 }}><Story /></div>],
} satisfies Meta<typeof Input>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    const input = canvas.getByRole('textbox', { name: 'Demo input' });
    await userEvent.type(input, 'hello');
    await expect(input).toHaveValue('hello');
  },
};

export const PrefixAndSuffix: Story = {
  args: { prefix: <Search />, suffix: '⌘K', placeholder: 'Search apps' },
};

export const TextAffixes: Story = { args: { prefix: 'https://', suffix: '.weft.dev', defaultValue: 'my-app' } };

export const Invalid: Story = {
  args: { invalid: true, defaultValue: 'not an email' },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
  },
};

export const Disabled: Story = { args: { disabled: true, defaultValue: 'Read only value' } };
export const Small: Story = { args: { size: 'sm', prefix: <Search /> } };
export const Empty: Story = { args: { placeholder: '' } };
