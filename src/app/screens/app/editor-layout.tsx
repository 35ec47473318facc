/**
 * /operation/app/:appId/{agent-builder|agent-team|agent-flow|digital-human}: the app editor's header
 * (breadcrumb and the editor's tabs, spec 2 "App editors") above the tab's page.
 */
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useParams } from 'react-router';
import { NavTab, NavTabs } from '../../../ui';
import { SubHeader } from '../../shell/layouts';

/** The tabs of each editor, in order (spec 2). */
export const EDITOR_TABS = {
  'agent-builder': ['base', 'log', 'api', 'version', 'distribute', 'overview'],
  'agent-team': ['base', 'api', 'version', 'distribute'],
  'agent-flow': ['base', 'api', 'version', 'distribute', 'log', 'overview'],
  'digital-human': [],
} as const satisfies Record<string, readonly string[]>;

export type EditorKind = keyof typeof EDITOR_TABS;
export type EditorTab = (typeof EDITOR_TABS)[EditorKind][number];

export function EditorLayout({ kind }: { kind: EditorKind }) {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  const { appId = '' } = useParams();
  const { pathname } = useLocation();
  const base = `/operation/app/${encodeURIComponent(appId)}/${kind}`;
  const tabs: readonly EditorTab[] = EDITOR_TABS[kind];
  const active = pathname.slice(base.length + 1).split('/')[0] || tabs[0];
  return (
    <>
      <SubHeader>
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
      <Outlet />
    </>
  );
}

export const AgentBuilderLayout = () => <EditorLayout kind="agent-builder" />;
export const AgentTeamLayout = () => <EditorLayout kind="agent-team" />;
export const AgentFlowLayout = () => <EditorLayout kind="agent-flow" />;
