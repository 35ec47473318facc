/**
 * /operation/system/role (spec 6 "Admin menus: role, user and tenant management"): the system roles,
 * what each may do as the server enforces it (GET /admin/roles: the page keeps no copy of the rules),
 * and who holds them, with the role to change. Super admins pick the tenant; tenant admins see their own.
 */
import { seededName } from '../../../i18n/seeded';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../../schemas/auth';
import { Select } from '../../../ui/select';
import { Skeleton } from '../../../ui/skeleton';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { LoadFailed, NoPermission, PAGE_STYLE, useLoad } from '../users/admin-kit';
import { useSystemApi } from '../users/system-api';
import { RoleHolders } from './role-holders';
import { RoleMatrix } from './role-matrix';
import s from './roles.module.css';

export default function RolesPage() {
  const { t } = useTranslation(['roles', 'system']);
  const me = useSession((st) => st.user);
  if (!me || (me.role !== 'super_admin' && me.role !== 'tenant_admin')) {
    return (
      <Page style={PAGE_STYLE} data-slot="system-roles-page">
        <PageHeader title={t('title')} />
        <NoPermission description={t('system:noPermission.adminOnly')} />
      </Page>
    );
  }
  return <RolesScreen me={me} />;
}

function RolesScreen({ me }: { me: CurrentUser }) {
  const { t } = useTranslation(['roles', 'system']);
  const api = useSystemApi();
  const isSuper = me.role === 'super_admin';
  const [tenantId, setTenantId] = useState(me.tenant_id);
  const tenants = useLoad(
    (signal) => (isSuper ? api.listTenants({ page: 1, page_size: 1000 }, { signal }).then((p) => p.items) : Promise.resolve(undefined)),
    [api, isSuper],
  );
  const overview = useLoad((signal) => api.getRoles(isSuper ? { tenant_id: tenantId } : {}, { signal }), [api, isSuper, tenantId]);

  return (
    <Page style={PAGE_STYLE} data-slot="system-roles-page">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          isSuper && (
            <Select
              className={s.tenantSelect}
              aria-label={t('tenant')}
              value={tenantId}
              onValueChange={setTenantId}
              options={(tenants.data ?? []).map((x) => ({ value: x.id, label: seededName(x.name) }))}
            />
          )
        }
      />
      {overview.status === 'error' && !overview.data ? (
        <LoadFailed onRetry={overview.reload} />
      ) : !overview.data ? (
        <Skeleton height={160} />
      ) : (
        <RoleMatrix overview={overview.data} />
      )}
      <RoleHolders key={tenantId} me={me} tenantId={tenantId} assignable={overview.data?.assignable ?? []} onChanged={overview.reload} />
    </Page>
  );
}
