import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { CurrentUser } from '../../schemas/auth';
import type { MemberRole } from '../../schemas/workspace';
import { useSession } from '../../src/app/session';
import { MemberApiContext } from '../../src/app/workspace/members/member-api';
import MemberPage from '../../src/app/workspace/members/member-page';
import { createMemoryMemberApi, type MemoryMemberApi, type MemoryMemberOptions } from '../../src/app/workspace/members/memory-member-api';
import { demoId } from '../../src/kit/person-org-picker/memory-source';
import { Toaster } from '../../src/ui/toast';

const ME = demoId('user', 13); // Olivia Wang
const U = { alice: demoId('user', 1), bob: demoId('user', 2), frank: demoId('user', 6), ivan: demoId('user', 9), grace: demoId('user', 7) };

const me: CurrentUser = {
  id: ME,
  tenant_id: '00000000-0000-0000-0000-000000000000',
  tenant_name: 'Weft Inc.',
  username: 'olivia.wang',
  nickname: 'Olivia',
  realName: 'Olivia Wang',
  email: '',
  phone: '',
  avatar: '',
  role: 'user',
  status: 1,
};

type StoryArgs = Omit<MemoryMemberOptions, 'me' | 'members'> & { myRole?: MemberRole; members?: MemoryMemberOptions['members'] };

const team = (myRole: MemberRole): MemoryMemberOptions['members'] => [
  { userId: myRole === 'owner' ? ME : U.alice, role: 'owner' },
  ...(myRole === 'owner' ? [{ userId: U.alice, role: 'admin' as const }] : [{ userId: ME, role: myRole }]),
  { userId: U.bob, role: 'ordinary_member' },
  { userId: U.frank, role: 'ordinary_member' },
  { userId: U.ivan, role: 'admin' },
];

/** The page inside a memory data router (as in the app), with the toasts. */
function MemberStory({ api }: { api: MemoryMemberApi }) {
  const [router] = useState(() =>
    createMemoryRouter(
      [
        {
          path: '/operation/workspace/:workspace_id/member',
          element: (
            <MemberApiContext value={api}>
              <MemberPage />
            </MemberApiContext>
          ),
        },
        { path: '/operation', element: <p data-testid="operation-home">Project spaces</p> },
      ],
      { initialEntries: [`/operation/workspace/${api.workspaceId}/member`] },
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
  title: 'Workspace/Member page',
  loaders: [
    async ({ args }) => {
      const a = args as StoryArgs;
      useSession.setState({ user: me, tenantId: me.tenant_id, accessToken: 'story-token' });
      return { api: createMemoryMemberApi({ latencyMs: 40, ...a, me: ME, members: a.members ?? team(a.myRole ?? 'owner') }) };
    },
  ],
  render: (_args, { loaded }) => <MemberStory api={loaded.api as MemoryMemberApi} />,
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<StoryArgs>;

export default meta;
type Story = StoryObj<StoryArgs>;

const row = (name: string) => screen.findByRole('row', { name: new RegExp(name) }, { timeout: 3000 });

/** Owner: add a member through the picker (as admin), change the role, then transfer ownership. */
export const OwnerView: Story = {
  args: { myRole: 'owner' },
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryMemberApi;
    await row('Bob Wang');
    await expect(canvas.queryByRole('button', { name: 'Exit project space' })).not.toBeInTheDocument();

    // Add Grace Smith as an admin.
    await userEvent.click(canvas.getByRole('button', { name: 'Add member' }));
    const picker = await screen.findByRole('dialog', { name: 'Add members' });
    await userEvent.type(within(picker).getByRole('textbox', { name: 'Search' }), 'grace');
    const grace = await within(picker).findByRole('checkbox', { name: 'Select Grace Smith' }, { timeout: 3000 });
    await userEvent.click(grace);
    // Existing members are shown checked and disabled.
    await userEvent.clear(within(picker).getByRole('textbox', { name: 'Search' }));
    await userEvent.type(within(picker).getByRole('textbox', { name: 'Search' }), 'bob');
    const bob = await within(picker).findByRole('checkbox', { name: 'Select Bob Wang' }, { timeout: 3000 });
    await expect(bob).toBeChecked();
    await expect(bob).toBeDisabled();
    await userEvent.click(within(picker).getByRole('combobox', { name: 'Role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    // The role menu hides the rest of the page from assistive tech until it has closed.
    const add = await waitFor(() => within(picker).getByRole('button', { name: 'Add' }));
    await userEvent.click(add);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add members' })).not.toBeInTheDocument());
    await expect(api.calls.find((c) => c.method === 'addMembers')?.args[1]).toEqual({ user_ids: [U.grace], role: 'admin' });
    await expect(await screen.findByText('Members added: 1')).toBeInTheDocument();
    const graceRow = await row('Grace Smith');
    await expect(within(graceRow).getByRole('combobox', { name: 'Role of Grace Smith' })).toHaveTextContent('Admin');

    // Change her role.
    await userEvent.click(within(graceRow).getByRole('combobox', { name: 'Role of Grace Smith' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Ordinary member' }));
    await expect(await screen.findByText('Role updated')).toBeInTheDocument();
    await waitFor(async () => expect(within(await row('Grace Smith')).getByRole('combobox', { name: 'Role of Grace Smith' })).toHaveTextContent('Ordinary member'));

    // Transfer ownership to her: she becomes owner, I become admin (no more owner actions; I may exit).
    await userEvent.click(within(await row('Grace Smith')).getByRole('button', { name: 'Transfer ownership to Grace Smith' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Transfer ownership?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Transfer' }));
    await expect(await screen.findByText('Ownership transferred')).toBeInTheDocument();
    await waitFor(async () => expect(within(await row('Grace Smith')).getByText('Owner')).toBeVisible());
    await waitFor(() => expect(canvas.getByRole('button', { name: 'Exit project space' })).toBeVisible());
    await expect(canvas.queryByRole('combobox', { name: /^Role of/ })).not.toBeInTheDocument();
  },
};

/** Owner removes a member after confirming. */
export const RemoveMember: Story = {
  args: { myRole: 'owner' },
  play: async () => {
    await userEvent.click(within(await row('Frank Li')).getByRole('button', { name: 'Remove Frank Li' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Remove this member?' });
    await expect(confirm).toHaveTextContent('Frank Li will lose access');
    await userEvent.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.queryByRole('row', { name: /Frank Li/ })).not.toBeInTheDocument());
  },
};

/** An ordinary member: read-only table, and 'Exit project space' back to the project list. */
export const OrdinaryMemberView: Story = {
  args: { myRole: 'ordinary_member' },
  play: async ({ canvas }) => {
    const mine = await row('Olivia Wang');
    await expect(within(mine).getByText('You')).toBeVisible();
    await expect(canvas.queryByRole('button', { name: 'Add member' })).not.toBeInTheDocument();
    await expect(canvas.queryByRole('combobox', { name: /^Role of/ })).not.toBeInTheDocument();
    await expect(canvas.queryByRole('button', { name: /^Remove/ })).not.toBeInTheDocument();
    await userEvent.click(canvas.getByRole('button', { name: 'Exit project space' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Exit this project space?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Exit' }));
    await expect(await screen.findByTestId('operation-home', {}, { timeout: 3000 })).toBeVisible();
  },
};

/**
 * An admin adds members but does not manage roles: adding as admin is the owner's (spec 6), so the
 * choice is shown disabled with the reason, and the new member joins as an ordinary member.
 */
export const AdminView: Story = {
  args: { myRole: 'admin' },
  play: async ({ canvas, loaded }) => {
    const api = loaded.api as MemoryMemberApi;
    await row('Bob Wang');
    await expect(canvas.getByRole('button', { name: 'Add member' })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Exit project space' })).toBeVisible();
    await expect(canvas.queryByRole('combobox', { name: /^Role of/ })).not.toBeInTheDocument();

    await userEvent.click(canvas.getByRole('button', { name: 'Add member' }));
    const picker = await screen.findByRole('dialog', { name: 'Add members' });
    const roleSelect = within(picker).getByRole('combobox', { name: 'Role' });
    await expect(roleSelect).toHaveAccessibleDescription('Only the owner can add members as admins');
    await userEvent.click(roleSelect);
    const adminOption = await screen.findByRole('option', { name: /^Admin/ });
    await expect(adminOption).toHaveAttribute('aria-disabled', 'true');
    await expect(adminOption).toHaveTextContent('Only the owner can add members as admins');
    await userEvent.click(adminOption);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
    await expect(within(picker).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Ordinary member');

    await userEvent.type(within(picker).getByRole('textbox', { name: 'Search' }), 'grace');
    await userEvent.click(await within(picker).findByRole('checkbox', { name: 'Select Grace Smith' }, { timeout: 3000 }));
    await userEvent.click(within(picker).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add members' })).not.toBeInTheDocument());
    await expect(api.calls.find((c) => c.method === 'addMembers')?.args[1]).toEqual({ user_ids: [U.grace], role: 'ordinary_member' });
    await expect(within(await row('Grace Smith')).getByText('Ordinary member')).toBeVisible();
  },
};

export const Loading: Story = { args: { neverLoads: true } };

export const LoadError: Story = {
  args: { listFails: true },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('Could not load the members', {}, { timeout: 3000 })).toBeVisible();
    await expect(canvas.getByRole('button', { name: 'Retry' })).toBeVisible();
  },
};

/** Nothing matches the filter: the empty state offers to clear it. */
export const NoMatch: Story = {
  args: { myRole: 'owner' },
  play: async ({ canvas }) => {
    await row('Bob Wang');
    await userEvent.type(canvas.getByRole('textbox', { name: 'Search name, account or nick name' }), 'nobody');
    await expect(await canvas.findByText('No matching members', {}, { timeout: 3000 })).toBeVisible();
    await userEvent.click(canvas.getByRole('button', { name: 'Clear filters' }));
    await row('Bob Wang');
  },
};

/** 61 members: 20 a page, the pager, and a role filter. */
export const ManyRows: Story = {
  args: {
    members: [{ userId: ME, role: 'owner' }, ...Array.from({ length: 60 }, (_, i) => ({ userId: demoId('user', 14 + i), role: (i % 7 === 0 ? 'admin' : 'ordinary_member') as MemberRole }))],
  },
  play: async ({ canvas }) => {
    await row('Olivia Wang');
    await expect(canvas.getByText('61 in total')).toBeVisible();
    await expect(canvas.getAllByRole('row')).toHaveLength(21);
    await userEvent.click(canvas.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(canvas.queryByRole('row', { name: /Olivia Wang You/ })).not.toBeInTheDocument());
    await userEvent.click(canvas.getByRole('combobox', { name: 'Filter by role' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Admin' }));
    await waitFor(() => expect(canvas.getByText('9 in total')).toBeVisible());
  },
};
