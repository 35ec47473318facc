import { cleanup, render, screen } from '@testing-library/react';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CurrentUser } from '../../../../schemas/auth';
import { DEFAULT_TENANT_ID } from '../../../../schemas/common';
import { createEmptyFlow } from '../../../../schemas/flow';
import { installReactions, setNavigator } from '../../../api/reactions';
import { configureRequest } from '../../../api/request';
import { fail, ok, startServer, type TestServer } from '../../../api/testing/http-server';
import { i18n, initI18n } from '../../../i18n';
import { buildRoutes, routeAreas } from '../../router';
import { useSession } from '../../session';
import { crumbLabel, crumbsOf } from '../../shell/route-handle';
import { AppNotFoundError, isAppNotFound, setLlmModelLoader, type AppGuardData } from './app-guard';
import { AppRouteError } from './app-route-error';
import { EditorHeader } from './editor-header';

const WS = '11111111-1111-4111-8111-111111111111';
const FLOW_APP = '33333333-3333-4333-8333-333333333333';
const TEAM_APP = '44444444-4444-4444-8444-444444444444';
const user: CurrentUser = {
  id: '22222222-2222-4222-8222-222222222222',
  tenant_id: DEFAULT_TENANT_ID,
  tenant_name: 'Default',
  username: 'ann',
  nickname: 'Ann',
  realName: 'Ann',
  email: '',
  phone: '',
  avatar: '',
  role: 'user',
  status: 1,
};
const at = '2025-01-01T00:00:00.000Z';
const workspace = { id: WS, name: 'Alpha', description: '', icon: '', role_type: 'ordinary_member', member_count: 2, created_at: at, updated_at: at };
const appOf = (id: string, type: 'workflow' | 'agent_team') => ({
  id,
  workspace_id: WS,
  name: type === 'workflow' ? 'Invoice extractor' : 'Release crew',
  description: 'd',
  type,
  icon: { icon: 'bot', iconColor: '#E0E7FF' },
  status: 'active',
  created_by: user.id,
  created_by_name: 'Ann',
  created_at: at,
  updated_at: at,
  draft_revision: 1,
  draft: { app_id: id, revision: 1, document: createEmptyFlow(type), updated_at: at, updated_by: null, secrets_set: [] },
});

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  configureRequest({ baseUrl: server.url });
  await initI18n('en');
  await i18n.changeLanguage('en');
  installReactions();
  setNavigator(vi.fn());
});
afterAll(async () => {
  await server.close();
  await i18n.changeLanguage('zh');
});
afterEach(() => {
  cleanup();
  setLlmModelLoader(null);
});
beforeEach(() => {
  useSession.getState().clear();
  useSession.setState({ accessToken: 'tok', refreshToken: 'rt', tokenExpiresAt: Date.now() + 900_000, user, workspaceId: 'previous-ws' });
  server.handle(base);
});

/** The console API the guard reads (the model list answers an error: no model API here). */
const base: Parameters<TestServer['handle']>[0] = (req, res) => {
  if (req.path === `/api/v1/console/workspaces/${WS}`) return ok(res, workspace);
  if (req.path === `/api/v1/console/apps/${FLOW_APP}`) return ok(res, appOf(FLOW_APP, 'workflow'));
  if (req.path === `/api/v1/console/apps/${TEAM_APP}`) return ok(res, appOf(TEAM_APP, 'agent_team'));
  if (req.path.endsWith('/boom')) return fail(res, 500, 'SYSTEM-1500', 'Internal error');
  fail(res, 400, 'VALIDATION-1000', 'The app does not exist');
};

async function open(path: string) {
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path], ...routeAreas() });
  // The console's routes and layout load lazily (console-routes.tsx): the first route of the file waits for them.
  await vi.waitFor(() => expect(router.state.initialized && router.state.navigation.state === 'idle').toBe(true), { timeout: 15000 });
  const { pathname } = router.state.location;
  return { router, at: pathname };
}

describe('app guard (spec 2)', () => {
  it("loads the app without a workspace header, switches to the app's workspace and loads the model list", async () => {
    const loader = vi.fn(async () => [{ provider: 'openai', model: 'gpt-4o' }]);
    setLlmModelLoader(loader);
    const { router, at: where } = await open(`/operation/app/${FLOW_APP}/agent-flow`);
    expect(where).toBe(`/operation/app/${FLOW_APP}/agent-flow/base`);
    const data = router.state.loaderData.app as AppGuardData;
    expect(data.app).toMatchObject({ id: FLOW_APP, name: 'Invoice extractor', type: 'workflow' });
    expect(data.workspace).toMatchObject({ id: WS, name: 'Alpha' });
    expect(data.models).toEqual([{ provider: 'openai', model: 'gpt-4o' }]);
    expect(loader).toHaveBeenCalled();
    expect(useSession.getState().workspaceId).toBe(WS);
    const appCall = server.requests.find((r) => r.path === `/api/v1/console/apps/${FLOW_APP}`);
    expect(appCall?.headers['x-workspace-id']).toBeUndefined();
  });

  it("loads the tenant's chat models from the model API, and opens without them when that fails", async () => {
    server.handle((req, res) => {
      if (req.path === '/api/v1/console/models/available') {
        expect(req.query.get('model_type')).toBe('llm');
        return ok(res, [{ provider: 'openai', label: 'OpenAI', models: [{ model: 'gpt-4o', label: 'GPT-4o', model_type: 'llm', features: [], context_size: 0, max_output_tokens: 0, fetch_from: 'predefined' }] }]);
      }
      return base(req, res);
    });
    const { router } = await open(`/operation/app/${FLOW_APP}/agent-flow/base`);
    expect((router.state.loaderData.app as AppGuardData).models).toEqual([{ provider: 'openai', model: 'gpt-4o', label: 'GPT-4o' }]);

    server.handle(base);
    const failed = await open(`/operation/app/${FLOW_APP}/agent-flow/base`);
    expect(failed.at).toBe(`/operation/app/${FLOW_APP}/agent-flow/base`);
    expect((failed.router.state.loaderData.app as AppGuardData).models).toBeNull();
  });

  it('stays on the URL with the app-not-found error (and its id) for a missing or foreign app', async () => {
    const missing = '99999999-9999-4999-8999-999999999999';
    const { router, at: where } = await open(`/operation/app/${missing}/agent-flow/base`);
    expect(where).toBe(`/operation/app/${missing}/agent-flow/base`);
    const error = router.state.errors?.app;
    expect(isAppNotFound(error)).toBe(true);
    expect((error as AppNotFoundError).appId).toBe(missing);
    expect(useSession.getState().workspaceId).toBe('previous-ws');
  });

  it('sends an app opened in the other editor to its own, keeping the tab when that editor has it', async () => {
    expect((await open(`/operation/app/${TEAM_APP}/agent-flow/api`)).at).toBe(`/operation/app/${TEAM_APP}/agent-team/api`);
    expect((await open(`/operation/app/${TEAM_APP}/agent-flow/log`)).at).toBe(`/operation/app/${TEAM_APP}/agent-team/base`);
    expect((await open(`/operation/app/${FLOW_APP}/agent-team/base`)).at).toBe(`/operation/app/${FLOW_APP}/agent-flow/base`);
  });

  it("names the app's mode in the editor's breadcrumb (a workflow is not an \"Agent flow\")", async () => {
    const crumbs = async (path: string) => {
      const { router } = await open(path);
      const matches = router.state.matches.map((m) => ({ id: m.route.id, pathname: m.pathname, params: m.params, data: router.state.loaderData[m.route.id], loaderData: router.state.loaderData[m.route.id], handle: m.route.handle }));
      return crumbsOf(matches as never).map((c) => [crumbLabel(c), c.href]);
    };
    expect(await crumbs(`/operation/app/${FLOW_APP}/agent-flow/version`)).toEqual([
      ['Project spaces', '/operation'],
      ['Alpha', `/operation/workspace/${WS}/app`],
      ['Invoice extractor', undefined],
      ['Workflow', `/operation/app/${FLOW_APP}/agent-flow`],
      ['Versions', `/operation/app/${FLOW_APP}/agent-flow/version`],
    ]);
    expect((await crumbs(`/operation/app/${TEAM_APP}/agent-team/base`)).map(([label]) => label)).toEqual(['Project spaces', 'Alpha', 'Release crew', 'Agent team', 'Configuration']);
  });

  it('goes to / (then /operation) on another failure', async () => {
    expect((await open('/operation/app/boom/agent-flow/base')).at).toBe('/operation');
  });

  it('needs a sign-in first', async () => {
    useSession.getState().clear();
    expect((await open(`/operation/app/${FLOW_APP}/agent-flow`)).at).toBe('/login');
  });
});

describe('editor error screen and header', () => {
  it('shows the error screen with the app id and a way back', async () => {
    const router = createMemoryRouter(
      [
        {
          path: '/app/:appId',
          loader: ({ params }) => {
            throw new AppNotFoundError(params.appId ?? '');
          },
          element: null,
          hydrateFallbackElement: null,
          errorElement: <AppRouteError />,
        },
      ],
      { initialEntries: ['/app/a-1'] },
    );
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('The app does not exist or has been deleted')).toBeVisible();
    expect(screen.getByTestId('error-id')).toHaveTextContent('a-1');
    expect(screen.getByTestId('error-back')).toBeVisible();
  });

  it("shows the app's name, mode, a link back to its workspace's app list and the save status", () => {
    const app = appOf(TEAM_APP, 'agent_team');
    const { rerender } = render(
      <MemoryRouter>
        <EditorHeader app={{ ...app, type: 'agent_team', status: 'inactive' }} saveStatus={null} />
      </MemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: 'Release crew' })).toBeVisible();
    expect(screen.getByText('Agent team')).toBeVisible();
    expect(screen.getByText('Inactive')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to apps' })).toHaveAttribute('href', `/operation/workspace/${WS}/app`);
    expect(screen.queryByTestId('save-status')).not.toBeInTheDocument();
    for (const [status, text] of [
      ['saving', 'Saving…'],
      ['saved', 'Saved'],
      ['failed', 'Save failed'],
      ['conflict', 'Changed elsewhere'],
    ] as const) {
      rerender(
        <MemoryRouter>
          <EditorHeader app={{ ...app, type: 'agent_team', status: 'active' }} saveStatus={status} />
        </MemoryRouter>,
      );
      expect(screen.getByRole('status')).toHaveTextContent(text);
      expect(screen.getByRole('status')).toHaveAttribute('data-status', status);
    }
  });
});
