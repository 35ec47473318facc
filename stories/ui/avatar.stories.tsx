import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect } from 'storybook/test';
import { Avatar } from '../../src/ui/avatar';

// An inline image: nothing is fetched from the network.
const photo =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#4263eb"/><circle cx="32" cy="26" r="12" fill="#dbe4ff"/><rect x="12" y="42" width="40" height="22" rx="11" fill="#dbe4ff"/></svg>',
  );

const meta = {
  title: 'UI/Avatar',
  component: Avatar,
  args: { name: 'Ada Lovelace' },
} satisfies Meta<typeof Avatar>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Initials: Story = {
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('img', { name: 'Ada Lovelace' })).toHaveTextContent('AL');
  },
};
export const Chinese: Story = { args: { name: '张三丰' } };
export const Image: Story = { args: { src: photo } };
export const BrokenImage: Story = { args: { src: '/does-not-exist.png', name: 'Grace Hopper' } };
export const Square: Story = { args: { name: 'Marketing', shape: 'square', size: 'lg' } };

export const Sizes: Story = {
  render: () => (
    <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
      {(['xs', 'sm', 'md', 'lg', 'xl'] as const).map((size, i) => (
        <Avatar key={size} size={size} name={['Alan Turing', '李四', 'grace', 'Weft Studio', '王小明'][i]} />
      ))}
      <Avatar size="lg" name="With photo" src={photo} />
    </div>
  ),
};
