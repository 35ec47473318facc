import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { DatabaseApiContext } from './database-api';
import DatabasesPage from './databases-page';
import { createMemoryDatabaseApi, type MemoryDatabaseOptions } from './memory-database-api';

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
vi.setConfig({ testTimeout: 20_000 });
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

function setup(opts: MemoryDatabaseOptions = {}) {
  const api = createMemoryDatabaseApi({ seed: [{ name: 'orders', type: 'mysql', port: 3306, status: 'failed', status_code: 'timeout', status_message: 'Timed out' }], ...opts });
  render(
    <DatabaseApiContext value={api}>
      <DatabasesPage workspaceId={api.workspaceId} pollMs={30} />
      <Toaster />
    </DatabaseApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const row = (name: string) => screen.findByRole('row', { name: new RegExp(name) }, { timeout: 4000 });

async function chooseOption(user: ReturnType<typeof userEvent.setup>, combobox: HTMLElement, name: string) {
  await user.click(combobox);
  await user.click(await screen.findByRole('option', { name }));
}

describe('DatabasesPage', () => {
  it('lists databases with their type label and detection status', async () => {
    setup();
    const r = await row('orders');
    expect(within(r).getByText('MySQL')).toBeInTheDocument();
    expect(within(r).getByText('Failed')).toBeInTheDocument();
  });

  it('shows the SID only for Oracle and requires it', async () => {
    const { api, user } = setup();
    await row('orders');
    await user.click(screen.getByRole('button', { name: 'Add database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add database' });
    expect(within(dialog).queryByRole('textbox', { name: /^SID/ })).not.toBeInTheDocument();
    await chooseOption(user, within(dialog).getByRole('combobox', { name: /^Type/ }), 'Oracle');
    expect(within(dialog).getByRole('textbox', { name: /^SID/ })).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: /^Database/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('The SID is required for Oracle')).toBeInTheDocument();
    expect(within(dialog).getAllByText('This form field is required!').length).toBeGreaterThanOrEqual(3);
    expect(api.calls.some((c) => c.method === 'create')).toBe(false);
  });

  it('checks the connection and says the outcome once, then saves and follows the detection', async () => {
    const { api, user } = setup();
    await row('orders');
    await user.click(screen.getByRole('button', { name: 'Add database' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add database' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'analytics');
    await user.type(within(dialog).getByRole('textbox', { name: /^Host/ }), 'db.internal');
    await user.type(within(dialog).getByRole('textbox', { name: /^Account/ }), 'weft');
    await user.type(within(dialog).getByLabelText(/^Password/), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Check connection' }));
    const failed = await within(dialog).findByTestId('database-check-result');
    // Said once, in the user's language: not the server's sentence, not the driver's words again.
    expect(failed).toHaveTextContent(/^Connection failed: Wrong account or password$/);
    expect(api.calls.find((c) => c.method === 'check')?.args[0]).toMatchObject({ type: 'postgresql', host: 'db.internal', account: 'weft', password: 'wrong' });

    // A host the server's network policy refuses: shown as the check's outcome, not a passing toast.
    await user.clear(within(dialog).getByRole('textbox', { name: /^Host/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Host/ }), '127.0.0.1');
    await user.click(within(dialog).getByRole('button', { name: 'Check connection' }));
    await waitFor(() => expect(within(dialog).getByTestId('database-check-result')).toHaveTextContent("Connection failed: The server's network policy does not allow this host or port"));
    await user.clear(within(dialog).getByRole('textbox', { name: /^Host/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Host/ }), 'db.internal');

    await user.clear(within(dialog).getByLabelText(/^Password/));
    await user.type(within(dialog).getByLabelText(/^Password/), 'secret');
    await user.click(within(dialog).getByRole('button', { name: 'Check connection' }));
    await waitFor(() => expect(within(dialog).getByTestId('database-check-result')).toHaveTextContent('Connected (12 ms)'));

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const created = await row('analytics');
    expect(within(created).getByText(/Detecting|Success/)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('row', { name: /analytics/ })).getByText('Success')).toBeInTheDocument(), { timeout: 2000 });
  });

  it('marks the same fields required on the edit form as on the new one, with no clear button on them', async () => {
    const { user } = setup();
    const required = (d: HTMLElement) => Array.from(d.querySelectorAll('[aria-required="true"]')).map((el) => el.closest('[data-slot="field"]')?.querySelector('label')?.textContent ?? '');
    await user.click(within(await row('orders')).getByRole('button', { name: 'Edit' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit database' });
    const editing = { required: required(edit), clears: within(edit).queryAllByRole('button', { name: 'Clear' }).length };
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Add database' }));
    const create = await screen.findByRole('dialog', { name: 'Add database' });
    expect(editing).toEqual({ required: required(create), clears: within(create).queryAllByRole('button', { name: 'Clear' }).length });
    expect(editing.required.length).toBeGreaterThan(0);
  });

  it('edits with the password masked and fetched only on reveal', async () => {
    const { api, user } = setup();
    await user.click(within(await row('orders')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit database' });
    const password = within(dialog).getByLabelText(/^Password/);
    expect(password).toHaveValue('******');
    expect(api.calls.some((c) => c.method === 'password')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(password).toHaveValue('secret'));
    expect(api.calls.filter((c) => c.method === 'password')).toHaveLength(1);
  });

  it('checks a saved database again and deletes after confirming', async () => {
    const { api, user } = setup();
    await user.click(within(await row('orders')).getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(within(screen.getByRole('row', { name: /orders/ })).getByText('Success')).toBeInTheDocument());
    await user.click(within(screen.getByRole('row', { name: /orders/ })).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this database?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No databases yet')).toBeInTheDocument();
    expect(api.stored).toHaveLength(0);
  });

  it('lets an ordinary member check but not change', async () => {
    setup({ role: 'ordinary_member' });
    const r = await row('orders');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Add database' })).not.toBeInTheDocument());
    expect(within(r).getByRole('button', { name: 'Check again' })).toBeInTheDocument();
    expect(within(r).queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();
  });
});
