import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { CredentialApiContext } from './credential-api';
import CredentialsPage from './credentials-page';
import { createMemoryCredentialApi, type MemoryCredentialOptions } from './memory-credential-api';

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

const LONG_SK = 'abcd1234efgh5678ijkl';

function setup(opts: MemoryCredentialOptions = {}) {
  const api = createMemoryCredentialApi({ seed: [{ identifier: 'payments', ak: 'AK-1', sk: LONG_SK, cred_id: 'app-7', description: 'Stripe' }], ...opts });
  render(
    <CredentialApiContext value={api}>
      <CredentialsPage workspaceId={api.workspaceId} />
      <Toaster />
    </CredentialApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const row = (name: string) => screen.findByRole('row', { name: new RegExp(name) }, { timeout: 4000 });

describe('CredentialsPage', () => {
  it('lists credentials with the SK masked and reveals it through the secret endpoint', async () => {
    const { api, user } = setup();
    const r = await row('payments');
    expect(within(r).getByTestId('credential-sk')).toHaveTextContent('abcd****ijkl');
    expect(api.calls.some((c) => c.method === 'secret')).toBe(false);
    await user.click(within(r).getByRole('button', { name: 'Show SK' }));
    await waitFor(() => expect(within(r).getByTestId('credential-sk')).toHaveTextContent(LONG_SK));
    expect(api.calls.filter((c) => c.method === 'secret')).toHaveLength(1);
    await user.click(within(r).getByRole('button', { name: 'Hide SK' }));
    expect(within(r).getByTestId('credential-sk')).toHaveTextContent('abcd****ijkl');
  });

  it('shows the spec 5 messages when creating without the required fields, then creates', async () => {
    const { api, user } = setup();
    await row('payments');
    await user.click(screen.getByRole('button', { name: 'New credential' }));
    const dialog = await screen.findByRole('dialog', { name: 'New credential' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Identifier/ }), 'x'.repeat(51));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('exceeds maximum length 50')).toBeInTheDocument();
    expect(within(dialog).getByText('This form field is required!')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'create')).toBe(false);

    await user.clear(within(dialog).getByRole('textbox', { name: /^Identifier/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Identifier/ }), 'maps');
    await user.type(within(dialog).getByLabelText(/^SK/), 'short-secret');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.find((c) => c.method === 'create')?.args[0]).toMatchObject({ identifier: 'maps', sk: 'short-secret' });
    const created = await row('maps');
    expect(within(created).getByTestId('credential-sk')).toHaveTextContent('******');
  });

  it('marks the same fields required on the edit form as on the new form', async () => {
    const { user } = setup();
    await row('payments');
    const required = (d: HTMLElement) => Array.from(d.querySelectorAll('[aria-required="true"]')).map((el) => el.getAttribute('name') ?? el.closest('[data-slot="field"]')?.textContent ?? '');
    await user.click(screen.getByRole('button', { name: 'New credential' }));
    const create = required(await screen.findByRole('dialog', { name: 'New credential' }));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(within(await row('payments')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit credential' });
    expect(create.length).toBeGreaterThan(0);
    expect(required(dialog)).toEqual(create);
    expect(within(dialog).getByRole('textbox', { name: /^Identifier/ })).toHaveAttribute('aria-required', 'true');
  });

  it('edits with the SK masked; a mask sent back keeps the stored SK', async () => {
    const { api, user } = setup();
    await user.click(within(await row('payments')).getByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit credential' });
    const desc = within(dialog).getByRole('textbox', { name: /^Description/ });
    await user.clear(desc);
    await user.type(desc, 'Stripe live');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls.find((c) => c.method === 'update')?.args[0]).toMatchObject({ sk: 'abcd****ijkl', description: 'Stripe live' });
    expect(api.stored[0].sk).toBe(LONG_SK);
  });

  it('deletes after confirming', async () => {
    const { api, user } = setup();
    await user.click(within(await row('payments')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this credential?' });
    expect(confirm).toHaveTextContent('payments');
    expect(api.calls.some((c) => c.method === 'remove')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No credentials yet')).toBeInTheDocument();
    expect(api.stored).toHaveLength(0);
  });

  it('gives an ordinary member the masked list only', async () => {
    setup({ role: 'ordinary_member' });
    const r = await row('payments');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'New credential' })).not.toBeInTheDocument());
    expect(within(r).queryByRole('button', { name: 'Show SK' })).not.toBeInTheDocument();
    expect(within(r).queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('shows the error state with a retry', async () => {
    setup({ listFails: true });
    expect(await screen.findByText('Could not load the data')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
