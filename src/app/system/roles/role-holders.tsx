import { Search, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser, SystemRole } from '../../../../schemas/auth';
import type { AdminUser } from '../../../../schemas/user';
import { seededName } from '../../../i18n/seeded';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import { toast } from '../../../ui/toast';
import { Tooltip } from '../../../ui/tooltip';
import { ListPager, ListRows, PAGE_SIZE, reportError, useLoad } from '../users/admin-kit';
import { useSystemApi } from '../users/system-api';
import s from './roles.module.css';

const COLUMNS = 4;
const SEARCH_DEBOUNCE_MS = 300;
const ROLES: SystemRole[] = ['super_admin', 'tenant_admin', 'user'];

export interface RoleHoldersProps {
  me: CurrentUser;
  tenantId: string;
  /** Roles the caller may give (from GET /admin/roles). */
  assignable: SystemRole[];
  /** After a role changed (the counts above change too). */
  onChanged: () => void;
}

/** Who holds which role in one tenant (GET /admin/users?role=), paged and searchable, with the role to change. */
export function RoleHolders({ me, tenantId, assignable, onChanged }: RoleHoldersProps) {
  const { t } = useTranslation(['roles', 'system', 'common']);
  const api = useSystemApi();
  const isSuper = me.role === 'super_admin';
  const [role, setRole] = useState<'all' | SystemRole>('all');
  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [pending, setPending] = useState<{ user: AdminUser; role: SystemRole } | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);

  useEffect(() => {
    if (typed.trim() === name) return;
    const id = setTimeout(() => {
      setName(typed.trim());
      setPage(1);
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(id);
  }, [typed, name]);

  const list = useLoad(
    (signal) =>
      api.listUsers(
        { page, page_size: pageSize, name: name || undefined, role: role === 'all' ? undefined : role, ...(isSuper ? { tenant_id: tenantId } : {}) },
        { signal },
      ),
    [api, page, pageSize, name, role, tenantId, isSuper],
  );

  const apply = async () => {
    if (!pending) return;
    try {
      await api.assignRole(pending.user.id, pending.role);
      toast.success(t('assign.done', { name: pending.user.username, role: t(`names.${pending.role}`) }));
      list.reload();
      onChanged();
    } catch (e) {
      reportError(e);
      throw e;
    }
  };

  const data = list.data;
  const filtered = Boolean(name) || role !== 'all';
  return (
    <section className={s.holders} aria-label={t('members.label')}>
      <h2 className={s.sectionTitle}>{t('members.title')}</h2>
      <div className={s.toolbar}>
        <Input
          className={s.search}
          size="md"
          type="search"
          prefix={<Search aria-hidden="true" size={14} />}
          placeholder={t('members.searchPlaceholder')}
          aria-label={t('members.search')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
        />
        <Select
          className={s.filter}
          aria-label={t('members.roleFilter')}
          value={role}
          onValueChange={(v) => {
            setRole(v as typeof role);
            setPage(1);
          }}
          options={[{ value: 'all', label: t('members.allRoles') }, ...ROLES.map((r) => ({ value: r, label: t(`names.${r}`) }))]}
        />
      </div>
      <Table size="sm" striped aria-label={t('members.label')} aria-busy={list.status === 'loading' || undefined} data-testid="role-holders">
        <TableHeader>
          <TableRow>
            <TableHead>{t('members.username')}</TableHead>
            <TableHead>{t('members.realName')}</TableHead>
            <TableHead className={s.roleSelectCol}>{t('members.role')}</TableHead>
            <TableHead>{t('members.status')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <ListRows list={list} items={data?.items} columns={COLUMNS} skeleton={{ rows: 3, first: 72, rest: 72 }} empty={<EmptyState size="sm" icon={<Users aria-hidden="true" />} title={filtered && name ? t('members.noMatch') : t('members.empty')} />}>
            {(items) =>
              items.map((u) => {
                const self = u.id === me.id;
                // The server refuses these too (400 own role, 403 a super admin for a tenant admin).
                const locked = self || (!assignable.includes('super_admin') && u.role === 'super_admin');
                const select = (
                  <Select
                    size="sm"
                    className={s.roleSelect}
                    aria-label={t('members.roleOf', { name: u.username })}
                    value={u.role}
                    disabled={locked}
                    onValueChange={(v) => {
                      setPending({ user: u, role: v as SystemRole });
                      setConfirmOpen(true);
                    }}
                    options={ROLES.map((r) => ({ value: r, label: t(`names.${r}`), disabled: r !== u.role && !assignable.includes(r) }))}
                  />
                );
                return (
                  <TableRow key={u.id} data-user-id={u.id}>
                    <TableCell className={s.nowrap}>{u.username}</TableCell>
                    <TableCell className={s.nowrap}>{seededName(u.realName) || '-'}</TableCell>
                    <TableCell className={s.roleSelectCol}>
                      {locked ? (
                        <Tooltip content={self ? t('members.selfHint') : t('members.protectedHint')}>
                          <span tabIndex={0}>{select}</span>
                        </Tooltip>
                      ) : (
                        select
                      )}
                    </TableCell>
                    <TableCell className={s.nowrap}>{u.status === 1 ? t('members.enabled') : t('members.disabled')}</TableCell>
                  </TableRow>
                );
              })
            }
          </ListRows>
        </TableBody>
      </Table>
      <ListPager className={s.pager} page={page} pageSize={pageSize} total={data?.total} onPage={setPage} onPageSize={setPageSize} />
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title={t('assign.title', { name: pending?.user.username ?? '', role: pending ? t(`names.${pending.role}`) : '' })}
        description={t('assign.description')}
        confirmLabel={t('assign.confirm')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={apply}
      />
    </section>
  );
}
