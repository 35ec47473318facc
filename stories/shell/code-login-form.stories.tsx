import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, fn, userEvent, waitFor, within } from 'storybook/test';
import { ApiError } from '../../src/api/request';
import { CodeLoginForm } from '../../src/app/screens/login/code-login-form';

const DEFAULT = '00000000-0000-0000-0000-000000000000';

const meta = {
  title: 'Shell/Code login form',
  component: CodeLoginForm,
  args: {
    channel: 'email',
    tenants: [{ id: DEFAULT, name: 'Default tenant', is_default: true }],
    defaultTenantId: DEFAULT,
    onSend: fn(async () => ({ resend_after: 60, expires_in: 300 })),
    onSubmit: fn(async () => undefined),
  },
  globals: { locale: 'en' },
  decorators: [(Story) => <div style={{ maxWidth: 380 }}><Story /></div>],
} satisfies Meta<typeof CodeLoginForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Email: the code is sent (the button counts down), then the sign-in carries address and code. */
export const EmailSignsIn: Story = {
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-code-target'), 'ada@example.com');
    await userEvent.click(c.getByTestId('login-code-send'));
    await waitFor(() => expect(args.onSend).toHaveBeenCalledWith({ tenantId: DEFAULT, target: 'ada@example.com' }));
    await expect(await c.findByTestId('login-code-sent')).toHaveTextContent('valid for 5 minutes');
    await expect(c.getByTestId('login-code-send')).toHaveTextContent(/Resend in \d+ s/);
    await expect(c.getByTestId('login-code-send')).toBeDisabled();
    await userEvent.type(c.getByTestId('login-code-code'), '123456');
    await userEvent.click(c.getByTestId('login-code-submit'));
    await waitFor(() => expect(args.onSubmit).toHaveBeenCalledWith({ tenantId: DEFAULT, target: 'ada@example.com', code: '123456' }));
  },
};

/** Phone: a number that is not one is refused before anything is sent (spec 5, LOGIN-1001). */
export const PhoneInvalid: Story = {
  args: { channel: 'sms' },
  play: async ({ canvasElement, args }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-code-target'), '12345');
    await userEvent.click(c.getByTestId('login-code-send'));
    await expect(await c.findByText('Please enter a valid phone number')).toBeVisible();
    await expect(args.onSend).not.toHaveBeenCalled();
  },
};

/** A wrong or expired code: the catalogue's message above the button. */
export const WrongCode: Story = {
  args: { onSubmit: fn(async () => Promise.reject(new ApiError({ status: 400, code: 'LOGIN-1005', msg: 'The verification code is wrong or has expired', data: null }))) },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-code-target'), 'ada@example.com');
    await userEvent.type(c.getByTestId('login-code-code'), '000000');
    await userEvent.click(c.getByTestId('login-code-submit'));
    await waitFor(() => expect(c.getByTestId('login-error')).toHaveTextContent('The verification code is wrong or has expired'));
  },
};

/** Sending too soon, in Chinese: 429 RATE-1000 with retry_after starts the countdown. */
export const TooSoonChinese: Story = {
  args: { channel: 'sms', onSend: fn(async () => Promise.reject(new ApiError({ status: 429, code: 'RATE-1000', msg: 'Too many requests', data: { retry_after: 42 } }))) },
  globals: { locale: 'zh' },
  play: async ({ canvasElement }) => {
    const c = within(canvasElement);
    await userEvent.type(c.getByTestId('login-code-target'), '13800138000');
    await userEvent.click(c.getByTestId('login-code-send'));
    await waitFor(() => expect(c.getByTestId('login-error')).toHaveTextContent('请求过于频繁'));
    await expect(c.getByTestId('login-code-send')).toBeDisabled();
    await expect(c.getByTestId('login-code-send')).toHaveTextContent(/4[0-2]/);
  },
};
