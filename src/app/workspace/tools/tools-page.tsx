/**
 * /operation/workspace/:workspace_id/tool: the tools of a project space (spec 2, 3 "Tool"). Every
 * member sees the list (name, intro, icon, type, status, function and reference counts); owner and
 * admin create tools (by hand, OpenAPI import, MCP server, workflow app) and delete them. Data comes
 * through {@link ToolApiContext}.
 */
import { ChevronDown, FileCode2, Plug, Plus, SquarePen, Trash2, Workflow } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Tool, TOOL_TYPES, type BuiltinToolsAnswer, type ToolType } from '../../../../schemas/tool';
import type { MemberRole } from '../../../../schemas/workspace';
import { SchemaTable, usePagedList, type RowAction } from '../../../kit/schema-table';
import { AppIcon } from '../../../kit/widgets/icon-picker';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../ui/dropdown-menu';
import { Select } from '../../../ui/select';
import { toast } from '../../../ui/toast';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { CreateToolDialog, type CreateMode } from './create-tool-dialog';
import { useToolApi } from './tool-api';
import s from './tools.module.css';

export interface ToolsPageProps {
  /** Default: the route's `:workspace_id`. */
  workspaceId?: string;
}

const ALL = 'all';

export default function ToolsPage({ workspaceId: given }: ToolsPageProps) {
  const { t } = useTranslation(['tools', 'common']);
  const api = useToolApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = given ?? params.workspace_id ?? '';
  const [role, setRole] = useState<MemberRole | null>(null);
  const [mode, setMode] = useState<CreateMode | null>(null);
  const list = usePagedList((q) => api.list(workspaceId, q), { name: '', type: '' as ToolType | '' }, [api, workspaceId], reportError);

  const [builtin, setBuiltin] = useState<BuiltinToolsAnswer['tools']>([]);
  useEffect(() => {
    api.getWorkspace(workspaceId).then((w) => setRole(w.role_type), reportError);
    api.builtin(workspaceId).then((b) => setBuiltin(b.tools), () => setBuiltin([]));
  }, [api, workspaceId]);

  const canChange = role === 'owner' || role === 'admin';
  const detailPath = (id: string) => `/operation/workspace/${workspaceId}/tool/${id}`;

  const actions = useMemo<RowAction<Tool>[]>(
    () => [
      { id: 'open', label: t('actions.open'), icon: <SquarePen aria-hidden="true" />, run: (row) => navigate(detailPath(row.id)) },
      ...(canChange
        ? [
            {
              id: 'delete',
              label: t('actions.delete'),
              icon: <Trash2 aria-hidden="true" />,
              danger: true,
              confirm: (row: Tool) => ({ title: t('confirmDelete.title'), description: t('confirmDelete.description', { name: row.name }) }),
              run: async (row: Tool) => {
                await api.remove(workspaceId, row.id).catch((e: unknown) => {
                  reportError(e);
                  throw e;
                });
                toast.success(t('done.deleted'));
                list.reload();
              },
            } satisfies RowAction<Tool>,
          ]
        : []),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [canChange, api, workspaceId, t],
  );

  const filtered = list.filters.name !== '' || list.filters.type !== '';
  // The inner tools have no rows: they show below the table, under the same name search.
  const inner = list.filters.type === '' || list.filters.type === 'inner' ? builtin.filter((b) => b.name.toLowerCase().includes(list.filters.name.toLowerCase())) : [];
  const typeOptions = [{ value: ALL, label: t('allTypes') }, ...TOOL_TYPES.filter((x) => x !== 'plugin').map((x) => ({ value: x, label: t(`types.${x}`) }))];

  return (
    <Page data-testid="tools-page">
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          canChange && (
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <Button variant="primary" icon={<Plus aria-hidden="true" />} data-testid="tool-create">
                  {t('create.menu')}
                  <ChevronDown aria-hidden="true" className={s.chevron} />
                </Button>
              </DropdownMenuTrigger>
              <DropdownMenuContent align="end">
                <DropdownMenuItem icon={<SquarePen aria-hidden="true" />} onSelect={() => setMode('custom')}>
                  {t('create.custom')}
                </DropdownMenuItem>
                <DropdownMenuItem icon={<FileCode2 aria-hidden="true" />} onSelect={() => setMode('openapi')}>
                  {t('create.openapi')}
                </DropdownMenuItem>
                <DropdownMenuItem icon={<Plug aria-hidden="true" />} onSelect={() => setMode('mcp')}>
                  {t('create.mcp')}
                </DropdownMenuItem>
                <DropdownMenuItem icon={<Workflow aria-hidden="true" />} onSelect={() => setMode('workflow')}>
                  {t('create.workflow')}
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          )
        }
      />
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.name} onChange={(name) => list.setFilters({ ...list.filters, name })} placeholder={t('search')} aria-label={t('search')} />
        <Select
          size="sm"
          className={s.typeFilter}
          value={list.filters.type || ALL}
          onValueChange={(v) => list.setFilters({ ...list.filters, type: v === ALL ? '' : (v as ToolType) })}
          options={typeOptions}
          aria-label={t('fields.type')}
        />
      </div>
      <SchemaTable
        schema={Tool}
        ns="tools"
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
        rowProps={(row) => ({ 'data-testid': `tool-row-${row.id}` })}
        cells={{
          icon: ({ row }) => <AppIcon value={row.icon} size={28} />,
          name: ({ row }) => (
            <>
              <Link className={s.nameLink} to={detailPath(row.id)}>
                {row.name}
              </Link>
              {row.mcp_policy && !row.mcp_policy.allowed && (
                <Badge variant="warning" className={s.policyBadge} data-testid="mcp-not-allowed-badge">
                  {t('detail.policy.badge')}
                </Badge>
              )}
            </>
          ),
          intro: ({ row }) => (
            <span className={s.intro} title={row.intro}>
              {row.intro}
            </span>
          ),
        }}
      />
      {inner.length > 0 && (
        <Card className={`${s.section} ${s.builtin}`} data-testid="builtin-tools">
          <div>
            <h2 className={s.sectionTitle}>{t('builtin.title')}</h2>
            <p className={s.muted}>{t('builtin.help')}</p>
          </div>
          <ul className={s.list}>
            {inner.map((b) => (
              <li key={b.name} className={s.listItem}>
                <Badge variant="neutral">{t('types.inner')}</Badge>
                <div className={s.listMain}>
                  <span className={s.listTitle}>{b.name}</span>
                  <span className={s.muted}>{t(`builtin.descriptions.${b.name}` as 'builtin.descriptions.calculator', { defaultValue: b.description })}</span>
                </div>
              </li>
            ))}
          </ul>
        </Card>
      )}
      {canChange && (
        <CreateToolDialog
          workspaceId={workspaceId}
          mode={mode}
          onClose={() => setMode(null)}
          onCreated={(tool) => {
            setMode(null);
            navigate(detailPath(tool.id));
          }}
        />
      )}
    </Page>
  );
}
