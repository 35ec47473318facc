import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, screen, userEvent, waitFor, within } from 'storybook/test';
import type { DistributionView, DistributionVersionRef } from '../../schemas/distribution';
import { DistributeApiContext } from '../../src/app/screens/app/distribute-api';
import DistributePage from '../../src/app/screens/app/distribute-page';
import { DistributionCard } from '../../src/app/screens/app/distribution-card';
import { createMemoryDistributeApi, type MemoryDistributeApi, type MemoryDistributeOptions } from '../../src/app/screens/app/memory-distribute-api';
import { Toaster } from '../../src/ui/toast';

/** The app editor's distribute tab on fixture data: a card per platform, distribute, move to a newer version, cancel. */

type Args = MemoryDistributeOptions;

const meta = {
  title: 'Canvas/App distribution',
  loaders: [async ({ args }) => ({ api: createMemoryDistributeApi({ latencyMs: 60, ...(args as Args) }) })],
  render: (_args, { loaded }) => {
    const api = loaded.api as MemoryDistributeApi;
    return (
      <DistributeApiContext value={api}>
        <DistributePage app={{ id: api.appId, workspace_id: api.workspaceId, type: api.mode }} origin="https://weft.example" />
        <Toaster />
      </DistributeApiContext>
    );
  },
  parameters: { layout: 'fullscreen' },
  globals: { locale: 'en' },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** The owner distributes to the portal (the newest version is chosen): the portal link and the embed snippet appear. */
export const Distribute: Story = {
  args: {},
  play: async ({ canvas }) => {
    const portal = await canvas.findByTestId('distribution-card-portal', {}, { timeout: 4000 });
    await userEvent.click(within(portal).getByTestId('distribution-distribute'));
    const dialog = await screen.findByTestId('distribution-dialog');
    await waitFor(() => expect(within(dialog).getByRole('combobox')).toHaveTextContent('v1.0.2'));
    await userEvent.click(within(dialog).getByTestId('distribution-dialog-submit'));
    await expect(await within(portal).findByTestId('distribution-embed', {}, { timeout: 4000 })).toBeInTheDocument();
  },
};

/** Every state at once: distributed on an older version (a newer one is available), cancelled, in the store's review. */
export const MixedStates: Story = {
  args: {
    records: {
      current_project: { state: 'distributed', versionIndex: 2 },
      portal: { state: 'distributed', versionIndex: 0 },
      store: { state: 'cancelled', versionIndex: 1, review: 'awaiting_release' },
    },
  },
  play: async ({ canvas }) => {
    const portal = await canvas.findByTestId('distribution-card-portal', {}, { timeout: 4000 });
    await expect(within(portal).getByTestId('distribution-newer')).toHaveTextContent('v1.0.2');
  },
};

/** An admin of the space: everything readable, every action disabled with the owner rule as the reason. */
export const AdminView: Story = {
  args: { owner: false, records: { portal: { state: 'distributed', versionIndex: 1 } } },
  play: async ({ canvas }) => {
    await canvas.findByTestId('distribute-owner-only', {}, { timeout: 4000 });
    await expect(within(canvas.getByTestId('distribution-card-portal')).getByTestId('distribution-move')).toBeDisabled();
  },
};

export const NoVersionYet: Story = { args: { versions: 0 } };
export const Inactive: Story = { args: { inactive: true, records: { portal: { state: 'distributed', versionIndex: 0 } } } };
export const WorkflowAsTool: Story = {
  args: { mode: 'workflow', records: { tool: { state: 'distributed', versionIndex: 2 }, store: { state: 'distributed', versionIndex: 2, review: 'released' } } },
};
export const LoadError: Story = { args: { listFails: true } };

// ------------------------------------------------------------------ one card in each state

const at = '2026-06-02T09:00:00.000Z';
const v = (n: number): DistributionVersionRef => ({ id: `0f000000-0000-4000-8000-00000000000${n}`, version: `v1.0.${n}`, created_at: at });
const record = (over: Partial<NonNullable<DistributionView['distribution']>> = {}): NonNullable<DistributionView['distribution']> => ({
  id: '0e000000-0000-4000-8000-000000000001',
  version: v(1),
  distributed_by: '0b000000-0000-4000-8000-0000000000b1',
  distributed_by_name: 'Olga Owner',
  distributed_at: at,
  updated_at: at,
  cancelled_by_name: null,
  cancelled_at: null,
  review_state: null,
  review_reason: null,
  tool_id: null,
  ...over,
});
const CARDS: [string, DistributionView][] = [
  ['Not distributed', { platform: 'portal', state: 'not_distributed', distribution: null, newer_version_available: false, blocked: null }],
  ['Distributed', { platform: 'portal', state: 'distributed', distribution: record({ version: v(2) }), newer_version_available: false, blocked: null }],
  ['Newer version available', { platform: 'current_project', state: 'distributed', distribution: record(), newer_version_available: true, blocked: null }],
  ['Cancelled', { platform: 'current_project', state: 'cancelled', distribution: record({ cancelled_at: at, cancelled_by_name: 'Olga Owner' }), newer_version_available: false, blocked: null }],
  ['Store: awaiting release', { platform: 'store', state: 'distributed', distribution: record({ review_state: 'awaiting_release' }), newer_version_available: false, blocked: null }],
  ['Store: released', { platform: 'store', state: 'distributed', distribution: record({ review_state: 'released' }), newer_version_available: false, blocked: null }],
  ['Store: rejected', { platform: 'store', state: 'distributed', distribution: record({ review_state: 'rejected', review_reason: 'Add a description of what it answers' }), newer_version_available: false, blocked: null }],
  ['Store: offline', { platform: 'store', state: 'distributed', distribution: record({ review_state: 'offline' }), newer_version_available: false, blocked: null }],
  ['Tool', { platform: 'tool', state: 'distributed', distribution: record({ tool_id: '0d000000-0000-4000-8000-0000000000d1' }), newer_version_available: false, blocked: null }],
  ['Version deleted after a cancel', { platform: 'portal', state: 'cancelled', distribution: record({ version: null, cancelled_at: at, cancelled_by_name: 'Olga Owner' }), newer_version_available: false, blocked: null }],
  ['Blocked: not the owner', { platform: 'portal', state: 'distributed', distribution: record(), newer_version_available: true, blocked: 'not_owner' }],
  ['Blocked: no version', { platform: 'portal', state: 'not_distributed', distribution: null, newer_version_available: false, blocked: 'no_version' }],
  ['Blocked: mode', { platform: 'tool', state: 'not_distributed', distribution: null, newer_version_available: false, blocked: 'mode' }],
  ['Blocked: inactive', { platform: 'portal', state: 'distributed', distribution: record(), newer_version_available: true, blocked: 'inactive' }],
];

/** The card alone, in every state and with every reason an action is disabled. */
export const CardStates: StoryObj = {
  render: () => (
    <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(420px, 1fr))', gap: 16, padding: 16 }}>
      {CARDS.map(([name, view]) => (
        <section key={name} aria-label={name} style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
          <h4 style={{ margin: 0, fontSize: 12, color: 'var(--color-text-tertiary)' }}>{name}</h4>
          <DistributionCard
            view={view}
            app={{ id: '0a000000-0000-4000-8000-0000000000a3', type: 'chatflow', workspace_id: '0c000000-0000-4000-8000-0000000000c3' }}
            latest={v(2)}
            origin="https://weft.example"
            versionTabHref="#version"
          />
        </section>
      ))}
    </div>
  ),
  play: async ({ canvas }) => {
    await expect(canvas.getAllByTestId(/^distribution-card-/)).toHaveLength(CARDS.length);
    await expect(within(canvas.getByRole('region', { name: 'Blocked: no version' })).getByTestId('distribution-version-tab')).toBeInTheDocument();
  },
};
