import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { i18n, initI18n } from '../../../../i18n';
import { Toaster } from '../../../../ui/toast';
import { ApiKeys } from './api-keys';
import { ApiTabApiContext, appKeys } from './api-tab-api';
import { createMemoryApiTabApi, type MemoryApiTabOptions } from './memory-api-tab-api';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

function setup(opts: MemoryApiTabOptions = {}, canManage = true) {
  const api = createMemoryApiTabApi(opts);
  render(
    <ApiTabApiContext value={api}>
      <ApiKeys source={appKeys(api, api.appId, api.workspaceId)} canManage={canManage} />
      <Toaster />
    </ApiTabApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const rows = () => screen.queryAllByTestId(/^key-row-/);

describe('ApiKeys', () => {
  it('lists the keys masked, with who created them, the rate limit and the last use', async () => {
    setup();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(rows()[0]).toHaveTextContent('Staging 1');
    expect(rows()[0]).toHaveTextContent('wk-ab1d…x1yz');
    expect(rows()[0]).toHaveTextContent('Default');
    expect(rows()[0]).toHaveTextContent('Never used');
    expect(rows()[1]).toHaveTextContent('600 / minute');
    expect(rows()[1]).toHaveTextContent('Ada Admin');
  });

  it('shows a new key’s secret once: in a dialog that only its button closes, then nowhere', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByTestId('key-create-dialog');
    await user.type(within(dialog).getByTestId('key-name'), '  Website  ');
    await user.type(within(dialog).getByRole('textbox', { name: 'Rate limit' }), '120');
    await user.click(within(dialog).getByTestId('key-create-submit'));

    const secretDialog = await screen.findByTestId('key-secret-dialog');
    const secret = api.secrets[0];
    expect(secret).toMatch(/^wk-/);
    expect(within(secretDialog).getByTestId('key-secret')).toHaveValue(secret);
    expect(within(secretDialog).getByRole('alert')).toHaveTextContent('This is the only time the whole key is shown');
    expect(within(secretDialog).getByTestId('key-secret-copy')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'createKey')?.args[2]).toEqual({ name: 'Website', rate_limit_per_minute: 120 });

    // Neither Escape nor a click outside loses the secret by accident.
    fireEvent.keyDown(secretDialog, { key: 'Escape' });
    expect(screen.getByTestId('key-secret-dialog')).toBeInTheDocument();

    // The list already shows the new key, masked.
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]).toHaveTextContent('Website');
    expect(rows()[0]).toHaveTextContent(`${secret.slice(0, 7)}…${secret.slice(-4)}`);
    expect(rows()[0]).toHaveTextContent('120 / minute');

    await user.click(within(secretDialog).getByTestId('key-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('key-secret-dialog')).toBeNull());
    expect(document.body.innerHTML).not.toContain(secret);
    expect(document.body.innerHTML).not.toContain(secret.slice(7, -4));
  });

  it('copies the secret to the clipboard', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const writeText = vi.fn(async () => {});
    // Files share one document: the fake clipboard goes away after this test.
    const before = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    onTestFinished(() => {
      if (before) Object.defineProperty(navigator, 'clipboard', before);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    });
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await user.type(within(await screen.findByTestId('key-create-dialog')).getByTestId('key-name'), 'CI');
    await user.click(screen.getByTestId('key-create-submit'));
    await user.click(within(await screen.findByTestId('key-secret-dialog')).getByTestId('key-secret-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(api.secrets[0]));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
  });

  it('copies the secret on plain http too (no Clipboard API), from inside the dialog', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const before = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const exec = document.execCommand;
    const copied: string[] = [];
    document.execCommand = () => (copied.push((document.activeElement as HTMLTextAreaElement).value), true);
    onTestFinished(() => {
      document.execCommand = exec;
      if (before) Object.defineProperty(navigator, 'clipboard', before);
      else delete (navigator as { clipboard?: unknown }).clipboard;
    });
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    await user.type(within(await screen.findByTestId('key-create-dialog')).getByTestId('key-name'), 'Intranet');
    await user.click(screen.getByTestId('key-create-submit'));
    await user.click(within(await screen.findByTestId('key-secret-dialog')).getByTestId('key-secret-copy'));
    await waitFor(() => expect(copied).toEqual([api.secrets[0]]));
    expect(screen.getByTestId('key-secret-dialog')).toBeInTheDocument();
  });

  it('refuses an empty name or a limit out of range in the form, without a call', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByTestId('key-create-dialog');
    await user.type(within(dialog).getByTestId('key-name'), '   ');
    await user.type(within(dialog).getByRole('textbox', { name: 'Rate limit' }), '0');
    await user.click(within(dialog).getByTestId('key-create-submit'));
    expect(within(dialog).getByText('Enter a name for the key')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a whole number from 1 to 100000')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'createKey')).toBe(false);
  });

  it('revokes a key after a confirmation', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(2));
    await user.click(within(rows()[1]).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Revoke key "Production"?' });
    expect(confirm).toHaveTextContent('Calls with this key fail at once (401)');
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(api.keys.map((k) => k.name)).toEqual(['Staging 1']);
    expect(await screen.findByText('Key "Production" revoked')).toBeInTheDocument();
  });

  it('disables creating and revoking for an ordinary member, with the reason', async () => {
    setup({ role: 'ordinary_member' }, false);
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('button', { name: 'Create key' })).toBeDisabled();
    expect(within(rows()[0]).getByRole('button', { name: 'Revoke' })).toBeDisabled();
    expect(screen.getAllByText("Only the project space's owner and admins create and revoke keys").length).toBeGreaterThan(0);
  });
});
