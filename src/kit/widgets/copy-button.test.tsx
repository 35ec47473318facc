import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { i18n, initI18n } from '../../i18n';
import { Toaster } from '../../ui/toast';
import { CopyButton, copyText } from './copy-button';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

/** Replaces navigator.clipboard (absent: `undefined`) for one test. */
function fakeClipboard(value: unknown) {
  const before = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
  Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
  onTestFinished(() => {
    if (before) Object.defineProperty(navigator, 'clipboard', before);
    else delete (navigator as { clipboard?: unknown }).clipboard;
  });
}

/** Replaces document.execCommand for one test, recording what was selected when it ran. */
function fakeExecCommand(result: boolean) {
  const before = document.execCommand;
  const copied: string[] = [];
  document.execCommand = vi.fn(() => {
    copied.push((document.activeElement as HTMLTextAreaElement | null)?.value ?? '');
    return result;
  });
  onTestFinished(() => {
    document.execCommand = before;
  });
  return copied;
}

describe('copyText', () => {
  it('uses the Clipboard API where there is one', async () => {
    const writeText = vi.fn(async () => {});
    fakeClipboard({ writeText });
    expect(await copyText('wk-secret')).toBe(true);
    expect(writeText).toHaveBeenCalledWith('wk-secret');
  });

  it('falls back to a selected text area and execCommand on plain http (no Clipboard API), leaving nothing behind', async () => {
    fakeClipboard(undefined);
    const copied = fakeExecCommand(true);
    expect(await copyText('<script src="x"></script>')).toBe(true);
    expect(copied).toEqual(['<script src="x"></script>']);
    expect(document.querySelector('textarea')).toBeNull();
  });
});

describe('CopyButton', () => {
  it('says Copied for a moment, and tells the user when the browser refused', async () => {
    const user = userEvent.setup();
    fakeClipboard(undefined);
    fakeExecCommand(false);
    render(
      <>
        <CopyButton text="abc" />
        <Toaster />
      </>,
    );
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect((await screen.findAllByText('Could not write to the clipboard: select the text and copy it yourself')).length).toBeGreaterThan(0);
    fakeClipboard({ writeText: async () => {} });
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument());
  });
});
