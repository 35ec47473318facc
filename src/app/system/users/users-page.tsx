/**
 * /operation/system/user (spec 2 system area; spec 6: super_admin and tenant_admin only): the users of
 * a tenant and, in a second tab, the tenant's organisation tree that the member picker shows. A super
 * admin picks the tenant; a tenant admin works in its own.
 */
import { seededName } from '../../../i18n/seeded';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../session';
import { Select } from '../../../ui/select';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { Page, PageHeader } from '../../shell/page';
import { OrgTreeManager } from '../orgs/org-tree-manager';
import { NoPermission, PAGE_STYLE, useLoad } from './admin-kit';
import { useSystemApi } from './system-api';
import { UsersPanel } from './users-panel';
import s from './system.module.css';

export default function UsersPage() {
  const { t } = useTranslation(['system', 'common']);
  const me = useSession((st) => st.user);
  if (!me || (me.role !== 'super_admin' && me.role !== 'tenant_admin')) {
    return (
      <Page style={PAGE_STYLE} data-slot="system-users-page">
        <PageHeader title={t('users.title')} />
        <NoPermission description={t('noPermission.adminOnly')} />
      </Page>
    );
  }
  return <UsersScreen me={me} />;
}

function UsersScreen({ me }: { me: NonNullable<ReturnType<typeof useSession.getState>['user']> }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const isSuper = me.role === 'super_admin';
  const [tenantId, setTenantId] = useState(me.tenant_id);
  const [tab, setTab] = useState('users');
  const tenants = useLoad(
    (signal) => (isSuper ? api.listTenants({ page: 1, page_size: 1000 }, { signal }).then((p) => p.items) : Promise.resolve(undefined)),
    [api, isSuper],
  );

  return (
    <Page style={PAGE_STYLE} data-slot="system-users-page">
      <PageHeader
        title={t('users.title')}
        actions={
          isSuper && (
            <>
              <span className={s.inlineLabel} aria-hidden="true">
                {t('users.tenant')}
              </span>
              <Select
                className={s.tenantSelect}
                aria-label={t('users.tenant')}
                value={tenantId}
                onValueChange={setTenantId}
                options={(tenants.data ?? []).map((x) => ({ value: x.id, label: seededName(x.name) }))}
              />
            </>
          )
        }
      />
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="users">{t('users.tabUsers')}</TabsTrigger>
          <TabsTrigger value="orgs">{t('users.tabOrgs')}</TabsTrigger>
        </TabsList>
        <TabsContent value="users">
          <UsersPanel key={tenantId} me={me} tenantId={tenantId} tenants={tenants.data} />
        </TabsContent>
        <TabsContent value="orgs">
          <OrgTreeManager key={tenantId} tenantId={isSuper ? tenantId : undefined} />
        </TabsContent>
      </Tabs>
    </Page>
  );
}
