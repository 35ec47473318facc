/**
 * /operation (console pages, store, app editors) and /personal: the top bar with the project-space
 * switcher, then the page. In the chunk of those routes (console-routes.tsx), so that the portal's first load
 * carries neither this layout nor the switcher (issue 21).
 */
import { Outlet } from 'react-router';
import { ConnectedWorkspaceSwitcher } from './console-workspace-switcher';
import { DocumentTitle, NavigationProgress } from './layouts';
import { useArea } from './route-handle';
import { ShellTopBar } from './shell-top-bar';
import { ApprovalBell } from './approval-bell';
import s from './layouts.module.css';

export default function ConsoleLayout() {
  const area = useArea();
  // The personal center has no project space of its own.
  const showWorkspaces = area === 'console' || area === undefined;
  return (
    <div className={s.shell}>
      <NavigationProgress />
      <DocumentTitle />
      <ShellTopBar area={area} workspaceSwitcher={showWorkspaces ? <ConnectedWorkspaceSwitcher /> : undefined} notifications={<ApprovalBell />} />
      <main className={s.main} id="main">
        <Outlet />
      </main>
    </div>
  );
}
