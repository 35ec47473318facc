import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, within } from 'storybook/test';
import type { FlowMode } from '../../schemas/flow';
import { ApiDocs } from '../../src/app/screens/app/api-tab/api-docs-section';
import { DEFAULT_FIELDS, documentWith, MEMORY_APP_ID } from '../../src/app/screens/app/api-tab/memory-api-tab-api';

/** The api tab's documentation generated for one app: its inputs, its endpoints with curl, fetch and responses. */

interface Args {
  mode: FlowMode;
  published: boolean;
}

const meta = {
  title: 'App/API docs',
  args: { mode: 'chatflow', published: true },
  render: ({ mode, published }) => (
    <ApiDocs
      appId={MEMORY_APP_ID}
      mode={mode}
      baseUrl="https://weft.example/v1"
      published={published ? { version: 'v1.0.2', document: documentWith(mode, DEFAULT_FIELDS) } : null}
      draft={documentWith(mode, DEFAULT_FIELDS.slice(0, 1))}
    />
  ),
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A chat app: Dify's chat endpoints, then the OpenAI-compatible ones; the request names the real inputs. */
export const ChatApp: Story = {
  play: async ({ canvas }) => {
    const chat = canvas.getByTestId('endpoint-chat');
    await expect(within(chat).getByTestId('endpoint-chat-curl')).toHaveTextContent('"topic": "Topic"');
    await userEvent.click(within(chat).getByRole('tab', { name: 'JavaScript' }));
    await expect(await within(chat).findByTestId('endpoint-chat-js')).toHaveTextContent("Authorization: \"Bearer {{API_KEY}}\"");
    await userEvent.click(within(chat).getByRole('tab', { name: 'Streamed response' }));
    await expect(await within(chat).findByTestId('endpoint-chat-stream')).toHaveTextContent('"event":"message_end"');
  },
};

export const Workflow: Story = { args: { mode: 'workflow' } };
export const Unpublished: Story = { args: { mode: 'workflow', published: false } };
export const Chinese: Story = { globals: { locale: 'zh' } };
export const Dark: Story = { globals: { theme: 'dark' } };
