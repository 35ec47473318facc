import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GraphQueryResult, GraphReference } from '../../../api/datasets-contract';
import { Badge, Button, EmptyState, Field, Input, Spinner } from '../../../ui';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import type { UnitRef } from './segments-panel';
import s from './knowledge.module.css';

/**
 * The knowledge graph of a unit (when its graph analysis ran): a query box over the graph, and the
 * entities and relations the unit contributed (graph-references).
 */
export function GraphPanel({ workspaceId, datasetId, documentId, enabled }: UnitRef & { enabled: boolean }) {
  const { t } = useTranslation(['knowledge', 'common', 'kit']);
  const api = useKnowledgeApi();
  const [refs, setRefs] = useState<GraphReference[] | null>(null);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);
  const [answer, setAnswer] = useState<GraphQueryResult | null>(null);

  useEffect(() => {
    if (!enabled) return;
    api.graphReferences(workspaceId, datasetId, documentId).then(setRefs, reportError);
  }, [api, workspaceId, datasetId, documentId, enabled]);

  if (!enabled) return <EmptyState size="sm" title={t('graphPanel.off')} description={t('graphPanel.offHint')} data-testid="graph-off" />;

  const run = async () => {
    if (!query.trim()) return setError(t('kit:validation.required'));
    setRunning(true);
    try {
      setAnswer(await api.graphQuery(workspaceId, datasetId, query.trim()));
    } catch (e) {
      reportError(e);
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className={s.columns} data-testid="graph-panel">
      <section className={s.panel}>
        <Field label={t('graphPanel.query')} required error={error}>
          <Input
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              setError(null);
            }}
            onKeyDown={(e) => e.key === 'Enter' && void run()}
          />
        </Field>
        <Button variant="primary" icon={<Search aria-hidden="true" />} loading={running} onClick={() => void run()}>
          {t('graphPanel.run')}
        </Button>
        {answer && (
          <ul className={s.segmentList}>
            {answer.relations.length === 0 && <p className={s.muted}>{t('hit.noResults')}</p>}
            {answer.relations.map((r, i) => (
              <li key={i} className={s.segment}>
                <span className={s.inline}>
                  <Badge variant="primary">{r.source}</Badge>→<Badge variant="neutral">{r.relation}</Badge>→<Badge variant="primary">{r.target}</Badge>
                  <span className={s.score}>{r.score.toFixed(3)}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className={s.panel}>
        <h3 className={s.panelTitle}>{t('graphPanel.references')}</h3>
        {refs === null ? (
          <Spinner size={16} label={t('common:states.loading')} />
        ) : refs.length === 0 ? (
          <p className={s.muted}>{t('graphPanel.noReferences')}</p>
        ) : (
          <ul className={s.segmentList}>
            {refs.map((r, i) => (
              <li key={i} className={s.segment}>
                <span className={s.inline}>
                  <Badge variant="primary">{r.source}</Badge>→<Badge variant="neutral">{r.relation}</Badge>→<Badge variant="primary">{r.target}</Badge>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
