/**
 * /operation/system/tenant (spec 2 system area, spec 3 Tenant): the tenants, for a super admin only; a
 * tenant admin sees a no-permission state and no actions. The default tenant cannot be disabled (and
 * neither can the caller's own), so it shows no status action.
 */
import { Building2, Pencil, Plus, Power, Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser } from '../../../../schemas/auth';
import type { Tenant } from '../../../../schemas/tenant';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import { toast } from '../../../ui/toast';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, ListPager, ListRows, NoPermission, PAGE_SIZE, PAGE_STYLE, reportError, useLoad } from '../users/admin-kit';
import { useSystemApi } from '../users/system-api';
import s from '../users/system.module.css';
import { CreateTenantDialog, RenameTenantDialog } from './tenant-dialogs';
import { seededName } from '../../../i18n/seeded';

const COLUMNS = 8;
const SEARCH_DEBOUNCE_MS = 300;

export default function TenantsPage() {
  const { t } = useTranslation(['system', 'common']);
  const me = useSession((st) => st.user);
  return (
    <Page style={PAGE_STYLE} data-slot="system-tenants-page">
      <PageHeader title={t('tenants.title')} />
      {me?.role === 'super_admin' ? <TenantsScreen me={me} /> : <NoPermission />}
    </Page>
  );
}

function TenantsScreen({ me }: { me: CurrentUser }) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);

  const applyName = (v: string) => {
    setName(v);
    setPage(1);
  };
  useEffect(() => {
    if (typed.trim() === name) return;
    const id = setTimeout(() => applyName(typed.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [typed]);

  const list = useLoad((signal) => api.listTenants({ page, page_size: pageSize, name: name || undefined }, { signal }), [api, page, pageSize, name]);

  const [createOpen, setCreateOpen] = useState(false);
  const [renameOpen, setRenameOpen] = useState(false);
  const [renaming, setRenaming] = useState<Tenant | null>(null);
  const [statusOpen, setStatusOpen] = useState(false);
  const [statusTenant, setStatusTenant] = useState<Tenant | null>(null);

  const applyStatus = async () => {
    if (!statusTenant) return;
    const next = statusTenant.status === 1 ? 0 : 1;
    try {
      await api.setTenantStatus(statusTenant.id, next);
      toast.success(next === 1 ? t('tenants.enabled') : t('tenants.disabled'));
      list.reload();
    } catch (e) {
      reportError(e);
      throw e;
    }
  };

  const data = list.data;
  const disabling = statusTenant?.status === 1;

  return (
    <>
      <div className={s.tableArea}>
        <div className={s.toolbar}>
          <Input
            className={s.search}
            type="search"
            prefix={<Search aria-hidden="true" size={14} />}
            placeholder={t('tenants.searchPlaceholder')}
            aria-label={t('tenants.search')}
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && applyName(typed.trim())}
          />
          <span className={s.spacer} />
          <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setCreateOpen(true)}>
            {t('tenants.create')}
          </Button>
        </div>

        <Table size="sm" striped aria-label={t('tenants.listLabel')} aria-busy={list.status === 'loading' || undefined}>
          <TableHeader>
            <TableRow>
              <TableHead>{t('tenants.fields.name')}</TableHead>
              <TableHead>{t('tenants.fields.status')}</TableHead>
              <TableHead>{t('tenants.fields.isDefault')}</TableHead>
              <TableHead>{t('tenants.fields.createdAt')}</TableHead>
              <TableHead>{t('tenants.fields.updatedAt')}</TableHead>
              <TableHead>{t('tenants.fields.createdBy')}</TableHead>
              <TableHead>{t('tenants.fields.updatedBy')}</TableHead>
              <TableHead className={s.actionsHead}>{t('table.actions')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            <ListRows list={list} items={data?.items} columns={COLUMNS} skeleton={{ rows: 4, first: 120, className: s.skeletonRow }} empty={<EmptyState size="sm" icon={<Building2 aria-hidden="true" />} title={name ? t('tenants.noMatch') : t('tenants.empty')} />}>
              {(items) =>
                items.map((x) => {
                  // The server refuses to disable the default tenant and the caller's own.
                  const canToggle = !x.is_default && x.id !== me.tenant_id;
                  return (
                    <TableRow key={x.id} data-tenant-id={x.id}>
                      <TableCell className={s.nowrap}>{seededName(x.name)}</TableCell>
                      <TableCell>
                        <Badge variant={x.status === 1 ? 'success' : 'neutral'} dot>
                          {x.status === 1 ? t('status.enabled') : t('status.disabled')}
                        </Badge>
                      </TableCell>
                      <TableCell>
                        {x.is_default ? <Badge variant="primary">{t('tenants.default')}</Badge> : <span className={s.muted}>{t('tenants.notDefault')}</span>}
                      </TableCell>
                      <TableCell className={s.nowrap}>{formatDateTime(x.created_at)}</TableCell>
                      <TableCell className={s.nowrap}>{formatDateTime(x.updated_at)}</TableCell>
                      <TableCell className={s.nowrap}>{x.created_by || <span className={s.muted}>-</span>}</TableCell>
                      <TableCell className={s.nowrap}>{x.updated_by || <span className={s.muted}>-</span>}</TableCell>
                      <TableCell>
                        <span className={s.actions}>
                          <Button
                            size="sm"
                            variant="link"
                            icon={<Pencil aria-hidden="true" size={12} />}
                            aria-label={t('tenants.renameOf', { name: seededName(x.name) })}
                            onClick={() => {
                              setRenaming(x);
                              setRenameOpen(true);
                            }}
                          >
                            {t('tenants.rename')}
                          </Button>
                          {canToggle && (
                            <Button
                              size="sm"
                              variant="link"
                              icon={<Power aria-hidden="true" size={12} />}
                              aria-label={x.status === 1 ? t('tenants.disableOf', { name: seededName(x.name) }) : t('tenants.enableOf', { name: seededName(x.name) })}
                              onClick={() => {
                                setStatusTenant(x);
                                setStatusOpen(true);
                              }}
                            >
                              {x.status === 1 ? t('tenants.disable') : t('tenants.enable')}
                            </Button>
                          )}
                        </span>
                      </TableCell>
                    </TableRow>
                  );
                })
              }
            </ListRows>
          </TableBody>
        </Table>

        <ListPager className={s.pager} page={page} pageSize={pageSize} total={data?.total} onPage={setPage} onPageSize={setPageSize} />
      </div>

      <CreateTenantDialog open={createOpen} onOpenChange={setCreateOpen} onSaved={() => list.reload()} />
      <RenameTenantDialog open={renameOpen} onOpenChange={setRenameOpen} tenant={renaming} onSaved={() => list.reload()} />
      <ConfirmDialog
        open={statusOpen}
        onOpenChange={setStatusOpen}
        danger={disabling}
        title={disabling ? t('tenants.disableTitle', { name: seededName(statusTenant?.name ?? '') }) : t('tenants.enableTitle', { name: seededName(statusTenant?.name ?? '') })}
        description={disabling ? t('tenants.disableDescription') : t('tenants.enableDescription')}
        confirmLabel={disabling ? t('tenants.disable') : t('tenants.enable')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={applyStatus}
      />
    </>
  );
}
