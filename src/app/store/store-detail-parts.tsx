/**
 * The type-specific parts of a store item's detail page (issue 23): an app's mode, version, the
 * resources its flow uses and a read-only view of the flow; a knowledge base's documents with a segment
 * preview; a prompt's content and variables; a tool's auth shape and functions with their parameter
 * tables (the kit's ParamTable, read-only). Presentational: data comes in by props (segments by a loader).
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FlowDocument, FlowMode } from '../../../schemas/flow';
import type { StoreSegmentPage, StoreSnapshot } from '../../../schemas/store';
import { ParamTable } from '../../kit/param-table';
import { Badge, Button, EmptyState, Spinner, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '../../ui';
import s from './store.module.css';

const FlowPreview = lazy(() => import('./flow-preview'));

type Snap<T extends StoreSnapshot['type']> = Extract<StoreSnapshot, { type: T }>;

export function Section({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <section className={s.section} data-testid={testId}>
      <h2 className={s.sectionTitle}>{title}</h2>
      {children}
    </section>
  );
}

export function AppParts({ snapshot }: { snapshot: Snap<'app'> }) {
  const { t } = useTranslation(['store', 'apps']);
  return (
    <>
      <Section title={t('detail.version')}>
        <p className={s.note}>
          <strong>{snapshot.version.version}</strong> {snapshot.version.description && `— ${snapshot.version.description}`}
        </p>
      </Section>
      <Section title={t('detail.references')} testId="store-app-references">
        {snapshot.references.length === 0 ? (
          <p className={s.note}>{t('detail.noReferences')}</p>
        ) : (
          <ul className={s.docList}>
            {snapshot.references.map((r) => (
              <li key={`${r.kind}:${r.source_id}`} className={s.inline}>
                <Badge variant="neutral">{t(`detail.refKinds.${r.kind}`)}</Badge>
                <span>{r.name || r.source_id}</span>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t('detail.flow')} testId="store-flow">
        <div className={s.flowBox}>
          <Suspense fallback={<Spinner label={t('detail.flowLoading')} />}>
            <FlowPreview document={snapshot.document as unknown as FlowDocument} mode={snapshot.mode as FlowMode} />
          </Suspense>
        </div>
      </Section>
    </>
  );
}

export interface DatasetPartsProps {
  snapshot: Snap<'dataset'>;
  loadSegments(documentId: string, page: number): Promise<StoreSegmentPage>;
}

export function DatasetParts({ snapshot, loadSegments }: DatasetPartsProps) {
  const { t } = useTranslation('store');
  const [doc, setDoc] = useState<string | null>(snapshot.documents[0]?.id ?? null);
  const [segments, setSegments] = useState<StoreSegmentPage | null>(null);
  useEffect(() => {
    if (!doc) return;
    let live = true;
    setSegments(null);
    loadSegments(doc, 1).then((p) => live && setSegments(p), () => live && setSegments({ items: [], total: 0, page: 1, page_size: 20 }));
    return () => {
      live = false;
    };
  }, [doc, loadSegments]);
  const more = async () => {
    if (!doc || !segments) return;
    const next = await loadSegments(doc, segments.page + 1);
    setSegments({ ...next, items: [...segments.items, ...next.items] });
  };
  return (
    <Section title={t('detail.documents')} testId="store-documents">
      <p className={s.note}>
        {t('detail.embedding')}: {snapshot.embedding ? `${snapshot.embedding.provider} / ${snapshot.embedding.model}` : t('detail.builtinEmbedding')}
      </p>
      <div className={s.split}>
        <ul className={s.docList}>
          {snapshot.documents.map((d) => (
            <li key={d.id}>
              <button type="button" className={s.docButton} aria-pressed={d.id === doc} onClick={() => setDoc(d.id)} data-testid="store-document">
                <span>{d.name}</span>
                <span className={s.factLabel}>
                  {t('detail.segmentCount', { count: d.segment_count })} · {t('detail.characters', { count: d.char_count })}
                </span>
              </button>
            </li>
          ))}
        </ul>
        <div aria-label={t('detail.segmentPreview')} data-testid="store-segments">
          {!doc ? (
            <p className={s.note}>{t('detail.chooseDocument')}</p>
          ) : segments === null ? (
            <Spinner />
          ) : segments.items.length === 0 ? (
            <EmptyState title={t('detail.noSegments')} />
          ) : (
            <>
              {segments.items.map((seg, i) => (
                <p key={seg.id} className={s.segment} data-testid="store-segment">
                  <span className={s.segmentNo}>#{i + 1}</span>
                  {seg.content}
                </p>
              ))}
              {segments.items.length < segments.total && (
                <Button size="sm" onClick={() => void more()}>
                  {t('detail.moreSegments')}
                </Button>
              )}
            </>
          )}
        </div>
      </div>
    </Section>
  );
}

export function PromptParts({ snapshot }: { snapshot: Snap<'prompt'> }) {
  const { t } = useTranslation('store');
  return (
    <>
      <div className={s.facts}>
        <Fact label={t('detail.templateType')} value={snapshot.template_type} />
        <Fact label={t('detail.scene')} value={t(`scenes.${snapshot.scene}` as never)} />
        <Fact label={t('detail.model')} value={snapshot.model ? `${snapshot.model.provider} / ${snapshot.model.name}` : '—'} />
      </div>
      <Section title={t('detail.content')} testId="store-prompt-content">
        <pre className={s.pre}>{snapshot.content}</pre>
      </Section>
      <Section title={t('detail.variables')} testId="store-prompt-variables">
        {snapshot.variables.length === 0 ? (
          <p className={s.note}>{t('detail.noVariables')}</p>
        ) : (
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('detail.variableName')}</TableHead>
                <TableHead>{t('detail.variableDescription')}</TableHead>
                <TableHead>{t('detail.variableDefault')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {snapshot.variables.map((v) => (
                <TableRow key={v.name}>
                  <TableCell>{v.name}</TableCell>
                  <TableCell>{v.description}</TableCell>
                  <TableCell>{v.default}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </Section>
    </>
  );
}

export function ToolParts({ snapshot }: { snapshot: Snap<'tool'> }) {
  const { t } = useTranslation('store');
  const auth = snapshot.auth;
  return (
    <>
      <div className={s.facts}>
        <Fact label={t('detail.toolType')} value={t(`toolTypes.${snapshot.tool_type}` as never)} />
        <Fact label={t('detail.auth')} value={`${t(`detail.authTypes.${auth.type}`)}${auth.key ? ` · ${auth.location}: ${auth.key}` : ''}`} />
      </div>
      {auth.type !== 'none' && <p className={s.note}>{t('detail.authNote')}</p>}
      {snapshot.tool_type === 'mcp' ? (
        <Section title={t('detail.mcpTools')}>
          <div className={s.inline}>
            {snapshot.mcp_enabled.map((name) => (
              <Badge key={name}>{name}</Badge>
            ))}
          </div>
        </Section>
      ) : (
        <Section title={t('detail.functions')} testId="store-functions">
          {snapshot.functions.length === 0 && <p className={s.note}>{t('detail.noFunctions')}</p>}
          {snapshot.functions.map((f) => (
            <div key={f.name} className={s.function} data-testid="store-function">
              <div className={s.functionHead}>
                <Badge variant="info">{f.method}</Badge>
                <span>{f.name}</span>
              </div>
              <p className={s.url}>{f.url}</p>
              {f.description && <p className={s.note}>{f.description}</p>}
              {f.params.length > 0 && <ParamBlock title={t('detail.params')} kind="params" rows={f.params} />}
              {f.headers.length > 0 && <ParamBlock title={t('detail.headers')} kind="headers" rows={f.headers} />}
              {f.body.length > 0 && <ParamBlock title={t('detail.body')} kind="body" rows={f.body} />}
              {f.response.length > 0 && <ParamBlock title={t('detail.response')} kind="response" rows={f.response} />}
            </div>
          ))}
        </Section>
      )}
    </>
  );
}

function ParamBlock({ title, kind, rows }: { title: string; kind: 'params' | 'headers' | 'body' | 'response'; rows: Snap<'tool'>['functions'][number]['params'] }) {
  return (
    <div className={s.section}>
      <h3 className={s.factLabel}>{title}</h3>
      <ParamTable kind={kind} value={rows} readOnly aria-label={title} />
    </div>
  );
}

export function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div className={s.fact}>
      <span className={s.factLabel}>{label}</span>
      <span>{value}</span>
    </div>
  );
}
