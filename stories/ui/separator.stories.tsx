import type { Meta, StoryObj } from '@storybook/react-vite';
import { Separator } from '../../src/ui/separator';

const meta = { title: 'UI/Separator', component: Separator } satisfies Meta<typeof Separator>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Horizontal: Story = {
  render: () => (
    <div style={{ width: 320, display: 'flex', flexDirection: 'column', gap: 12 }}>
      <span>Profile</span>
      <Separator />
      <span>Security</span>
    </div>
  ),
};

export const Vertical: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 12, alignItems: 'center', height: 20 }}>
      <span>Docs</span>
      <Separator orientation="vertical" />
      <span>Changelog</span>
      <Separator orientation="vertical" />
      <span>Help</span>
    </div>
  ),
};
