import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { initI18n } from '../../../i18n';
import { CodeLoginForm } from './code-login-form';
import { LoginForm } from './login-form';

// The tenant choice both sign-in forms share (./tenant-field): shown only with several tenants, the
// configured default preselected, the chosen tenant sent with the sign-in.

const tenants = [
  { id: 't-default', name: 'Default tenant', is_default: true },
  { id: 't-other', name: 'Other tenant', is_default: false },
];

beforeAll(async () => {
  Object.assign(Element.prototype, { hasPointerCapture: () => false, setPointerCapture: () => {}, releasePointerCapture: () => {}, scrollIntoView: () => {} });
  await initI18n('en');
});
afterEach(cleanup);

describe('the sign-in forms\' tenant choice', () => {
  it('is hidden with one tenant and starts on the configured default with several', () => {
    render(<LoginForm tenants={tenants.slice(0, 1)} defaultTenantId="t-default" onSubmit={vi.fn()} />);
    expect(screen.queryByRole('combobox', { name: 'Tenant' })).toBeNull();
    cleanup();
    render(<LoginForm tenants={tenants} defaultTenantId="t-other" onSubmit={vi.fn()} />);
    expect(screen.getByRole('combobox', { name: 'Tenant' }).textContent).toContain('Other tenant');
    cleanup();
    // No configured default among them: the one marked default.
    render(<CodeLoginForm channel="email" tenants={tenants} defaultTenantId="t-gone" onSend={vi.fn()} onSubmit={vi.fn()} />);
    expect(screen.getByRole('combobox', { name: 'Tenant' }).textContent).toContain('Default tenant');
  });

  it('sends the chosen tenant with a code sign-in', async () => {
    const user = userEvent.setup();
    const onSend = vi.fn(async () => ({ resend_after: 60, expires_in: 300 }));
    render(<CodeLoginForm channel="email" tenants={tenants} defaultTenantId="t-default" onSend={onSend} onSubmit={vi.fn()} />);
    await user.click(screen.getByRole('combobox', { name: 'Tenant' }));
    await user.click(await screen.findByRole('option', { name: 'Other tenant' }));
    await user.type(screen.getByTestId('login-code-target'), 'ada@example.com');
    await user.click(screen.getByTestId('login-code-send'));
    await waitFor(() => expect(onSend).toHaveBeenCalledWith({ tenantId: 't-other', target: 'ada@example.com' }));
  });
});
