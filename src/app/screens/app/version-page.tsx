/**
 * The version tab of /operation/app/:appId/agent-flow and agent-team (spec 2 "version"; 3 "Version:
 * version number, description"): the app's published versions, newest first (version, description,
 * who, when). Owner and admin publish the current draft as a new version (the number prefilled with
 * the one after the newest: v1.0.2 → v1.0.3) and delete versions. Any member restores a version into
 * the draft: a normal draft save based on the revision this page loaded, so a draft someone saved in
 * the meantime is never overwritten silently (409 → the user decides). Data comes through
 * {@link VersionApiContext}.
 */
import { CloudUpload, History, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useInRouterContext, useOutletContext } from 'react-router';
import { APP_VERSION_DESCRIPTION_MAX, APP_VERSION_MAX, AppVersion, nextVersion, type AppDetail, type AppDraft, type AppVersionDetail, type DraftConflict } from '../../../../schemas/app';
import type { MemberRole } from '../../../../schemas/workspace';
import { isApiError } from '../../../api/request';
import { hasText, tDynamic } from '../../../i18n';
import { SchemaTable, usePagedList, type RowAction } from '../../../kit/schema-table';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/confirm-dialog';
import { Dialog, DialogBody, DialogContent, DialogFooter, DialogHeader, DialogTitle } from '../../../ui/dialog';
import { Field } from '../../../ui/field';
import { Input } from '../../../ui/input';
import { Textarea } from '../../../ui/textarea';
import { toast } from '../../../ui/toast';
import { Page } from '../../shell/page';
import { formatDateTime, reportError } from '../../workspace/members/report-error';
import type { EditorContext } from './editor-layout';
import { useVersionApi } from './version-api';
import s from './version-page.module.css';

type VersionApp = Pick<AppDetail, 'id' | 'workspace_id' | 'type'>;

export interface VersionPageProps {
  /** Default: the app of the editor route. */
  app?: VersionApp;
  /** The caller's role in the app's project space. Default: the editor route's workspace, else asked. */
  role?: MemberRole | null;
}

const COLUMNS = {
  version: { label: 'appversion:fields.version', column: { order: 1, width: 160 } },
  description: { label: 'appversion:fields.description', column: { order: 2, minWidth: 200 } },
  created_by_name: { label: 'appversion:fields.createdBy', column: { order: 3, width: 140 } },
  created_at: { label: 'appversion:fields.createdAt', widget: 'datetime', column: { order: 4, width: 170 } },
  draft_revision: { label: 'appversion:fields.draftRevision', column: { order: 5, width: 110, align: 'right' } },
} as const;

interface Problem {
  path?: string;
  message?: string;
}

/** The compiler's problems (VALIDATION-1000 `data` of a refused publish), plugin messages translated. */
const problemsOf = (data: unknown): Problem[] | null => (Array.isArray(data) && data.length ? (data as Problem[]) : null);
const problemText = (p: Problem) => {
  const m = p.message ?? '';
  return `${p.path ?? ''} ${m.includes(':') && hasText(m) ? tDynamic(m) : m}`.trim();
};

function PublishDialog({ app, open, onOpenChange, onPublished }: { app: VersionApp; open: boolean; onOpenChange: (o: boolean) => void; onPublished: () => void }) {
  const { t } = useTranslation('appversion');
  const api = useVersionApi();
  const [version, setVersion] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<Problem[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [suggesting, setSuggesting] = useState(false);

  useEffect(() => {
    if (!open) return;
    setDescription('');
    setError(null);
    setProblems(null);
    setVersion('');
    setSuggesting(true);
    let live = true;
    const suggest = (latest: string | null | undefined) => {
      if (!live) return;
      setVersion((v) => v || nextVersion(latest));
      setSuggesting(false);
    };
    // The newest version, whatever page the list shows, gives the suggested next number.
    api.list(app.id, app.workspace_id, { page: 1, page_size: 1 }).then(
      (p) => suggest(p.items[0]?.version),
      () => suggest(null),
    );
    return () => {
      live = false;
    };
  }, [open, api, app.id, app.workspace_id]);
  // Until the suggestion arrives an untouched number is empty, not missing: Publish waits for it
  // rather than answering "cannot be empty" (a click as the dialog opened on a slow server did).
  const waiting = suggesting && !version.trim();

  async function submit() {
    const v = version.trim();
    if (!v) return setError(t('required'));
    setBusy(true);
    setError(null);
    setProblems(null);
    try {
      const r = await api.publish(app.id, app.workspace_id, { version: v, description: description.trim() });
      toast.success(t('done.published', { version: r.version }));
      onOpenChange(false);
      onPublished();
    } catch (e) {
      if (isApiError(e, 'VALIDATION-1001')) setError(t('taken', { version: v }));
      else if (isApiError(e, 'VALIDATION-1000') && problemsOf(e.data)) setProblems(problemsOf(e.data));
      else reportError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent size="md" closeLabel={t('actions.cancel')} data-testid="publish-dialog">
        <DialogHeader>
          <DialogTitle>{t('publishTitle')}</DialogTitle>
        </DialogHeader>
        <DialogBody className={s.dialogBody}>
          <Field label={t('fields.version')} required help={error ? undefined : t('versionHelp')} error={error ?? undefined}>
            <Input value={version} maxLength={APP_VERSION_MAX} onChange={(e) => setVersion(e.target.value)} data-testid="publish-version" />
          </Field>
          <Field label={t('fields.description')}>
            <Textarea value={description} maxLength={APP_VERSION_DESCRIPTION_MAX} onChange={(e) => setDescription(e.target.value)} />
          </Field>
          {problems && (
            <div className={s.problems} role="alert" data-testid="publish-problems">
              {t('invalidTitle')}
              <ul>
                {problems.map((p, i) => (
                  <li key={i}>{problemText(p)}</li>
                ))}
              </ul>
            </div>
          )}
        </DialogBody>
        <DialogFooter>
          <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
            {t('actions.cancel')}
          </Button>
          <Button variant="primary" loading={busy || waiting} onClick={() => void submit()}>
            {t('actions.publish')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

export default function VersionPage({ app: given, role: givenRole }: VersionPageProps) {
  const { t } = useTranslation(['appversion', 'common']);
  const context = useOutletContext<EditorContext | undefined>();
  const inRouter = useInRouterContext();
  const app = given ?? context?.app;
  const api = useVersionApi();
  const [role, setRole] = useState<MemberRole | null>(givenRole ?? context?.workspace?.role_type ?? null);
  const [draft, setDraft] = useState<Pick<AppDraft, 'revision' | 'updated_at' | 'updated_by'> | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [conflict, setConflict] = useState<{ version: AppVersionDetail; stored: DraftConflict } | null>(null);
  const [restored, setRestored] = useState<string | null>(null);
  const appId = app?.id ?? '';
  const workspaceId = app?.workspace_id ?? '';

  useEffect(() => {
    if (givenRole !== undefined || context?.workspace?.role_type || !workspaceId) return;
    api.role(workspaceId).then(setRole, () => setRole(null));
  }, [api, workspaceId, givenRole, context?.workspace?.role_type]);

  // The draft revision a restore is based on: the one this page saw.
  const loadDraft = useCallback(() => {
    if (!appId) return;
    api.draft(appId, workspaceId).then((d) => setDraft({ revision: d.revision, updated_at: d.updated_at, updated_by: d.updated_by }), reportError);
  }, [api, appId, workspaceId]);
  useEffect(loadDraft, [loadDraft]);

  const list = usePagedList((q) => api.list(appId, workspaceId, q), {}, [api, appId, workspaceId], reportError);
  const canRelease = role === 'owner' || role === 'admin';
  const newestId = list.page === 1 ? list.rows?.[0]?.id : undefined;

  const restore = useCallback(
    async (version: AppVersionDetail, baseRevision: number, again = false) => {
      try {
        const saved = await api.saveDraft(workspaceId, { app_id: appId, base_revision: baseRevision, document: version.document });
        setDraft({ revision: saved.revision, updated_at: saved.updated_at, updated_by: saved.updated_by });
        api.restored?.(appId, workspaceId);
        setConflict(null);
        setRestored(version.version);
        toast.success(t('done.restored', { version: version.version, revision: saved.revision }));
      } catch (e) {
        if (isApiError(e, 'CONFLICT-1000') && e.data) {
          setConflict({ version, stored: e.data as DraftConflict });
          // Overwriting met yet another save: keep the dialog open, now naming that one.
          if (again) throw e;
          return;
        }
        reportError(e);
        throw e;
      }
    },
    [api, appId, workspaceId, t],
  );

  const actions = useMemo<RowAction<AppVersion>[]>(
    () => [
      {
        id: 'restore',
        label: t('actions.restore'),
        icon: <History aria-hidden="true" />,
        confirm: (r) => ({ title: t('confirmRestore.title', { version: r.version }), description: t('confirmRestore.description'), confirmLabel: t('actions.restore') }),
        run: async (r) => {
          let version: AppVersionDetail;
          try {
            version = await api.get(appId, workspaceId, r.id);
          } catch (e) {
            reportError(e);
            throw e;
          }
          // Without a loaded draft, the restore is based on the draft as it is now.
          const base = draft?.revision ?? (await api.draft(appId, workspaceId)).revision;
          await restore(version, base);
        },
      },
      {
        id: 'delete',
        label: t('actions.delete'),
        icon: <Trash2 aria-hidden="true" />,
        danger: true,
        hidden: () => !canRelease,
        confirm: (r) => ({ title: t('confirmDelete.title', { version: r.version }), description: t('confirmDelete.description'), confirmLabel: t('actions.delete'), danger: true }),
        run: async (r) => {
          try {
            await api.remove(appId, workspaceId, r.id);
          } catch (e) {
            reportError(e);
            throw e;
          }
          toast.success(t('done.deleted', { version: r.version }));
          list.reload();
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, api, appId, workspaceId, draft?.revision, canRelease, restore],
  );

  if (!app) return null;
  return (
    <Page data-testid="version-page">
      <div className={s.header}>
        <div className={s.lead}>
          <p className={s.help}>{t('help')}</p>
          {draft && (
            <p className={s.draft} data-testid="draft-line">
              {t('draftLine', { revision: draft.revision, name: draft.updated_by?.name || t('someone'), time: formatDateTime(draft.updated_at) })}
            </p>
          )}
        </div>
        <div className={s.actions}>
          {restored && inRouter && (
            <Button asChild variant="secondary">
              <Link to="../base" relative="path">
                {t('actions.openCanvas')}
              </Link>
            </Button>
          )}
          <Button variant="primary" icon={<CloudUpload aria-hidden="true" />} disabled={!canRelease} title={canRelease ? undefined : t('managersOnly')} onClick={() => setPublishing(true)}>
            {t('actions.publish')}
          </Button>
        </div>
      </div>
      <SchemaTable
        schema={AppVersion}
        include={Object.keys(COLUMNS)}
        overrides={COLUMNS}
        rows={list.status === 'error' ? [] : list.rows}
        error={list.status === 'error'}
        onRetry={list.reload}
        busy={list.status === 'loading' && list.rows !== null}
        total={list.total}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        emptyText={t('empty')}
        actions={actions}
        rowProps={(row) => ({ 'data-testid': `version-row-${row.id}` })}
        cells={{
          version: ({ row }) => (
            <span className={s.version}>
              {row.version}
              {row.id === newestId && <Badge variant="success">{t('latest')}</Badge>}
            </span>
          ),
          draft_revision: ({ row }) => <span className={s.mono} title={row.draft_hash}>{row.draft_revision}</span>,
        }}
      />
      <PublishDialog app={app} open={publishing} onOpenChange={setPublishing} onPublished={list.reload} />
      <ConfirmDialog
        open={conflict !== null}
        onOpenChange={(o) => !o && setConflict(null)}
        title={t('conflict.title')}
        description={
          conflict
            ? t('conflict.description', {
                name: conflict.stored.updated_by?.name || t('someone'),
                time: formatDateTime(conflict.stored.updated_at),
                revision: conflict.stored.revision,
                version: conflict.version.version,
              })
            : undefined
        }
        confirmLabel={t('actions.overwrite')}
        cancelLabel={t('actions.cancel')}
        danger
        onConfirm={() => (conflict ? restore(conflict.version, conflict.stored.revision, true) : undefined)}
      />
    </Page>
  );
}
