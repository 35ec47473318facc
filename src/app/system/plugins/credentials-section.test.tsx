import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/request';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { CredentialsSection, type CredentialsApi } from './credentials-section';

// The plugin credentials form (issue 24): the server's per-field issues (`body/values/<field>`, as
// src/server/plugins/credentials.ts answers VALIDATION-1000) show under the matching field, in the
// page's language, and an issue of no field of the form above the buttons.

const schema = {
  type: 'object',
  properties: {
    signature: { type: 'string', minLength: 1, titles: { zh: '签名', en: 'Signature' } },
    api_key: { type: 'string', minLength: 8, secret: true, titles: { zh: '密钥', en: 'API key' } },
  },
  required: ['signature', 'api_key'],
};

const refused = () =>
  new ApiError({
    status: 400,
    code: 'VALIDATION-1000',
    msg: 'Invalid credentials',
    data: [
      { path: 'body/values/api_key', message: 'Too small: expected string to have >=12 characters', rule: 'too_small', origin: 'string', limit: 12 },
      { path: 'body/values/signature', message: 'This signature is in use by another tenant' },
    ],
  });

beforeAll(async () => {
  await initI18n('en');
});
afterEach(() => cleanup());
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

function setup() {
  const api: CredentialsApi = { load: vi.fn(async () => null), save: vi.fn(async () => Promise.reject(refused())), remove: vi.fn(async () => undefined) };
  render(
    <>
      <CredentialsSection schema={schema} api={api} />
      <Toaster />
    </>,
  );
  return { api, user: userEvent.setup() };
}

const input = (name: string) => document.querySelector<HTMLInputElement>(`[data-field="${name}"] input`)!;
const fieldError = (name: string) => document.querySelector(`[data-field="${name}"] [data-slot="field-error"]`)?.textContent ?? null;

async function submitRefused(label: { signature: string; save: string }) {
  const { api, user } = setup();
  await user.type(await screen.findByRole('textbox', { name: new RegExp(`^${label.signature}`) }), 'ACME');
  await user.type(input('api_key'), 'sk-12345678');
  await user.click(screen.getByRole('button', { name: label.save }));
  await waitFor(() => expect(api.save).toHaveBeenCalledTimes(1));
  await waitFor(() => expect(fieldError('api_key')).not.toBeNull());
}

describe('CredentialsSection', () => {
  it("shows the server's field issues under their fields, in English", async () => {
    await i18n.changeLanguage('en');
    await submitRefused({ signature: 'Signature', save: i18n.t('system:plugins.credentials.save') });
    expect(fieldError('api_key')).toBe('must be at least 12 characters');
    expect(fieldError('signature')).toBe('This signature is in use by another tenant');
    expect(document.querySelector('[data-slot="form-error"]')).toBeNull();
  });

  it('and in Chinese', async () => {
    await i18n.changeLanguage('zh');
    await submitRefused({ signature: '签名', save: i18n.t('system:plugins.credentials.save') });
    expect(fieldError('api_key')).toBe('长度不能少于 12');
    expect(fieldError('signature')).toBe('This signature is in use by another tenant');
  });
});
