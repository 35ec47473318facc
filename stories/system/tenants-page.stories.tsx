import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import TenantsPage from '../../src/app/system/tenants/tenants-page';
import { tenantAdmin } from './fake-system-api';
import { systemLoader, withSystemApi, type SystemStoryParams } from './system-story';

const meta = {
  title: 'System/Tenants page',
  component: TenantsPage,
  loaders: [systemLoader],
  decorators: [withSystemApi],
  parameters: { layout: 'fullscreen', system: {} satisfies SystemStoryParams },
  globals: { locale: 'en' },
} satisfies Meta<typeof TenantsPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const system = (p: SystemStoryParams) => ({ system: p });
const loaded = () => screen.findByRole('cell', { name: 'Acme' }, { timeout: 3000 });

export const SuperAdmin: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    const defaultRow = canvas.getByRole('cell', { name: 'Headquarters' }).closest('tr')!;
    // The default tenant cannot be disabled: no action shown.
    await expect(within(defaultRow).queryByRole('button', { name: /^Disable/ })).not.toBeInTheDocument();
    await expect(canvas.getByRole('button', { name: 'Disable Acme' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Enable Globex' })).toBeVisible();
    await expect(canvas.getByRole('navigation', { name: 'Pagination' })).toHaveTextContent('Total 3');
  },
};

export const Chinese: Story = {
  parameters: system({}),
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    await loaded();
    await expect(canvas.getByRole('button', { name: '新建租户' })).toBeVisible();
  },
};

export const CreateTenant: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.click(canvas.getByRole('button', { name: 'Create tenant' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create tenant' }));
    await userEvent.type(dialog.getByLabelText(/^Tenant name/), 'Initech');
    await userEvent.type(dialog.getByLabelText(/^Admin username/), 'initech-admin');
    await userEvent.type(dialog.getByLabelText(/^Login password/), 'Secret123');
    await userEvent.type(dialog.getByLabelText(/^Confirm password/), 'Secret12');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await dialog.findByText('The passwords entered twice are inconsistent')).toBeVisible();
    await userEvent.type(dialog.getByLabelText(/^Confirm password/), '3');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(await canvas.findByRole('cell', { name: 'Initech' })).toBeVisible();
  },
};

export const DisableAsksFirst: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.click(canvas.getByRole('button', { name: 'Disable Acme' }));
    const ask = within(await screen.findByRole('alertdialog', { name: 'Disable the tenant "Acme"?' }));
    await userEvent.click(ask.getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await expect(await canvas.findByRole('button', { name: 'Enable Acme' })).toBeVisible();
  },
};

export const Rename: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.click(canvas.getByRole('button', { name: 'Rename Acme' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Rename tenant' }));
    const input = dialog.getByLabelText(/^Tenant name/);
    await userEvent.clear(input);
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await dialog.findByText('This form field is required!')).toBeVisible();
    await userEvent.type(input, 'Acme Corp');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await expect(await canvas.findByRole('cell', { name: 'Acme Corp' })).toBeVisible();
  },
};

/** Tenants are the super admin's: a tenant admin sees no list and no action. */
export const TenantAdminNoPermission: Story = {
  parameters: system({ me: tenantAdmin }),
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Permission denied')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Create tenant' })).not.toBeInTheDocument();
    await expect(canvas.queryByRole('table')).not.toBeInTheDocument();
  },
};

export const Loading: Story = {
  parameters: system({ fake: { hang: true } }),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('table', { name: 'Tenants' })).toHaveAttribute('aria-busy', 'true');
  },
};

export const LoadError: Story = {
  parameters: system({ fake: { fail: true } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('The data could not be loaded')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(canvas.getByRole('table', { name: 'Tenants' })).toBeVisible());
  },
};

/** No tenant matches the search: the empty state. */
export const EmptySearch: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.type(canvas.getByRole('searchbox', { name: 'Search tenants' }), 'zzz{Enter}');
    await expect(await canvas.findByText('No tenants match the filters')).toBeVisible();
  },
};
