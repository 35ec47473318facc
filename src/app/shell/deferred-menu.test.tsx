import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../ui/dropdown-menu';
import { DeferredMenu } from './deferred-menu';

afterEach(cleanup);

interface Props {
  onPick(item: string): void;
  defaultOpen?: boolean;
}

function Stand(props: React.ComponentProps<'button'>) {
  return (
    <button type="button" data-testid="trigger" {...props}>
      Menu
    </button>
  );
}

/** A loader whose module arrives when the test says so (a chunk still downloading). */
function slowLoader() {
  let release = () => {};
  let calls = 0;
  const gate = new Promise<void>((r) => (release = r));
  const load = async () => {
    calls += 1;
    await gate;
    return function RealMenu({ onPick, defaultOpen }: Props) {
      return (
        <DropdownMenu defaultOpen={defaultOpen}>
          <DropdownMenuTrigger asChild>
            <Stand />
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            <DropdownMenuItem onSelect={() => onPick('first')}>First</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => onPick('second')}>Second</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      );
    };
  };
  return { load, release, calls: () => calls };
}

describe('DeferredMenu', () => {
  it('shows the button at once, loads the menu on a click and opens it; the items work', async () => {
    const { load, release, calls } = slowLoader();
    const picked: string[] = [];
    render(<DeferredMenu load={load} props={{ onPick: (i: string) => picked.push(i) }} trigger={<Stand />} />);
    const button = screen.getByTestId('trigger');
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(calls()).toBe(0);
    expect(screen.queryByRole('menu')).toBeNull();

    await userEvent.click(button);
    expect(calls()).toBeGreaterThan(0);
    release();
    const menu = await screen.findByRole('menu');
    await userEvent.click(screen.getByRole('menuitem', { name: 'Second' }));
    expect(picked).toEqual(['second']);
    expect(menu.isConnected).toBe(false);
  });

  it('opens from the keyboard (Enter on the focused button) and keeps the focus on the button before that', async () => {
    const { load, release } = slowLoader();
    render(<DeferredMenu load={load} props={{ onPick: () => {} }} trigger={<Stand />} />);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByTestId('trigger'));
    // Focus starts the load; the menu's own button replaces the stand-in and keeps the focus.
    release();
    await waitFor(() => expect(screen.getByTestId('trigger').getAttribute('aria-expanded')).toBe('false'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByTestId('trigger')));
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByRole('menu')).toBeTruthy();
  });

  it('a later menu with the same loader shows the real menu at once', async () => {
    const { load, release } = slowLoader();
    release();
    const first = render(<DeferredMenu load={load} props={{ onPick: () => {} }} trigger={<Stand />} />);
    await userEvent.hover(screen.getByTestId('trigger'));
    await waitFor(() => expect(screen.getByTestId('trigger').getAttribute('data-state')).toBe('closed'));
    first.unmount();
    render(<DeferredMenu load={load} props={{ onPick: () => {} }} trigger={<Stand />} />);
    expect(screen.getByTestId('trigger').getAttribute('data-state')).toBe('closed');
  });
});
