/**
 * /operation/workspace/:workspace_id/knowledge-unit-add-table?dataset_id=…: step 1 of adding a table
 * unit (spec 2, 5): one .xls, .xlsx or .csv file (size limit, no name the base already has) uploaded
 * with its progress; then its sheet (workbooks) and header row, with the headers that row gives
 * (the Excel sheets and headers endpoints). "Next" opens the segmentation settings.
 */
import { ArrowRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { Badge, Button, Field, Select, Spinner } from '../../../ui';
import { NumberInput } from '../../../kit/widgets/number-input';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import { knowledgePaths, useKnowledgeQuery } from './knowledge-nav';
import { NoDataset } from './no-dataset';
import { useTakenNames, type SliceState } from './knowledge-unit-add-page';
import { UploadQueue, type QueuedFile } from './upload-queue';
import s from './knowledge.module.css';
import { useDatasetCrumb } from './dataset-crumb';

export const HEADER_ROW_MAX = 100;

export default function KnowledgeUnitAddTablePage(props: { workspaceId?: string }) {
  const { datasetId } = useKnowledgeQuery();
  return datasetId ? <UnitAddTablePageScreen {...props} /> : <NoDataset workspaceId={props.workspaceId} />;
}

function UnitAddTablePageScreen({ workspaceId: given }: { workspaceId?: string }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = given ?? params.workspace_id ?? '';
  const q = useKnowledgeQuery();
  useDatasetCrumb(workspaceId, q.datasetId);
  const taken = useTakenNames(workspaceId, q.datasetId);
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [sheets, setSheets] = useState<string[] | null>(null);
  const [sheet, setSheet] = useState('');
  const [headerRow, setHeaderRow] = useState<number | null | undefined>(1);
  const [headers, setHeaders] = useState<string[] | null>(null);
  const [loadingHeaders, setLoadingHeaders] = useState(false);

  const stored = queue.find((f) => f.status === 'done')?.stored ?? null;

  useEffect(() => {
    setSheets(null);
    setSheet('');
    setHeaders(null);
    if (!stored) return;
    let live = true;
    api.excelSheets(workspaceId, q.datasetId, stored.id).then((list) => {
      if (!live) return;
      setSheets(list);
      setSheet(list[0] ?? '');
    }, reportError);
    return () => {
      live = false;
    };
  }, [api, workspaceId, q.datasetId, stored]);

  useEffect(() => {
    if (!stored || sheets === null || !headerRow) return;
    let live = true;
    setLoadingHeaders(true);
    api
      .excelHeaders(workspaceId, q.datasetId, stored.id, sheet, headerRow)
      .then((h) => live && setHeaders(h), (e: unknown) => live && (setHeaders(null), reportError(e)))
      .finally(() => live && setLoadingHeaders(false));
    return () => {
      live = false;
    };
  }, [api, workspaceId, q.datasetId, stored, sheets, sheet, headerRow]);

  const ready = stored !== null && !!headerRow && headers !== null && headers.length > 0;

  const next = () => {
    if (!stored || !headerRow) return;
    navigate(knowledgePaths.slice(workspaceId, q.datasetId, { kind: 'table', file_ids: [stored.id], sheet, header_row: headerRow }), {
      state: { files: [{ id: stored.id, name: stored.name }] } satisfies SliceState,
    });
  };

  return (
    <Page data-testid="knowledge-unit-add-table-page">
      <PageHeader title={t('addTable.title')} description={t('addTable.description')} />
      <div className={s.panel}>
        <UploadQueue kind="table" disabled={!taken.loaded} maxCount={1} taken={taken.names} value={queue} onChange={setQueue} upload={(file, o) => api.uploadFile(file, o)} />
        {stored && (
          <div className={s.formRow}>
            {sheets !== null && sheets.length > 0 && (
              <Field label={t('addTable.sheet')}>
                <Select value={sheet} onValueChange={setSheet} options={sheets.map((n) => ({ value: n, label: n }))} data-testid="table-sheet" />
              </Field>
            )}
            <Field label={t('addTable.headerRow')} required help={t('addTable.headerRowHelp')}>
              <NumberInput value={headerRow} onChange={setHeaderRow} min={1} max={HEADER_ROW_MAX} integer />
            </Field>
          </div>
        )}
        {stored && (
          <div className={s.stack} data-testid="table-headers">
            <span className={s.muted}>{t('addTable.headers')}</span>
            {loadingHeaders ? (
              <Spinner size={16} label={t('common:states.loading')} />
            ) : headers && headers.length > 0 ? (
              <div className={s.chips}>
                {headers.map((h, i) => (
                  <Badge key={`${i}-${h}`} variant="neutral">
                    {h || t('addTable.emptyHeader', { n: i + 1 })}
                  </Badge>
                ))}
              </div>
            ) : (
              <span className={s.errorText}>{t('addTable.noHeaders')}</span>
            )}
          </div>
        )}
      </div>
      <div className={s.footer}>
        <Button asChild>
          <Link to={knowledgePaths.units(workspaceId, q.datasetId)}>{t('common:actions.back')}</Link>
        </Button>
        <Button variant="primary" icon={<ArrowRight aria-hidden="true" />} disabled={!ready} onClick={next} data-testid="add-next">
          {t('add.next')}
        </Button>
      </div>
    </Page>
  );
}
