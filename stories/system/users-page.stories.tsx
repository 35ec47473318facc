import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import UsersPage from '../../src/app/system/users/users-page';
import { tenantAdmin } from './fake-system-api';
import { systemLoader, withSystemApi, type SystemStoryParams } from './system-story';

const meta = {
  title: 'System/Users page',
  component: UsersPage,
  loaders: [systemLoader],
  decorators: [withSystemApi],
  parameters: { layout: 'fullscreen', system: {} satisfies SystemStoryParams },
  globals: { locale: 'en' },
} satisfies Meta<typeof UsersPage>;

export default meta;
type Story = StoryObj<typeof meta>;

const system = (p: SystemStoryParams) => ({ system: p });
/** The table once the fake answered. */
const loaded = async () => {
  await screen.findByRole('cell', { name: 'bob' }, { timeout: 3000 });
};

/** A super admin: tenant filter, every role, 26 users over two pages. */
export const SuperAdmin: Story = {
  parameters: system({ fake: { users: 'many' } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('navigation', { name: 'Pagination' }, { timeout: 3000 })).toHaveTextContent('Total 26');
    await expect(canvas.getByRole('combobox', { name: 'Tenant' })).toBeVisible();
    // 20 rows a page plus the header row.
    await expect(within(canvas.getByRole('table', { name: 'Users' })).getAllByRole('row')).toHaveLength(21);
    await userEvent.click(canvas.getByRole('button', { name: 'Page 2' }));
    // Nobody disables themselves.
    await expect(await canvas.findByRole('switch', { name: 'Account status of admin' })).toBeDisabled();
  },
};

export const Chinese: Story = {
  parameters: system({}),
  globals: { locale: 'zh' },
  play: async ({ canvas }) => {
    await loaded();
    await expect(canvas.getByRole('button', { name: '新建用户' })).toBeVisible();
  },
};

/** Spec 5: required fields, email and phone formats, and the repeated password. */
export const CreateUserValidation: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.click(canvas.getByRole('button', { name: 'Create user' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create user' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(dialog.getAllByText('This form field is required!')).toHaveLength(3));

    await userEvent.type(dialog.getByLabelText(/^Username/), 'dave');
    await userEvent.type(dialog.getByLabelText(/^Password/), 'Secret123');
    await userEvent.type(dialog.getByLabelText(/^Confirm password/), 'Secret124');
    await userEvent.type(dialog.getByLabelText(/^Email/), 'not-an-email');
    await userEvent.type(dialog.getByLabelText(/^Phone/), 'abc');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await dialog.findByText('The passwords entered twice are inconsistent')).toBeVisible();
    await expect(dialog.getByText('Enter a valid email address')).toBeVisible();
    await expect(dialog.getByText('Enter a valid phone number')).toBeVisible();
    await expect(dialog.getByLabelText(/^Confirm password/)).toHaveAttribute('aria-invalid', 'true');

    await userEvent.clear(dialog.getByLabelText(/^Confirm password/));
    await userEvent.type(dialog.getByLabelText(/^Confirm password/), 'Secret123');
    await userEvent.clear(dialog.getByLabelText(/^Email/));
    await userEvent.type(dialog.getByLabelText(/^Email/), 'dave@example.com');
    await userEvent.clear(dialog.getByLabelText(/^Phone/));
    await userEvent.click(await dialog.findByRole('checkbox', { name: 'Platform' }));
    await expect(dialog.getByText(/Headquarters\/Engineering\/Platform/)).toBeVisible();
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Create user' })).not.toBeInTheDocument());
    const row = (await canvas.findByRole('cell', { name: 'dave' })).closest('tr')!;
    await expect(within(row).getByText('Platform')).toBeVisible();
  },
};

/** Disabling asks first; the switch only moves once confirmed. */
export const StatusToggleConfirms: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    const bob = canvas.getByRole('switch', { name: 'Account status of bob' });
    await expect(bob).toBeChecked();
    await userEvent.click(bob);
    const ask = await screen.findByRole('alertdialog', { name: 'Disable the user "bob"?' });
    await expect(bob).toBeChecked();
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    await expect(bob).toBeChecked();

    await userEvent.click(bob);
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(canvas.getByRole('switch', { name: 'Account status of bob' })).not.toBeChecked());
    const done = await screen.findByText('User disabled');
    await waitFor(() => expect(done).toBeVisible());
  },
};

export const ResetPassword: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.click(canvas.getByRole('button', { name: 'Reset the password of bob' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reset password' }));
    await userEvent.type(dialog.getByLabelText(/^New password/), 'short');
    await userEvent.type(dialog.getByLabelText(/^Confirm password/), 'short');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await dialog.findByText(/needs 8 to 128 characters/)).toBeVisible();
    // No reset for yourself (that goes through your own password with the old one).
    await expect(canvas.queryByRole('button', { name: 'Reset the password of admin' })).not.toBeInTheDocument();
  },
};

/** A tenant admin: no tenant filter, no super_admin role to grant, super admins locked. */
export const TenantAdmin: Story = {
  parameters: system({ me: tenantAdmin }),
  play: async ({ canvas }) => {
    await loaded();
    await expect(canvas.queryByRole('combobox', { name: 'Tenant' })).not.toBeInTheDocument();
    await expect(canvas.getByRole('switch', { name: 'Account status of admin' })).toBeDisabled();
    await expect(canvas.getByRole('button', { name: 'Edit admin' })).toBeDisabled();
    await userEvent.click(canvas.getByRole('button', { name: 'Create user' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create user' }));
    await userEvent.click(dialog.getByRole('combobox', { name: 'Role' }));
    const options = await screen.findAllByRole('option');
    await expect(options.map((o) => o.textContent)).toEqual(['User', 'Tenant admin']);
  },
};

export const Loading: Story = {
  parameters: system({ fake: { hang: true } }),
  play: async ({ canvas }) => {
    await expect(canvas.getByRole('table', { name: 'Users' })).toHaveAttribute('aria-busy', 'true');
  },
};

export const Empty: Story = {
  parameters: system({ fake: { users: 'none' } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No users yet')).toBeVisible();
    await expect(canvas.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  },
};

export const LoadError: Story = {
  parameters: system({ fake: { fail: true } }),
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('The data could not be loaded')).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};

/** The organisation tab: add a child, refuse to delete a non-empty organisation, delete an empty one. */
export const Organisations: Story = {
  parameters: system({}),
  play: async ({ canvas }) => {
    await loaded();
    await userEvent.click(canvas.getByRole('tab', { name: 'Organisations' }));
    const tree = await canvas.findByRole('list', { name: 'Organisation tree' }, { timeout: 3000 });
    await expect(within(tree).getByText('Engineering')).toBeVisible();

    await userEvent.click(within(tree).getByRole('button', { name: 'New organisation under "Sales"' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'New organisation' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await dialog.findByText('This form field is required!')).toBeVisible();
    await userEvent.type(dialog.getByLabelText(/^Organisation name/), 'EMEA');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await within(tree).findByText('EMEA')).toBeVisible();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await userEvent.click(within(tree).getByRole('button', { name: 'Delete "Sales"' }));
    const refusal = await screen.findByText(/still has members or sub-organisations/);
    await waitFor(() => expect(refusal).toBeVisible());
    await expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();

    await userEvent.click(within(tree).getByRole('button', { name: 'Delete "Data"' }));
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: /Delete the organisation "Data"/ })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(tree).queryByText('Data')).not.toBeInTheDocument());
  },
};
