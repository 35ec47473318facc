/**
 * /operation/workspace/:workspace_id/certificate: the credentials of a project space (spec 2, 3).
 * Every member sees the list with the SK masked; owner and admin create, edit, delete and reveal an
 * SK (fetched from GET /credentials/{id}/secret-key only when asked). Data comes through
 * {@link CredentialApiContext}.
 */
import { Eye, EyeOff, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Credential } from '../../../../schemas/credential';
import type { MemberRole } from '../../../../schemas/workspace';
import { SchemaTable, usePagedList, type RowAction } from '../../../kit/schema-table';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button } from '../../../ui/button';
import { Spinner } from '../../../ui/spinner';
import { toast } from '../../../ui/toast';
import { Tooltip } from '../../../ui/tooltip';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { CredentialDialog } from './credential-dialog';
import { useCredentialApi } from './credential-api';
import s from './credentials-page.module.css';

export interface CredentialsPageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
}

export default function CredentialsPage({ workspaceId: given }: CredentialsPageProps) {
  const { t } = useTranslation(['credential', 'common']);
  const api = useCredentialApi();
  const params = useParams();
  const workspaceId = given ?? params.workspace_id ?? '';
  const [role, setRole] = useState<MemberRole | null>(null);
  const [target, setTarget] = useState<Credential | 'new' | null>(null);
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [revealing, setRevealing] = useState<string | null>(null);
  const list = usePagedList((q) => api.list(workspaceId, q), { name: '' }, [api, workspaceId], reportError);

  useEffect(() => {
    api.getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
  }, [api, workspaceId]);

  const canChange = role === 'owner' || role === 'admin';

  const toggleSecret = async (row: Credential) => {
    if (revealed[row.id] !== undefined) {
      setRevealed(({ [row.id]: _, ...rest }) => rest);
      return;
    }
    setRevealing(row.id);
    try {
      const sk = await api.secret(workspaceId, row.id);
      setRevealed((r) => ({ ...r, [row.id]: sk }));
    } catch (e) {
      reportError(e);
    } finally {
      setRevealing(null);
    }
  };

  const actions = useMemo<RowAction<Credential>[]>(
    () =>
      canChange
        ? [
            { id: 'edit', label: t('actions.edit'), icon: <Pencil aria-hidden="true" />, run: (row) => setTarget(row) },
            {
              id: 'delete',
              label: t('actions.delete'),
              icon: <Trash2 aria-hidden="true" />,
              danger: true,
              confirm: (row) => ({ title: t('confirmDelete.title'), description: t('confirmDelete.description', { name: row.identifier }) }),
              run: async (row) => {
                try {
                  await api.remove(workspaceId, row.id);
                } catch (e) {
                  reportError(e);
                  throw e;
                }
                toast.success(t('done.deleted'));
                list.reload();
              },
            },
          ]
        : [],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canChange, api, workspaceId, t],
  );

  const filtered = list.filters.name !== '';

  return (
    <Page data-testid="credentials-page">
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canChange && (
            <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => setTarget('new')} data-testid="credential-add">
              {t('actions.add')}
            </Button>
          )
        }
      />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.name} onChange={(name) => list.setFilters({ name })} placeholder={t('search')} aria-label={t('search')} />
      </div>
      <SchemaTable
        schema={Credential}
        ns="credential"
        rows={list.status === 'error' ? [] : list.rows}
        error={list.status === 'error'}
        onRetry={list.reload}
        busy={list.status === 'loading' && list.rows !== null}
        total={list.total}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
        emptyText={filtered ? t('noMatch') : t('empty')}
        actions={actions}
        rowProps={(row) => ({ 'data-testid': `credential-row-${row.id}` })}
        cells={{
          sk: ({ row, text }) => {
            const plain = revealed[row.id];
            return (
              <span className={s.secret}>
                <code className={s.secretText} data-testid="credential-sk">
                  {plain ?? text}
                </code>
                {canChange && row.sk !== '' && (
                  <Tooltip content={plain !== undefined ? t('actions.hide') : t('actions.reveal')}>
                    <Button
                      size="sm"
                      variant="ghost"
                      iconOnly
                      aria-label={plain !== undefined ? t('actions.hide') : t('actions.reveal')}
                      aria-pressed={plain !== undefined}
                      disabled={revealing === row.id}
                      onClick={() => void toggleSecret(row)}
                    >
                      {revealing === row.id ? <Spinner size={12} label="" /> : plain !== undefined ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                    </Button>
                  </Tooltip>
                )}
              </span>
            );
          },
        }}
      />
      {canChange && (
        <CredentialDialog
          workspaceId={workspaceId}
          target={target}
          onClose={() => setTarget(null)}
          onSaved={() => {
            setTarget(null);
            setRevealed({});
            list.reload();
          }}
        />
      )}
    </Page>
  );
}
