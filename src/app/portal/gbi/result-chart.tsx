/**
 * The chart the server chose from the result's shape (bar, line, pie, a single number). echarts is
 * imported when the first chart is drawn (echarts-setup.ts, its own chunk).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GbiChart, GbiResult } from '../../../../schemas/gbi';
import s from './gbi.module.css';

/** The echarts option for a chart of a result (pure: kept apart from the drawing). */
export function chartOption(chart: GbiChart, result: Pick<GbiResult, 'columns' | 'rows'>) {
  const cat = chart.category ?? 0;
  const labels = result.rows.map((r) => String(r[cat] ?? ''));
  if (chart.kind === 'pie') {
    const v = chart.values[0];
    return {
      tooltip: { trigger: 'item' },
      legend: { bottom: 0 },
      series: [{ type: 'pie', radius: ['35%', '65%'], name: result.columns[v].name, data: result.rows.map((r, i) => ({ name: labels[i], value: r[v] })) }],
    };
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: chart.values.length > 1 ? { bottom: 0 } : undefined,
    grid: { left: 48, right: 16, top: 16, bottom: chart.values.length > 1 ? 48 : 32 },
    xAxis: { type: 'category', data: labels },
    yAxis: { type: 'value' },
    series: chart.values.map((v) => ({ type: chart.kind, name: result.columns[v].name, data: result.rows.map((r) => r[v]), smooth: chart.kind === 'line' })),
  };
}

export function ResultChart({ chart, result }: { chart: GbiChart; result: GbiResult }) {
  const { t } = useTranslation('portal');
  const el = useRef<HTMLDivElement>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const drawn = chart.kind === 'bar' || chart.kind === 'line' || chart.kind === 'pie';
  useEffect(() => {
    if (!drawn || !el.current) return;
    let disposed = false;
    let dispose = () => {};
    void import('./echarts-setup')
      .then(({ echarts }) => {
        if (disposed || !el.current) return;
        const instance = echarts.init(el.current);
        instance.setOption(chartOption(chart, result));
        const resize = () => instance.resize();
        window.addEventListener('resize', resize);
        dispose = () => {
          window.removeEventListener('resize', resize);
          instance.dispose();
        };
        setReady(true);
      })
      // A chart that cannot be drawn leaves the table to answer; the page stays.
      .catch(() => setFailed(true));
    return () => {
      disposed = true;
      dispose();
    };
  }, [chart, result, drawn]);
  if (chart.kind === 'number') {
    const v = result.rows[0]?.[chart.values[0] ?? 0];
    return (
      <div className={s.number} data-testid="gbi-chart" data-kind="number">
        {typeof v === 'number' ? v.toLocaleString() : String(v ?? '')}
      </div>
    );
  }
  if (!drawn || failed) return null;
  return (
    <div>
      {!ready && <span className={s.muted}>{t('gbi.chartLoading')}</span>}
      <div ref={el} className={s.chart} data-testid="gbi-chart" data-kind={chart.kind} data-ready={ready || undefined} />
    </div>
  );
}
