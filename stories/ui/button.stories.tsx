import type { Meta, StoryObj } from '@storybook/react-vite';
import { Download, Ellipsis, Plus, Trash2 } from 'lucide-react';
import { expect, fn } from 'storybook/test';
import { Button } from '../../src/ui/button';

const meta = {
  title: 'UI/Button',
  component: Button,
  args: { children: 'Button', onClick: fn() },
  argTypes: {
    variant: { control: 'inline-radio', options: ['primary', 'secondary', 'ghost', 'danger', 'link'] },
    size: { control: 'inline-radio', options: ['sm', 'md'] },
  },
} satisfies Meta<typeof Button>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Primary: Story = {
  args: { variant: 'primary', children: 'Create app', icon: <Plus /> },
  play: async ({ canvas, userEvent, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Create app' }));
    await expect(args.onClick).toHaveBeenCalledTimes(1);
  },
};

export const Secondary: Story = { args: { variant: 'secondary' } };
export const Ghost: Story = { args: { variant: 'ghost' } };
export const Danger: Story = { args: { variant: 'danger', children: 'Delete', icon: <Trash2 /> } };
export const Link: Story = { args: { variant: 'link', children: 'View docs' } };
export const Small: Story = { args: { size: 'sm', icon: <Download />, children: 'Export' } };

export const Disabled: Story = {
  args: { variant: 'primary', disabled: true, children: 'Save' },
  play: async ({ canvas, args }) => {
    const button = canvas.getByRole('button', { name: 'Save' });
    await expect(button).toBeDisabled();
    button.click();
    await expect(args.onClick).not.toHaveBeenCalled();
  },
};

export const Loading: Story = {
  args: { variant: 'primary', loading: true, children: 'Saving' },
  play: async ({ canvas }) => {
    const button = canvas.getByRole('button', { name: 'Saving' });
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute('aria-busy', 'true');
  },
};

export const IconOnly: Story = {
  args: { iconOnly: true, variant: 'ghost', 'aria-label': 'More actions', children: <Ellipsis /> },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('button', { name: 'More actions' })).toBeVisible();
  },
};

export const AsChildLink: Story = {
  args: { asChild: true, variant: 'secondary', children: <a href="#docs">Open as link</a> },
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('link', { name: 'Open as link' })).toHaveAttribute('data-slot', 'button');
  },
};

export const Matrix: Story = {
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(5, max-content)', gap: 12, alignItems: 'center' }}>
      {(['primary', 'secondary', 'ghost', 'danger', 'link'] as const).map((variant) => (
        <div key={variant} style={{ display: 'contents' }}>
          <Button variant={variant}>{variant}</Button>
          <Button variant={variant} size="sm">
            Small
          </Button>
          <Button variant={variant} icon={<Plus />}>
            With icon
          </Button>
          <Button variant={variant} loading>
            Loading
          </Button>
          <Button variant={variant} disabled>
            Disabled
          </Button>
        </div>
      ))}
    </div>
  ),
};
