import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { CurrentUser } from '../../schemas/auth';
import { useSession } from '../../src/app/session';
import { ModelAdminApiContext } from '../../src/app/system/models/model-api';
import ModelsPage from '../../src/app/system/models/models-page';
import { createMemoryModelApi, MEMORY_GOOD_KEY, type MemoryModelApi, type MemoryModelOptions } from '../../src/app/system/models/memory-model-api';
import { Toaster } from '../../src/ui/toast';
import { superAdmin, tenantAdmin } from './fake-system-api';

type Args = { me?: CurrentUser; fake?: MemoryModelOptions };

const meta = {
  title: 'System/Models page',
  loaders: [
    async ({ args }) => {
      const a = args as Args;
      const me = a.me ?? tenantAdmin;
      useSession.setState({ user: me, tenantId: me.tenant_id, accessToken: 'story-token' });
      return { api: createMemoryModelApi({ latencyMs: 60, ...a.fake }) };
    },
  ],
  render: (_a, { loaded }) => (
    <ModelAdminApiContext value={loaded.api as MemoryModelApi}>
      <div style={{ minHeight: 640 }}>
        <ModelsPage />
      </div>
      <Toaster />
    </ModelAdminApiContext>
  ),
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const card = async (name: string) => within(await screen.findByRole('group', { name }, { timeout: 3000 }));

/** OpenAI configured with a default LLM; Anthropic and Ollama waiting to be set up. */
export const Configured: Story = {
  args: { fake: { configured: { openai: MEMORY_GOOD_KEY }, defaults: [{ model_type: 'llm', provider: 'openai', model: 'gpt-4o' }] } },
  play: async () => {
    const openai = await card('OpenAI');
    await expect(openai.getByText('Configured')).toBeVisible();
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Default LLM model' })).toHaveTextContent('OpenAI / GPT-4o'));
    await userEvent.click(openai.getByRole('button', { name: /^Models/ }));
    await expect(await openai.findByRole('switch', { name: 'Enable GPT-4o mini' })).toBeChecked();
  },
};

/** Set up Anthropic: a wrong key fails the test with a clear message, the right one connects. */
export const SetUpAndTest: Story = {
  play: async () => {
    await userEvent.click((await card('Anthropic')).getByRole('button', { name: 'Set up Anthropic' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Anthropic credentials' }));
    await userEvent.type(dialog.getByLabelText(/^API key/), 'sk-wrong');
    await userEvent.click(dialog.getByRole('button', { name: 'Test connection' }));
    await expect(await dialog.findByRole('status')).toHaveTextContent('Connection failed');
    await userEvent.clear(dialog.getByLabelText(/^API key/));
    await userEvent.type(dialog.getByLabelText(/^API key/), MEMORY_GOOD_KEY);
    await userEvent.click(dialog.getByRole('button', { name: 'Test connection' }));
    await waitFor(() => expect(dialog.getByRole('status')).toHaveTextContent('Connected'));
  },
};

/** A local Ollama server: add the model it runs. */
export const AddCustomModel: Story = {
  args: { fake: { configured: { ollama: '' } } },
  play: async () => {
    const ollama = await card('Ollama');
    await userEvent.click(ollama.getByRole('button', { name: 'Models (0)' }));
    await userEvent.click(ollama.getByRole('button', { name: 'Add model' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add a model to Ollama' }));
    await userEvent.type(dialog.getByLabelText(/^Model name/), 'llama3.1:8b');
    await userEvent.click(dialog.getByRole('button', { name: 'Save' }));
    await expect(await ollama.findByRole('switch', { name: 'Enable llama3.1:8b' })).toBeChecked();
  },
};

export const Chinese: Story = {
  args: { me: superAdmin },
  globals: { locale: 'zh' },
  play: async () => {
    await expect(await screen.findByRole('heading', { name: '模型管理' })).toBeVisible();
    await card('OpenAI');
  },
};

export const PlainUserNoPermission: Story = {
  args: { me: { ...tenantAdmin, role: 'user' } },
  play: async ({ canvas }) => {
    await expect(canvas.getByTestId('no-permission')).toBeVisible();
  },
};

export const Loading: Story = {
  args: { fake: { neverLoads: true } },
  play: async ({ canvas }) => {
    await expect(canvas.getByLabelText('Model providers', { selector: '[aria-busy="true"]' })).toBeInTheDocument();
  },
};

export const LoadError: Story = {
  args: { fake: { listFails: true } },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole('button', { name: 'Retry' })).toBeVisible();
  },
};
