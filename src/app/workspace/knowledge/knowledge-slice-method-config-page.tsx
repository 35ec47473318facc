/**
 * /operation/workspace/:workspace_id/knowledge-slice-method-config?dataset_id=…&kind=…&file_ids=…:
 * step 2 of adding units (spec 2, 5, 9). Segmentation settings on the left; on the right a live
 * preview of how a chosen document is cut (segmentation-preview, refreshed as the settings change).
 * "Save and process" creates the documents with their tasks and goes back to the unit list, where
 * their progress shows.
 */
import { Check } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type { SegmentPreview } from '../../../api/datasets-contract';
import { describeError } from '../../../api/reactions';
import { Badge, Button, EmptyState, Select, Spinner, toast } from '../../../ui';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { useKnowledgeApi, type DocumentSource } from './knowledge-api';
import { knowledgePaths, useKnowledgeQuery } from './knowledge-nav';
import { NoDataset } from './no-dataset';
import type { SliceState } from './knowledge-unit-add-page';
import { SEGMENTATION_DEFAULTS, segmentationErrors, type SegmentationForm } from './segmentation';
import { SliceSettings } from './slice-settings';
import s from './knowledge.module.css';
import { useDatasetCrumb } from './dataset-crumb';

/** Wait this long after the last change before asking for a new preview. */
export const PREVIEW_DEBOUNCE_MS = 500;

export default function KnowledgeSliceMethodConfigPage(props: { workspaceId?: string }) {
  const { datasetId } = useKnowledgeQuery();
  return datasetId ? <SliceMethodConfigPageScreen {...props} /> : <NoDataset workspaceId={props.workspaceId} />;
}

function SliceMethodConfigPageScreen({ workspaceId: given }: { workspaceId?: string }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const params = useParams();
  const navigate = useNavigate();
  const location = useLocation();
  const workspaceId = given ?? params.workspace_id ?? '';
  const q = useKnowledgeQuery();
  useDatasetCrumb(workspaceId, q.datasetId);
  const stateFiles = (location.state as SliceState | null)?.files;

  const sources = useMemo<DocumentSource[]>(() => {
    if (q.kind === 'url') return q.url ? [{ key: q.url, name: q.name || q.url, url: q.url }] : [];
    const names = new Map((stateFiles ?? []).map((f) => [f.id, f.name]));
    return q.fileIds.map((id) => ({ key: id, name: names.get(id) ?? id, file_id: id }));
  }, [q.kind, q.url, q.name, q.fileIds.join(','), stateFiles]);

  const [form, setForm] = useState<SegmentationForm>(SEGMENTATION_DEFAULTS);
  const [showErrors, setShowErrors] = useState(false);
  const [chosen, setChosen] = useState('');
  const [preview, setPreview] = useState<{ status: 'idle' | 'loading' | 'ready' | 'error'; segments: SegmentPreview[]; total: number; error?: string }>({ status: 'idle', segments: [], total: 0 });
  const [saving, setSaving] = useState(false);
  const errors = segmentationErrors(form);
  const valid = Object.keys(errors).length === 0;
  const source = sources.find((x) => x.key === chosen) ?? sources[0];
  const table = q.kind === 'table' ? { sheet: q.sheet, header_row: q.headerRow ?? 1 } : undefined;

  // Live preview: debounced, and only of valid settings (the form shows why otherwise).
  useEffect(() => {
    if (!source || !valid) return;
    let live = true;
    const timer = setTimeout(() => {
      setPreview((p) => ({ ...p, status: 'loading' }));
      api.previewSegments(workspaceId, q.datasetId, { source, settings: form, table }).then(
        (r) => live && setPreview({ status: 'ready', segments: r.segments, total: r.total }),
        (e: unknown) => live && setPreview({ status: 'error', segments: [], total: 0, error: describeError(e, 'silent')?.text }),
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [api, workspaceId, q.datasetId, source?.key, valid, JSON.stringify(form)]);

  const save = async () => {
    setShowErrors(true);
    if (!valid || sources.length === 0) return;
    setSaving(true);
    try {
      await api.createDocuments(workspaceId, q.datasetId, { sources, settings: form, table, update_frequency: q.updateFrequency || undefined });
      toast.success(t('slice.created', { count: sources.length }));
      navigate(knowledgePaths.units(workspaceId, q.datasetId));
    } catch (e) {
      reportError(e);
    } finally {
      setSaving(false);
    }
  };

  const back = q.kind === 'table' ? knowledgePaths.addTable(workspaceId, q.datasetId) : knowledgePaths.add(workspaceId, q.datasetId, q.kind === 'url' ? 'url' : 'text');

  return (
    <Page data-testid="knowledge-slice-page">
      <PageHeader title={t('slice.title')} description={t('slice.description')} />
      {sources.length === 0 ? (
        <EmptyState title={t('slice.noSource')} action={<Button asChild><Link to={back}>{t('common:actions.back')}</Link></Button>} />
      ) : (
        <div className={s.columns}>
          <section className={s.panel} aria-label={t('slice.settings')}>
            <h2 className={s.panelTitle}>{t('slice.settings')}</h2>
            <SliceSettings value={form} onChange={setForm} errors={errors} showErrors={showErrors || !valid} />
          </section>
          <section className={s.panel} aria-label={t('slice.preview')} data-testid="slice-preview">
            <div className={s.toolbar} style={{ marginBottom: 0 }}>
              <h2 className={s.panelTitle}>{t('slice.preview')}</h2>
              <span className={s.spacer} />
              {sources.length > 1 && (
                <Select size="sm" value={source?.key} onValueChange={setChosen} aria-label={t('slice.previewOf')} options={sources.map((x) => ({ value: x.key, label: x.name }))} />
              )}
              {valid && preview.status === 'ready' && <Badge variant="primary">{t('slice.segmentCount', { count: preview.total })}</Badge>}
            </div>
            {!valid ? (
              <p className={s.muted}>{t('slice.fixSettings')}</p>
            ) : preview.status === 'loading' || preview.status === 'idle' ? (
              <Spinner size={18} label={t('common:states.loading')} />
            ) : preview.status === 'error' ? (
              <p className={s.errorText} role="alert">
                {preview.error ?? t('slice.previewFailed')}
              </p>
            ) : preview.segments.length === 0 ? (
              <p className={s.muted}>{t('slice.previewEmpty')}</p>
            ) : (
              <ol className={s.segmentList}>
                {preview.segments.map((seg, i) => (
                  <li key={i} className={s.segment} data-testid="preview-segment">
                    <span className={s.segmentHead}>
                      <span>#{i + 1}</span>
                      <span>{t('slice.chars', { count: seg.content.length })}</span>
                    </span>
                    <p className={s.segmentText}>{seg.content}</p>
                    {seg.children?.map((c, j) => (
                      <p key={j} className={`${s.segmentText} ${s.segmentChild}`}>
                        {c}
                      </p>
                    ))}
                  </li>
                ))}
              </ol>
            )}
          </section>
        </div>
      )}
      <div className={s.footer}>
        <Button asChild>
          <Link to={back}>{t('common:actions.back')}</Link>
        </Button>
        <Button variant="primary" icon={<Check aria-hidden="true" />} loading={saving} disabled={sources.length === 0} onClick={() => void save()} data-testid="slice-save">
          {t('slice.save')}
        </Button>
      </div>
    </Page>
  );
}
