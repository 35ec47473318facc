import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor } from 'storybook/test';
import { AppCard } from '../../src/app/portal/discover/app-card';
import DiscoverPage from '../../src/app/portal/discover/discover-page';
import { createMemoryPortalApi, demoPortalApps, type MemoryPortalApi, type MemoryPortalOptions } from '../../src/app/portal/memory-portal-api';
import { Landed, PortalStory } from './portal-story';
import { createMemoryRouter, RouterProvider } from 'react-router';

type StoryArgs = Omit<MemoryPortalOptions, 'apps'> & { count?: number };

const meta = {
  title: 'Portal/Discover',
  loaders: [
    async ({ args }) => {
      const a = args as StoryArgs;
      return { api: createMemoryPortalApi({ latencyMs: 30, ...a, apps: demoPortalApps(a.count ?? 6) }) };
    },
  ],
  render: (_args, { loaded }) => <PortalStory api={loaded.api as MemoryPortalApi} path="/portal/sessions/discover" url="/portal/sessions/discover" page={<DiscoverPage />} />,
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<StoryArgs>;

export default meta;
type Story = StoryObj<StoryArgs>;

const card = (name: string) => screen.findByRole('link', { name: `Open ${name}` }, { timeout: 3000 });

/** The gallery: cards with mode, source and version; a chat app links to its chat, a workflow to its run page. */
export const Gallery: Story = {
  play: async ({ canvas }) => {
    await card('Support assistant');
    await expect(canvas.getAllByTestId('portal-app-card')).toHaveLength(6);
    await expect(canvas.getByText('6 apps')).toBeVisible();
    await expect(canvas.getAllByText('Project space: Customer care').length).toBeGreaterThan(0);
    await expect(await card('Invoice extractor')).toHaveAttribute('href', expect.stringContaining('/portal/sessions/workflow/'));
    await expect(await card('Support assistant')).toHaveAttribute('href', expect.stringContaining('/portal/sessions/chat/'));
  },
};

/** Search and the mode filter (on the server); nothing matches. */
export const SearchAndFilter: Story = {
  play: async ({ canvas }) => {
    await card('Support assistant');
    await userEvent.click(canvas.getByRole('button', { name: 'Workflow' }));
    await waitFor(() => expect(canvas.getAllByTestId('portal-app-card')).toHaveLength(2));
    await expect(canvas.getByRole('button', { name: 'Workflow' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.type(canvas.getByRole('searchbox'), 'transcript{Enter}');
    await waitFor(() => expect(canvas.getAllByTestId('portal-app-card')).toHaveLength(1));
    await userEvent.type(canvas.getByRole('searchbox'), ' nobody{Enter}');
    await expect(await canvas.findByText('No apps match')).toBeVisible();
  },
};

/** 300 apps: rows are virtualised (only the visible cards are in the page) and pages load as the end shows. */
export const LongList: Story = {
  args: { count: 300 },
  play: async ({ canvas }) => {
    await card('Support assistant');
    await waitFor(() => expect(canvas.getByTestId('portal-app-grid')).toHaveAttribute('data-virtual', 'true'));
    await waitFor(() => expect(canvas.getAllByTestId('portal-app-card').length).toBeLessThan(100));
    await expect(canvas.getByText('300 apps')).toBeVisible();
  },
};

export const Empty: Story = {
  args: { count: 0 },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('No apps have been distributed to you yet', {}, { timeout: 3000 })).toBeVisible();
  },
};

export const Loading: Story = { args: { neverLoads: true } };

export const LoadError: Story = {
  args: { listFails: true },
  play: async ({ canvas }) => {
    await expect(await canvas.findByText('The apps could not be loaded', {}, { timeout: 3000 })).toBeVisible();
  },
};

/** One card (the gallery's unit), both platforms. */
export const Card: Story = {
  render: () => {
    const [a, , , , , b] = demoPortalApps(6);
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <div style={{ display: 'grid', gridTemplateColumns: 'repeat(2, 300px)', gap: 12 }}>
              <AppCard app={a} />
              <AppCard app={{ ...b, platform: 'current_project' }} />
            </div>
          ),
        },
        { path: '*', element: <Landed /> },
      ],
      { initialEntries: ['/'] },
    );
    return <RouterProvider router={router} />;
  },
  play: async ({ canvas }) => {
    await expect(canvas.getByText('Portal')).toBeVisible();
    await expect(canvas.getByText('Project space: Customer care')).toBeVisible();
  },
};
