/**
 * /operation/workspace/:workspace_id: the project-space header (breadcrumb, my role, navigation tabs)
 * above the tab's page. The route's loader is the workspace guard (it switches to the workspace, or
 * throws the "project does not exist" error the route's error element shows).
 */
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useRouteLoaderData } from 'react-router';
import type { Workspace } from '../../../../schemas/workspace';
import { Badge } from '../../../ui';
import { PageBand } from '../../shell/page';
import { ProjectTabs, projectTabOf } from '../../shell/project-tabs';
import { RouteBreadcrumb } from '../../shell/route-breadcrumb';
import s from './workspace-layout.module.css';

/** The first path segment after /operation/workspace/:id/. */
export function workspaceSegment(pathname: string): string | undefined {
  return /^\/operation\/workspace\/[^/]+\/([^/]+)/.exec(pathname)?.[1];
}

export default function WorkspaceLayout() {
  const { t } = useTranslation(['workspace', 'common', 'errors']);
  const workspace = useRouteLoaderData('workspace') as Workspace;
  const { pathname } = useLocation();
  return (
    <div className={s.root} data-testid="workspace-layout" data-workspace-id={workspace.id}>
      <PageBand className={s.header}>
        <div className={s.topRow}>
          <RouteBreadcrumb className={s.crumbs} />
          <Badge variant={workspace.role_type === 'owner' ? 'primary' : 'neutral'} data-testid="workspace-role">
            {t(`role.${workspace.role_type}`)}
          </Badge>
        </div>
        <ProjectTabs workspaceId={workspace.id} active={projectTabOf(workspaceSegment(pathname))} />
      </PageBand>
      <Outlet />
    </div>
  );
}
