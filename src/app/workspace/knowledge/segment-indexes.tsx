/**
 * A segment's index entries on screen (spec 7.5 segment indexes): extra questions, summaries and
 * keywords that retrieval matches and that answer their segment. The dialog edits one segment's list
 * by hand and saves it whole (kept by id, added without, removed when left out) or has the default
 * chat model write its generated entries again; the unit control generates every segment's entries
 * on the queue and shows how far it got.
 */
import { ListTree, Plus, Sparkles, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SEGMENT_INDEX_CONTENT_MAX, SEGMENT_INDEX_TYPES, SEGMENT_INDEXES_MAX, type SegmentIndexStatus, type SegmentIndexType } from '../../../../schemas/knowledge-tasks';
import type { Segment } from '../../../api/datasets-contract';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { Badge, Button, Dialog, DialogBody, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, EmptyState, Select, Spinner, Textarea, toast, Tooltip } from '../../../ui';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import type { UnitRef } from './segments-panel';
import s from './knowledge.module.css';

/** How often a running generation is asked for its state (ms). */
export const INDEX_POLL_MS = 1500;
const ACTIVE = ['queued', 'running', 'cancelling'];
const TONES = { none: 'neutral', queued: 'warning', running: 'info', cancelling: 'warning', completed: 'success', failed: 'danger', cancelled: 'neutral' } as const;

interface Draft {
  key: string;
  id?: string;
  type: SegmentIndexType;
  content: string;
  source: 'manual' | 'generated';
}

let keys = 0;
const draftsOf = (list: { id: string; type: SegmentIndexType; content: string; source: 'manual' | 'generated' }[]): Draft[] =>
  list.map((e) => ({ key: e.id, id: e.id, type: e.type, content: e.content, source: e.source }));

/** One segment's index entries: add, edit, remove, save; or generate them again with the model. */
export function SegmentIndexesDialog({ workspaceId, datasetId, documentId, segment, onClose }: UnitRef & { segment: Segment | null; onClose: () => void }) {
  const { t } = useTranslation(['knowledge', 'common', 'kit']);
  const api = useKnowledgeApi();
  const [rows, setRows] = useState<Draft[] | null>(null);
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'generate' | null>(null);

  useEffect(() => {
    if (!segment) return;
    setRows(null);
    setDirty(false);
    setError(null);
    api.segmentIndexes(workspaceId, datasetId, documentId, segment.id).then((list) => setRows(draftsOf(list)), reportError);
  }, [api, workspaceId, datasetId, documentId, segment]);

  const edit = (key: string, patch: Partial<Draft>) => {
    setRows((r) => r && r.map((x) => (x.key === key ? { ...x, ...patch } : x)));
    setDirty(true);
    setError(null);
  };

  const save = async () => {
    if (!segment || !rows) return;
    const list = rows.map((x) => ({ ...x, content: x.content.trim() }));
    if (list.some((x) => !x.content)) return setError(t('indexes.emptyEntry'));
    if (list.some((x) => x.content.length > SEGMENT_INDEX_CONTENT_MAX)) return setError(t('kit:validation.maxLength', { max: SEGMENT_INDEX_CONTENT_MAX }));
    setBusy('save');
    try {
      const saved = await api.setSegmentIndexes(workspaceId, datasetId, documentId, segment.id, list.map(({ id, type, content }) => ({ ...(id ? { id } : {}), type, content })));
      setRows(draftsOf(saved));
      setDirty(false);
      toast.success(t('indexes.saved'));
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(null);
    }
  };

  const regenerate = async () => {
    if (!segment) return;
    setBusy('generate');
    try {
      setRows(draftsOf(await api.regenerateSegmentIndexes(workspaceId, datasetId, documentId, segment.id, [...SEGMENT_INDEX_TYPES])));
      toast.success(t('indexes.generated'));
    } catch (e) {
      reportError(e);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Dialog open={segment !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="lg" closeLabel={t('common:actions.close')} data-testid="segment-indexes-dialog">
        <DialogHeader>
          <DialogTitle>{t('indexes.title', { n: segment?.position ?? '' })}</DialogTitle>
          <DialogDescription>{t('indexes.description')}</DialogDescription>
        </DialogHeader>
        <DialogBody className={s.stack}>
          <p className={s.segmentText} data-testid="segment-indexes-segment">
            {segment?.content}
          </p>
          {rows === null ? (
            <Spinner size={18} label={t('common:states.loading')} />
          ) : rows.length === 0 ? (
            <EmptyState size="sm" title={t('indexes.empty')} />
          ) : (
            <ul className={s.segmentList}>
              {rows.map((x, i) => (
                <li key={x.key} className={s.segment} data-testid="segment-index" data-type={x.type} data-source={x.source}>
                  <span className={s.segmentHead}>
                    <Select
                      size="sm"
                      value={x.type}
                      aria-label={t('indexes.type', { n: i + 1 })}
                      onValueChange={(v) => edit(x.key, { type: v as SegmentIndexType })}
                      options={SEGMENT_INDEX_TYPES.map((ty) => ({ value: ty, label: t(`indexes.types.${ty}`) }))}
                    />
                    <Badge variant={x.source === 'generated' ? 'primary' : 'neutral'}>{t(`indexes.sources.${x.source}`)}</Badge>
                    <span className={s.spacer} />
                    <Button size="sm" variant="ghost" iconOnly aria-label={t('indexes.remove', { n: i + 1 })} onClick={() => {
                      setRows((r) => r && r.filter((y) => y.key !== x.key));
                      setDirty(true);
                    }}>
                      <Trash2 aria-hidden="true" />
                    </Button>
                  </span>
                  <Textarea rows={2} value={x.content} maxLength={SEGMENT_INDEX_CONTENT_MAX} aria-label={t('indexes.content', { n: i + 1 })} onChange={(e) => edit(x.key, { content: e.target.value, source: 'manual' })} />
                </li>
              ))}
            </ul>
          )}
          {error && (
            <p role="alert" className={s.errorText}>
              {error}
            </p>
          )}
          <span className={s.inline}>
            <Button size="sm" icon={<Plus aria-hidden="true" />} disabled={rows === null || rows.length >= SEGMENT_INDEXES_MAX} data-testid="segment-index-add" onClick={() => {
              setRows((r) => [...(r ?? []), { key: `new-${++keys}`, type: 'question', content: '', source: 'manual' }]);
              setDirty(true);
            }}>
              {t('indexes.add')}
            </Button>
            <Tooltip content={dirty ? t('indexes.saveFirst') : t('indexes.regenerateHelp')}>
              {/* A span keeps the tooltip on a disabled button. */}
              <span>
                <Button size="sm" icon={<Sparkles aria-hidden="true" />} loading={busy === 'generate'} disabled={dirty || rows === null || busy !== null} data-testid="segment-index-regenerate" onClick={() => void regenerate()}>
                  {t('indexes.regenerate')}
                </Button>
              </span>
            </Tooltip>
          </span>
        </DialogBody>
        <DialogFooter>
          <Button type="button" variant="secondary" onClick={onClose}>
            {t('common:actions.close')}
          </Button>
          <Button variant="primary" loading={busy === 'save'} disabled={!dirty || busy !== null} data-testid="segment-index-save" onClick={() => void save()}>
            {t('common:actions.save')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The button that opens a segment's index entries. */
export function SegmentIndexesButton({ segment, onOpen }: { segment: Segment; onOpen: (s: Segment) => void }) {
  const { t } = useTranslation('knowledge');
  const label = t('indexes.open', { n: segment.position });
  return (
    <Tooltip content={label}>
      <Button size="sm" variant="ghost" iconOnly aria-label={label} onClick={() => onOpen(segment)}>
        <ListTree aria-hidden="true" />
      </Button>
    </Tooltip>
  );
}

/** "Generate index entries" for every segment of the unit, with the generation's state until it ends. */
export function UnitIndexControl({ workspaceId, datasetId, documentId, onDone, stamp }: UnitRef & { onDone?: () => void; /** Changed when the segments or their entries changed: the counts are read again. */ stamp?: number }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const [st, setSt] = useState<SegmentIndexStatus | null>(null);
  const [starting, setStarting] = useState(false);
  const last = useRef<SegmentIndexStatus | null>(null);
  const done = useRef(onDone);
  done.current = onDone;
  const active = st !== null && ACTIVE.includes(st.status);

  const show = useCallback((next: SegmentIndexStatus) => {
    const before = last.current;
    last.current = next;
    setSt(next);
    if (before && ACTIVE.includes(before.status) && !ACTIVE.includes(next.status)) {
      done.current?.();
      if (next.status === 'completed') toast.success(t('indexes.unitFinished'));
    }
  }, [t]);
  const read = useCallback(() => api.unitIndexStatus(workspaceId, datasetId, documentId).then(show, reportError), [api, workspaceId, datasetId, documentId, show]);

  useEffect(() => {
    void read();
  }, [read, stamp]);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => void read(), INDEX_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, st, read]);

  const start = async () => {
    setStarting(true);
    try {
      show(await api.generateUnitIndexes(workspaceId, datasetId, documentId, [...SEGMENT_INDEX_TYPES]));
      toast.success(t('indexes.unitStarted'));
    } catch (e) {
      reportError(e);
    } finally {
      setStarting(false);
    }
  };

  const label = (x: SegmentIndexStatus) =>
    x.status === 'running' ? t('indexes.state.running', { pct: Math.round(x.progress ?? 0) }) : t(`indexes.state.${x.status}` as 'indexes.state.none', { position: x.queue_position ?? '' });

  return (
    <div className={s.inline} data-testid="unit-indexes">
      {st && (
        <>
          <span className={s.muted} data-testid="unit-indexes-count">
            {t('indexes.counts', { indexed: st.indexed_segment_count, segments: st.segment_count, entries: st.index_count })}
          </span>
          {st.status !== 'none' && (
            <Tooltip content={st.error || undefined}>
              <span data-testid="unit-indexes-state" data-status={st.status}>
                <StatusBadge value={st.status} label={label(st)} tones={TONES} />
              </span>
            </Tooltip>
          )}
        </>
      )}
      <Button size="sm" icon={<Sparkles aria-hidden="true" />} loading={starting} disabled={active} onClick={() => void start()} data-testid="unit-indexes-generate">
        {t('indexes.generateUnit')}
      </Button>
    </div>
  );
}
