/**
 * /operation/workspace/:workspace_id/knowledge-unit-details?dataset_id=…&document_id=…[&tab=…]: one
 * unit (spec 2): its segments (search, edit, enable or disable, add), its Q&A pairs (add, edit,
 * delete), the hit test of its knowledge base (with history), and its knowledge graph when graph
 * analysis has run.
 */
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import type { DatasetDocument } from '../../../api/datasets-contract';
import { formatBytes } from '../../../kit/widgets/upload-rules';
import { Badge, Button, EmptyState, Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui';
import { Page, PageHeader } from '../../shell/page';
import { reportError } from '../members/report-error';
import { GraphPanel } from './graph-panel';
import { HitTestPanel } from './hit-test-panel';
import { useKnowledgeApi } from './knowledge-api';
import { knowledgePaths, useKnowledgeQuery } from './knowledge-nav';
import { NoDataset } from './no-dataset';
import { QaPanel, SegmentsPanel } from './segments-panel';
import { unitView } from './unit-status';
import { useDatasetCrumb } from './dataset-crumb';
import { missingText } from '../../../api/reactions';
import { isApiError } from '../../../api/request';

const TABS = ['segments', 'qa', 'hit', 'graph'] as const;
type Tab = (typeof TABS)[number];

export default function KnowledgeUnitDetailsPage(props: { workspaceId?: string }) {
  const q = useKnowledgeQuery();
  return q.datasetId && q.documentId ? <UnitDetails {...props} /> : <NoDataset workspaceId={props.workspaceId} />;
}

function UnitDetails({ workspaceId: given }: { workspaceId?: string }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const params = useParams();
  const [, setSearch] = useSearchParams();
  const workspaceId = given ?? params.workspace_id ?? '';
  const q = useKnowledgeQuery();
  const [doc, setDoc] = useState<DatasetDocument | null>(null);
  /**
   * The unit (or its knowledge base) is missing: said once. The panels wait for the unit, as they
   * would fail too (a second message).
   */
  const [missing, setMissing] = useState<string | null>(null);
  useDatasetCrumb(workspaceId, q.datasetId);
  // Bumped when a panel changes the unit, so the header's counts follow.
  const [version, setVersion] = useState(0);
  const changed = useCallback(() => setVersion((n) => n + 1), []);
  const tab: Tab = (TABS as readonly string[]).includes(q.tab) ? (q.tab as Tab) : 'segments';
  const ref = { workspaceId, datasetId: q.datasetId, documentId: q.documentId };

  useEffect(() => {
    api.getDocument(workspaceId, q.datasetId, q.documentId).then(setDoc, (e: unknown) => {
      const text = isApiError(e) ? missingText(e.data) : undefined;
      if (text) setMissing(text);
      reportError(e, 'page');
    });
  }, [api, workspaceId, q.datasetId, q.documentId, version]);

  const v = doc ? unitView(doc) : null;

  return (
    <Page data-testid="knowledge-unit-details-page">
      <PageHeader
        title={doc?.name ?? t('details.title')}
        description={
          doc ? (
            <span>
              {doc.file_type.toUpperCase()} · {formatBytes(doc.size)} · {t('units.counts', { segments: doc.segment_count, qa: doc.qa_count, hits: doc.hit_count })}{' '}
              {v && <Badge variant={v.tone === 'primary' ? 'primary' : v.tone}>{t(v.labelKey as 'status.waiting', v.labelParams)}</Badge>}
            </span>
          ) : undefined
        }
      />
      {missing ? (
        <EmptyState
          title={missing}
          action={
            <Button size="sm" asChild>
              <Link to={knowledgePaths.units(workspaceId, q.datasetId)}>{t('common:actions.back')}</Link>
            </Button>
          }
        />
      ) : !doc ? null : (
      <Tabs
        value={tab}
        onValueChange={(next) =>
          setSearch(
            (sp) => {
              sp.set('tab', next);
              return sp;
            },
            { replace: true },
          )
        }
      >
        <TabsList aria-label={t('details.title')}>
          {TABS.map((x) => (
            <TabsTrigger key={x} value={x} data-testid={`details-tab-${x}`}>
              {t(`details.tabs.${x}`)}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="segments">
          <SegmentsPanel {...ref} onChanged={changed} />
        </TabsContent>
        <TabsContent value="qa">
          <QaPanel {...ref} onChanged={changed} />
        </TabsContent>
        <TabsContent value="hit">
          <HitTestPanel workspaceId={workspaceId} datasetId={q.datasetId} onTested={changed} />
        </TabsContent>
        <TabsContent value="graph">
          <GraphPanel {...ref} enabled={doc?.graph_status === 'enabled'} />
        </TabsContent>
      </Tabs>
      )}
    </Page>
  );
}
