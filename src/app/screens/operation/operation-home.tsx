/**
 * /operation: the caller's project spaces (spec 2 console home): search, cards or table, create, and
 * for owners edit and delete. Opening one goes to /operation/workspace/{id}/app.
 */
import { FolderPlus, LayoutGrid, List, Plus, Search } from 'lucide-react';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Workspace } from '../../../../schemas/workspace';
import { notify } from '../../../api/reactions';
import { createWorkspace, deleteWorkspace, updateWorkspace } from '../../../api/workspaces';
// Each primitive from its own file: the ui barrel would bring every component into the console home (issue 28).
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { confirm } from '../../../ui/confirm-store';
import { EmptyState } from '../../../ui/empty-state';
import { Input } from '../../../ui/input';
import { Skeleton } from '../../../ui/skeleton';
import { Tabs, TabsList, TabsTrigger } from '../../../ui/tabs';
import { Page, PageHeader } from '../../shell/page';
import { useWorkspaces } from '../../shell/workspaces-store';
import { lazyWithReload } from '../../guards';
import type { WorkspaceFormValues } from './workspace-dialog';
import { WorkspaceList, type WorkspaceView } from './workspace-list';
import s from './operation.module.css';
import { seededName } from '../../../i18n/seeded';

const VIEW_KEY = 'weft.workspace-view';

/** Loaded when first opened: its form library and icon set stay out of the console home's first load (issue 28). */
const WorkspaceDialog = lazy(lazyWithReload(async () => ({ default: (await import('./workspace-dialog')).WorkspaceDialog })));

function savedView(): WorkspaceView {
  try {
    return localStorage.getItem(VIEW_KEY) === 'table' ? 'table' : 'cards';
  } catch {
    return 'cards';
  }
}

/** Project spaces whose name or description contains the query (case-insensitive). */
export function filterWorkspaces<W extends Pick<Workspace, 'name' | 'description'>>(list: W[], query: string): W[] {
  const q = query.trim().toLowerCase();
  if (!q) return list;
  // What the list shows is searched: a seeded name in the current language.
  return list.filter((w) => seededName(w.name).toLowerCase().includes(q) || seededName(w.description).toLowerCase().includes(q));
}

type DialogState = { mode: 'create' } | { mode: 'edit'; workspace: Workspace } | null;

export default function OperationHome() {
  const { t } = useTranslation(['workspace', 'common', 'errors']);
  const items = useWorkspaces((st) => st.items);
  const status = useWorkspaces((st) => st.status);
  const load = useWorkspaces((st) => st.load);
  const [query, setQuery] = useState('');
  const [view, setView] = useState<WorkspaceView>(savedView);
  const [dialog, setDialog] = useState<DialogState>(null);
  // Mounted from its first opening on, so that it closes with its animation like any dialog.
  const [dialogAsked, setDialogAsked] = useState(false);
  if (dialog !== null && !dialogAsked) setDialogAsked(true);

  useEffect(() => {
    void load(true);
  }, [load]);

  const shown = useMemo(() => filterWorkspaces(items, query), [items, query]);

  const changeView = (v: string) => {
    const next: WorkspaceView = v === 'table' ? 'table' : 'cards';
    setView(next);
    try {
      localStorage.setItem(VIEW_KEY, next);
    } catch {
      // not kept
    }
  };

  const save = async (values: WorkspaceFormValues) => {
    if (dialog?.mode === 'edit') {
      const updated = await updateWorkspace({ id: dialog.workspace.id, ...values }, { reaction: 'silent' });
      useWorkspaces.getState().upsert(updated);
      notify({ level: 'success', text: t('messages.updated') });
    } else {
      const created = await createWorkspace(values, { reaction: 'silent' });
      useWorkspaces.getState().upsert(created);
      notify({ level: 'success', text: t('messages.created', { name: created.name }) });
    }
  };

  const remove = async (w: Workspace) => {
    const ok = await confirm({
      title: t('delete.title', { name: seededName(w.name) }),
      description: t('delete.description'),
      danger: true,
      confirmLabel: t('common:actions.delete'),
    });
    if (!ok) return;
    try {
      await deleteWorkspace(w.id);
      useWorkspaces.getState().remove(w.id);
      notify({ level: 'success', text: t('messages.deleted', { name: seededName(w.name) }) });
    } catch {
      // The request layer has shown the failure.
    }
  };

  const create = (
    <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setDialog({ mode: 'create' })} data-testid="workspace-create">
      {t('list.create')}
    </Button>
  );

  let body;
  if (status === 'loading' || status === 'idle') {
    body = (
      <ul className={s.grid} role="list" aria-busy="true" aria-label={t('common:states.loading')}>
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i}>
            <Card className={s.card}>
              <div className={s.cardTop}>
                <Skeleton width={40} height={40} />
                <div className={s.cardHeading}>
                  <Skeleton width="60%" height={14} />
                  <Skeleton width={48} height={14} />
                </div>
              </div>
              <Skeleton width="90%" height={12} />
              <Skeleton width="40%" height={12} />
            </Card>
          </li>
        ))}
      </ul>
    );
  } else if (status === 'error' && items.length === 0) {
    body = (
      <div className={s.emptyBox}>
        <EmptyState
          title={t('list.loadFailed')}
          action={<Button onClick={() => void load(true)}>{t('common:actions.retry')}</Button>}
        />
      </div>
    );
  } else if (items.length === 0) {
    body = (
      <div className={s.emptyBox} data-testid="workspace-empty">
        <EmptyState icon={<FolderPlus aria-hidden="true" />} title={t('list.emptyTitle')} description={t('list.emptyDescription')} action={create} />
      </div>
    );
  } else if (shown.length === 0) {
    body = (
      <div className={s.emptyBox}>
        <EmptyState icon={<Search aria-hidden="true" />} title={t('common:states.noResults')} description={t('list.noMatch', { query: query.trim() })} />
      </div>
    );
  } else {
    body = <WorkspaceList workspaces={shown} view={view} onEdit={(w) => setDialog({ mode: 'edit', workspace: w })} onDelete={(w) => void remove(w)} />;
  }

  return (
    <Page data-testid="operation-home">
      <PageHeader
        title={t('list.title')}
        description={t('list.subtitle')}
        actions={
          <>
            <Input
              size="md"
              className={s.search}
              prefix={<Search aria-hidden="true" />}
              placeholder={t('list.search')}
              aria-label={t('list.search')}
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              type="search"
              data-testid="workspace-search"
            />
            <Tabs value={view} onValueChange={changeView}>
              <TabsList variant="segmented" aria-label={t('list.view')}>
                <TabsTrigger value="cards" aria-label={t('list.cards')} title={t('list.cards')}>
                  <LayoutGrid aria-hidden="true" />
                </TabsTrigger>
                <TabsTrigger value="table" aria-label={t('list.table')} title={t('list.table')}>
                  <List aria-hidden="true" />
                </TabsTrigger>
              </TabsList>
            </Tabs>
            {create}
          </>
        }
      />
      {body}
      {dialogAsked && (
        <Suspense fallback={null}>
          <WorkspaceDialog
            open={dialog !== null}
            onOpenChange={(o) => !o && setDialog(null)}
            mode={dialog?.mode ?? 'create'}
            initial={dialog?.mode === 'edit' ? dialog.workspace : undefined}
            onSubmit={save}
          />
        </Suspense>
      )}
    </Page>
  );
}
