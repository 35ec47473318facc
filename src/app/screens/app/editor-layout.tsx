/**
 * /operation/app/:appId/{agent-builder|agent-team|agent-flow|digital-human}: the app editor's header
 * (breadcrumb, the app's name, icon and mode, back to the app list, the autosave status, and the
 * editor's tabs, spec 2 "App editors") above the tab's page. The app comes from the app guard
 * (app-guard.ts, the loader of the `app` route).
 */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useOutletContext, useParams } from 'react-router';
import { ScanFace, Workflow } from 'lucide-react';
import { Button, NavTab, NavTabs } from '../../../ui';
import { SubHeader } from '../../shell/layouts';
import { useAppGuardData, type AppGuardData } from './app-guard';
import { EditorHeader } from './editor-header';
import { EDITOR_TABS, type EditorKind, type EditorTab } from './editor-tabs';
import type { SaveState } from './save-status';

export { EDITOR_TABS, type EditorKind, type EditorTab };

/**
 * What an editor tab's page gets from the layout through the outlet context: the guard's data (app,
 * workspace, model list) and the setter of the header's save status.
 *
 * @example const { app, setSaveStatus } = useEditorContext(); setSaveStatus('saving');
 */
export interface EditorContext extends Partial<AppGuardData> {
  setSaveStatus(status: SaveState | null, detail?: string): void;
}

export const useEditorContext = () => useOutletContext<EditorContext>();

export function EditorLayout({ kind }: { kind: EditorKind }) {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  const { appId = '' } = useParams();
  const { pathname } = useLocation();
  const data = useAppGuardData();
  const [save, setSave] = useState<{ status: SaveState | null; detail?: string }>({ status: null });
  const base = `/operation/app/${encodeURIComponent(appId)}/${kind}`;
  const tabs: readonly EditorTab[] = EDITOR_TABS[kind];
  const active = pathname.slice(base.length + 1).split('/')[0] || tabs[0];
  const context = useMemo<EditorContext>(() => ({ ...data, setSaveStatus: (status, detail) => setSave((prev) => (prev.status === status && prev.detail === detail ? prev : { status, detail })) }), [data]);
  return (
    <>
      <SubHeader>
        {data && <EditorHeader app={data.app} saveStatus={save.status} saveDetail={save.detail} actions={<DigitalHumanLink kind={kind} app={data.app} />} />}
        {tabs.length > 0 && (
          <NavTabs aria-label={t('app.tabs')} data-testid="editor-tabs">
            {tabs.map((tab) => (
              <NavTab key={tab} asChild active={active === tab}>
                <Link to={`${base}/${tab}`}>{t(`app.${tab}`)}</Link>
              </NavTab>
            ))}
          </NavTabs>
        )}
      </SubHeader>
      <Outlet context={context} />
    </>
  );
}

/**
 * Between an app's flow and its digital-human page (issue 31): the flow editors link to the page
 * (any app but an agent team can be a digital human); the page links back to the app's editor.
 */
function DigitalHumanLink({ kind, app }: { kind: EditorKind; app: AppGuardData['app'] }) {
  const { t } = useTranslation('digitalHuman');
  const id = encodeURIComponent(app.id);
  if (kind === 'digital-human') {
    return (
      <Button asChild size="sm" variant="ghost">
        <Link to={`/operation/app/${id}/${app.type === 'agent' ? 'agent-builder' : app.type === 'agent_team' ? 'agent-team' : 'agent-flow'}`} data-testid="editor-open-flow">
          <Workflow aria-hidden="true" />
          {t('app.openEditor')}
        </Link>
      </Button>
    );
  }
  if (app.type === 'agent_team') return null;
  return (
    <Button asChild size="sm" variant={app.digital_human ? 'secondary' : 'ghost'}>
      <Link to={`/operation/app/${id}/digital-human`} data-testid="editor-digital-human">
        <ScanFace aria-hidden="true" />
        {t('app.title')}
      </Link>
    </Button>
  );
}

export const AgentBuilderLayout = () => <EditorLayout kind="agent-builder" />;
export const AgentTeamLayout = () => <EditorLayout kind="agent-team" />;
export const AgentFlowLayout = () => <EditorLayout kind="agent-flow" />;
export const DigitalHumanLayout = () => <EditorLayout kind="digital-human" />;
