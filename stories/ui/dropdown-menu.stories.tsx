import type { Meta, StoryObj } from '@storybook/react-vite';
import { Copy, Ellipsis, Pencil, Share2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { expect, fn, screen, waitFor } from 'storybook/test';
import { Button } from '../../src/ui/button';
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuSub,
  DropdownMenuSubContent,
  DropdownMenuSubTrigger,
  DropdownMenuTrigger,
} from '../../src/ui/dropdown-menu';

interface DemoProps {
  onRename: () => void;
  onDelete: () => void;
  defaultOpen?: boolean;
}

function AppMenu({ onRename, onDelete, defaultOpen }: DemoProps) {
  const [pinned, setPinned] = useState(true);
  return (
    <DropdownMenu defaultOpen={defaultOpen} modal={false}>
      <DropdownMenuTrigger asChild>
        <Button iconOnly variant="ghost" aria-label="App actions">
          <Ellipsis />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>Customer support bot</DropdownMenuLabel>
        <DropdownMenuItem icon={<Pencil />} shortcut="F2" onSelect={onRename}>
          Rename
        </DropdownMenuItem>
        <DropdownMenuItem icon={<Copy />}>Duplicate</DropdownMenuItem>
        <DropdownMenuSub>
          <DropdownMenuSubTrigger icon={<Share2 />}>Publish to</DropdownMenuSubTrigger>
          <DropdownMenuSubContent>
            <DropdownMenuItem>Portal</DropdownMenuItem>
            <DropdownMenuItem>Store</DropdownMenuItem>
          </DropdownMenuSubContent>
        </DropdownMenuSub>
        <DropdownMenuItem disabled>Export DSL (no permission)</DropdownMenuItem>
        <DropdownMenuCheckboxItem checked={pinned} onCheckedChange={setPinned}>
          Pinned
        </DropdownMenuCheckboxItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem variant="danger" icon={<Trash2 />} onSelect={onDelete}>
          Delete
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

const meta = {
  title: 'UI/DropdownMenu',
  component: AppMenu,
  args: { onRename: fn(), onDelete: fn() },
} satisfies Meta<typeof AppMenu>;

export default meta;
type Story = StoryObj<typeof meta>;

export const Default: Story = {
  play: async ({ canvas, userEvent, args }) => {
    await userEvent.click(canvas.getByRole('button', { name: 'App actions' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: /Rename/ }));
    await expect(args.onRename).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  },
};

export const Open: Story = { args: { defaultOpen: true }, parameters: { layout: 'centered' } };
