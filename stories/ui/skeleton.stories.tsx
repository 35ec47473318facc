import type { Meta, StoryObj } from '@storybook/react-vite';
import { Card, CardContent } from '../../src/ui/card';
import { Skeleton, SkeletonText } from '../../src/ui/skeleton';

const meta = { title: 'UI/Skeleton', component: Skeleton, args: { width: 200 } } satisfies Meta<typeof Skeleton>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {};
export const Circle: Story = { args: { circle: true, height: 40 } };
export const Text: Story = { render: () => <SkeletonText lines={4} style={{ width: 320 }} /> };

export const CardPlaceholder: Story = {
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 240px)', gap: 16 }} aria-busy="true">
      {[0, 1, 2].map((i) => (
        <Card key={i}>
          <CardContent style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
            <div style={{ display: 'flex', gap: 12, alignItems: 'center' }}>
              <Skeleton width={40} height={40} style={{ borderRadius: 8 }} />
              <Skeleton width={120} />
            </div>
            <SkeletonText lines={2} />
          </CardContent>
        </Card>
      ))}
    </div>
  ),
};
