import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { MemberRole } from '../../schemas/workspace';
import { AppApiContext } from '../../src/app/workspace/apps/app-api';
import AppsPage from '../../src/app/workspace/apps/apps-page';
import { createMemoryAppApi, demoApps, type MemoryAppApi, type MemoryAppOptions } from '../../src/app/workspace/apps/memory-app-api';
import { Toaster } from '../../src/ui/toast';

type StoryArgs = Omit<MemoryAppOptions, 'apps'> & { count?: number; role?: MemberRole };

function EditorStandIn() {
  const { appId, kind } = useParams();
  return <p data-testid="editor">{`${kind} ${appId}`}</p>;
}

/** The page inside a memory data router (as in the app), with the toasts. */
function AppsStory({ api }: { api: MemoryAppApi }) {
  const [router] = useState(() =>
    createMemoryRouter(
      [
        {
          path: '/operation/workspace/:workspace_id/app',
          element: (
            <AppApiContext value={api}>
              <AppsPage />
            </AppApiContext>
          ),
        },
        { path: '/operation/app/:appId/:kind', element: <EditorStandIn /> },
      ],
      { initialEntries: [`/operation/workspace/${api.workspaceId}/app`] },
    ),
  );
  return (
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>
  );
}

const meta = {
  title: 'Workspace/Apps page',
  loaders: [
    async ({ args }) => {
      const a = args as StoryArgs;
      return { api: createMemoryAppApi({ latencyMs: 40, ...a, apps: demoApps(a.count ?? 6) }) };
    },
  ],
  render: (_args, { loaded }) => <AppsStory api={loaded.api as MemoryAppApi} />,
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<StoryArgs>;

export default meta;
type Story = StoryObj<StoryArgs>;

const openLink = (name: string) => screen.findByRole('link', { name: `Open ${name}` }, { timeout: 3000 });

/** Owner: create a chatflow with a teal globe icon; it comes first in the list. */
export const CreateApp: Story = {
  args: { role: 'owner' },
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryAppApi;
    await openLink('Support triage');
    await userEvent.click(canvas.getByRole('button', { name: 'Create app' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create app' });
    // Everything is required.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await expect(await within(dialog).findAllByText('This form field is required!')).toHaveLength(3);
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Sales helper');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Description/ }), 'Drafts replies to new leads');
    await userEvent.click(within(dialog).getByRole('radio', { name: /Chatflow/ }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Icon' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose an icon' });
    await userEvent.click(within(picker).getByRole('radio', { name: 'Teal' }));
    await userEvent.click(within(picker).getByRole('radio', { name: 'Globe' }));
    await userEvent.keyboard('{Escape}');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await expect(await screen.findByText('App created')).toBeInTheDocument();
    await waitFor(() => expect(canvas.getAllByTestId('app-card')[0]).toHaveTextContent('Sales helper'));
    await expect(api.calls.find((c) => c.method === 'createApp')?.args[1]).toMatchObject({ type: 'chatflow', icon: { icon: 'globe', iconColor: '#CCFBF1' } });
  },
};

/** Delete after confirming. */
export const DeleteApp: Story = {
  args: { role: 'admin' },
  play: async ({ canvas }) => {
    await openLink('Invoice extractor');
    await userEvent.click(canvas.getByRole('button', { name: 'Actions for Invoice extractor' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete this app?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(canvas.queryByRole('link', { name: 'Open Invoice extractor' })).not.toBeInTheDocument());
  },
};

/** An ordinary member edits and changes the status, but has no delete. */
export const OrdinaryMember: Story = {
  args: { role: 'ordinary_member' },
  play: async ({ canvas }) => {
    await openLink('Support triage');
    await userEvent.click(canvas.getByRole('button', { name: 'Actions for Support triage' }));
    const edit = await screen.findByRole('menuitem', { name: 'Edit info' });
    await waitFor(() => expect(edit).toBeVisible());
    await expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('menuitem', { name: 'Deactivate' }));
    await expect(await screen.findByText('App deactivated')).toBeInTheDocument();
  },
};

/** Opening an agent team goes to the agent-team editor. */
export const OpenApp: Story = {
  play: async () => {
    await userEvent.click(await openLink('Release crew'));
    await expect(await screen.findByTestId('editor')).toHaveTextContent(/^agent-team /);
  },
};

/** Search by name; nothing matches; clear. */
export const Search: Story = {
  play: async ({ canvas }) => {
    await openLink('Support triage');
    await userEvent.type(canvas.getByRole('searchbox', { name: 'Search app name' }), 'nobody{Enter}');
    await expect(await canvas.findByText('No matching apps', {}, { timeout: 3000 })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Clear filters' }));
    await openLink('Support triage');
  },
};

export const Empty: Story = {
  args: { count: 0 },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No apps yet', {}, { timeout: 3000 })).toBeVisible();
  },
};

/** 45 apps: 20 a page and the pager. */
export const ManyApps: Story = {
  args: { count: 45 },
  play: async ({ canvas }) => {
    await openLink('Support triage');
    await expect(canvas.getByText('45 in total')).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Page 3' }));
    await waitFor(() => expect(canvas.getAllByTestId('app-card')).toHaveLength(5));
  },
};

export const Loading: Story = { args: { neverLoads: true } };

export const LoadError: Story = {
  args: { listFails: true },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Could not load the apps', {}, { timeout: 3000 })).toBeVisible();
  },
};
