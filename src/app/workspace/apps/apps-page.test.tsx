import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../../../schemas/workspace';
import { i18n, initI18n } from '../../../i18n';
import { AppApiContext } from './app-api';
import AppsPage from './apps-page';
import { createMemoryAppApi, demoApps, type MemoryAppApi, type MemoryAppOptions } from './memory-app-api';

// Radix menus and selects use pointer capture and scrollIntoView, which jsdom lacks.
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

function Editor() {
  const { appId, kind } = useParams();
  return <p data-testid="editor">{`${kind} ${appId}`}</p>;
}

function renderPage(opts: MemoryAppOptions = {}): { api: MemoryAppApi; user: ReturnType<typeof userEvent.setup> } {
  const api = createMemoryAppApi(opts);
  const router = createMemoryRouter(
    [
      {
        path: '/operation/workspace/:workspace_id/app',
        element: (
          <AppApiContext value={api}>
            <AppsPage />
          </AppApiContext>
        ),
      },
      { path: '/operation/app/:appId/:kind', element: <Editor /> },
    ],
    { initialEntries: [`/operation/workspace/${api.workspaceId}/app`] },
  );
  render(<RouterProvider router={router} />);
  return { api, user: userEvent.setup() };
}

const cards = () => screen.queryAllByTestId('app-card');
const card = async (name: string) => (await screen.findByRole('link', { name: `Open ${name}` })).closest('[data-testid="app-card"]') as HTMLElement;
const dialog = () => screen.findByRole('dialog', { name: /Create app|Edit app info/ });

async function menu(user: ReturnType<typeof userEvent.setup>, name: string, item: string) {
  await user.click(within(await card(name)).getByRole('button', { name: `Actions for ${name}` }));
  await user.click(await screen.findByRole('menuitem', { name: item }));
}

describe('app list', () => {
  it('shows each app as a card with its mode, status, creator and last change', async () => {
    renderPage({ apps: demoApps(5) });
    const c = await card('Release crew');
    expect(within(c).getByText('Agent team')).toHaveAttribute('data-mode', 'agent_team');
    expect(within(c).getByText('Active')).toBeVisible();
    expect(within(c).getByText('By Olivia Wang')).toBeVisible();
    expect(within(c).getByText(/^Updated \d{4}-\d\d-\d\d \d\d:\d\d$/)).toBeVisible();
    expect(within(await card('Meeting notes')).getByText('Inactive')).toBeVisible();
    expect(cards()).toHaveLength(5);
  });

  it('opens a workflow, chatflow or agent app in agent-flow and an agent team in agent-team', async () => {
    const apps = demoApps(4);
    const { user } = renderPage({ apps });
    await user.click(await screen.findByRole('link', { name: 'Open Support triage' }));
    expect(await screen.findByTestId('editor')).toHaveTextContent(`agent-flow ${apps[0].id}`);
    cleanup();
    const again = renderPage({ apps });
    await again.user.click(await screen.findByRole('link', { name: 'Open Release crew' }));
    expect(await screen.findByTestId('editor')).toHaveTextContent(`agent-team ${apps[3].id}`);
  });

  it('searches by name (any case) and offers to clear a search that matches nothing', async () => {
    const { api, user } = renderPage({ apps: demoApps(6) });
    await card('Support triage');
    const search = screen.getByRole('searchbox', { name: 'Search app name' });
    await user.type(search, 'INVOICE{Enter}');
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByRole('link', { name: 'Open Invoice extractor' })).toBeVisible();
    expect(api.calls.filter((c) => c.method === 'listApps').at(-1)?.args[1]).toMatchObject({ name: 'INVOICE', page: 1 });
    await user.clear(search);
    await user.type(search, 'nothing like it{Enter}');
    expect(await screen.findByText('No matching apps')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(cards()).toHaveLength(6));
  });

  it('pages 20 apps at a time', async () => {
    const { user } = renderPage({ apps: demoApps(25) });
    await card('Support triage');
    expect(cards()).toHaveLength(20);
    expect(screen.getByText('25 in total')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(cards()).toHaveLength(5));
  });

  it('shows the empty state with a create button when the space has no apps', async () => {
    const { user } = renderPage({ apps: [] });
    const empty = await screen.findByTestId('app-empty');
    expect(empty).toHaveTextContent('No apps yet');
    await user.click(within(empty).getByRole('button', { name: 'Create app' }));
    expect(await dialog()).toBeVisible();
  });

  it('shows a load failure with a retry', async () => {
    renderPage({ listFails: true });
    expect(await screen.findByText('Could not load the apps')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeVisible();
  });
});

describe('create', () => {
  it('requires name, description and type, and limits the name to 50 characters', async () => {
    const { api, user } = renderPage({ apps: [] });
    await user.click(await screen.findByTestId('app-create'));
    const d = await dialog();
    await user.type(within(d).getByRole('textbox', { name: /Name/ }), '   ');
    await user.click(within(d).getByRole('button', { name: 'Create' }));
    expect(await within(d).findAllByText('This form field is required!')).toHaveLength(3);
    expect(within(d).getByRole('textbox', { name: /Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(d).getByRole('textbox', { name: /Description/ })).toHaveAttribute('aria-invalid', 'true');
    expect(within(d).getByRole('radiogroup', { name: 'Type' })).toHaveAttribute('aria-invalid', 'true');

    await user.clear(within(d).getByRole('textbox', { name: /Name/ }));
    await user.type(within(d).getByRole('textbox', { name: /Name/ }), 'x'.repeat(51));
    await user.click(within(d).getByRole('button', { name: 'Create' }));
    expect(await within(d).findByText('Exceeds maximum length 50')).toBeVisible();
    expect(within(d).getByText('51/50')).toBeVisible();
    expect(api.calls.some((c) => c.method === 'createApp')).toBe(false);
  });

  it('creates an app with trimmed values, the chosen type and icon, and lists it first', async () => {
    const { api, user } = renderPage({ apps: demoApps(2) });
    await card('Support triage');
    await user.click(screen.getByTestId('app-create'));
    const d = await dialog();
    await user.type(within(d).getByRole('textbox', { name: /Name/ }), '  Sales helper ');
    await user.type(within(d).getByRole('textbox', { name: /Description/ }), ' Drafts replies to leads ');
    await user.click(within(d).getByRole('radio', { name: /Chatflow/ }));
    await user.click(within(d).getByRole('button', { name: 'Icon' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose an icon' });
    await user.click(within(picker).getByRole('radio', { name: 'Teal' }));
    await user.click(within(picker).getByRole('radio', { name: 'Globe' }));
    await user.keyboard('{Escape}');
    await user.click(within(d).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByTestId('app-dialog')).not.toBeInTheDocument());
    expect(api.calls.find((c) => c.method === 'createApp')?.args[1]).toEqual({
      name: 'Sales helper',
      description: 'Drafts replies to leads',
      type: 'chatflow',
      icon: { icon: 'globe', iconColor: '#CCFBF1' },
    });
    await waitFor(() => expect(cards()[0]).toHaveTextContent('Sales helper'));
    expect(within(cards()[0]).getByText('Chatflow')).toBeVisible();
  });

  it('shows a name the space already has on the name field and keeps the dialog open', async () => {
    const { api, user } = renderPage({ apps: demoApps(2) });
    await card('Support triage');
    await user.click(screen.getByTestId('app-create'));
    const d = await dialog();
    await user.type(within(d).getByRole('textbox', { name: /Name/ }), 'support TRIAGE');
    await user.type(within(d).getByRole('textbox', { name: /Description/ }), 'Again');
    await user.click(within(d).getByRole('radio', { name: /Workflow/ }));
    await user.click(within(d).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(within(d).getByRole('textbox', { name: /Name/ })).toHaveAttribute('aria-invalid', 'true'));
    expect(within(d).getByText('The data already exists')).toBeVisible();
    // The icon was not picked: it follows the type.
    expect(api.calls.find((c) => c.method === 'createApp')?.args[1]).toMatchObject({ icon: { icon: 'workflow', iconColor: '#DCFCE7' } });
    expect(screen.getByTestId('app-dialog')).toBeVisible();
  });

  it('offers 7 colours, 9 icons and one uploaded image of at most 5 MB in the allowed types', async () => {
    const { api, user } = renderPage({ apps: [] });
    await user.click(await screen.findByTestId('app-create'));
    const d = await dialog();
    await user.click(within(d).getByRole('button', { name: 'Icon' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose an icon' });
    expect(within(within(picker).getByRole('radiogroup', { name: 'Background' })).getAllByRole('radio')).toHaveLength(7);
    expect(within(within(picker).getByRole('radiogroup', { name: 'Icons' })).getAllByRole('radio')).toHaveLength(9);
    const input = picker.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe('.png,.jpg,.jpeg,.bmp,.gif,.svg,.webp');
    expect(input.multiple).toBe(false);
    const upload = userEvent.setup({ applyAccept: false });
    await upload.upload(input, new File(['x'], 'scan.tiff', { type: 'image/tiff' }));
    expect(await within(picker).findByRole('alert')).toHaveTextContent('Unsupported file type');
    const big = new File(['x'], 'big.png', { type: 'image/png' });
    Object.defineProperty(big, 'size', { value: 5 * 1024 * 1024 + 1 });
    await upload.upload(input, big);
    expect(await within(picker).findByText('The file size cannot exceed 5 MB')).toBeVisible();
    expect(api.calls.some((c) => c.method === 'uploadIcon')).toBe(false);
    await upload.upload(input, new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'uploadIcon')).toHaveLength(1));
    await waitFor(() => expect(within(picker).queryByRole('alert')).not.toBeInTheDocument());
  });
});

describe('edit, status and delete', () => {
  it('edits name and description; the type is shown but fixed', async () => {
    const { api, user } = renderPage({ apps: demoApps(3) });
    await menu(user, 'Invoice extractor', 'Edit info');
    const d = await dialog();
    expect(within(d).getByRole('radio', { name: /Workflow/ })).toHaveAttribute('aria-checked', 'true');
    expect(within(d).getByRole('radio', { name: /Chatflow/ })).toBeDisabled();
    const name = within(d).getByRole('textbox', { name: /Name/ });
    await user.clear(name);
    await user.type(name, 'Invoice reader');
    await user.click(within(d).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Open Invoice reader' })).toBeVisible());
    expect(api.calls.find((c) => c.method === 'updateApp')?.args[2]).toMatchObject({ name: 'Invoice reader', description: expect.any(String) });
  });

  it('deactivates and activates an app', async () => {
    const { user } = renderPage({ apps: demoApps(2) });
    await menu(user, 'Support triage', 'Deactivate');
    await waitFor(async () => expect(within(await card('Support triage')).getByText('Inactive')).toBeVisible());
    await menu(user, 'Support triage', 'Activate');
    await waitFor(async () => expect(within(await card('Support triage')).getByText('Active')).toBeVisible());
  });

  it('deletes only after confirming', async () => {
    const { api, user } = renderPage({ apps: demoApps(3), role: 'admin' });
    await menu(user, 'Invoice extractor', 'Delete');
    let confirm = await screen.findByRole('alertdialog', { name: 'Delete this app?' });
    expect(confirm).toHaveTextContent('"Invoice extractor" and its draft will be deleted for good.');
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.method === 'deleteApp')).toBe(false);
    expect(await card('Invoice extractor')).toBeVisible();

    await menu(user, 'Invoice extractor', 'Delete');
    confirm = await screen.findByRole('alertdialog', { name: 'Delete this app?' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Open Invoice extractor' })).not.toBeInTheDocument());
    expect(cards()).toHaveLength(2);
  });

  it.each<[MemberRole, boolean]>([
    ['owner', true],
    ['admin', true],
    ['ordinary_member', false],
  ])('role %s may delete: %s; everyone may edit and change the status', async (role, canDelete) => {
    const { api, user } = renderPage({ apps: demoApps(1), role });
    await card('Support triage');
    // The role arrives with the workspace (a moment after the list); the menu follows it.
    await waitFor(() => expect(api.calls.some((c) => c.method === 'getWorkspace')).toBe(true));
    await new Promise((r) => setTimeout(r, 20));
    await user.click(within(await card('Support triage')).getByRole('button', { name: 'Actions for Support triage' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit info' })).toBeVisible();
    expect(screen.getByRole('menuitem', { name: 'Deactivate' })).toBeVisible();
    expect(Boolean(screen.queryByRole('menuitem', { name: 'Delete' }))).toBe(canDelete);
  });
});
