/**
 * /operation/workspace/:workspace_id/prompt: the prompts of a project space (spec 2, 3, 9). Every
 * member sees the list; owner and admin add and edit (on prompt-add/:promptId?) and delete. Data
 * comes through {@link PromptApiContext}.
 */
import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { Prompt, PROMPT_SCENES, type PromptScene } from '../../../../schemas/prompt';
import type { MemberRole } from '../../../../schemas/workspace';
import { SchemaTable, usePagedList, type RowAction } from '../../../kit/schema-table';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button } from '../../../ui/button';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { usePromptApi } from './prompt-api';
import s from './prompts-page.module.css';

const overrides = { template_type: { optionLabels: 'prompt.templateTypes' }, scene: { optionLabels: 'prompt.scenes' } } as const;

/** The editor's path (spec 2: prompt-add/{promptId?}). */
export const promptEditorPath = (workspaceId: string, promptId?: string) =>
  `/operation/workspace/${encodeURIComponent(workspaceId)}/prompt-add${promptId ? `/${encodeURIComponent(promptId)}` : ''}`;

export interface PromptsPageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
}

export default function PromptsPage({ workspaceId: given }: PromptsPageProps) {
  const { t } = useTranslation(['prompt', 'common']);
  const api = usePromptApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = given ?? params.workspace_id ?? '';
  const [role, setRole] = useState<MemberRole | null>(null);
  const list = usePagedList((q) => api.list(workspaceId, q), { name: '', scene: '' as PromptScene | '' }, [api, workspaceId], reportError);

  useEffect(() => {
    api.getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
  }, [api, workspaceId]);

  const canChange = role === 'owner' || role === 'admin';

  const actions = useMemo<RowAction<Prompt>[]>(
    () =>
      canChange
        ? [
            { id: 'edit', label: t('actions.edit'), icon: <Pencil aria-hidden="true" />, run: (row) => navigate(promptEditorPath(workspaceId, row.id)) },
            {
              id: 'delete',
              label: t('actions.delete'),
              icon: <Trash2 aria-hidden="true" />,
              danger: true,
              confirm: (row) => ({ title: t('confirmDelete.title'), description: t('confirmDelete.description', { name: row.name }) }),
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
    [canChange, api, workspaceId, t, navigate],
  );

  const filtered = list.filters.name !== '' || list.filters.scene !== '';

  return (
    <Page data-testid="prompts-page">
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canChange && (
            <Button variant="primary" icon={<Plus aria-hidden="true" />} onClick={() => navigate(promptEditorPath(workspaceId))} data-testid="prompt-add">
              {t('actions.add')}
            </Button>
          )
        }
      />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.name} onChange={(name) => list.setFilters({ name })} placeholder={t('search')} aria-label={t('search')} />
        <Select
          size="sm"
          className={s.sceneFilter}
          value={list.filters.scene || 'all'}
          aria-label={t('filterScene')}
          onValueChange={(v) => list.setFilters({ scene: v === 'all' ? '' : (v as PromptScene) })}
          options={[{ value: 'all', label: t('allScenes') }, ...PROMPT_SCENES.map((v) => ({ value: v, label: t(`scenes.${v}`) }))]}
        />
      </div>
      <SchemaTable
        schema={Prompt}
        ns="prompt"
        overrides={overrides}
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
        emptyAction={
          canChange && !filtered ? (
            <Button size="sm" variant="primary" onClick={() => navigate(promptEditorPath(workspaceId))}>
              {t('actions.add')}
            </Button>
          ) : undefined
        }
        actions={actions}
        rowProps={(row) => ({ 'data-testid': `prompt-row-${row.id}` })}
      />
    </Page>
  );
}
