import type { Meta, StoryObj } from '@storybook/react-vite';
import { House } from 'lucide-react';
import { expect } from 'storybook/test';
import { Breadcrumb } from '../../src/ui/breadcrumb';

const meta = {
  title: 'UI/Breadcrumb',
  component: Breadcrumb,
  args: {
    items: [
      { label: 'Studio', href: '#studio', icon: <House /> },
      { label: 'Marketing workspace', href: '#ws' },
      { label: 'Customer support bot' },
    ],
  },
} satisfies Meta<typeof Breadcrumb>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('navigation', { name: 'Breadcrumb' })).toBeVisible();
    await expect(canvas.getAllByRole('link')).toHaveLength(2);
    await expect(canvas.getByText('Customer support bot').parentElement).toHaveAttribute('aria-current', 'page');
  },
};

/** A router link goes through `renderLink` (here a stand-in that marks links it renders). */
export const RenderLink: Story = {
  args: {
    renderLink: ({ href, className, children }) => (
      <a href={href} className={className} data-router-link="">
        {children}
      </a>
    ),
  },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.querySelectorAll('[data-router-link]')).toHaveLength(2);
  },
};

export const Single: Story = { args: { items: [{ label: 'Apps' }] } };

export const LongNames: Story = {
  args: {
    items: [
      { label: 'Knowledge', href: '#k' },
      { label: 'A very long knowledge base name that needs truncation in the header', href: '#kb' },
      { label: 'annual-report-2024-final-final-v3.pdf' },
    ],
  },
};
