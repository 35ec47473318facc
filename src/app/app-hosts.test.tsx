import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { confirm } from '../ui/confirm-store';
import { setToasts, toast } from '../ui/toast-store';
import { LazyConfirmHost, LazyToaster } from './app-hosts';

afterEach(cleanup);
// Test files share one module graph (isolate: false): another file's toasts may still be in the store.
beforeEach(() => setToasts([]));

describe('the app-wide hosts, loaded on first use', () => {
  it('the toaster also mounts once the page is idle, before any toast (its layer then sits below later dialogs)', async () => {
    const { container } = render(<LazyToaster closeLabel="Close" label="Notifications" />);
    expect(container.ownerDocument.querySelector('[aria-label^="Notifications"]')).toBeNull();
    expect(await screen.findByRole('region', { name: /Notifications/ }, { timeout: 5000 })).toBeTruthy();
  });

  it('render nothing until asked; the first toast loads the toaster and shows', async () => {
    const { container } = render(<LazyToaster closeLabel="Close" label="Notifications" />);
    expect(container.innerHTML).toBe('');
    act(() => void toast.error('Saving failed'));
    expect(await screen.findByText('Saving failed')).toBeTruthy();
    act(() => toast.dismiss());
  });

  it('confirm() works with only the stand-in mounted: the dialog loads, and the answer comes back', async () => {
    const { container } = render(<LazyConfirmHost confirmLabel="OK" cancelLabel="Cancel" />);
    expect(container.innerHTML).toBe('');
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = confirm({ title: 'Delete the group?' });
    });
    expect(await screen.findByText('Delete the group?')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    await expect(answer).resolves.toBe(true);
  });
});
