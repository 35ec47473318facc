import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../../schemas/auth';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { useSession } from '../../session';
import { ModelAdminApiContext } from './model-api';
import ModelsPage from './models-page';
import { createMemoryModelApi, MEMORY_GOOD_KEY, type MemoryModelOptions } from './memory-model-api';

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

const user = (role: CurrentUser['role']) => ({ id: 'u1', username: 'admin', role, tenant_id: 't1' }) as unknown as CurrentUser;

function setup(opts: MemoryModelOptions = {}, role: CurrentUser['role'] = 'tenant_admin') {
  useSession.setState({ user: user(role), tenantId: 't1', accessToken: 'x' });
  const api = createMemoryModelApi({ latencyMs: 1, ...opts });
  render(
    <ModelAdminApiContext value={api}>
      <ModelsPage />
      <Toaster />
    </ModelAdminApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const card = async (label: string) => within(await screen.findByRole('group', { name: label }, { timeout: 4000 }));

describe('ModelsPage', () => {
  it('lists the providers with their state and the default of each type', async () => {
    setup({ configured: { openai: MEMORY_GOOD_KEY }, defaults: [{ model_type: 'llm', provider: 'openai', model: 'gpt-4o' }] });
    const openai = await card('OpenAI');
    expect(openai.getByText('Configured')).toBeInTheDocument();
    expect((await card('Anthropic')).getByText('Not configured')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Default LLM model' })).toHaveTextContent('OpenAI / GPT-4o'));
    expect(screen.getByRole('combobox', { name: 'Default Rerank model' })).toBeDisabled();
  });

  it('sets up credentials from the schema form, tests them, and saves them', async () => {
    const { api, user } = setup();
    const anthropic = await card('Anthropic');
    await user.click(anthropic.getByRole('button', { name: 'Set up Anthropic' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Anthropic credentials' }));
    const key = dialog.getByLabelText(/^API key/);
    await user.type(key, 'sk-bad');
    await user.click(dialog.getByRole('button', { name: 'Test connection' }));
    expect(await dialog.findByRole('status')).toHaveTextContent('Connection failed: The key is invalid or lacks permission');
    await user.clear(key);
    await user.type(key, MEMORY_GOOD_KEY);
    await user.click(dialog.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(dialog.getByRole('status')).toHaveTextContent('Connected (42 ms)'));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.keys.get('anthropic')?.api_key).toBe(MEMORY_GOOD_KEY);
    await waitFor(async () => expect((await card('Anthropic')).getByText('Configured')).toBeInTheDocument());
  });

  it('shows a saved key only masked and keeps it when saved unchanged', async () => {
    const { api, user } = setup({ configured: { openai: MEMORY_GOOD_KEY } });
    await user.click((await card('OpenAI')).getByRole('button', { name: 'Edit credentials OpenAI' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'OpenAI credentials' }));
    await waitFor(() => expect(dialog.getByLabelText(/^API key/)).toHaveValue('sk-g****0000'));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.keys.get('openai')?.api_key).toBe(MEMORY_GOOD_KEY);
    expect(api.calls.find((c) => c.method === 'saveCredentials')?.args[1]).toMatchObject({ api_key: 'sk-g****0000' });
  });

  it('enables and disables models, and adds and deletes a custom model', async () => {
    const { api, user } = setup({ configured: { ollama: '' } });
    const ollama = await card('Ollama');
    await user.click(ollama.getByRole('button', { name: 'Models (0)' }));
    expect(await ollama.findByText('No models yet: add a custom model')).toBeInTheDocument();
    await user.click(ollama.getByRole('button', { name: 'Add model' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a model to Ollama' }));
    await user.type(dialog.getByLabelText(/^Model name/), 'qwen2.5:7b');
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const sw = await ollama.findByRole('switch', { name: 'Enable qwen2.5:7b' });
    expect(sw).toBeChecked();
    await user.click(sw);
    await waitFor(() => expect(api.calls.some((c) => c.method === 'setModelEnabled' && c.args[2] === false)).toBe(true));
    await waitFor(() => expect(ollama.getByRole('switch', { name: 'Enable qwen2.5:7b' })).not.toBeChecked());
    await user.click(ollama.getByRole('button', { name: 'Delete qwen2.5:7b' }));
    const ask = within(await screen.findByRole('alertdialog', { name: 'Delete the model "qwen2.5:7b"?' }));
    await user.click(ask.getByRole('button', { name: 'Delete' }));
    expect(await ollama.findByText('No models yet: add a custom model')).toBeInTheDocument();
  });

  it('sets a tenant default and clears it when the credentials are removed', async () => {
    const { api, user } = setup({ configured: { openai: MEMORY_GOOD_KEY } });
    const llm = await screen.findByRole('combobox', { name: 'Default LLM model' });
    await waitFor(() => expect(llm).toBeEnabled());
    await user.click(llm);
    await user.click(await screen.findByRole('option', { name: 'OpenAI / GPT-4o mini' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'setDefault')?.args[0]).toEqual({ model_type: 'llm', provider: 'openai', model: 'gpt-4o-mini' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Default LLM model' })).toHaveTextContent('GPT-4o mini'));
    await user.click((await card('OpenAI')).getByRole('button', { name: 'Remove credentials OpenAI' }));
    const ask = within(await screen.findByRole('alertdialog', { name: 'Remove the credentials of "OpenAI"?' }));
    await user.click(ask.getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Default LLM model' })).toBeDisabled());
    expect(api.keys.has('openai')).toBe(false);
  });

  it('shows no list to a plain user, and a retry after a failed load', async () => {
    setup({}, 'user');
    expect(screen.getByTestId('no-permission')).toBeInTheDocument();
    expect(screen.queryByRole('group')).not.toBeInTheDocument();
    cleanup();
    const { api, user } = setup({ listFails: true });
    await user.click(await screen.findByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'listProviders')).toHaveLength(2));
  });
});
