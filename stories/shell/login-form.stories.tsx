import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, screen, userEvent, waitFor, within } from 'storybook/test';
import { ApiError } from '../../src/api/request';
import { LoginForm } from '../../src/app/screens/login/login-form';

const DEFAULT = '00000000-0000-0000-0000-000000000000';
const tenants = [
  { id: DEFAULT, name: 'Default tenant', is_default: true },
  { id: '11111111-1111-1111-1111-111111111111', name: 'Acme Corp', is_default: false },
];

const meta = {
  title: 'Shell/Login form',
  component: LoginForm,
  args: { tenants: tenants.slice(0, 1), defaultTenantId: DEFAULT, onSubmit: fn(async () => undefined) },
  decorators: [(Story) => <div style={{ maxWidth: 380 }}><Story /></div>],
} satisfies Meta<typeof LoginForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** One tenant: no tenant choice; account and password required. */
export const Required: Story = {
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await expect(c.queryByRole('combobox')).toBeNull();
    await userEvent.click(c.getByTestId('login-submit'));
    await waitFor(() => expect(c.getAllByRole('alert').length).toBeGreaterThan(0));
    await expect(args.onSubmit).not.toHaveBeenCalled();
  },
};

export const SignsIn: Story = {
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-username'), 'admin');
    await userEvent.type(c.getByTestId('login-password'), 'Admin12345');
    await userEvent.click(c.getByTestId('login-submit'));
    await waitFor(() => expect(args.onSubmit).toHaveBeenCalledWith({ tenantId: DEFAULT, username: 'admin', password: 'Admin12345' }));
  },
};

/** Several tenants: the user picks one. */
export const ChoosesTenant: Story = {
  args: { tenants },
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await userEvent.click(c.getByRole('combobox'));
    await userEvent.click(await screen.findByRole('option', { name: 'Acme Corp' }));
    // The select's menu blocks the page until it has closed.
    await waitFor(() => expect(document.body.style.pointerEvents).not.toBe('none'));
    await expect(c.getByRole('combobox')).toHaveTextContent('Acme Corp');
    await userEvent.type(c.getByTestId('login-username'), 'oscar');
    await userEvent.type(c.getByTestId('login-password'), 'Oscar12345');
    await userEvent.click(c.getByTestId('login-submit'));
    await waitFor(() => expect(args.onSubmit).toHaveBeenCalledWith({ tenantId: tenants[1].id, username: 'oscar', password: 'Oscar12345' }));
  },
};

/** The server refused: its message shows above the button. */
export const Refused: Story = {
  args: { onSubmit: fn(async () => Promise.reject(new Error('Login failed'))) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-username'), 'admin');
    await userEvent.type(c.getByTestId('login-password'), 'nope-nope-1');
    await userEvent.click(c.getByTestId('login-submit'));
    await waitFor(() => expect(c.getByRole('alert')).toBeVisible());
  },
};

const tooMany = () => Promise.reject(new ApiError({ status: 429, code: 'AUTH-1006', msg: 'Too many failed attempts; try again in 60 s', data: { retry_after: 60 } }));

/** Too many failed attempts (429 AUTH-1006): the form says when to try again, in the user's language. */
export const TooManyAttempts: Story = {
  args: { onSubmit: fn(tooMany) },
  globals: { locale: 'en' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-username'), 'admin');
    await userEvent.type(c.getByTestId('login-password'), 'Admin12345');
    await userEvent.click(c.getByTestId('login-submit'));
    await waitFor(() => expect(c.getByTestId('login-error')).toHaveTextContent('Too many failed attempts. Try again in 60 seconds'));
  },
};

export const TooManyAttemptsChinese: Story = {
  args: { onSubmit: fn(tooMany) },
  globals: { locale: 'zh' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-username'), 'admin');
    await userEvent.type(c.getByTestId('login-password'), 'Admin12345');
    await userEvent.click(c.getByTestId('login-submit'));
    await waitFor(() => expect(c.getByTestId('login-error')).toHaveTextContent('失败次数过多，请 60 秒后再试'));
  },
};
