/**
 * The log tab of /operation/app/:appId/agent-flow (and agent-builder): the app's runs and, for chat
 * apps, its conversations, within a period (today, past 7, 30, 90 days, six months, all time). Each
 * run shows where it came from (debug, portal, API, workflow tool…, filterable) and the version it
 * ran; a chat run its question and reply, a workflow run its inputs and outputs (it has no question
 * or reply). Each run opens on its full trace; each conversation on its messages, each with its
 * trace. Data comes through {@link LogApiContext}.
 */
import { Eye, Trash2 } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router';
import type { AppDetail } from '../../../../schemas/app';
import { isChatMode } from '../../../../schemas/flow';
import { ConversationSummary, LOG_PERIODS, RUN_SOURCES, RunSummary, type LogPeriod, type RunSource } from '../../../../schemas/run-api';
import { RunStatus } from '../../../../schemas/run';
import { formatElapsed, STATUS_TONES } from '../../../canvas/debug';
import { SchemaTable, usePagedList, type RowAction } from '../../../kit/schema-table';
import { SearchInput } from '../../../kit/widgets/search-input';
import { SelectInput } from '../../../kit/widgets/select-input';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { toast } from '../../../ui/toast';
import { Page } from '../../shell/page';
import { reportError } from '../../workspace/members/report-error';
import type { EditorContext } from './editor-layout';
import { useLogApi } from './log-api';
import { ConversationSheet, KindTitles, RunSheet, valuesLine } from './log-details';
import s from './log-page.module.css';

type LogApp = Pick<AppDetail, 'id' | 'workspace_id' | 'type'>;

export interface LogPageProps {
  /** Default: the app of the editor route. */
  app?: LogApp;
}

const statusMeta = {
  label: 'runlog:run.status',
  widget: 'status',
  optionLabels: 'debug:status',
  tones: STATUS_TONES,
  column: { order: 2, width: 120 },
} as const;

const COMMON_RUN_COLUMNS = {
  created_at: { label: 'runlog:run.createdAt', widget: 'datetime', column: { order: 1, width: 170 } },
  status: statusMeta,
  source: { label: 'runlog:run.source', column: { order: 5, width: 120 } },
  version: { label: 'runlog:run.version', column: { order: 6, width: 100 } },
  elapsed_ms: { label: 'runlog:run.elapsed', column: { order: 7, width: 100, align: 'right' } },
  usage: { label: 'runlog:run.tokens', column: { order: 8, width: 90, align: 'right' } },
  created_by_name: { label: 'runlog:run.createdBy', column: { order: 9, width: 120 } },
} as const;

/** A chat run: its question and reply. A workflow run has neither: its inputs and outputs instead. */
const CHAT_RUN_COLUMNS = {
  ...COMMON_RUN_COLUMNS,
  query: { label: 'runlog:run.query', column: { order: 3, minWidth: 160 } },
  answer: { label: 'runlog:run.answer', column: { order: 4, minWidth: 160 } },
} as const;
const WORKFLOW_RUN_COLUMNS = {
  ...COMMON_RUN_COLUMNS,
  inputs: { label: 'runlog:run.inputs', column: { order: 3, minWidth: 160 } },
  outputs: { label: 'runlog:run.outputs', column: { order: 4, minWidth: 160 } },
} as const;

const CONVERSATION_COLUMNS = {
  name: { label: 'runlog:conversation.name', column: { order: 1, minWidth: 200 } },
  message_count: { label: 'runlog:conversation.messages', column: { order: 2, width: 100, align: 'right' } },
  last_message_at: { label: 'runlog:conversation.updatedAt', widget: 'datetime', column: { order: 3, width: 170 } },
  created_by_name: { label: 'runlog:run.createdBy', column: { order: 4, width: 120 } },
  created_at: { label: 'runlog:conversation.createdAt', widget: 'datetime', column: { order: 5, width: 170 } },
} as const;

/** Inputs or outputs on one line (the full JSON on hover); a dash when there are none. */
function Values({ values, testId }: { values: Record<string, unknown>; testId: string }) {
  const line = valuesLine(values);
  return (
    <span className={s.values} title={line ? JSON.stringify(values, null, 2) : undefined} data-testid={testId}>
      {line || '—'}
    </span>
  );
}

function RunsTab({ app, period, onOpen }: { app: LogApp; period: LogPeriod; onOpen: (id: string) => void }) {
  const { t } = useTranslation(['runlog', 'debug']);
  const { t: td } = useTranslation('debug');
  const api = useLogApi();
  const chat = isChatMode(app.type);
  const columns = chat ? CHAT_RUN_COLUMNS : WORKFLOW_RUN_COLUMNS;
  const list = usePagedList(
    (q) => api.listRuns(app.id, app.workspace_id, { ...q, period }),
    { keyword: '', status: '' as RunStatus | '', source: '' as RunSource | '' },
    [api, app.id, period],
    reportError,
  );
  const actions = useMemo<RowAction<RunSummary>[]>(() => [{ id: 'open', label: t('open'), icon: <Eye aria-hidden="true" />, run: (r) => onOpen(r.id) }], [t, onOpen]);
  return (
    <>
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.keyword} onChange={(keyword) => list.setFilters({ keyword })} placeholder={t('search')} aria-label={t('search')} />
        <SelectInput
          size="sm"
          className={s.status}
          aria-label={t('statusFilter')}
          placeholder={t('anyStatus')}
          clearable
          value={list.filters.status || null}
          options={RunStatus.options.map((v) => ({ value: v, label: t(`debug:status.${v}`) }))}
          onChange={(v) => list.setFilters({ status: (v ?? '') as RunStatus | '' })}
        />
        <SelectInput
          size="sm"
          className={s.status}
          aria-label={t('sourceFilter')}
          placeholder={t('anySource')}
          clearable
          value={list.filters.source || null}
          options={RUN_SOURCES.map((v) => ({ value: v, label: t(`source.${v}`) }))}
          onChange={(v) => list.setFilters({ source: (v ?? '') as RunSource | '' })}
          data-testid="log-source-filter"
        />
      </div>
      <SchemaTable
        schema={RunSummary}
        include={Object.keys(columns)}
        overrides={columns}
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
        rowProps={(row) => ({ 'data-testid': `run-row-${row.id}` })}
        cells={{
          elapsed_ms: ({ row }) => formatElapsed(td, row.elapsed_ms),
          usage: ({ row }) => String(row.usage.totalTokens),
          answer: ({ row, text }) => (row.error ? <span className={s.error}>{row.error.message}</span> : text),
          inputs: ({ row }) => <Values values={row.inputs} testId="run-inputs" />,
          outputs: ({ row }) => (row.error ? <span className={s.error}>{row.error.message}</span> : <Values values={row.outputs} testId="run-outputs" />),
          source: ({ row }) => <span data-testid="run-source">{t(`source.${row.source}`)}</span>,
          version: ({ row }) => <span data-testid="run-version">{row.version ?? (row.source === 'draft' || row.source === 'single-node' ? t('draft') : '—')}</span>,
        }}
      />
    </>
  );
}

function ConversationsTab({ app, period, onOpen }: { app: LogApp; period: LogPeriod; onOpen: (id: string) => void }) {
  const { t } = useTranslation('runlog');
  const api = useLogApi();
  const list = usePagedList((q) => api.listConversations(app.id, app.workspace_id, { ...q, period }), {}, [api, app.id, period], reportError);
  const actions = useMemo<RowAction<ConversationSummary>[]>(
    () => [
      { id: 'open', label: t('open'), icon: <Eye aria-hidden="true" />, run: (r) => onOpen(r.id) },
      {
        id: 'delete',
        label: t('remove'),
        icon: <Trash2 aria-hidden="true" />,
        danger: true,
        confirm: () => ({ title: t('confirmDelete.title'), description: t('confirmDelete.description') }),
        run: async (r) => {
          try {
            await api.deleteConversation(app.id, app.workspace_id, r.id);
          } catch (e) {
            reportError(e);
            throw e;
          }
          toast.success(t('deleted'));
          list.reload();
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, onOpen, api, app.id, app.workspace_id],
  );
  return (
    <SchemaTable
      schema={ConversationSummary}
      include={Object.keys(CONVERSATION_COLUMNS)}
      overrides={CONVERSATION_COLUMNS}
      rows={list.status === 'error' ? [] : list.rows}
      error={list.status === 'error'}
      onRetry={list.reload}
      busy={list.status === 'loading' && list.rows !== null}
      total={list.total}
      page={list.page}
      pageSize={list.pageSize}
      onPageChange={list.setPage}
      onPageSizeChange={list.setPageSize}
      emptyText={t('emptyConversations')}
      actions={actions}
      rowProps={(row) => ({ 'data-testid': `conversation-row-${row.id}` })}
    />
  );
}

export default function LogPage({ app: given }: LogPageProps) {
  const { t } = useTranslation('runlog');
  const context = useOutletContext<EditorContext | undefined>();
  const app = given ?? context?.app;
  const [period, setPeriod] = useState<LogPeriod>('7d');
  const [tab, setTab] = useState<'runs' | 'conversations'>('runs');
  const [openRun, setOpenRun] = useState<string | null>(null);
  const [openConversation, setOpenConversation] = useState<string | null>(null);
  if (!app) return null;
  const chat = isChatMode(app.type);
  const periodPicker = (
    <div className={s.periods} role="radiogroup" aria-label={t('period.label')} data-testid="log-periods">
      {LOG_PERIODS.map((p) => (
        <button key={p} type="button" role="radio" aria-checked={period === p} className={s.period} onClick={() => setPeriod(p)}>
          {t(`period.${p}`)}
        </button>
      ))}
    </div>
  );
  return (
    <Page data-testid="log-page">
      <Tabs value={tab} onValueChange={(v) => setTab(v as 'runs' | 'conversations')}>
        <div className={s.header}>
          <TabsList>
            <TabsTrigger value="runs">{t('tabs.runs')}</TabsTrigger>
            {chat && <TabsTrigger value="conversations">{t('tabs.conversations')}</TabsTrigger>}
          </TabsList>
          {periodPicker}
        </div>
        <TabsContent value="runs">
          <RunsTab app={app} period={period} onOpen={setOpenRun} />
        </TabsContent>
        {chat && (
          <TabsContent value="conversations">
            <ConversationsTab app={app} period={period} onOpen={setOpenConversation} />
          </TabsContent>
        )}
      </Tabs>
      <KindTitles>
        <RunSheet appId={app.id} workspaceId={app.workspace_id} runId={openRun} onClose={() => setOpenRun(null)} />
        <ConversationSheet appId={app.id} workspaceId={app.workspace_id} conversationId={openConversation} onClose={() => setOpenConversation(null)} />
      </KindTitles>
    </Page>
  );
}
