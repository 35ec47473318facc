import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen } from 'storybook/test';
import { Select } from '../../src/ui/select';

const options = [
  { value: 'agent', label: 'Agent' },
  { value: 'chatflow', label: 'Chatflow' },
  { value: 'workflow', label: 'Workflow' },
  { value: 'agent_team', label: 'Agent team', disabled: true },
];

const meta = {
  title: 'UI/Select',
  component: Select,
  args: { options, placeholder: 'App mode', 'aria-label': 'App mode', onValueChange: fn() },
  decorators: [(Story) => <div style={{ width: 240 }}><Story /></div>],
} satisfies Meta<typeof Select>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  args: { defaultValue: 'chatflow' },
  play: async ({ canvas, userEvent, args }) => {
    const trigger = canvas.getByRole('combobox', { name: 'App mode' });
    await expect(trigger).toHaveTextContent('Chatflow');
    await userEvent.click(trigger);
    await userEvent.click(await screen.findByRole('option', { name: 'Workflow' }));
    await expect(args.onValueChange).toHaveBeenCalledWith('workflow');
    await expect(trigger).toHaveTextContent('Workflow');
  },
};

export const Placeholder: Story = {};
export const Small: Story = { args: { size: 'sm', defaultValue: 'agent' } };
export const Invalid: Story = { args: { invalid: true } };
export const Disabled: Story = { args: { disabled: true, defaultValue: 'agent' } };
export const Empty: Story = { args: { options: [], placeholder: 'No options' } };
