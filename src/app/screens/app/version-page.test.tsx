import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { nextVersion } from '../../../../schemas/app';
import { i18n, initI18n } from '../../../i18n';
import { Toaster } from '../../../ui/toast';
import { createMemoryVersionApi, type MemoryVersionOptions } from './memory-version-api';
import { VersionApiContext } from './version-api';
import VersionPage from './version-page';

beforeAll(async () => {
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});
vi.setConfig({ testTimeout: 20_000 });

function setup(opts: MemoryVersionOptions = {}) {
  const api = createMemoryVersionApi(opts);
  render(
    <VersionApiContext value={api}>
      <VersionPage app={{ id: api.appId, workspace_id: api.workspaceId, type: 'workflow' }} />
      <Toaster />
    </VersionApiContext>,
  );
  return { api, user: userEvent.setup() };
}

const rows = () => screen.queryAllByTestId(/^version-row-/);
const rowOf = (api: ReturnType<typeof createMemoryVersionApi>, version: string) => screen.getByTestId(`version-row-${api.versions.find((v) => v.version === version)!.id}`);

describe('nextVersion', () => {
  it('grows the last number, keeping the rest', () => {
    expect(nextVersion('v1.0.2')).toBe('v1.0.3');
    expect(nextVersion('v1.0.9')).toBe('v1.0.10');
    expect(nextVersion('7')).toBe('8');
    expect(nextVersion('release-09')).toBe('release-10');
    expect(nextVersion('v2.1.0-beta')).toBe('v2.1.1-beta');
    expect(nextVersion('stable')).toBe('stable.1');
    expect(nextVersion(null)).toBe('v1.0.0');
    expect(nextVersion('  ')).toBe('v1.0.0');
  });
});

describe('VersionPage', () => {
  it('lists the versions newest first with description, who and when, the newest marked', async () => {
    const { api } = setup();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(rows()[0]).toHaveTextContent('v1.0.2');
    expect(rows()[0]).toHaveTextContent('Latest');
    expect(rows()[0]).toHaveTextContent('Release 3');
    expect(rows()[2]).toHaveTextContent('First release');
    expect(rows()[1]).toHaveTextContent('Bo Builder');
    expect(await screen.findByTestId('draft-line')).toHaveTextContent('Draft: revision 12, saved by Ada Admin');
    expect(api.calls.find((c) => c.method === 'list')).toMatchObject({ args: [{ page: 1, page_size: 20 }] });
  });

  it('shows the empty state when nothing is published', async () => {
    setup({ versions: 0 });
    expect(await screen.findByText('No version published yet')).toBeInTheDocument();
  });

  it('publishes with the next version prefilled and a description; the list shows it on top', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByTestId('publish-dialog');
    const input = within(dialog).getByTestId('publish-version');
    await waitFor(() => expect(input).toHaveValue('v1.0.3'));
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Faster answers');
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(screen.queryByTestId('publish-dialog')).toBeNull());
    expect(api.calls.find((c) => c.method === 'publish')).toMatchObject({ args: [{ version: 'v1.0.3', description: 'Faster answers' }] });
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(rows()[0]).toHaveTextContent('v1.0.3');
    expect(rows()[0]).toHaveTextContent('Faster answers');
    expect(await screen.findByText('Version v1.0.3 published')).toBeInTheDocument();
  });

  it('waits for the suggested number before it publishes (a click before it arrives is not an empty number)', async () => {
    // The suggestion is a request of its own: on a loaded machine the dialog is up before it answers
    // (the e2e agent-builder publish clicked through it, got "cannot be empty" and never listed a version).
    const api = createMemoryVersionApi();
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slow = { ...api, list: async (...a: Parameters<typeof api.list>) => (a[2].page_size === 1 ? gate.then(() => api.list(...a)) : api.list(...a)) };
    render(
      <VersionApiContext value={slow}>
        <VersionPage app={{ id: api.appId, workspace_id: api.workspaceId, type: 'workflow' }} />
      </VersionApiContext>,
    );
    const user = userEvent.setup();
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByTestId('publish-dialog');
    const publish = within(dialog).getByRole('button', { name: 'Publish' });
    expect(within(dialog).getByTestId('publish-version')).toHaveValue('');
    expect(publish).toBeDisabled();
    await user.click(publish);
    expect(within(dialog).queryByText('The version number cannot be empty')).toBeNull();
    release();
    await waitFor(() => expect(within(dialog).getByTestId('publish-version')).toHaveValue('v1.0.3'));
    await user.click(publish);
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(api.calls.find((c) => c.method === 'publish')).toMatchObject({ args: [{ version: 'v1.0.3' }] });
  });

  it('refuses an empty or taken version number in the form, and lists why a draft cannot be published', async () => {
    const { api, user } = setup({ draftInvalid: true });
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByTestId('publish-dialog');
    const input = within(dialog).getByTestId('publish-version');
    await waitFor(() => expect(input).toHaveValue('v1.0.3'));
    await user.clear(input);
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(within(dialog).getByText('The version number cannot be empty')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'publish')).toBe(false);

    await user.type(input, 'V1.0.1');
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await within(dialog).findByText('This app already has a version V1.0.1: choose another version number')).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, 'v9');
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    const problems = await within(dialog).findByTestId('publish-problems');
    expect(problems).toHaveTextContent('The draft cannot run yet, so it cannot be published');
    expect(within(problems).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['node/llm Pick a model', 'node/lost This node cannot be reached from the start node']);
    expect(api.versions).toHaveLength(3);
  });

  it('deletes a version after confirming', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(within(rowOf(api, 'v1.0.1')).getByRole('button', { name: 'Delete' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete version v1.0.1?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.versions.map((v) => v.version)).toEqual(['v1.0.2', 'v1.0.0']);
  });

  it('hides delete and disables publish for an ordinary member', async () => {
    setup({ role: 'ordinary_member' });
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('button', { name: 'Publish' })).toBeDisabled();
    expect(within(rows()[0]).queryByRole('button', { name: 'Delete' })).toBeNull();
    expect(within(rows()[0]).getByRole('button', { name: 'Restore to draft' })).toBeInTheDocument();
  });

  it('restores a version into the draft through a draft save based on the revision it loaded', async () => {
    const { api, user } = setup();
    await waitFor(() => expect(rows()).toHaveLength(3));
    await screen.findByTestId('draft-line');
    await user.click(within(rowOf(api, 'v1.0.0')).getByRole('button', { name: 'Restore to draft' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Restore version v1.0.0 to the draft?' });
    await user.click(within(confirm).getByRole('button', { name: 'Restore to draft' }));
    expect(await screen.findByText('Version v1.0.0 restored to the draft (revision 13)')).toBeInTheDocument();
    expect(api.calls.find((c) => c.method === 'saveDraft')).toMatchObject({ args: [{ app_id: api.appId, base_revision: 12 }] });
    expect(api.stored).toMatchObject({ revision: 13, document: { notes: 'v1.0.0' } });
    expect(screen.getByTestId('draft-line')).toHaveTextContent('Draft: revision 13');
  });

  it('never overwrites a draft saved by someone else since: it asks, and overwrites only when told', async () => {
    const { api, user } = setup({ concurrentSave: true });
    await waitFor(() => expect(rows()).toHaveLength(3));
    await screen.findByTestId('draft-line');
    await user.click(within(rowOf(api, 'v1.0.1')).getByRole('button', { name: 'Restore to draft' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Restore version v1.0.1 to the draft?' })).getByRole('button', { name: 'Restore to draft' }));
    const conflict = await screen.findByRole('alertdialog', { name: 'Someone else changed the draft' });
    expect(conflict).toHaveTextContent('Bo Builder saved the draft at');
    expect(conflict).toHaveTextContent('(revision 13) after you opened this page. Restore v1.0.1 over it anyway?');
    expect(api.stored).toMatchObject({ revision: 13, document: { notes: 'edited elsewhere' } });
    await user.click(within(conflict).getByRole('button', { name: 'Overwrite anyway' }));
    expect(await screen.findByText('Version v1.0.1 restored to the draft (revision 14)')).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'saveDraft').map((c) => (c.args[0] as { base_revision: number }).base_revision)).toEqual([12, 13]);
    expect(api.stored).toMatchObject({ revision: 14, document: { notes: 'v1.0.1' } });
  });

  it('shows a failed list with a retry', async () => {
    setup({ listFails: true });
    expect(await screen.findByRole('button', { name: /retry/i })).toBeInTheDocument();
  });
});
