/**
 * /operation/workspace/:workspace_id/app: the apps of a project space (spec 2, 3, 5, 6). Cards with
 * search by name, a type filter and paging; create and edit in a dialog; activate or deactivate;
 * delete after confirming (owner and admin only, as the server enforces). Opening an app goes to its
 * editor. The workspace layout around it supplies the breadcrumb and the project-space tabs.
 *
 * Data comes through {@link AppApiContext} (the real API by default).
 */
import { FileUp, Plus } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import type { App, AppType } from '../../../../schemas/app';
import type { MemberRole } from '../../../../schemas/workspace';
import { isAbortError } from '../../../api/request';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button, ConfirmDialog, EmptyState, Pagination, Select, toast } from '../../../ui';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { useAppApi, type AppFields, type AppPage } from './app-api';
import { AppCards } from './app-cards';
import { AppDialog } from './app-dialog';
import { ImportAppDialog } from './import-app-dialog';
import { APP_MODES } from './app-modes';
import s from './apps-page.module.css';

/** Spec 9: lists show 20 a page. */
export const APP_PAGE_SIZE = 20;
const PAGE_SIZES = [20, 40, 80];

type TypeFilter = AppType | 'all';

export interface AppsPageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
}

export default function AppsPage({ workspaceId: given }: AppsPageProps) {
  const { t } = useTranslation(['apps', 'common']);
  const api = useAppApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = given ?? params.workspace_id ?? '';

  const [role, setRole] = useState<MemberRole | null>(null);
  const [query, setQuery] = useState({ page: 1, page_size: APP_PAGE_SIZE, name: '', type: 'all' as TypeFilter });
  const [data, setData] = useState<AppPage | null>(null);
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading');
  const [nonce, setNonce] = useState(0);
  const [busy, setBusy] = useState(false);
  const [dialog, setDialog] = useState<{ open: boolean; app: App | null }>({ open: false, app: null });
  const [importing, setImporting] = useState(false);
  const [deleting, setDeleting] = useState<App | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const seq = useRef(0);

  const reload = useCallback(() => setNonce((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    api.getWorkspace(workspaceId).then(
      (ws) => live && setRole(ws.role_type),
      (e: unknown) => isAbortError(e) || reportError(e),
    );
    return () => {
      live = false;
    };
  }, [api, workspaceId]);

  useEffect(() => {
    const mine = ++seq.current;
    setStatus('loading');
    api
      .listApps(workspaceId, { page: query.page, page_size: query.page_size, name: query.name || undefined, type: query.type === 'all' ? undefined : query.type })
      .then(
        (page) => {
          if (mine !== seq.current) return;
          // The last app of the last page went away: show the page before.
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

  /** Runs a change, tells the user, reloads. Rejects (after reporting) so a dialog stays open. */
  const change = async (run: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await run();
      toast.success(done);
    } catch (e) {
      reportError(e);
      throw e;
    } finally {
      setBusy(false);
      reload();
    }
  };

  const save = async (values: AppFields & { type: AppType; digital_human?: 'conversation' | 'broadcast' }) => {
    const editing = dialog.app;
    if (editing) {
      await api.updateApp(workspaceId, editing.id, { name: values.name, description: values.description, icon: values.icon });
      toast.success(t('done.updated'));
    } else {
      const { digital_human: kind, ...fields } = values;
      const created = await api.createApp(workspaceId, fields);
      toast.success(t('done.created'));
      // A new digital human goes to its page, where its character is chosen.
      if (kind && api.makeDigitalHuman) {
        await api.makeDigitalHuman(workspaceId, created.id, kind);
        void navigate(`/operation/app/${encodeURIComponent(created.id)}/digital-human`);
        return;
      }
      // A new app is the newest: show it on the first page, unfiltered by type.
      setQuery((q) => ({ ...q, page: 1 }));
    }
    reload();
  };

  const filtered = query.name !== '' || query.type !== 'all';
  const clearFilters = () => setQuery((q) => ({ ...q, name: '', type: 'all', page: 1 }));
  const items = status === 'error' ? [] : (data?.items ?? null);
  const showPager = status !== 'error' && (data?.total ?? 0) > 0;
  const openCreate = () => setDialog({ open: true, app: null });

  let body;
  if (status === 'error') {
    body = (
      <EmptyState
        className={s.emptyBox}
        title={t('loadFailed')}
        action={
          <Button size="sm" onClick={reload}>
            {t('retry')}
          </Button>
        }
        data-testid="app-error"
      />
    );
  } else if (items !== null && items.length === 0 && status === 'ready') {
    body = filtered ? (
      <EmptyState
        className={s.emptyBox}
        title={t('noMatch')}
        data-testid="app-empty"
        action={
          <Button size="sm" onClick={clearFilters}>
            {t('clearFilters')}
          </Button>
        }
      />
    ) : (
      <EmptyState
        className={s.emptyBox}
        title={t('empty.title')}
        description={t('empty.description')}
        data-testid="app-empty"
        action={
          <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={openCreate}>
            {t('create')}
          </Button>
        }
      />
    );
  } else {
    body = (
      <AppCards
        apps={items}
        myRole={role}
        busy={busy || (status === 'loading' && items !== null)}
        onEdit={(app) => setDialog({ open: true, app })}
        onDelete={(app) => {
          setDeleting(app);
          setConfirmOpen(true);
        }}
        onStatus={(app, next) => void change(() => api.setStatus(workspaceId, app.id, next), next === 'active' ? t('done.activated') : t('done.deactivated')).catch(() => {})}
      />
    );
  }

  return (
    <Page className={showPager ? s.withPager : undefined} data-testid="apps-page">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <div className={s.headerActions}>
            {api.importApp && (
              <Button icon={<FileUp aria-hidden="true" />} onClick={() => setImporting(true)} data-testid="app-import">
                {t('importApp.button')}
              </Button>
            )}
            <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={openCreate} data-testid="app-create">
              {t('create')}
            </Button>
          </div>
        }
      />
      <div className={s.toolbar}>
        <SearchInput
          size="sm"
          className={s.search}
          value={query.name}
          placeholder={t('filters.search')}
          aria-label={t('filters.search')}
          onChange={(text) => {
            // The server takes at most 64 characters of name filter.
            const name = text.trim().slice(0, 64);
            setQuery((q) => (q.name === name ? q : { ...q, name, page: 1 }));
          }}
        />
        <Select
          size="sm"
          className={s.typeFilter}
          value={query.type}
          aria-label={t('filters.type')}
          onValueChange={(v) => setQuery((q) => ({ ...q, type: v as TypeFilter, page: 1 }))}
          options={[{ value: 'all', label: t('filters.allTypes') }, ...APP_MODES.map((m) => ({ value: m, label: t(`modes.${m}`) }))]}
        />
      </div>
      {body}
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
      {api.importApp && (
        <ImportAppDialog open={importing} onOpenChange={setImporting} importApp={(content) => api.importApp!(workspaceId, content)} onImported={reload} />
      )}
      <AppDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog((d) => ({ ...d, open }))}
        app={dialog.app}
        onSubmit={save}
        uploadIcon={api.uploadIcon}
      />
      <ConfirmDialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        danger
        title={t('confirmDelete.title')}
        description={t('confirmDelete.description', { name: deleting?.name ?? '' })}
        confirmLabel={t('confirmDelete.action')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={() => change(() => api.deleteApp(workspaceId, deleting!.id), t('done.deleted'))}
      />
    </Page>
  );
}
