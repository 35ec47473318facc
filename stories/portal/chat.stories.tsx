import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { emptyChat, withOlder } from '../../src/app/portal/chat/chat-state';
import ChatPage from '../../src/app/portal/chat/chat-page';
import { MessageList } from '../../src/app/portal/chat/message-list';
import { createMemoryPortalApi, demoPortalApps, memoryConversation, memoryMessage, type MemoryPortalApi } from '../../src/app/portal/memory-portal-api';
import { PortalStory } from './portal-story';


const apps = demoPortalApps(6);
const support = apps[0];
const coach = apps[2];

const ANSWER = `Here is how to **reverse a list** in Python:

\`\`\`python
items = [1, 2, 3]
items.reverse()  # in place
print(items[::-1])
\`\`\`

| Way | Copies? |
|---|---|
| \`reverse()\` | no |
| \`[::-1]\` | yes |

Text like <b>this</b> or <script>alert(1)</script> stays text.`;

const citation = {
  dataset_id: 'ds',
  dataset_name: 'Python handbook',
  document_id: 'doc',
  document_name: 'lists.md',
  segment_id: 'seg',
  content: 'list.reverse() reverses the elements of the list in place. To get a reversed copy, use slicing: a[::-1]. '.repeat(4),
  score: 0.87,
};

/** A conversation of three exchanges, the last with code, a table, citations and escaped HTML. */
function conversation() {
  const c = memoryConversation(support, 'Python lists', { message_count: 3 });
  return {
    c,
    messages: [
      memoryMessage(c.id, 'Hi!', 'Hello! How can I help?', 1),
      memoryMessage(c.id, 'What is a list?', 'A *list* is an ordered, changeable collection.', 2, { feedback: 'like' }),
      memoryMessage(c.id, 'How do I reverse one?', ANSWER, 3, { citations: [citation] }),
    ],
  };
}

function ListStory() {
  const { c, messages } = conversation();
  const chat = withOlder(emptyChat(c.id), { list: [...messages].reverse(), has_more: false });
  return (
    <div style={{ height: 640, display: 'flex', flexDirection: 'column', background: 'var(--color-bg)' }}>
      <MessageList
        chat={chat}
        features={support.features}
        app={{ name: support.name, icon: support.icon }}
        busy={false}
        readOnly={false}
        loadingOlder={false}
        onLoadOlder={() => {}}
        onRegenerate={() => {}}
        onFeedback={() => {}}
        onAsk={() => {}}
      />
    </div>
  );
}

const meta = {
  title: 'Portal/Chat',
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta;

export default meta;
type Story = StoryObj;

/** The message list: markdown, highlighted code, a table, HTML shown as text, citations folded under the answer. */
export const Messages: Story = {
  render: () => <ListStory />,
  play: async ({ canvas }) => {
    // The list opens at its end: the last answer is the one with the code.
    const last = await waitFor(() => {
      const el = canvas.getAllByTestId('chat-answer').find((a) => a.querySelector('code.hljs.language-python'));
      if (!el) throw new Error('the last answer is not shown yet');
      return el;
    });
    await expect(last.querySelector('table')).not.toBeNull();
    await expect(last.querySelector('script, b')).toBeNull();
    await expect(last).toHaveTextContent('<script>alert(1)</script>');
    await userEvent.click(await within(last.closest('article')!).findByRole('button', { name: 'Citations (1)' }));
    await expect(await canvas.findByText('Python handbook · lists.md')).toBeVisible();
  },
};

function chatStory(api: MemoryPortalApi, url: string) {
  return <PortalStory api={api} path="/portal/sessions/chat/:appId" url={url} page={<div style={{ height: '100vh', display: 'flex' }}><ChatPage /></div>} />;
}

/** A new conversation: the opening statement, two of four suggested questions; one asked, streamed, rated, regenerated. */
export const Streaming: Story = {
  loaders: [async () => ({ api: createMemoryPortalApi({ apps, chunkDelayMs: 15 }) })],
  render: (_a, { loaded }) => chatStory(loaded.api as MemoryPortalApi, `/portal/sessions/chat/${support.id}`),
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    await expect(await canvas.findByTestId('chat-opening', {}, { timeout: 3000 })).toHaveTextContent('Hello! I am Support assistant');
    const suggested = within(canvas.getByTestId('chat-suggested')).getAllByRole('button');
    await expect(suggested).toHaveLength(2);
    await userEvent.type(canvas.getByTestId('chat-input'), 'How do I greet?{Enter}');
    await expect(await canvas.findByTestId('chat-stop')).toBeVisible();
    await waitFor(() => expect(canvas.getByTestId('chat-send')).toBeVisible(), { timeout: 5000 });
    const answer = canvas.getByTestId('chat-answer');
    await expect(answer).toHaveTextContent('You asked: How do I greet?');
    await expect(answer.querySelector('code.hljs')).not.toBeNull();
    // The conversation is in the side list and the URL; follow-ups came.
    await expect(await canvas.findByTestId('chat-follow-ups')).toBeVisible();
    await userEvent.click(canvas.getByTestId('chat-like'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'feedback' && c.args[1] === 'like')).toBe(true));
    await userEvent.click(canvas.getByTestId('chat-regenerate'));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'chat')).toHaveLength(2));
    await expect((api.calls.filter((c) => c.method === 'chat')[1].args[1] as { regenerate_message_id?: string }).regenerate_message_id).toBeTruthy();
    await waitFor(() => expect(canvas.getAllByTestId('chat-message')).toHaveLength(1), { timeout: 5000 });
  },
};

/** Stop cuts the answer where it is. */
export const Stop: Story = {
  loaders: [async () => ({ api: createMemoryPortalApi({ apps, chunkDelayMs: 120 }) })],
  render: (_a, { loaded }) => chatStory(loaded.api as MemoryPortalApi, `/portal/sessions/chat/${coach.id}`),
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    await userEvent.type(await canvas.findByTestId('chat-input', {}, { timeout: 3000 }), 'Long answer please{Enter}');
    await userEvent.click(await canvas.findByTestId('chat-stop'));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'stop')).toBe(true));
  },
};

/** An existing conversation opens at its end; older messages load as it scrolls up. */
export const History: Story = {
  loaders: [
    async () => {
      const c = memoryConversation(support, 'Long talk', { message_count: 45 });
      const messages = Array.from({ length: 45 }, (_, i) => memoryMessage(c.id, `Question ${i + 1}`, `Answer number ${i + 1}.`, i));
      return { api: createMemoryPortalApi({ apps, conversations: [c], messages: { [c.id]: messages } }), id: c.id };
    },
  ],
  render: (_a, { loaded }) => chatStory(loaded.api as MemoryPortalApi, `/portal/sessions/chat/${support.id}?conversation=${loaded.id as string}`),
  play: async ({ canvas }) => {
    await waitFor(() => expect(canvas.getByText('Answer number 45.')).toBeVisible(), { timeout: 3000 });
    const scroller = canvas.getByTestId('chat-messages');
    for (let i = 0; i < 20 && !canvas.queryByText('Question 1'); i++) {
      scroller.scrollTop = 0;
      await new Promise((r) => setTimeout(r, 150));
    }
    await expect(await canvas.findByText('Question 1')).toBeInTheDocument();
  },
};

/** The distribution was cancelled: the past conversation reads, the box says why it is off. */
export const LostAccess: Story = {
  loaders: [
    async () => {
      const { c, messages } = conversation();
      return { api: createMemoryPortalApi({ apps, conversations: [c], messages: { [c.id]: messages }, lostAccess: [support.id] }) };
    },
  ],
  render: (_a, { loaded }) => chatStory(loaded.api as MemoryPortalApi, `/portal/sessions/chat/${support.id}`),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('lost-access-banner', {}, { timeout: 3000 })).toHaveTextContent('You can no longer use this app');
    await waitFor(() => expect(canvas.getByText('How do I reverse one?')).toBeVisible());
    await expect(canvas.getByTestId('chat-input')).toBeDisabled();
    await expect(canvas.getByTestId('chat-input')).toHaveAttribute('placeholder', 'You can no longer use this app: past conversations are read-only');
    await expect(canvas.queryByTestId('chat-regenerate')).toBeNull();
  },
};

/** Lost access and nothing to read: the clear page with the way back. */
export const LostAccessNoHistory: Story = {
  loaders: [async () => ({ api: createMemoryPortalApi({ apps, lostAccess: [support.id] }) })],
  render: (_a, { loaded }) => chatStory(loaded.api as MemoryPortalApi, `/portal/sessions/chat/${support.id}`),
  play: async ({ canvas }) => {
    await expect(await canvas.findByTestId('lost-access', {}, { timeout: 3000 })).toHaveTextContent('You can no longer use this app');
    await expect(canvas.getByRole('link', { name: 'Back to Discover' })).toHaveAttribute('href', '/portal/sessions/discover');
  },
};

/** An app with start inputs asks them once, then sends them with the first message. */
export const StartInputs: Story = {
  loaders: [
    async () => {
      const app = { ...coach, inputs: [{ name: 'audience', label: 'Audience', type: 'select' as const, required: true, options: ['Students', 'Managers'], max_length: null, allowed_extensions: [] }] };
      return { api: createMemoryPortalApi({ apps: [app] }), app };
    },
  ],
  render: (_a, { loaded }) => chatStory(loaded.api as MemoryPortalApi, `/portal/sessions/chat/${coach.id}`),
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    const form = await canvas.findByTestId('chat-start-inputs', {}, { timeout: 3000 });
    await expect(canvas.getByTestId('chat-input')).toBeDisabled();
    const select = await within(form).findByRole('combobox');
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: 'Managers' }));
    await waitFor(() => expect(select).toHaveTextContent('Managers'));
    await userEvent.click(await within(form).findByRole('button', { name: 'Start the conversation' }));
    await waitFor(() => expect(canvas.getByTestId('chat-input')).toBeEnabled());
    await userEvent.type(canvas.getByTestId('chat-input'), 'Hello{Enter}');
    await waitFor(() => expect(api.calls.find((c) => c.method === 'chat')?.args[1]).toMatchObject({ inputs: { audience: 'Managers' } }));
  },
};
