import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, initI18n } from '../../i18n';
import { useSession } from '../session';
import { PortalNav } from './portal-layout';
import { replaceExports } from '../../../tests/unit/replace-exports';
import * as workspacesApi from '../../api/workspaces';

// The project spaces the user belongs to come from a stand-in for the API module's list.
const spaces = { items: [] as { id: string }[] };

beforeAll(async () => {
  replaceExports(workspacesApi, { listWorkspaces: async () => ({ items: spaces.items, total: spaces.items.length }) });
  await initI18n('en');
});
afterEach(cleanup);
afterAll(async () => {
  await i18n.changeLanguage('zh');
});

const nav = () =>
  render(
    <MemoryRouter>
      <PortalNav />
    </MemoryRouter>,
  );

describe('PortalNav', () => {
  it('offers GBI to a member of a project space who has not chosen a current one (a fresh sign-in)', async () => {
    useSession.setState({ workspaceId: null });
    spaces.items = [{ id: 'w1' }];
    nav();
    expect(await screen.findByRole('link', { name: 'Ask your data' })).toHaveAttribute('href', '/portal/gbi');
    expect(screen.getByRole('link', { name: 'Data settings' })).toBeInTheDocument();
  });

  it('offers no GBI to a user in no project space', async () => {
    useSession.setState({ workspaceId: null });
    spaces.items = [];
    nav();
    await screen.findByRole('link', { name: 'Discover' });
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: 'Ask your data' })).toBeNull();
  });
});
