/**
 * /operation/my: the user's own page. What they created across their project spaces (apps, knowledge
 * bases, prompts, tools), their store submissions with their review states, and their recent runs,
 * their approvals (submitted, and waiting for their decision), each linking to where it lives
 * (GET /console/my).
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Approval } from '../../../../schemas/approval';
import type { MyOverview, MyResource } from '../../../../schemas/my';
import { getMyOverview } from '../../../api/my';
import { seededName } from '../../../i18n/seeded';
import { Badge } from '../../../ui/badge';
import { EmptyState } from '../../../ui/empty-state';
import { Skeleton } from '../../../ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../../ui/table';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { itemPath, STATE_TONE } from '../../approvals/approval-kit';
import { REVIEW_TONE } from '../../store/store-kinds';
import { Page, PageHeader } from '../../shell/page';
import { formatDateTime, LoadFailed, useLoad } from '../../system/users/admin-kit';
import s from './my-page.module.css';

const editorOf = (type: string) => (type === 'agent_team' ? 'agent-team' : type === 'agent' ? 'agent-builder' : 'agent-flow');

/** Where a created item lives in its project space. */
export function resourcePath(r: Pick<MyResource, 'kind' | 'id' | 'subtype' | 'workspace_id'>): string {
  const ws = `/operation/workspace/${encodeURIComponent(r.workspace_id)}`;
  const id = encodeURIComponent(r.id);
  if (r.kind === 'app') return `/operation/app/${id}/${editorOf(r.subtype)}`;
  if (r.kind === 'dataset') return `${ws}/knowledge-unit?dataset_id=${id}`;
  if (r.kind === 'prompt') return `${ws}/prompt-add/${id}`;
  return `${ws}/tool/${id}`;
}

const STORE_SECTION = { app: 'app', dataset: 'knowledge', prompt: 'prompt', tool: 'tool', plugin: 'plugin' } as const;

export default function MyPage({ load = getMyOverview }: { load?: (opts: { signal: AbortSignal }) => Promise<MyOverview> }) {
  const { t } = useTranslation(['mine', 'tools', 'apps', 'approval']);
  const data = useLoad((signal) => load({ signal }), [load]);
  const [tab, setTab] = useState('created');
  const d = data.data;
  return (
    <Page data-slot="my-page">
      <PageHeader title={t('title')} description={t('description')} />
      {data.status === 'error' && !d ? (
        <LoadFailed onRetry={data.reload} />
      ) : !d ? (
        <Skeleton height={200} />
      ) : (
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList>
            <TabsTrigger value="created">{t('tabs.created', { count: d.resources.length })}</TabsTrigger>
            <TabsTrigger value="submissions">{t('tabs.submissions', { count: d.submissions.length })}</TabsTrigger>
            <TabsTrigger value="approvals">{t('tabs.approvals', { count: d.approvals.to_approve.length + d.approvals.submitted.length })}</TabsTrigger>
            <TabsTrigger value="runs">{t('tabs.runs', { count: d.runs.length })}</TabsTrigger>
          </TabsList>
          <TabsContent value="created">
            <div className={s.counts} data-testid="my-counts">
              {(['app', 'dataset', 'prompt', 'tool'] as const).map((k) => (
                <span key={k} className={s.count}>
                  {t(`kinds.${k}`)} <strong>{d.counts[k]}</strong>
                </span>
              ))}
            </div>
            <Table size="sm" aria-label={t('created.label')} data-testid="my-created">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('fields.name')}</TableHead>
                  <TableHead>{t('fields.kind')}</TableHead>
                  <TableHead>{t('fields.space')}</TableHead>
                  <TableHead>{t('fields.updatedAt')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.resources.length === 0 ? (
                  <Empty colSpan={4} text={t('created.empty')} />
                ) : (
                  d.resources.map((r) => (
                    <TableRow key={`${r.kind}-${r.id}`}>
                      <TableCell>
                        <Link to={resourcePath(r)}>{r.name}</Link>
                      </TableCell>
                      <TableCell className={s.nowrap}>
                        {t(`kinds.${r.kind}`)}
                        {r.subtype && <span className={s.subtype}>{r.kind === 'app' ? t(`apps:modes.${r.subtype}`, { defaultValue: r.subtype }) : t(`tools:types.${r.subtype}`, { defaultValue: r.subtype })}</span>}
                      </TableCell>
                      <TableCell>
                        <Link to={`/operation/workspace/${encodeURIComponent(r.workspace_id)}`}>{seededName(r.workspace_name)}</Link>
                      </TableCell>
                      <TableCell className={s.nowrap}>{formatDateTime(r.updated_at)}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TabsContent>
          <TabsContent value="submissions">
            <Table size="sm" aria-label={t('submissions.label')} data-testid="my-submissions">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('fields.name')}</TableHead>
                  <TableHead>{t('fields.kind')}</TableHead>
                  <TableHead>{t('fields.state')}</TableHead>
                  <TableHead>{t('fields.reason')}</TableHead>
                  <TableHead>{t('fields.submittedAt')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.submissions.length === 0 ? (
                  <Empty colSpan={5} text={t('submissions.empty')} />
                ) : (
                  d.submissions.map((x) => (
                    <TableRow key={x.id}>
                      <TableCell>
                        {/* Only released items are in the store to open. */}
                        {x.review_state === 'released' ? <Link to={`/operation/store/${STORE_SECTION[x.type]}/${encodeURIComponent(x.id)}`}>{x.name}</Link> : x.name}
                      </TableCell>
                      <TableCell className={s.nowrap}>{t(`kinds.${x.type}`)}</TableCell>
                      <TableCell>
                        <Badge variant={REVIEW_TONE[x.review_state]}>{t(`states.${x.review_state}`)}</Badge>
                      </TableCell>
                      <TableCell>{x.reason || <span className={s.muted}>-</span>}</TableCell>
                      <TableCell className={s.nowrap}>{formatDateTime(x.created_at)}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TabsContent>
          <TabsContent value="approvals">
            <ApprovalTable rows={d.approvals.to_approve} label={t('approvals.toApprove')} empty={t('approvals.toApproveEmpty')} testId="my-to-approve" />
            <ApprovalTable rows={d.approvals.submitted} label={t('approvals.submitted')} empty={t('approvals.submittedEmpty')} testId="my-approvals-submitted" />
          </TabsContent>
          <TabsContent value="runs">
            <Table size="sm" aria-label={t('runs.label')} data-testid="my-runs">
              <TableHeader>
                <TableRow>
                  <TableHead>{t('fields.app')}</TableHead>
                  <TableHead>{t('fields.source')}</TableHead>
                  <TableHead>{t('fields.status')}</TableHead>
                  <TableHead>{t('fields.elapsed')}</TableHead>
                  <TableHead>{t('fields.startedAt')}</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {d.runs.length === 0 ? (
                  <Empty colSpan={5} text={t('runs.empty')} />
                ) : (
                  d.runs.map((r) => (
                    <TableRow key={r.id}>
                      <TableCell>
                        <Link to={`/operation/app/${encodeURIComponent(r.app_id)}/${editorOf(r.app_type)}`}>{r.app_name}</Link>
                      </TableCell>
                      <TableCell className={s.nowrap}>{t(`sources.${r.source}`)}</TableCell>
                      <TableCell className={s.nowrap}>{t(`runStatus.${r.status}`)}</TableCell>
                      <TableCell className={s.nowrap}>{(r.elapsed_ms / 1000).toFixed(2)} s</TableCell>
                      <TableCell className={s.nowrap}>{formatDateTime(r.created_at)}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TabsContent>
        </Tabs>
      )}
    </Page>
  );
}

/** Approvals with their item (linked where it lives), state and latest comment; the approvals page decides them. */
function ApprovalTable({ rows, label, empty, testId }: { rows: Approval[]; label: string; empty: string; testId: string }) {
  const { t } = useTranslation(['mine', 'approval']);
  return (
    <section className={s.section}>
      <h3 className={s.sectionTitle}>
        {label} <Link to="/operation/approvals">{t('approvals.open')}</Link>
      </h3>
      <Table size="sm" aria-label={label} data-testid={testId}>
        <TableHeader>
          <TableRow>
            <TableHead>{t('fields.name')}</TableHead>
            <TableHead>{t('fields.kind')}</TableHead>
            <TableHead>{t('approval:columns.state')}</TableHead>
            <TableHead>{t('fields.comment')}</TableHead>
            <TableHead>{t('fields.submittedAt')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.length === 0 ? (
            <Empty colSpan={5} text={empty} />
          ) : (
            rows.map((a) => (
              <TableRow key={a.id}>
                <TableCell>
                  <Link to={itemPath(a)}>{a.title}</Link>
                </TableCell>
                <TableCell className={s.nowrap}>{t(`kinds.${a.item_type}`)}</TableCell>
                <TableCell>
                  <Badge variant={STATE_TONE[a.state]}>{t(`approval:states.${a.state}`)}</Badge>
                </TableCell>
                <TableCell>{a.last_comment || <span className={s.muted}>-</span>}</TableCell>
                <TableCell className={s.nowrap}>{formatDateTime(a.submitted_at)}</TableCell>
              </TableRow>
            ))
          )}
        </TableBody>
      </Table>
    </section>
  );
}

function Empty({ colSpan, text }: { colSpan: number; text: string }) {
  return (
    <TableRow>
      <TableCell colSpan={colSpan}>
        <EmptyState size="sm" title={text} />
      </TableCell>
    </TableRow>
  );
}
