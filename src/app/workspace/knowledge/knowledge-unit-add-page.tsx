/**
 * /operation/workspace/:workspace_id/knowledge-unit-add?dataset_id=…[&source=url]: step 1 of adding
 * units (spec 2, 5, 9). Text files (.pdf .txt .doc .docx, the configured size and count limits, no
 * name the knowledge base already has), each uploaded with its own progress bar; or a web page URL
 * (http(s), not already in the base) with an update frequency (none, every day, 3, 7, 30 days).
 * "Next" opens the segmentation settings with the stored files or the URL.
 */
import { ArrowRight } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { UPDATE_FREQUENCIES, type UpdateFrequency } from '../../../api/datasets-contract';
import { translateMessage } from '../../../kit/i18n';
import { Button, Field, Input, Select, Tabs, TabsList, TabsTrigger } from '../../../ui';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import { knowledgePaths, useKnowledgeQuery } from './knowledge-nav';
import { NoDataset } from './no-dataset';
import { UploadQueue, type QueuedFile } from './upload-queue';
import { checkDocumentName, checkUrl, DOCUMENT_NAME_MAX, nameFromUrl } from './upload-rules';
import s from './knowledge.module.css';
import { useDatasetCrumb } from './dataset-crumb';

/** What the add pages hand to the segmentation page besides the query (names of the stored files). */
export interface SliceState {
  files?: { id: string; name: string }[];
}

/** The names and URLs of a knowledge base's units, for the duplicate rules. */
export function useTakenNames(workspaceId: string, datasetId: string) {
  const api = useKnowledgeApi();
  const [taken, setTaken] = useState<{ names: string[]; urls: string[]; loaded: boolean }>({ names: [], urls: [], loaded: false });
  useEffect(() => {
    api.listDocuments(workspaceId, datasetId, { page: 1, page_size: 1000, keyword: '' }).then(
      (p) => setTaken({ names: p.items.map((d) => d.name), urls: p.items.map((d) => d.source_url ?? '').filter(Boolean), loaded: true }),
      reportError,
    );
  }, [api, workspaceId, datasetId]);
  return taken;
}

export default function KnowledgeUnitAddPage(props: { workspaceId?: string }) {
  const { datasetId } = useKnowledgeQuery();
  return datasetId ? <UnitAddPageScreen {...props} /> : <NoDataset workspaceId={props.workspaceId} />;
}

function UnitAddPageScreen({ workspaceId: given }: { workspaceId?: string }) {
  const { t, i18n } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const params = useParams();
  const navigate = useNavigate();
  const workspaceId = given ?? params.workspace_id ?? '';
  const q = useKnowledgeQuery();
  useDatasetCrumb(workspaceId, q.datasetId);
  const [source, setSource] = useState<'text' | 'url'>(q.source === 'url' ? 'url' : 'text');
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [url, setUrl] = useState('');
  const [frequency, setFrequency] = useState<UpdateFrequency>('none');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const taken = useTakenNames(workspaceId, q.datasetId);

  const done = queue.filter((f) => f.status === 'done' && f.stored);
  const uploading = queue.some((f) => f.status === 'uploading');

  const next = () => {
    if (source === 'url') {
      const problem = checkUrl(url, taken.urls);
      const unitName = name.trim() || nameFromUrl(url);
      const nameProblem = checkDocumentName(unitName, taken.names);
      setUrlError(problem && translateMessage(i18n, problem));
      setNameError(nameProblem && translateMessage(i18n, nameProblem));
      if (problem || nameProblem) return;
      return navigate(knowledgePaths.slice(workspaceId, q.datasetId, { kind: 'url', url: url.trim(), name: unitName, update_frequency: frequency }));
    }
    const files = done.map((f) => ({ id: f.stored!.id, name: f.stored!.name }));
    navigate(knowledgePaths.slice(workspaceId, q.datasetId, { kind: 'text', file_ids: files.map((f) => f.id) }), { state: { files } satisfies SliceState });
  };

  return (
    <Page data-testid="knowledge-unit-add-page">
      <PageHeader title={t('add.title')} description={t('add.description')} />
      <Tabs value={source} onValueChange={(v) => setSource(v as 'text' | 'url')}>
        <TabsList variant="segmented" aria-label={t('add.source')}>
          <TabsTrigger value="text" data-testid="add-source-text">
            {t('add.sourceText')}
          </TabsTrigger>
          <TabsTrigger value="url" data-testid="add-source-url">
            {t('add.sourceUrl')}
          </TabsTrigger>
        </TabsList>
      </Tabs>
      <div className={s.panel} style={{ marginTop: 'var(--space-3)' }}>
        {source === 'text' ? (
          <UploadQueue kind="text" disabled={!taken.loaded} taken={taken.names} value={queue} onChange={setQueue} upload={(file, o) => api.uploadFile(file, o)} />
        ) : (
          <>
            <Field label={t('add.url')} required error={urlError}>
              <Input
                value={url}
                type="url"
                placeholder="https://"
                data-testid="add-url"
                onChange={(e) => {
                  setUrl(e.target.value);
                  setUrlError(null);
                }}
              />
            </Field>
            <Field label={t('add.name')} help={t('add.nameHelp')} error={nameError}>
              <Input
                value={name}
                maxLength={DOCUMENT_NAME_MAX}
                placeholder={nameFromUrl(url)}
                data-testid="add-name"
                onChange={(e) => {
                  setName(e.target.value);
                  setNameError(null);
                }}
              />
            </Field>
            <Field label={t('add.frequency')} help={t('add.frequencyHelp')}>
              <Select
                value={frequency}
                onValueChange={(v) => setFrequency(v as UpdateFrequency)}
                options={UPDATE_FREQUENCIES.map((f) => ({ value: f, label: t(`frequency.${f}`) }))}
                data-testid="add-frequency"
              />
            </Field>
          </>
        )}
      </div>
      <div className={s.footer}>
        <Button asChild>
          <Link to={knowledgePaths.units(workspaceId, q.datasetId)}>{t('common:actions.back')}</Link>
        </Button>
        <Button
          variant="primary"
          icon={<ArrowRight aria-hidden="true" />}
          disabled={source === 'text' ? done.length === 0 || uploading : url.trim() === ''}
          onClick={next}
          data-testid="add-next"
        >
          {t('add.next')}
        </Button>
      </div>
    </Page>
  );
}
