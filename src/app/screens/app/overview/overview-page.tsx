/**
 * The overview tab of /operation/app/:appId/{agent-builder|agent-flow} (spec 2 "overview"; issue 22):
 * how the app is used over a period (spec 9: today, past 7, 30, 90 days, six months, all time), per
 * day in the browser's time zone: conversations and messages (chat apps) or runs (workflows), active
 * end users, tokens, average and p95 latency, error rate, each with its total over the period. An
 * empty state when nothing ran. Data comes through {@link OverviewApiContext}.
 */
import { ChartNoAxesColumn } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router';
import type { Overview } from '../../../../../schemas/app-api';
import type { AppDetail } from '../../../../../schemas/app';
import { LOG_PERIODS, type LogPeriod } from '../../../../../schemas/run-api';
import { Button } from '../../../../ui/button';
import { Card } from '../../../../ui/card';
import { EmptyState } from '../../../../ui/empty-state';
import { Skeleton } from '../../../../ui/skeleton';
import { Page } from '../../../shell/page';
import type { EditorContext } from '../editor-layout';
import { chartsFor, isEmptyOverview } from './metrics';
import { ChartCard } from './chart-card';
import { useOverviewApi } from './overview-api';
import s from './overview.module.css';

type OverviewApp = Pick<AppDetail, 'id' | 'workspace_id' | 'type'>;

export interface OverviewPageProps {
  /** Default: the app of the editor route. */
  app?: OverviewApp;
  /** Default: the browser's time zone. */
  timeZone?: string;
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export default function OverviewPage({ app: given, timeZone }: OverviewPageProps) {
  const { t, i18n } = useTranslation(['overview', 'runlog']);
  const context = useOutletContext<EditorContext | undefined>();
  const app = given ?? context?.app;
  const api = useOverviewApi();
  const [period, setPeriod] = useState<LogPeriod>('7d');
  const [overview, setOverview] = useState<Overview | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const zone = useMemo(() => timeZone ?? browserZone(), [timeZone]);
  const appId = app?.id ?? '';
  const workspaceId = app?.workspace_id ?? '';

  const load = useCallback(
    (live: { current: boolean } = { current: true }) => {
      if (!appId) return;
      setState('loading');
      api.get(appId, workspaceId, period, zone).then(
        (o) => {
          if (!live.current) return;
          setOverview(o);
          setState('ready');
        },
        () => live.current && setState('error'),
      );
    },
    [api, appId, workspaceId, period, zone],
  );
  useEffect(() => {
    const live = { current: true };
    load(live);
    return () => {
      live.current = false;
    };
  }, [load]);

  if (!app) return null;
  const charts = chartsFor(app.type);
  const locale = i18n.language;
  return (
    <Page data-testid="overview-page">
      <div className={s.header}>
        <p className={s.help}>{t('help', { zone })}</p>
        <div className={s.periods} role="radiogroup" aria-label={t('runlog:period.label')} data-testid="overview-periods">
          {LOG_PERIODS.map((p) => (
            <button key={p} type="button" role="radio" aria-checked={period === p} className={s.period} onClick={() => setPeriod(p)} data-testid={`overview-period-${p}`}>
              {t(`runlog:period.${p}`)}
            </button>
          ))}
        </div>
      </div>
      {state === 'error' ? (
        <EmptyState
          title={t('loadFailed')}
          action={
            <Button variant="secondary" onClick={() => load()}>
              {t('retry')}
            </Button>
          }
          data-testid="overview-error"
        />
      ) : overview === null ? (
        <div className={s.grid} aria-busy="true">
          {charts.map((c) => (
            <Card key={c.id} className={s.card}>
              <Skeleton height={16} width="40%" />
              <Skeleton height={200} />
            </Card>
          ))}
        </div>
      ) : isEmptyOverview(overview.totals) ? (
        <EmptyState icon={<ChartNoAxesColumn aria-hidden="true" />} title={t('empty.title')} description={t(app.type === 'workflow' ? 'empty.workflow' : 'empty.chat')} data-testid="overview-empty" />
      ) : (
        <div className={s.grid} aria-busy={state === 'loading' || undefined} data-period={overview.period}>
          {charts.map((c) => (
            <ChartCard key={c.id} spec={c} overview={overview} locale={locale} />
          ))}
        </div>
      )}
    </Page>
  );
}
