/**
 * /operation/workspace/:workspace_id/member: the members of a project space (spec 2, 3, 6). Everyone
 * sees the table; owner and admin add members through the person picker; the owner changes roles,
 * removes members and transfers ownership; any other member may exit. The workspace layout around it
 * supplies the breadcrumb and the project-space tabs.
 *
 * Data comes through {@link MemberApiContext} (the real API by default).
 */
import { LogOut, Search, UserPlus } from 'lucide-react';
import { useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_DataRouterContext, useNavigate, useParams } from 'react-router';
import type { Member, MemberRole, Workspace } from '../../../../schemas/workspace';
import { isAbortError } from '../../../api/request';
import type { PickerPage } from '../../../kit/person-org-picker/types';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Pagination } from '../../../ui/pagination';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { paths } from '../../paths';
import { useSession } from '../../session';
import { Page, PageHeader } from '../../shell/page';
import { useWorkspaces } from '../../shell/workspaces-store';
import { AddMemberDialog } from './add-member-dialog';
import { useMemberApi, type AssignableRole } from './member-api';
import { MemberTable } from './member-table';
import { reportError } from './report-error';
import s from './member-page.module.css';

/** Spec 9: data tables show 20 rows a page. */
export const MEMBER_PAGE_SIZE = 20;
const PAGE_SIZES = [10, 20, 50, 100];
const NAME_DEBOUNCE_MS = 300;

type RoleFilter = MemberRole | 'all';
type Pending = { kind: 'remove' | 'transfer'; member: Member } | { kind: 'exit' } | null;

export interface MemberPageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
}

export default function MemberPage({ workspaceId: given }: MemberPageProps) {
  const { t } = useTranslation(['member', 'common']);
  const api = useMemberApi();
  const params = useParams();
  const workspaceId = given ?? params.workspace_id ?? '';
  const meId = useSession((st) => st.user?.id ?? null);
  const navigate = useNavigate();
  // Inside the app's data router: re-run the workspace guard after a transfer so the layout's role badge follows.
  const dataRouter = useContext(UNSAFE_DataRouterContext)?.router;

  const [workspace, setWorkspace] = useState<Workspace | null>(null);
  const [nameInput, setNameInput] = useState('');
  const [query, setQuery] = useState({ page: 1, page_size: MEMBER_PAGE_SIZE, name: '', role: 'all' as RoleFilter });
  const [data, setData] = useState<PickerPage<Member> | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [nonce, setNonce] = useState(0);
  const [busy, setBusy] = useState(false);
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<Pending>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const seq = useRef(0);

  const reload = useCallback(() => setNonce((n) => n + 1), []);

  const loadWorkspace = useCallback(() => {
    api.getWorkspace(workspaceId).then(setWorkspace, (e: unknown) => isAbortError(e) || reportError(e));
  }, [api, workspaceId]);

  useEffect(loadWorkspace, [loadWorkspace]);

  // Search by name after a pause in typing; back to page 1.
  useEffect(() => {
    const timer = setTimeout(() => setQuery((q) => (q.name === nameInput.trim() ? q : { ...q, name: nameInput.trim(), page: 1 })), NAME_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [nameInput]);

  useEffect(() => {
    const mine = ++seq.current;
    setStatus('loading');
    api
      .listMembers(workspaceId, { page: query.page, page_size: query.page_size, name: query.name || undefined, role: query.role === 'all' ? undefined : query.role })
      .then(
        (page) => {
          if (mine !== seq.current) return;
          // The last row of the last page went away: show the page before.
          if (page.items.length === 0 && page.total > 0 && query.page > 1) {
            setQuery((q) => ({ ...q, page: Math.max(1, Math.ceil(page.total / q.page_size)) }));
            return;
          }
          setData(page);
          setStatus('ready');
        },
        (e: unknown) => {
          if (mine !== seq.current || isAbortError(e)) return;
          setStatus('error');
          reportError(e);
        },
      );
  }, [api, workspaceId, query, nonce]);

  const role = workspace?.role_type ?? null;
  const canAdd = role === 'owner' || role === 'admin';
  const canExit = role !== null && role !== 'owner';
  const filtered = query.name !== '' || query.role !== 'all';

  /** Runs a change, tells the user, reloads the table. Rejects (after reporting) so a dialog stays open. */
  const change = async (run: () => Promise<unknown>, done: string, then: 'reload' | 'leave' = 'reload') => {
    setBusy(true);
    try {
      await run();
      toast.success(done);
    } catch (e) {
      reportError(e);
      reload();
      throw e;
    } finally {
      setBusy(false);
    }
    if (then === 'reload') reload();
  };

  const changeRole = (m: Member, next: AssignableRole) =>
    void change(() => api.updateMember(workspaceId, m.id, { role: next }), t('done.role')).catch(() => {});

  const ask = (p: Exclude<Pending, null>) => {
    setPending(p);
    setConfirmOpen(true);
  };

  const confirmPending = async () => {
    if (!pending) return;
    if (pending.kind === 'remove') {
      await change(() => api.removeMember(workspaceId, pending.member.id), t('done.removed'));
    } else if (pending.kind === 'transfer') {
      await change(async () => {
        const ws = await api.transferWorkspace({ workspace_id: workspaceId, member_id: pending.member.id });
        setWorkspace(ws);
        useWorkspaces.getState().upsert(ws);
        void dataRouter?.revalidate();
      }, t('done.transferred'));
    } else {
      await change(() => api.exitWorkspace(workspaceId), t('done.exited'), 'leave');
      useWorkspaces.getState().remove(workspaceId);
      if (useSession.getState().workspaceId === workspaceId) useSession.getState().setWorkspace(null);
      navigate(paths.operation);
    }
  };

  const confirmText = (() => {
    if (!pending) return { title: '', description: '', action: '' };
    if (pending.kind === 'exit') {
      return { title: t('confirmExit.title'), description: t('confirmExit.description', { name: workspace?.name ?? '' }), action: t('confirmExit.action') };
    }
    const key = pending.kind === 'remove' ? 'confirmRemove' : 'confirmTransfer';
    return { title: t(`${key}.title`), description: t(`${key}.description`, { name: pending.member.name }), action: t(`${key}.action`) };
  })();

  const items = data?.items ?? null;
  const showPager = status !== 'error' && (data?.total ?? 0) > 0;
  const placeholder =
    status === 'error' ? (
      <EmptyState
        size="sm"
        title={t('loadFailed')}
        action={
          <Button size="sm" onClick={reload}>
            {t('retry')}
          </Button>
        }
        data-testid="member-error"
      />
    ) : items !== null && items.length === 0 && status === 'ready' ? (
      <EmptyState
        size="sm"
        title={filtered ? t('noMatch') : t('empty')}
        data-testid="member-empty"
        action={
          filtered ? (
            <Button
              size="sm"
              onClick={() => {
                setNameInput('');
                setQuery((q) => ({ ...q, name: '', role: 'all', page: 1 }));
              }}
            >
              {t('clearFilters')}
            </Button>
          ) : undefined
        }
      />
    ) : undefined;

  return (
    <Page className={showPager ? s.withPager : undefined} data-testid="member-page">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            {canExit && (
              <Button icon={<LogOut aria-hidden="true" />} onClick={() => ask({ kind: 'exit' })} data-testid="member-exit">
                {t('actions.exit')}
              </Button>
            )}
            {canAdd && (
              <Button variant="primary" icon={<UserPlus aria-hidden="true" />} onClick={() => setAdding(true)} data-testid="member-add">
                {t('actions.add')}
              </Button>
            )}
          </>
        }
      />
      <div className={s.toolbar}>
        <Input
          size="sm"
          className={s.search}
          prefix={<Search aria-hidden="true" />}
          value={nameInput}
          maxLength={64}
          placeholder={t('filters.search')}
          aria-label={t('filters.search')}
          data-testid="member-search"
          onChange={(e) => setNameInput(e.target.value)}
        />
        <Select
          size="sm"
          className={s.roleFilter}
          value={query.role}
          aria-label={t('filters.role')}
          onValueChange={(v) => setQuery((q) => ({ ...q, role: v as RoleFilter, page: 1 }))}
          options={[
            { value: 'all', label: t('filters.allRoles') },
            { value: 'owner', label: t('roles.owner') },
            { value: 'admin', label: t('roles.admin') },
            { value: 'ordinary_member', label: t('roles.ordinary_member') },
          ]}
        />
      </div>
      <MemberTable
        members={status === 'error' ? [] : items}
        myRole={role}
        meId={meId}
        placeholder={placeholder}
        busy={busy || (status === 'loading' && items !== null)}
        onRoleChange={changeRole}
        onTransfer={(m) => ask({ kind: 'transfer', member: m })}
        onRemove={(m) => ask({ kind: 'remove', member: m })}
      />
      {showPager && data && (
        <div className={s.pager}>
          <Pagination
            page={query.page}
            pageSize={query.page_size}
            total={data.total}
            pageSizes={PAGE_SIZES}
            onPageChange={(page) => setQuery((q) => ({ ...q, page }))}
            onPageSizeChange={(page_size) => setQuery((q) => ({ ...q, page_size, page: 1 }))}
            labels={{
              nav: t('pager.nav'),
              total: (count) => t('pager.total', { count }),
              previous: t('pager.previous'),
              next: t('pager.next'),
              page: (page) => t('pager.page', { page }),
              pageSize: (size) => t('pager.pageSize', { size }),
              jump: t('pager.jump'),
            }}
          />
        </div>
      )}
      {canAdd && <AddMemberDialog open={adding} onOpenChange={setAdding} workspaceId={workspaceId} myRole={role} onAdded={reload} />}
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        danger={pending?.kind !== 'transfer'}
        title={confirmText.title}
        description={confirmText.description}
        confirmLabel={confirmText.action}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={confirmPending}
      />
    </Page>
  );
}
