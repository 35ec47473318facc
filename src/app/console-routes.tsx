/**
 * The console's routes (spec 2): /operation (home, my, error, store, project spaces, app editors, system
 * admin) and /personal. Not in the entry chunk: the router adds them the first time a navigation goes
 * below /operation or /personal (router.tsx `routeAreas`), so the portal's first load carries none of
 * them, nor the preload lists of their pages. The console's layout is imported here, not lazily: every
 * console route shows it, so it comes in the same chunk as the table. Routes whose screen comes in a
 * later issue show the skeleton page: their title, the layout's navigation and breadcrumb, and a
 * "later release" empty state.
 */
import type { RouteObject, LoaderFunctionArgs } from 'react-router';
import { Outlet } from 'react-router';
import { loadTexts } from '../i18n';
import { CONSOLE_HOME_NAMESPACES } from '../i18n/startup';
import { seededName } from '../i18n/seeded';
import type { Workspace } from '../../schemas/workspace';
import { lazyWithReload, loginGuard, rootRedirects, systemGuard, workspaceGuard } from './guards';
import { indexTo, page, type PageModule } from './route-helpers';
import ConsoleLayout from './shell/console-layout';
import { SubHeader } from './shell/layouts';
import type { Crumb, RouteHandle } from './shell/route-handle';
import { RouteErrorBoundary } from './shell/route-error';
import { EDITOR_TABS, type EditorKind } from './screens/app/editor-tabs';
import type { AppGuardData } from './screens/app/app-guard';
import { ErrorPage } from './screens/status/status-pages';

const skeleton = () => page(() => import('./screens/skeleton-page'));

/**
 * Screens built alongside this shell. `import.meta.glob` finds them when their file exists; until then
 * the route shows the skeleton page, so the app builds and runs either way.
 */
const screensInProgress = import.meta.glob<PageModule>([
  './workspace/members/member-page.tsx',
  './workspace/apps/apps-page.tsx',
  './system/users/users-page.tsx',
  './system/tenants/tenants-page.tsx',
  './workspace/credentials/credentials-page.tsx',
  './workspace/databases/databases-page.tsx',
  './workspace/prompts/prompts-page.tsx',
  './workspace/prompts/prompt-add-page.tsx',
  './system/models/models-page.tsx',
  './workspace/tools/tools-page.tsx',
  './workspace/tools/tool-detail-page.tsx',
  './workspace/tools/function-page.tsx',
  './workspace/knowledge/knowledge-page.tsx',
  './workspace/knowledge/knowledge-unit-page.tsx',
  './workspace/knowledge/knowledge-unit-add-page.tsx',
  './workspace/knowledge/knowledge-unit-add-table-page.tsx',
  './workspace/knowledge/knowledge-slice-method-config-page.tsx',
  './workspace/knowledge/knowledge-unit-details-page.tsx',
  './system/dataset/dataset-tasks-page.tsx',
  './system/security/network-policy-page.tsx',
  './system/plugins/plugins-page.tsx',
  './system/plugins/plugin-detail-page.tsx',
  './system/tools/tools-page.tsx',
  './system/tools/tool-detail-page.tsx',
  './system/resource/resource-page.tsx',
  './screens/app/log-page.tsx',
]);

export function pageOrSkeleton(path: string, modules: Record<string, () => Promise<PageModule>> = screensInProgress) {
  const load = modules[path];
  return load ? page(load) : skeleton();
}

/** A page route showing the skeleton, with its title (key in `pages`) and a breadcrumb step. */
const stub = (path: string, title: string, extra: Pick<RouteObject, 'loader'> = {}): RouteObject => ({
  path,
  lazy: skeleton(),
  handle: { title, crumb: true } satisfies RouteHandle,
  ...extra,
});

/** A page route whose screen file may exist yet (see {@link screensInProgress}); the skeleton until then. */
const screen = (path: string, title: string, file: string): RouteObject => ({ ...stub(path, title), lazy: pageOrSkeleton(file) });

/**
 * A guard that also loads every text namespace: the console's screens use them all, and the app
 * starts with only the shell's (i18n/startup.ts), so that the portal's first load stays small.
 */
const withAllTexts =
  <T,>(guard: (args: LoaderFunctionArgs) => Promise<T>) =>
  async (args: LoaderFunctionArgs): Promise<T> =>
    (await Promise.all([guard(args), loadTexts('all')]))[0];

/**
 * /operation's guard: the console's layout and home need only their texts (i18n/startup.ts); the
 * other console pages load every namespace through {@link allTexts} (issue 28: the home's first load).
 */
const withHomeTexts =
  <T,>(guard: (args: LoaderFunctionArgs) => Promise<T>) =>
  async (args: LoaderFunctionArgs): Promise<T> =>
    (await Promise.all([guard(args), loadTexts(CONSOLE_HOME_NAMESPACES)]))[0];

/** Every text namespace, for the console's pages below the home (a loader must return a value: null). */
const allTexts = async () => (await loadTexts('all'), null);


const workspacePath = (params: LoaderFunctionArgs['params']) => `/operation/workspace/${encodeURIComponent(params.workspace_id ?? '')}`;

/** A crumb back to a list of the project space (for detail pages whose URL is not under the list's). */
const workspaceListCrumb =
  (tab: string, title: string) =>
  ({ params }: { params: LoaderFunctionArgs['params'] }): Crumb => ({ labelKey: `pages:${title}`, href: `${workspacePath(params)}/${tab}` });

/** A knowledge page under one knowledge base: the base's name (a link back to it), then the page. */
const underDataset = (route: RouteObject): RouteObject => {
  const title = (route.handle as RouteHandle).title!;
  return {
    ...route,
    handle: { title, crumb: (m) => [{ slot: 'dataset', optional: true }, { labelKey: `pages:${title}`, href: m.pathname }] } satisfies RouteHandle,
  };
};

const homeCrumb: Crumb = { labelKey: 'pages:operation.home', href: '/operation' };

function workspaceRoutes(): RouteObject {
  return {
    id: 'workspace',
    path: 'workspace/:workspace_id',
    loader: workspaceGuard,
    lazy: page(() => import('./screens/workspace/workspace-layout')),
    errorElement: <RouteErrorBoundary />,
    handle: {
      crumb: (m) => {
        const ws = m.loaderData as Workspace | undefined;
        return [homeCrumb, { label: ws ? seededName(ws.name) : (m.params.workspace_id ?? ''), href: workspacePath(m.params) }];
      },
    } satisfies RouteHandle,
    children: [
      indexTo('app'),
      { path: 'app', lazy: pageOrSkeleton('./workspace/apps/apps-page.tsx'), handle: { title: 'workspace.app', crumb: true } },
      { path: 'member', lazy: pageOrSkeleton('./workspace/members/member-page.tsx'), handle: { title: 'workspace.member', crumb: true } },
      {
        path: 'tool',
        handle: { title: 'workspace.tool', crumb: true } satisfies RouteHandle,
        children: [
          { index: true, lazy: pageOrSkeleton('./workspace/tools/tools-page.tsx') },
          {
            path: ':toolId',
            // The tool's and the function's names once their pages have loaded them (useCrumbName).
            handle: { title: 'workspace.toolDetail', crumb: (m) => ({ labelKey: 'pages:workspace.toolDetail', href: m.pathname, slot: 'tool' }) } satisfies RouteHandle,
            children: [
              { index: true, lazy: pageOrSkeleton('./workspace/tools/tool-detail-page.tsx') },
              {
                ...screen('capability/:capabilityId', 'workspace.toolCapability', './workspace/tools/function-page.tsx'),
                handle: { title: 'workspace.toolCapability', crumb: (m) => ({ labelKey: 'pages:workspace.toolCapability', href: m.pathname, slot: 'function' }) } satisfies RouteHandle,
              },
            ],
          },
        ],
      },
      screen('knowledge', 'workspace.knowledge', './workspace/knowledge/knowledge-page.tsx'),
      {
        // Knowledge pages sit beside the list in the URL; the breadcrumb still goes through it.
        handle: { crumb: workspaceListCrumb('knowledge', 'workspace.knowledge') } satisfies RouteHandle,
        children: [
          // The knowledge base's name (dataset-crumb.ts) stands for its unit list and leads the pages under it.
          {
            ...screen('knowledge-unit', 'workspace.knowledgeUnit', './workspace/knowledge/knowledge-unit-page.tsx'),
            handle: { title: 'workspace.knowledgeUnit', crumb: (m) => ({ labelKey: 'pages:workspace.knowledgeUnit', href: m.pathname, slot: 'dataset' }) } satisfies RouteHandle,
          },
          underDataset(screen('knowledge-unit-add', 'workspace.knowledgeUnitAdd', './workspace/knowledge/knowledge-unit-add-page.tsx')),
          underDataset(screen('knowledge-unit-add-table', 'workspace.knowledgeUnitAddTable', './workspace/knowledge/knowledge-unit-add-table-page.tsx')),
          underDataset(screen('knowledge-slice-method-config', 'workspace.knowledgeSliceMethodConfig', './workspace/knowledge/knowledge-slice-method-config-page.tsx')),
          underDataset(screen('knowledge-unit-details', 'workspace.knowledgeUnitDetails', './workspace/knowledge/knowledge-unit-details-page.tsx')),
        ],
      },
      { path: 'database', lazy: pageOrSkeleton('./workspace/databases/databases-page.tsx'), handle: { title: 'workspace.database', crumb: true } },
      { path: 'certificate', lazy: pageOrSkeleton('./workspace/credentials/credentials-page.tsx'), handle: { title: 'workspace.certificate', crumb: true } },
      { path: 'prompt', lazy: pageOrSkeleton('./workspace/prompts/prompts-page.tsx'), handle: { title: 'workspace.prompt', crumb: true } },
      { path: 'character', lazy: page(() => import('./workspace/characters/characters-page')), handle: { title: 'workspace.character', crumb: true } },
      {
        handle: { crumb: workspaceListCrumb('prompt', 'workspace.prompt') } satisfies RouteHandle,
        children: [
          {
            path: 'prompt-add/:promptId?',
            lazy: pageOrSkeleton('./workspace/prompts/prompt-add-page.tsx'),
            // A new prompt says so; an existing one shows its name once loaded.
            handle: {
              title: 'workspace.promptAdd',
              crumb: (m) => (m.params.promptId ? { labelKey: 'pages:workspace.promptAdd', slot: 'prompt' } : { labelKey: 'pages:workspace.promptNew' }),
            } satisfies RouteHandle,
          },
        ],
      },
    ],
  };
}

function storeRoutes(): RouteObject {
  const section = (key: string, title: string, detailParam: string): RouteObject => ({
    path: key,
    handle: { title, crumb: true } satisfies RouteHandle,
    children: [
      { index: true, lazy: page(() => import('./store/store-gallery-page')) },
      { path: `:${detailParam}`, lazy: page(() => import('./store/store-detail-page')), handle: { title: `${title}Detail`, crumb: true } satisfies RouteHandle },
    ],
  });
  return {
    path: 'store',
    lazy: page(async () => ({ default: (await import('./shell/console-sections')).StoreLayout })),
    handle: { area: 'store', crumb: () => ({ labelKey: 'pages:store.root', href: '/operation/store' }) } satisfies RouteHandle,
    children: [
      indexTo('app'),
      section('app', 'store.app', 'appId'),
      section('knowledge', 'store.knowledge', 'knowledgeId'),
      section('prompt', 'store.prompt', 'promptId'),
      section('tool', 'store.tool', 'toolId'),
      section('plugin', 'store.plugin', 'pluginId'),
    ],
  };
}

function systemRoutes(): RouteObject {
  return {
    path: 'system',
    loader: systemGuard,
    lazy: page(async () => ({ default: (await import('./shell/console-sections')).SystemLayout })),
    handle: { area: 'system', crumb: () => ({ labelKey: 'pages:system.root', href: '/operation/system' }) } satisfies RouteHandle,
    children: [
      {
        errorElement: <RouteErrorBoundary />,
        children: [
          indexTo('model'),
          { path: 'model', lazy: pageOrSkeleton('./system/models/models-page.tsx'), handle: { title: 'system.model', crumb: true } },
          {
            path: 'store',
            handle: { title: 'system.store', crumb: true } satisfies RouteHandle,
            children: [
              { index: true, lazy: page(() => import('./system/store/system-store-page')) },
              { path: ':type/:id', lazy: page(() => import('./system/store/system-store-item-page')), handle: { title: 'system.storeItem', crumb: true } satisfies RouteHandle },
            ],
          },
          {
            path: 'plugin',
            handle: { title: 'system.plugin', crumb: true } satisfies RouteHandle,
            children: [{ index: true, lazy: pageOrSkeleton('./system/plugins/plugins-page.tsx') }, { path: 'detail', lazy: pageOrSkeleton('./system/plugins/plugin-detail-page.tsx'), handle: { title: 'system.pluginDetail', crumb: true } }],
          },
          screen('dataset', 'system.dataset', './system/dataset/dataset-tasks-page.tsx'),
          {
            path: 'tool',
            handle: { title: 'system.tool', crumb: true } satisfies RouteHandle,
            children: [{ index: true, lazy: pageOrSkeleton('./system/tools/tools-page.tsx') }, { path: 'detail', lazy: pageOrSkeleton('./system/tools/tool-detail-page.tsx'), handle: { title: 'system.toolDetail', crumb: true } }],
          },
          { path: 'user', lazy: pageOrSkeleton('./system/users/users-page.tsx'), handle: { title: 'system.user', crumb: true } },
          { path: 'role', lazy: page(() => import('./system/roles/roles-page')), handle: { title: 'system.role', crumb: true } },
          { path: 'tenant', lazy: pageOrSkeleton('./system/tenants/tenants-page.tsx'), handle: { title: 'system.tenant', crumb: true } },
          { path: 'security', lazy: pageOrSkeleton('./system/security/network-policy-page.tsx'), handle: { title: 'system.security', crumb: true } },
          { path: 'approval', lazy: page(() => import('./system/approval/approval-settings-page')), handle: { title: 'system.approval', crumb: true } },
          { path: 'resource', lazy: pageOrSkeleton('./system/resource/resource-page.tsx'), handle: { title: 'system.resource', crumb: true } },
        ],
      },
    ],
  };
}

const editorTitle: Record<EditorKind, string> = {
  'agent-builder': 'app.agentBuilder',
  'agent-team': 'app.agentTeam',
  'agent-flow': 'app.agentFlow',
  'digital-human': 'app.digitalHuman',
};

/** Editor tabs that are the same page in every editor that has them. */
const TAB_PAGES: Partial<Record<string, () => Promise<PageModule>>> = {
  distribute: () => import('./screens/app/distribute-page'),
  api: () => import('./screens/app/api-tab/api-page'),
  // Its own chunk with ECharts: no other page loads the chart library.
  overview: () => import('./screens/app/overview/overview-page'),
};

function editorRoutes(): RouteObject {
  type EditorLayoutName = 'AgentBuilderLayout' | 'AgentTeamLayout' | 'AgentFlowLayout';
  const editor = (kind: Exclude<EditorKind, 'digital-human'>, layout: EditorLayoutName): RouteObject => ({
    path: kind,
    lazy: page(async () => ({ default: (await import('./screens/app/editor-layout'))[layout] })),
    // No crumb of its own: the app route's names the app's mode (a workflow is not an "Agent flow").
    handle: { title: editorTitle[kind] } satisfies RouteHandle,
    children: [
      indexTo(EDITOR_TABS[kind][0]),
      // The base tab is the canvas (the agent builder's: its form, which opens the canvas for other flows); the tabs not built yet show the skeleton.
      ...EDITOR_TABS[kind].map((tab) =>
        tab === 'base'
          ? { ...stub(tab, `app.${tab}`), lazy: kind === 'agent-builder' ? page(() => import('./screens/app/builder/builder-page')) : page(() => import('./screens/app/flow-page')) }
          : tab === 'log'
            ? screen(tab, `app.${tab}`, './screens/app/log-page.tsx')
            : tab === 'version'
              ? { ...stub(tab, `app.${tab}`), lazy: page(() => import('./screens/app/version-page')) }
              : TAB_PAGES[tab]
                ? { ...stub(tab, `app.${tab}`), lazy: page(TAB_PAGES[tab]) }
                : stub(tab, `app.${tab}`),
      ),
    ],
  });
  return {
    // The app guard loads the app, switches to its workspace and loads the model list (spec 2).
    id: 'app',
    path: 'app/:appId',
    // The guard and its error screen load with the first app route: the portal's first load leaves them out.
    lazy: lazyWithReload(async () => {
      const [{ appGuard }, { AppRouteError }] = await Promise.all([import('./screens/app/app-guard'), import('./screens/app/app-route-error')]);
      return { loader: appGuard, ErrorBoundary: AppRouteError };
    }),
    handle: {
      crumb: (m) => {
        const d = m.loaderData as AppGuardData | undefined;
        if (!d) return [homeCrumb, { labelKey: 'pages:app.root', values: { id: m.params.appId } }];
        return [
          homeCrumb,
          { label: seededName(d.workspace.name), href: `/operation/workspace/${encodeURIComponent(d.workspace.id)}/app` },
          { label: d.app.name },
          // The mode's editor (as app-modes.ts editorPath, not imported: it would grow the first load).
          { labelKey: `apps:modes.${d.app.type}`, href: `/operation/app/${encodeURIComponent(d.app.id)}/${d.app.type === 'agent_team' ? 'agent-team' : d.app.type === 'agent' ? 'agent-builder' : 'agent-flow'}` },
        ];
      },
    } satisfies RouteHandle,
    children: [
      indexTo('agent-builder'),
      editor('agent-builder', 'AgentBuilderLayout'),
      editor('agent-team', 'AgentTeamLayout'),
      editor('agent-flow', 'AgentFlowLayout'),
      {
        path: 'digital-human',
        // The editor's header (no tabs) above the app's digital-human page (issue 31).
        lazy: page(async () => ({ default: (await import('./screens/app/editor-layout')).DigitalHumanLayout })),
        handle: { title: editorTitle['digital-human'], crumb: true } satisfies RouteHandle,
        children: [{ index: true, lazy: page(() => import('./screens/app/digital-human/digital-human-page')) }],
      },
    ],
  };
}

/** Layout for console pages that have no header of their own: breadcrumb, then the page. */
function WithBreadcrumb() {
  return (
    <>
      <SubHeader />
      <Outlet />
    </>
  );
}

/** /operation and /personal, added under the root route (id `root`) by router.tsx. */
export function consoleRoutes(): RouteObject[] {
  return [
    {
      path: 'operation',
      loader: withHomeTexts(loginGuard),
      Component: ConsoleLayout,
      handle: { area: 'console' } satisfies RouteHandle,
      children: [
        {
          errorElement: <RouteErrorBoundary />,
          children: [
            { index: true, lazy: page(() => import('./screens/operation/operation-home')), handle: { title: 'operation.home' } },
            {
              // Every page but the home: all the texts before it shows, as before issue 28.
              loader: allTexts,
              children: [
                {
                  element: <WithBreadcrumb />,
                  children: [
                    { path: 'my', lazy: page(() => import('./screens/my/my-page')), handle: { title: 'operation.my', crumb: true } satisfies RouteHandle },
                    { path: 'approvals', lazy: page(() => import('./approvals/approvals-page')), handle: { title: 'operation.approvals', crumb: true } },
                    { path: 'error', element: <ErrorPage />, handle: { title: 'operation.error', crumb: true } },
                  ],
                },
                { path: 'workspace', loader: rootRedirects.root, element: null },
                workspaceRoutes(),
                storeRoutes(),
                editorRoutes(),
                systemRoutes(),
              ],
            },
          ],
        },
      ],
    },
    {
      path: 'personal',
      loader: withAllTexts(loginGuard),
      Component: ConsoleLayout,
      handle: { area: 'personal' } satisfies RouteHandle,
      children: [
        {
          errorElement: <RouteErrorBoundary />,
          children: [
            indexTo('personal-center'),
            { path: 'personal-center', lazy: page(() => import('./screens/personal/personal-center')), handle: { title: 'personal.center' } },
          ],
        },
      ],
    },
  ];
}
