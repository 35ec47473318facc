/**
 * One card of the overview: the figure's title, what it counts, its total over the period (latency:
 * average · p95) and its chart per day.
 */
import { useTranslation } from 'react-i18next';
import type { Overview } from '../../../../../schemas/app-api';
import { Card } from '../../../../ui/card';
import { formatFigure, type ChartSpec } from './metrics';
import { OverviewChart } from './overview-chart';
import s from './overview.module.css';

export function ChartCard({ spec, overview, locale }: { spec: ChartSpec; overview: Overview; locale: string }) {
  const { t } = useTranslation('overview');
  const names = spec.series.map((x) => t(`series.${x.figure}`));
  const title = t(`charts.${spec.id}.title` as 'charts.runs.title');
  // Latency shows both totals (average · p95); the others their one figure.
  const total = spec.series.map((x) => formatFigure(overview.totals[x.figure], spec.format, locale)).join(' · ');
  return (
    <Card className={s.card} data-testid={`chart-card-${spec.id}`}>
      <div className={s.cardHead}>
        <h3 className={s.cardTitle}>{title}</h3>
        <p className={s.cardHelp}>{t(`charts.${spec.id}.help` as 'charts.runs.help')}</p>
        <p className={s.total} data-testid={`total-${spec.id}`}>
          {total}
        </p>
      </div>
      <OverviewChart spec={spec} days={overview.days} names={names} locale={locale} label={t('chartLabel', { title, total })} />
    </Card>
  );
}
