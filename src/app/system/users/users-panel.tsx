import { KeyRound, Pencil, Plus, Search, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CurrentUser, SystemRole } from '../../../../schemas/auth';
import type { Tenant } from '../../../../schemas/tenant';
import type { AdminUser } from '../../../../schemas/user';
import { Badge, type BadgeVariant } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Select } from '../../../ui/select';
import { Switch } from '../../../ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import { toast } from '../../../ui/toast';
import { Tooltip } from '../../../ui/tooltip';
import { formatDateTime, ListPager, ListRows, PAGE_SIZE, reportError, useLoad } from './admin-kit';
import { ResetPasswordDialog } from './reset-password-dialog';
import { useSystemApi } from './system-api';
import { UserFormDialog } from './user-form-dialog';
import s from './system.module.css';
import { seededName, seededPath } from '../../../i18n/seeded';

const roleBadge: Record<SystemRole, BadgeVariant> = { super_admin: 'primary', tenant_admin: 'info', user: 'neutral' };
const COLUMNS = 10;
/** Search waits for the typing to pause. */
const SEARCH_DEBOUNCE_MS = 300;

export interface UsersPanelProps {
  me: CurrentUser;
  /** The tenant shown (the caller's own, or a super admin's choice). */
  tenantId: string;
  /** Tenants a super admin may pick for a new user. */
  tenants?: Tenant[];
}

/** The users table of one tenant with search, status filter, pager, create, edit, status and password. */
export function UsersPanel({ me, tenantId, tenants }: UsersPanelProps) {
  const { t } = useTranslation(['system', 'common']);
  const api = useSystemApi();
  const isSuper = me.role === 'super_admin';

  const [typed, setTyped] = useState('');
  const [name, setName] = useState('');
  const [status, setStatus] = useState<'all' | '1' | '0'>('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);

  // A filter change starts again at page 1 (a tenant change remounts the panel).
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

  const list = useLoad(
    (signal) =>
      api.listUsers(
        {
          page,
          page_size: pageSize,
          name: name || undefined,
          status: status === 'all' ? undefined : (Number(status) as 0 | 1),
          ...(isSuper ? { tenant_id: tenantId } : {}),
        },
        { signal },
      ),
    [api, page, pageSize, name, status, tenantId, isSuper],
  );

  // Dialogs keep their subject while they animate closed.
  const [formOpen, setFormOpen] = useState(false);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [pwOpen, setPwOpen] = useState(false);
  const [pwUser, setPwUser] = useState<AdminUser | null>(null);
  const [statusOpen, setStatusOpen] = useState(false);
  const [statusUser, setStatusUser] = useState<AdminUser | null>(null);

  const openCreate = () => {
    setEditing(null);
    setFormOpen(true);
  };
  const openEdit = (u: AdminUser) => {
    setEditing(u);
    setFormOpen(true);
  };
  const openPassword = (u: AdminUser) => {
    setPwUser(u);
    setPwOpen(true);
  };
  const askStatus = (u: AdminUser) => {
    setStatusUser(u);
    setStatusOpen(true);
  };

  const applyStatus = async () => {
    if (!statusUser) return;
    const next = statusUser.status === 1 ? 0 : 1;
    try {
      await api.setUserStatus(statusUser.id, next);
      toast.success(next === 1 ? t('users.enabled') : t('users.disabled'));
      list.reload();
    } catch (e) {
      reportError(e);
      throw e;
    }
  };

  /** A tenant admin may not change a super admin (the server answers 403). */
  const locked = (u: AdminUser) => !isSuper && u.role === 'super_admin';
  const filtered = Boolean(name) || status !== 'all';
  const data = list.data;
  const statusOptions = [
    { value: 'all', label: t('status.all') },
    { value: '1', label: t('status.enabled') },
    { value: '0', label: t('status.disabled') },
  ];

  return (
    <div className={s.tableArea}>
      <div className={s.toolbar}>
        <Input
          className={s.search}
          size="md"
          type="search"
          prefix={<Search aria-hidden="true" size={14} />}
          placeholder={t('users.searchPlaceholder')}
          aria-label={t('users.search')}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && applyName(typed.trim())}
        />
        <Select
          className={s.filter}
          aria-label={t('users.statusFilter')}
          value={status}
          onValueChange={(v) => {
            setStatus(v as typeof status);
            setPage(1);
          }}
          options={statusOptions}
        />
        <span className={s.spacer} />
        <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={openCreate}>
          {t('users.create')}
        </Button>
      </div>

      <Table size="sm" striped aria-label={t('users.listLabel')} aria-busy={list.status === 'loading' || undefined}>
        <TableHeader>
          <TableRow>
            <TableHead>{t('users.fields.username')}</TableHead>
            <TableHead>{t('users.fields.realName')}</TableHead>
            <TableHead>{t('users.fields.nickname')}</TableHead>
            <TableHead>{t('users.fields.email')}</TableHead>
            <TableHead>{t('users.fields.phone')}</TableHead>
            <TableHead>{t('users.fields.role')}</TableHead>
            <TableHead>{t('users.fields.status')}</TableHead>
            <TableHead>{t('users.fields.orgs')}</TableHead>
            <TableHead>{t('users.fields.createdAt')}</TableHead>
            <TableHead className={s.actionsHead}>{t('table.actions')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <ListRows
            list={list}
            items={data?.items}
            columns={COLUMNS}
            skeleton={{ rows: 5, first: 96, className: s.skeletonRow }}
            empty={
              <EmptyState
                size="sm"
                icon={<Users aria-hidden="true" />}
                title={filtered ? t('users.noMatch') : t('users.empty')}
                description={filtered ? undefined : t('users.emptyHint')}
              />
            }
          >
            {(items) =>
              items.map((u) => (
                <UserRow
                  key={u.id}
                  user={u}
                  self={u.id === me.id}
                  locked={locked(u)}
                  onEdit={() => openEdit(u)}
                  onPassword={() => openPassword(u)}
                  onToggle={() => askStatus(u)}
                />
              ))
            }
          </ListRows>
        </TableBody>
      </Table>

      <ListPager className={s.pager} page={page} pageSize={pageSize} total={data?.total} onPage={setPage} onPageSize={setPageSize} />

      <UserFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        user={editing}
        me={me}
        tenantId={tenantId}
        tenants={tenants}
        onSaved={() => list.reload()}
      />
      <ResetPasswordDialog open={pwOpen} onOpenChange={setPwOpen} user={pwUser} />
      <ConfirmDialog
        open={statusOpen}
        onOpenChange={setStatusOpen}
        danger={statusUser?.status === 1}
        title={
          statusUser?.status === 1
            ? t('users.disableTitle', { name: statusUser?.username ?? '' })
            : t('users.enableTitle', { name: statusUser?.username ?? '' })
        }
        description={statusUser?.status === 1 ? t('users.disableDescription') : t('users.enableDescription')}
        confirmLabel={statusUser?.status === 1 ? t('users.disable') : t('users.enable')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={applyStatus}
      />
    </div>
  );
}

interface UserRowProps {
  user: AdminUser;
  self: boolean;
  locked: boolean;
  onEdit: () => void;
  onPassword: () => void;
  onToggle: () => void;
}

function UserRow({ user: u, self, locked, onEdit, onPassword, onToggle }: UserRowProps) {
  const { t } = useTranslation(['system', 'common']);
  const orgNames = u.orgs.map((o) => seededName(o.name)).join(', ');
  const statusHint = self ? t('users.selfStatusHint') : locked ? t('users.protectedHint') : undefined;
  const switchEl = (
    <Switch
      size="sm"
      checked={u.status === 1}
      disabled={self || locked}
      aria-label={t('users.statusOf', { name: u.username })}
      onCheckedChange={onToggle}
    />
  );
  return (
    <TableRow data-user-id={u.id}>
      <TableCell className={s.nowrap}>{u.username}</TableCell>
      <TableCell className={s.nowrap}>{seededName(u.realName) || <span className={s.muted}>-</span>}</TableCell>
      <TableCell className={s.nowrap}>{u.nickname || <span className={s.muted}>-</span>}</TableCell>
      <TableCell>{u.email || <span className={s.muted}>-</span>}</TableCell>
      <TableCell className={s.nowrap}>{u.phone || <span className={s.muted}>-</span>}</TableCell>
      <TableCell>
        <Badge variant={roleBadge[u.role]}>{t(`roles.${u.role}`)}</Badge>
      </TableCell>
      <TableCell>
        <span className={s.actions}>
          {/* A disabled switch takes no pointer events: the tooltip sits on a wrapper. */}
          {statusHint ? (
            <Tooltip content={statusHint}>
              <span tabIndex={0}>{switchEl}</span>
            </Tooltip>
          ) : (
            switchEl
          )}
          <span className={s.secondary}>{u.status === 1 ? t('status.enabled') : t('status.disabled')}</span>
        </span>
      </TableCell>
      <TableCell>
        {orgNames ? (
          <span className={s.truncate} title={u.orgs.map((o) => seededPath(o.treeNames)).join('\n')}>
            {orgNames}
          </span>
        ) : (
          <span className={s.muted}>-</span>
        )}
      </TableCell>
      <TableCell className={s.nowrap}>{formatDateTime(u.created_at)}</TableCell>
      <TableCell>
        <span className={s.actions}>
          <Tooltip content={locked ? t('users.protectedHint') : undefined}>
            <Button size="sm" variant="link" icon={<Pencil aria-hidden="true" size={12} />} disabled={locked} aria-label={t('users.editOf', { name: u.username })} onClick={onEdit}>
              {t('users.edit')}
            </Button>
          </Tooltip>
          {!self && (
            <Button
              size="sm"
              variant="link"
              icon={<KeyRound aria-hidden="true" size={12} />}
              disabled={locked}
              aria-label={t('users.resetPasswordOf', { name: u.username })}
              onClick={onPassword}
            >
              {t('users.resetPassword')}
            </Button>
          )}
        </span>
      </TableCell>
    </TableRow>
  );
}
