import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Checkbox } from '../../src/ui/checkbox';
import { Field } from '../../src/ui/field';
import { Input } from '../../src/ui/input';
import { Select } from '../../src/ui/select';
import { Textarea } from '../../src/ui/textarea';

const meta = {
  title: 'UI/Field',
  component: Field,
  args: { label: 'App name', help: 'Shown in the app list and the portal.', children: <Input placeholder="My assistant" /> },
  decorators: [(Story) => <div style={{ width: 400 }}><Story /></div>],
} satisfies Meta<typeof Field>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    const input = canvas.getByRole('textbox', { name: 'App name' });
    await expect(input).toHaveAccessibleDescription('Shown in the app list and the portal.');
  },
};

export const Required: Story = { args: { required: true } };

export const WithError: Story = {
  args: { required: true, error: 'Name is required', children: <Input /> },
  play: async ({ canvas }) => {
    const input = canvas.getByRole('textbox', { name: 'App name' });
    await expect(input).toHaveAttribute('aria-invalid', 'true');
    await expect(input).toHaveAccessibleDescription('Name is required');
  },
};

export const Horizontal: Story = { args: { layout: 'horizontal', labelWidth: 96 } };

export const WithTextarea: Story = { args: { label: 'Description', children: <Textarea /> } };

export const WithSelect: Story = {
  args: {
    label: 'Role',
    children: (
      <Select
        placeholder="Choose a role"
        options={[
          { value: 'admin', label: 'Admin' },
          { value: 'ordinary_member', label: 'Member' },
        ]}
      />
    ),
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('combobox', { name: 'Role' })).toBeVisible();
  },
};

export const WithCheckbox: Story = {
  args: { label: 'Public', help: 'Anyone in the tenant can open it.', layout: 'horizontal', children: <Checkbox /> },
};
