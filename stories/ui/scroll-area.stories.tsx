import type { Meta, StoryObj } from '@storybook/react-vite';
import { ScrollArea } from '../../src/ui/scroll-area';

const meta = { title: 'UI/ScrollArea', component: ScrollArea } satisfies Meta<typeof ScrollArea>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Vertical: Story = {
  render: () => (
    <ScrollArea style={{ height: 200, width: 240, border: '1px solid var(--color-border)', borderRadius: 8 }}>
      <div style={{ padding: 12 }}>
        {Array.from({ length: 40 }, (_, i) => (
          <div key={i} style={{ padding: '4px 0' }}>
            Knowledge base {i + 1}
          </div>
        ))}
      </div>
    </ScrollArea>
  ),
};

export const Both: Story = {
  render: () => (
    <ScrollArea scrollbars="both" style={{ height: 160, width: 320, border: '1px solid var(--color-border)', borderRadius: 8 }}>
      <div style={{ width: 800, padding: 12 }}>
        {Array.from({ length: 20 }, (_, i) => (
          <div key={i}>{`{{#node_${i}.output#}} `.repeat(8)}</div>
        ))}
      </div>
    </ScrollArea>
  ),
};
