import type { Meta, StoryObj } from '@storybook/react-vite';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import { createMemoryPortalApi, demoPortalApps, memoryConversation, memoryId, type MemoryPortalApi } from '../../src/app/portal/memory-portal-api';
import SessionsPage from '../../src/app/portal/sessions/sessions-page';
import { SessionListItem } from '../../src/app/portal/sessions/session-list-item';
import { PortalStory } from './portal-story';

const apps = demoPortalApps(6);
const [support, , coach, team] = apps;
const work = { id: memoryId('9'), name: 'Work', conversation_count: 0, created_at: '2025-03-01T09:00:00.000Z' };

/** Four conversations: one pinned, one in a group with a character, one whose app is no longer available. */
function fixtures() {
  return [
    memoryConversation(support, 'Refund question', { pinned: true, message_count: 4, last_message_at: '2025-03-02T10:00:00.000Z', updated_at: '2025-03-02T10:00:00.000Z' }),
    memoryConversation(coach, 'Cover letter', { group_id: work.id, persona: 'A strict editor', message_count: 12, updated_at: '2025-03-03T10:00:00.000Z' }),
    memoryConversation(team, 'Market research', { message_count: 2, updated_at: '2025-03-01T12:00:00.000Z' }),
    memoryConversation(apps[5], 'Leave policy', { message_count: 1, updated_at: '2025-02-28T12:00:00.000Z' }),
  ];
}

const meta = {
  title: 'Portal/Sessions',
  loaders: [async () => ({ api: createMemoryPortalApi({ apps, conversations: fixtures(), groups: [{ ...work }], lostAccess: [apps[5].id], latencyMs: 20 }) })],
  render: (_a, { loaded }) => <PortalStory api={loaded.api as MemoryPortalApi} path="/portal/sessions/sessions-page" url="/portal/sessions/sessions-page" page={<SessionsPage />} />,
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta;

export default meta;
type Story = StoryObj;

const item = async (name: string) => (await screen.findByRole('link', { name }, { timeout: 3000 })).closest('li') as HTMLElement;
const menu = async (name: string, entry: string) => {
  await userEvent.click(within(await item(name)).getByTestId('session-actions'));
  await userEvent.click(await screen.findByRole('menuitem', { name: entry }));
};

/** Pinned first; the group, the character and the unavailable app are marked; links open the chat. */
export const List: Story = {
  play: async ({ canvas }) => {
    await item('Refund question');
    const names = canvas.getAllByTestId('session-open').map((a) => a.textContent);
    await expect(names[0]).toBe('Refund question');
    await expect(within(await item('Cover letter')).getByTestId('session-group')).toHaveTextContent('Work');
    await expect(within(await item('Leave policy')).getByTestId('session-unavailable')).toBeVisible();
    await expect(within(await item('Cover letter')).getByRole('link')).toHaveAttribute('href', expect.stringContaining(`/portal/sessions/chat/${coach.id}?conversation=`));
  },
};

/** Session settings: rename and pin. */
export const SessionSettings: Story = {
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    await menu('Market research', 'Session settings');
    const dialog = await screen.findByTestId('session-settings-dialog');
    const name = within(dialog).getByRole('textbox');
    await userEvent.clear(name);
    await userEvent.type(name, 'Competitors 2025');
    await userEvent.click(within(dialog).getByRole('switch'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(canvas.getAllByTestId('session-open').map((a) => a.textContent)).toContain('Competitors 2025'));
    await expect(api.conversations.find((c) => c.name === 'Competitors 2025')?.pinned).toBe(true);
  },
};

/** Group management: add a group, move a conversation into it, filter by it, delete it. */
export const Groups: Story = {
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    await item('Refund question');
    await userEvent.click(canvas.getByTestId('sessions-manage-groups'));
    const manager = await screen.findByTestId('group-manager-dialog');
    await userEvent.type(within(manager).getByTestId('group-name'), 'Customers{Enter}');
    await expect(await within(manager).findByText('Customers')).toBeVisible();
    await userEvent.keyboard('{Escape}');
    await menu('Refund question', 'Move to group');
    const move = await screen.findByTestId('move-group-dialog');
    const select = within(move).getByRole('combobox');
    await userEvent.click(select);
    await userEvent.click(await screen.findByRole('option', { name: 'Customers' }));
    await waitFor(() => expect(select).toHaveTextContent('Customers'));
    await userEvent.click(await within(move).findByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(canvas.getByTestId('sessions-groups')).getByRole('button', { name: /Customers/ })).toHaveTextContent('1'));
    await userEvent.click(within(canvas.getByTestId('sessions-groups')).getByRole('button', { name: /Customers/ }));
    await waitFor(() => expect(canvas.getAllByTestId('session-item')).toHaveLength(1));
    await userEvent.click(canvas.getByTestId('sessions-manage-groups'));
    await userEvent.click(within(await screen.findByTestId('group-manager-dialog')).getByRole('button', { name: 'Delete group Customers' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete group' }));
    await waitFor(() => expect(api.groups.map((g) => g.name)).toEqual(['Work']));
    await expect(api.conversations.find((c) => c.name === 'Refund question')?.group_id).toBeNull();
  },
};

/** Character settings: the persona of a conversation. */
export const CharacterSettings: Story = {
  play: async ({ loaded }) => {
    const api = loaded.api as MemoryPortalApi;
    await menu('Refund question', 'Character settings');
    const dialog = await screen.findByTestId('character-dialog');
    await userEvent.type(within(dialog).getByRole('textbox'), 'A friendly support agent');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.conversations.find((c) => c.name === 'Refund question')?.persona).toBe('A friendly support agent'));
  },
};

/** Delete after confirming. */
export const Delete: Story = {
  play: async ({ canvas }) => {
    await menu('Market research', 'Delete');
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(canvas.queryByRole('link', { name: 'Market research' })).not.toBeInTheDocument());
  },
};

/** The dialogue assistant lists the chat apps the user may use (no workflows, not the unavailable one). */
export const DialogueAssistant: Story = {
  play: async ({ canvas }) => {
    await item('Refund question');
    await userEvent.click(canvas.getByTestId('sessions-assistant'));
    const dialog = await screen.findByTestId('assistant-dialog');
    await waitFor(() => expect(within(dialog).getAllByTestId('assistant-app')).toHaveLength(3));
    await expect(within(dialog).queryByText('Invoice extractor')).not.toBeInTheDocument();
  },
};

export const Empty: Story = {
  loaders: [async () => ({ api: createMemoryPortalApi({ apps }) })],
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No conversations yet', {}, { timeout: 3000 })).toBeVisible();
  },
};

/** One list item (the sessions page's unit). */
export const ListItem: Story = {
  render: () => {
    const [a, b] = fixtures();
    const router = createMemoryRouter([
      {
        path: '*',
        element: (
          <ul style={{ listStyle: 'none', padding: 0, maxWidth: 720 }}>
            <SessionListItem conversation={a} onAction={() => {}} />
            <SessionListItem conversation={{ ...b, accessible: false }} groupName="Work" onAction={() => {}} />
          </ul>
        ),
      },
    ]);
    return <RouterProvider router={router} />;
  },
  play: async ({ canvas }) => {
    await expect(canvas.getAllByTestId('session-item')).toHaveLength(2);
    await expect(canvas.getByText('Character set')).toBeVisible();
  },
};
