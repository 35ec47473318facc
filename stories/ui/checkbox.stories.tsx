import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { expect, fn } from 'storybook/test';
import { Checkbox } from '../../src/ui/checkbox';
import { Label } from '../../src/ui/label';

const meta = {
  title: 'UI/Checkbox',
  component: Checkbox,
  args: { 'aria-label': 'Accept', onCheckedChange: fn() },
} satisfies Meta<typeof Checkbox>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent, args }) => {
    const box = canvas.getByRole('checkbox', { name: 'Accept' });
    await userEvent.click(box);
    await expect(box).toBeChecked();
    await expect(args.onCheckedChange).toHaveBeenCalledWith(true);
  },
};

export const Checked: Story = { args: { defaultChecked: true } };

export const Indeterminate: Story = {
  args: { defaultChecked: 'indeterminate' },
  play: async ({ canvas, userEvent }) => {
    const box = canvas.getByRole('checkbox', { name: 'Accept' });
    await expect(box).toHaveAttribute('aria-checked', 'mixed');
    await expect(box).toHaveAttribute('data-state', 'indeterminate');
    await userEvent.click(box);
    await expect(box).toHaveAttribute('aria-checked', 'true');
  },
};

export const Disabled: Story = { args: { disabled: true, defaultChecked: true } };
export const Invalid: Story = { args: { 'aria-invalid': true } };

const rows = ['Alice', 'Bob', 'Carol'];

function SelectAllDemo() {
  const [picked, setPicked] = useState<string[]>(['Bob']);
  const all = picked.length === rows.length ? true : picked.length ? 'indeterminate' : false;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
        <Checkbox id="all" checked={all} onCheckedChange={(c) => setPicked(c === true ? rows : [])} />
        <Label htmlFor="all">Select all</Label>
      </div>
      {rows.map((r) => (
        <div key={r} style={{ display: 'flex', gap: 8, alignItems: 'center', paddingLeft: 24 }}>
          <Checkbox
            id={r}
            checked={picked.includes(r)}
            onCheckedChange={(c) => setPicked((p) => (c === true ? [...p, r] : p.filter((x) => x !== r)))}
          />
          <Label htmlFor={r}>{r}</Label>
        </div>
      ))}
    </div>
  );
}

export const SelectAll: Story = {
  render: () => <SelectAllDemo />,
  play: async ({ canvas, userEvent }) => {
    const all = canvas.getByRole('checkbox', { name: 'Select all' });
    await expect(all).toHaveAttribute('aria-checked', 'mixed');
    await userEvent.click(all);
    await expect(canvas.getByRole('checkbox', { name: 'Alice' })).toBeChecked();
    await userEvent.click(canvas.getByRole('checkbox', { name: 'Carol' }));
    await expect(all).toHaveAttribute('aria-checked', 'mixed');
  },
};
