/**
 * The console's project-space switcher bound to the route and the workspaces store. It belongs to the
 * console's layout (console-layout.tsx), not to the shared top bar: the portal's first load carries
 * none of it (issue 21).
 */
import { useEffect } from 'react';
import { useNavigate, useParams, useRouteLoaderData } from 'react-router';
import type { Workspace } from '../../../schemas/workspace';
import { useSession } from '../session';
import { projectTabOf } from './project-tabs';
import { WorkspaceSwitcher } from './workspace-switcher';
import { useWorkspaces } from './workspaces-store';

/** Switching project space keeps the tab the user is on (the list of that tab in the other space). */
export function workspaceTarget(id: string, pathname: string): string {
  const m = /^\/operation\/workspace\/[^/]+\/([^/]+)/.exec(pathname);
  const tab = projectTabOf(m?.[1]) ?? 'app';
  return `/operation/workspace/${encodeURIComponent(id)}/${tab}`;
}

export function ConnectedWorkspaceSwitcher() {
  const navigate = useNavigate();
  const user = useSession((s) => s.user);
  const params = useParams();
  // In an app editor the app guard's project space is the current one (spec 2: it switches to it).
  const appRoute = useRouteLoaderData('app') as { workspace?: Workspace } | undefined;
  const workspace_id = params.workspace_id ?? appRoute?.workspace?.id;
  const routeWorkspace = (useRouteLoaderData('workspace') as Workspace | undefined) ?? appRoute?.workspace;
  const workspaces = useWorkspaces((s) => s.items);
  const wsStatus = useWorkspaces((s) => s.status);
  const loadWorkspaces = useWorkspaces((s) => s.load);

  useEffect(() => {
    if (user) void loadWorkspaces();
  }, [user, loadWorkspaces]);

  if (!user) return null;
  return (
    <WorkspaceSwitcher
      workspaces={workspaces}
      currentId={workspace_id}
      currentName={routeWorkspace?.id === workspace_id ? routeWorkspace?.name : undefined}
      currentIcon={routeWorkspace?.id === workspace_id ? routeWorkspace?.icon : undefined}
      loading={wsStatus === 'loading'}
      onOpen={() => void loadWorkspaces(true)}
      onSelect={(id) => navigate(workspaceTarget(id, window.location.pathname))}
      onShowAll={() => navigate('/operation')}
    />
  );
}
