import { Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { QA_ANSWER_MAX, QA_QUESTION_MAX, SEGMENT_CONTENT_MAX, type QaPair, type Segment } from '../../../api/datasets-contract';
import { usePagedList } from '../../../kit/schema-table';
import { SearchInput } from '../../../kit/widgets/search-input';
import { Button, ConfirmDialog, EmptyState, Pagination, Spinner, Switch, toast, Tooltip } from '../../../ui';
import { usePaginationLabels } from '../../system/users/admin-kit';
import { reportError } from '../members/report-error';
import { PagePager } from '../../shell/page';
import { useKnowledgeApi } from './knowledge-api';
import { TextDialog } from './text-dialog';
import { QaGenerationControl } from './qa-generation';
import { SegmentIndexesButton, SegmentIndexesDialog, UnitIndexControl } from './segment-indexes';
import s from './knowledge.module.css';

export interface UnitRef {
  workspaceId: string;
  datasetId: string;
  documentId: string;
  /** Something of the unit changed (counts to refresh). */
  onChanged?: () => void;
}

/** The segments of a unit: search, page, edit, enable or disable, add, delete; their index entries. */
export function SegmentsPanel({ workspaceId, datasetId, documentId, onChanged }: UnitRef) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const list = usePagedList((q) => api.listSegments(workspaceId, datasetId, documentId, q), { keyword: '' }, [api, workspaceId, datasetId, documentId], reportError);
  const [editing, setEditing] = useState<Segment | 'new' | null>(null);
  const [indexing, setIndexing] = useState<Segment | null>(null);
  const [deleting, setDeleting] = useState<Segment | null>(null);
  // Bumped when segments or their entries changed, so the unit's index counts follow.
  const [stamp, setStamp] = useState(0);
  const changed = () => {
    setStamp((n) => n + 1);
    onChanged?.();
  };
  const labels = usePaginationLabels();

  const toggle = async (seg: Segment, enabled: boolean) => {
    try {
      const next = await api.updateSegment(workspaceId, datasetId, documentId, seg.id, { enabled });
      list.replaceRow((r) => r.id === seg.id, next);
    } catch (e) {
      reportError(e);
    }
  };

  return (
    <div className={s.stack} data-testid="segments-panel">
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.keyword} placeholder={t('segments.search')} aria-label={t('segments.search')} onChange={(v) => list.setFilters({ keyword: v.trim().slice(0, 64) })} />
        <span className={s.spacer} />
        <UnitIndexControl workspaceId={workspaceId} datasetId={datasetId} documentId={documentId} stamp={stamp} onDone={list.reload} />
        <Button variant="primary" size="sm" icon={<Plus aria-hidden="true" />} onClick={() => setEditing('new')} data-testid="segment-add">
          {t('segments.add')}
        </Button>
      </div>
      {list.rows === null ? (
        <Spinner size={18} label={t('common:states.loading')} />
      ) : list.rows.length === 0 ? (
        <EmptyState size="sm" title={list.filters.keyword ? t('segments.noMatch') : t('segments.empty')} />
      ) : (
        <ol className={s.segmentList}>
          {list.rows.map((seg) => (
            <li key={seg.id} className={s.segment} data-enabled={seg.enabled} data-testid="segment">
              <span className={s.segmentHead}>
                <span>#{seg.position}</span>
                <span>{t('slice.chars', { count: seg.content.length })}</span>
                <span>{t('segments.hits', { count: seg.hit_count })}</span>
                <span className={s.spacer} />
                <Switch size="sm" checked={seg.enabled} aria-label={t('segments.enable', { n: seg.position })} onCheckedChange={(on) => void toggle(seg, on)} />
                <Tooltip content={t('segments.edit', { n: seg.position })}>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('segments.edit', { n: seg.position })} onClick={() => setEditing(seg)}>
                    <Pencil aria-hidden="true" />
                  </Button>
                </Tooltip>
                <SegmentIndexesButton segment={seg} onOpen={setIndexing} />
                <Tooltip content={t('segments.delete', { n: seg.position })}>
                  <Button size="sm" variant="ghost" iconOnly aria-label={t('segments.delete', { n: seg.position })} onClick={() => setDeleting(seg)}>
                    <Trash2 aria-hidden="true" />
                  </Button>
                </Tooltip>
              </span>
              <p className={s.segmentText}>{seg.content}</p>
            </li>
          ))}
        </ol>
      )}
      {list.total > 0 && (
        <PagePager>
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} labels={labels} />
        </PagePager>
      )}
      <TextDialog
        open={editing !== null}
        title={editing === 'new' ? t('segments.add') : t('segments.editTitle')}
        fields={[{ name: 'content', label: t('segments.content'), max: SEGMENT_CONTENT_MAX, rows: 10 }]}
        initial={{ content: editing && editing !== 'new' ? editing.content : '' }}
        onClose={() => setEditing(null)}
        onSubmit={async ({ content }) => {
          if (editing === 'new') await api.createSegment(workspaceId, datasetId, documentId, { content: content! });
          else if (editing) await api.updateSegment(workspaceId, datasetId, documentId, editing.id, { content });
          toast.success(t('segments.saved'));
          list.reload();
          changed();
        }}
      />
      <SegmentIndexesDialog workspaceId={workspaceId} datasetId={datasetId} documentId={documentId} segment={indexing}
        onClose={() => {
          setIndexing(null);
          changed();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        danger
        title={t('segments.confirmDelete', { n: deleting?.position ?? '' })}
        description={t('segments.confirmDeleteHelp')}
        confirmLabel={t('common:actions.delete')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          try {
            await api.deleteSegment(workspaceId, datasetId, documentId, deleting!.id);
            toast.success(t('segments.deleted'));
          } catch (e) {
            reportError(e);
            throw e;
          } finally {
            list.reload();
            changed();
          }
        }}
      />
    </div>
  );
}

/** The Q&A pairs of a unit: list, add, edit, delete. */
export function QaPanel({ workspaceId, datasetId, documentId, onChanged }: UnitRef) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const list = usePagedList((q) => api.listQa(workspaceId, datasetId, documentId, q), { keyword: '' }, [api, workspaceId, datasetId, documentId], reportError);
  const [editing, setEditing] = useState<QaPair | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QaPair | null>(null);
  const labels = usePaginationLabels();

  return (
    <div className={s.stack} data-testid="qa-panel">
      <div className={s.toolbar}>
        <SearchInput size="sm" className={s.search} value={list.filters.keyword} placeholder={t('qa.search')} aria-label={t('qa.search')} onChange={(v) => list.setFilters({ keyword: v.trim().slice(0, 64) })} />
        <span className={s.spacer} />
        <QaGenerationControl
          workspaceId={workspaceId}
          datasetId={datasetId}
          documentId={documentId}
          onDone={() => {
            list.reload();
            onChanged?.();
          }}
        />
        <Button variant="primary" size="sm" icon={<Plus aria-hidden="true" />} onClick={() => setEditing('new')} data-testid="qa-add">
          {t('qa.add')}
        </Button>
      </div>
      {list.rows === null ? (
        <Spinner size={18} label={t('common:states.loading')} />
      ) : list.rows.length === 0 ? (
        <EmptyState size="sm" title={list.filters.keyword ? t('qa.noMatch') : t('qa.empty')} />
      ) : (
        <ul className={s.segmentList}>
          {list.rows.map((qa) => (
            <li key={qa.id} className={s.segment} data-testid="qa-pair">
              <span className={s.segmentHead}>
                <strong>{t('qa.question')}</strong>
                <span className={s.spacer} />
                <Button size="sm" variant="ghost" iconOnly aria-label={t('qa.edit')} onClick={() => setEditing(qa)}>
                  <Pencil aria-hidden="true" />
                </Button>
                <Button size="sm" variant="ghost" iconOnly aria-label={t('qa.delete')} onClick={() => setDeleting(qa)}>
                  <Trash2 aria-hidden="true" />
                </Button>
              </span>
              <p className={s.segmentText}>{qa.question}</p>
              <span className={s.segmentHead}>
                <strong>{t('qa.answer')}</strong>
              </span>
              <p className={s.segmentText}>{qa.answer}</p>
            </li>
          ))}
        </ul>
      )}
      {list.total > 0 && (
        <PagePager>
          <Pagination page={list.page} pageSize={list.pageSize} total={list.total} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} labels={labels} />
        </PagePager>
      )}
      <TextDialog
        open={editing !== null}
        title={editing === 'new' ? t('qa.add') : t('qa.editTitle')}
        fields={[
          { name: 'question', label: t('qa.question'), max: QA_QUESTION_MAX, rows: 3 },
          { name: 'answer', label: t('qa.answer'), max: QA_ANSWER_MAX, rows: 6 },
        ]}
        initial={editing && editing !== 'new' ? { question: editing.question, answer: editing.answer } : { question: '', answer: '' }}
        onClose={() => setEditing(null)}
        onSubmit={async (v) => {
          const body = { question: v.question!, answer: v.answer! };
          if (editing === 'new') await api.createQa(workspaceId, datasetId, documentId, body);
          else if (editing) await api.updateQa(workspaceId, datasetId, documentId, editing.id, body);
          toast.success(t('qa.saved'));
          list.reload();
          onChanged?.();
        }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        danger
        title={t('qa.confirmDelete')}
        description={deleting?.question ?? ''}
        confirmLabel={t('common:actions.delete')}
        cancelLabel={t('common:actions.cancel')}
        onConfirm={async () => {
          try {
            await api.deleteQa(workspaceId, datasetId, documentId, deleting!.id);
            toast.success(t('qa.deleted'));
          } catch (e) {
            reportError(e);
            throw e;
          } finally {
            list.reload();
            onChanged?.();
          }
        }}
      />
    </div>
  );
}
