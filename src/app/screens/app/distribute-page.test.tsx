import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { DistributionPlatform } from '../../../../schemas/distribution';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { DistributeApiContext } from './distribute-api';
import DistributePage from './distribute-page';
import { createMemoryDistributeApi, type MemoryDistributeOptions } from './memory-distribute-api';

// Radix selects use pointer capture and scrollIntoView, which jsdom lacks.
beforeAll(async () => {
  Object.assign(Element.prototype, {
    hasPointerCapture: () => false,
    setPointerCapture: () => {},
    releasePointerCapture: () => {},
    scrollIntoView: () => {},
  });
  await initI18n('en');
  await i18n.changeLanguage('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

const ORIGIN = 'https://weft.example';

function setup(opts: MemoryDistributeOptions = {}) {
  const api = createMemoryDistributeApi(opts);
  render(
    <MemoryRouter>
      <DistributeApiContext value={api}>
        <DistributePage app={{ id: api.appId, workspace_id: api.workspaceId, type: api.mode }} origin={ORIGIN} />
        <Toaster />
      </DistributeApiContext>
    </MemoryRouter>,
  );
  return { api, user: userEvent.setup() };
}

const card = (platform: DistributionPlatform) => screen.getByTestId(`distribution-card-${platform}`);
const inCard = (platform: DistributionPlatform) => within(card(platform));
const cards = () => screen.findAllByTestId(/^distribution-card-/);
const writes = (api: ReturnType<typeof createMemoryDistributeApi>) => api.calls.filter((c) => !['list', 'versions'].includes(c.method));

describe('DistributePage', () => {
  it('shows one card per platform, not distributed; the tool card says only workflows become tools', async () => {
    setup();
    expect((await cards()).map((c) => c.dataset.testid)).toEqual([
      'distribution-card-current_project',
      'distribution-card-portal',
      'distribution-card-store',
      'distribution-card-tool',
    ]);
    for (const p of ['current_project', 'portal', 'store', 'tool'] as const) {
      expect(inCard(p).getByTestId('distribution-state')).toHaveTextContent('Not distributed');
    }
    expect(screen.getByTestId('distribute-latest')).toHaveTextContent('Latest published version: v1.0.2');
    expect(inCard('portal').getByTestId('distribution-distribute')).toBeEnabled();
    expect(inCard('portal').queryByTestId('distribution-blocked')).toBeNull();
    expect(inCard('tool').getByTestId('distribution-distribute')).toBeDisabled();
    expect(inCard('tool').getByTestId('distribution-blocked')).toHaveTextContent('Only workflow apps can be distributed as tools.');
    expect(screen.queryByTestId('distribute-owner-only')).toBeNull();
  });

  it('distributes the newest version by default, then links to the portal and gives the chat embed snippet', async () => {
    const { api, user } = setup();
    await cards();
    await user.click(inCard('portal').getByTestId('distribution-distribute'));
    const dialog = await screen.findByTestId('distribution-dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent('Distribute to Portal');
    await waitFor(() => expect(within(dialog).getByRole('combobox')).toHaveTextContent('v1.0.2'));
    expect(within(dialog).getByRole('combobox')).toHaveTextContent('(latest)');
    await user.click(within(dialog).getByTestId('distribution-dialog-submit'));
    await waitFor(() => expect(screen.queryByTestId('distribution-dialog')).toBeNull());
    expect(writes(api)).toEqual([{ method: 'distribute', args: [{ platform: 'portal', version_id: api.published[2].id }] }]);

    expect(inCard('portal').getByTestId('distribution-state')).toHaveTextContent('Distributed');
    expect(inCard('portal').getByTestId('distribution-version')).toHaveTextContent('v1.0.2');
    expect(inCard('portal').queryByTestId('distribution-newer')).toBeNull();
    expect(inCard('portal').getByTestId('distribution-by')).toHaveTextContent('Olga Owner');
    expect(inCard('portal').getByTestId('distribution-portal-link')).toHaveAttribute('href', `/portal/sessions/chat/${api.appId}`);
    const code = inCard('portal').getByTestId('distribution-embed-code') as HTMLTextAreaElement;
    expect(code.value).toBe(
      `<iframe src="${ORIGIN}/portal/chat/${api.appId}" style="width: 100%; height: 100%; min-height: 700px" frameborder="0" allow="clipboard-write; microphone"></iframe>`,
    );
    expect(await screen.findByText('Distributed to Portal (v1.0.2)')).toBeInTheDocument();

    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(inCard('portal').getByTestId('distribution-embed-copy'));
    expect(writeText).toHaveBeenCalledWith(code.value);
    expect(await screen.findByText('Embed code copied')).toBeInTheDocument();
  });

  it('distributes a chosen older version', async () => {
    const { api, user } = setup();
    await cards();
    await user.click(inCard('current_project').getByTestId('distribution-distribute'));
    const dialog = await screen.findByTestId('distribution-dialog');
    await waitFor(() => expect(within(dialog).getByRole('combobox')).toHaveTextContent('v1.0.2'));
    await user.click(within(dialog).getByRole('combobox'));
    await user.click(await screen.findByRole('option', { name: /^v1\.0\.0/ }));
    await user.click(within(dialog).getByTestId('distribution-dialog-submit'));
    await waitFor(() => expect(inCard('current_project').getByTestId('distribution-version')).toHaveTextContent('v1.0.0'));
    expect(writes(api)[0]).toMatchObject({ method: 'distribute', args: [{ platform: 'current_project', version_id: api.published[0].id }] });
    // An older version is served: a newer one is available.
    expect(inCard('current_project').getByTestId('distribution-newer')).toHaveTextContent('A newer version is available: v1.0.2');
  });

  it('says a newer version is available and moves the distribution to the newest by default', async () => {
    const { api, user } = setup({ records: { portal: { state: 'distributed', versionIndex: 0 } } });
    await cards();
    expect(inCard('portal').getByTestId('distribution-version')).toHaveTextContent('v1.0.0');
    expect(inCard('portal').getByTestId('distribution-newer')).toHaveTextContent('A newer version is available: v1.0.2');
    expect(inCard('portal').queryByTestId('distribution-distribute')).toBeNull();
    await user.click(inCard('portal').getByTestId('distribution-move'));
    const dialog = await screen.findByTestId('distribution-dialog');
    expect(within(dialog).getByRole('heading')).toHaveTextContent('Move Portal to another version');
    await waitFor(() => expect(within(dialog).getByRole('combobox')).toHaveTextContent('v1.0.2'));
    await user.click(within(dialog).getByTestId('distribution-dialog-submit'));
    await waitFor(() => expect(inCard('portal').getByTestId('distribution-version')).toHaveTextContent('v1.0.2'));
    expect(inCard('portal').queryByTestId('distribution-newer')).toBeNull();
    const moved = writes(api)[0];
    expect(moved).toMatchObject({ method: 'move', args: [{ version_id: api.published[2].id }] });
    expect(await screen.findByText('Portal now serves v1.0.2')).toBeInTheDocument();
  });

  it('does not move to the version already served', async () => {
    const { user } = setup({ records: { portal: { state: 'distributed', versionIndex: 2 } } });
    await cards();
    await user.click(inCard('portal').getByTestId('distribution-move'));
    const dialog = await screen.findByTestId('distribution-dialog');
    await waitFor(() => expect(within(dialog).getByRole('combobox')).toHaveTextContent('(serving)'));
    expect(within(dialog).getByText('This version is already served: choose another one.')).toBeInTheDocument();
    expect(within(dialog).getByTestId('distribution-dialog-submit')).toBeDisabled();
  });

  it('cancels after a confirmation; the record stays with who cancelled, and it can be distributed again', async () => {
    const { api, user } = setup({ records: { current_project: { state: 'distributed', versionIndex: 1 } } });
    await cards();
    await user.click(inCard('current_project').getByTestId('distribution-cancel'));
    const confirm = await screen.findByRole('alertdialog', { name: 'Cancel the distribution to Current project?' });
    await user.click(within(confirm).getByRole('button', { name: 'Keep it' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(writes(api)).toEqual([]);

    await user.click(inCard('current_project').getByTestId('distribution-cancel'));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel distribution' }));
    await waitFor(() => expect(inCard('current_project').getByTestId('distribution-state')).toHaveTextContent('Cancelled'));
    expect(writes(api)).toMatchObject([{ method: 'cancel' }]);
    expect(inCard('current_project').getByTestId('distribution-cancelled-by')).toHaveTextContent('Olga Owner');
    expect(inCard('current_project').getByTestId('distribution-version')).toHaveTextContent('v1.0.1');
    expect(inCard('current_project').queryByTestId('distribution-portal-link')).toBeNull();
    expect(inCard('current_project').getByTestId('distribution-distribute')).toHaveTextContent('Distribute again');
  });

  it("disables every action for an admin, with the owner rule as the reason, and calls nothing", async () => {
    const { api } = setup({ owner: false, records: { portal: { state: 'distributed', versionIndex: 0 }, store: { state: 'cancelled', versionIndex: 1 } } });
    await cards();
    expect(screen.getByTestId('distribute-owner-only')).toHaveTextContent("Only the project space's owner distributes the app");
    for (const p of ['current_project', 'portal', 'store', 'tool'] as const) {
      const buttons = inCard(p).getAllByRole('button');
      expect(buttons.length).toBeGreaterThan(0);
      for (const b of buttons.filter((x) => x.dataset.testid !== 'distribution-embed-copy')) {
        expect(b).toBeDisabled();
        expect(b).toHaveAttribute('title', "Only the project space's owner can distribute the app.");
      }
      expect(inCard(p).getByTestId('distribution-blocked')).toHaveAttribute('data-reason', 'not_owner');
    }
    // They still see what is distributed and where.
    expect(inCard('portal').getByTestId('distribution-newer')).toBeInTheDocument();
    expect(inCard('portal').getByTestId('distribution-portal-link')).toBeInTheDocument();
    expect(writes(api)).toEqual([]);
  });

  it('explains that a version must be published first, linking to the Version tab', async () => {
    const { api } = setup({ versions: 0 });
    await cards();
    expect(screen.getByTestId('distribute-latest')).toHaveTextContent('No version is published yet.');
    expect(inCard('portal').getByTestId('distribution-distribute')).toBeDisabled();
    expect(inCard('portal').getByTestId('distribution-blocked')).toHaveTextContent('publish one on the Versions tab first');
    expect(inCard('portal').getByTestId('distribution-version-tab')).toHaveAttribute('href', `/operation/app/${api.appId}/agent-flow/version`);
  });

  it('an inactive app: distributing and moving wait for it to be enabled, cancelling does not', async () => {
    setup({ inactive: true, records: { portal: { state: 'distributed', versionIndex: 0 } } });
    await cards();
    expect(inCard('current_project').getByTestId('distribution-distribute')).toBeDisabled();
    expect(inCard('current_project').getByTestId('distribution-blocked')).toHaveTextContent('The app is inactive');
    expect(inCard('portal').getByTestId('distribution-move')).toBeDisabled();
    expect(inCard('portal').getByTestId('distribution-cancel')).toBeEnabled();
  });

  it("shows the store's review and the workflow tool a tool distribution made; a workflow opens on its run page, without a chat snippet", async () => {
    const { api } = setup({
      mode: 'workflow',
      records: { store: { state: 'distributed', versionIndex: 1, review: 'rejected', reviewReason: 'Needs a description' }, tool: { state: 'distributed', versionIndex: 2 }, portal: { state: 'distributed', versionIndex: 2 } },
    });
    await cards();
    expect(inCard('store').getByTestId('distribution-review')).toHaveTextContent('Rejected');
    expect(inCard('store').getByTestId('distribution-review')).toHaveTextContent('Needs a description');
    expect(inCard('tool').getByTestId('distribution-tool-link')).toHaveAttribute('href', `/operation/workspace/${api.workspaceId}/tool/0d000000-0000-4000-8000-0000000000d1`);
    expect(inCard('tool').queryByTestId('distribution-blocked')).toBeNull();
    expect(inCard('portal').getByTestId('distribution-portal-link')).toHaveAttribute('href', `/portal/sessions/workflow/${api.appId}`);
    expect(inCard('portal').queryByTestId('distribution-embed')).toBeNull();
  });

  it('offers a retry when the list cannot be loaded', async () => {
    setup({ listFails: true });
    expect(await screen.findByText('Could not load the distribution')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
  });
});
