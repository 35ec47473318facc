import type { Meta, StoryObj } from '@storybook/react-vite';
import { Filter } from 'lucide-react';
import { expect, screen, waitFor } from 'storybook/test';
import { Button } from '../../src/ui/button';
import { Checkbox } from '../../src/ui/checkbox';
import { Label } from '../../src/ui/label';
import { Popover, PopoverClose, PopoverContent, PopoverTrigger } from '../../src/ui/popover';

function FilterPopover({ defaultOpen }: { defaultOpen?: boolean }) {
  return (
    <Popover defaultOpen={defaultOpen}>
      <PopoverTrigger asChild>
        <Button icon={<Filter />}>Filter</Button>
      </PopoverTrigger>
      <PopoverContent aria-label="Filter apps">
        <div style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
          {['Agent', 'Chatflow', 'Workflow'].map((m) => (
            <div key={m} style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <Checkbox id={`f-${m}`} defaultChecked />
              <Label htmlFor={`f-${m}`}>{m}</Label>
            </div>
          ))}
          <PopoverClose asChild>
            <Button size="sm" variant="primary">
              Apply
            </Button>
          </PopoverClose>
        </div>
      </PopoverContent>
    </Popover>
  );
}

const meta = { title: 'UI/Popover', component: FilterPopover } satisfies Meta<typeof FilterPopover>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'Filter' }));
    const panel = await screen.findByRole('dialog', { name: 'Filter apps' });
    await waitFor(() => expect(panel).toBeVisible());
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  },
};

export const Open: Story = { args: { defaultOpen: true } };
