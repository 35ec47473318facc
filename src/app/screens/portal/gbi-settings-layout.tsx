/** /portal/gbi-data-settings/gbi-data-settings-page: database management and file management tabs. */
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { NavTab, NavTabs } from '../../../ui';
import { Page } from '../../shell/page';

export const GBI_TABS = ['database-management', 'file-management'] as const;

export default function GbiSettingsLayout() {
  const { t } = useTranslation(['pages', 'common', 'errors']);
  const { pathname } = useLocation();
  const active = GBI_TABS.find((tab) => pathname.endsWith(`/${tab}`)) ?? GBI_TABS[0];
  return (
    <>
      <Page style={{ paddingBottom: 0 }}>
        <NavTabs aria-label={t('portal.gbiSettings')}>
          {GBI_TABS.map((tab) => (
            <NavTab key={tab} asChild active={active === tab}>
              <Link to={`/portal/gbi-data-settings/gbi-data-settings-page/${tab}`}>{t(`portal.${tab === 'database-management' ? 'gbiDatabase' : 'gbiFiles'}`)}</Link>
            </NavTab>
          ))}
        </NavTabs>
      </Page>
      <Outlet />
    </>
  );
}
