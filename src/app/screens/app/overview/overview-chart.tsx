/**
 * One overview chart drawn with Apache ECharts. Only the parts used are registered (bar and line
 * charts, grid, tooltip, legend, the SVG renderer) from `echarts/core`, and this module is imported
 * only by the overview page, which the router loads lazily: no other page downloads ECharts.
 * Colours, lines and text come from the design tokens (tokens.css), read again when the theme changes.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import type { OverviewDay } from '../../../../../schemas/app-api';
import { useTheme } from '../../../shell/theme';
import { dayLabel, dayValue, formatFigure, rateAxisMax, type ChartSpec, type SeriesTone } from './metrics';
import s from './overview.module.css';

echarts.use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

/** The token values a chart needs, as the page's CSS resolves them now. */
function readTokens() {
  const css = getComputedStyle(document.documentElement);
  const v = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return {
    tone: {
      primary: v('--color-primary', '#4263eb'),
      info: v('--color-info', '#0284c7'),
      success: v('--color-success', '#16a34a'),
      warning: v('--color-warning', '#d97706'),
      danger: v('--color-danger', '#dc2626'),
    } satisfies Record<SeriesTone, string>,
    text: v('--color-text-secondary', '#475467'),
    faint: v('--color-text-tertiary', '#667085'),
    axis: v('--color-border', '#eaecf0'),
    split: v('--color-border-subtle', '#f2f4f7'),
    tooltipBg: v('--color-tooltip-bg', '#101828'),
    tooltipText: v('--color-tooltip-text', '#ffffff'),
    font: v('--font-sans', 'system-ui, sans-serif'),
  };
}

export interface OverviewChartProps {
  spec: ChartSpec;
  days: readonly OverviewDay[];
  /** Translated series names, in the spec's order. */
  names: string[];
  locale: string;
  /** The accessible description (the chart's title and total). */
  label: string;
}

export function OverviewChart({ spec, days, names, locale, label }: OverviewChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  const theme = useTheme();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const c = echarts.init(el, null, { renderer: 'svg' });
    chart.current = c;
    // The card's width follows the window and the grid's columns.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => c.resize());
    observer?.observe(el);
    return () => {
      observer?.disconnect();
      c.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c) return;
    const tk = readTokens();
    const format = (n: number) => formatFigure(n, spec.format, locale);
    const spansYears = days.length > 0 && days[0].date.slice(0, 4) !== days[days.length - 1].date.slice(0, 4);
    const two = spec.series.length > 1;
    const highest = Math.max(0, ...spec.series.flatMap((x) => days.map((d) => dayValue(spec, d, x.figure) ?? 0)));
    const rateTop = spec.format === 'percent' ? rateAxisMax(highest) : undefined;
    c.setOption(
      {
        animationDuration: 300,
        textStyle: { fontFamily: tk.font, color: tk.text },
        // ECharts 6: the grid's box holds the axis labels (what containLabel did).
        grid: { left: 8, right: 12, top: two ? 30 : 12, bottom: 4, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
        legend: two ? { show: true, top: 0, right: 0, itemWidth: 14, itemHeight: 8, textStyle: { color: tk.text, fontSize: 12 } } : { show: false },
        tooltip: {
          trigger: 'axis',
          backgroundColor: tk.tooltipBg,
          borderWidth: 0,
          textStyle: { color: tk.tooltipText, fontSize: 12 },
          axisPointer: { type: spec.kind === 'bar' ? 'shadow' : 'line', lineStyle: { color: tk.axis }, shadowStyle: { color: 'rgba(127,127,127,0.08)' } },
          // A gap (a day without runs) has no value.
          valueFormatter: (v: unknown) => (typeof v === 'number' ? format(v) : '—'),
        },
        xAxis: {
          type: 'category',
          data: days.map((d) => dayLabel(d.date, spansYears)),
          axisLine: { lineStyle: { color: tk.axis } },
          axisTick: { show: false },
          axisLabel: { color: tk.faint, fontSize: 11, hideOverlap: true },
          boundaryGap: spec.kind === 'bar',
        },
        yAxis: {
          type: 'value',
          minInterval: spec.format === 'count' ? 1 : undefined,
          // Rates: 0 to 1%, 2%, 5%… in quarters (ECharts' own ticks gave 0.3%, 0.6%, 0.9% under a crowded 1%).
          max: rateTop,
          interval: rateTop === undefined ? undefined : rateTop / 4,
          splitNumber: 4,
          axisLabel: { color: tk.faint, fontSize: 11, formatter: (n: number) => format(n) },
          splitLine: { lineStyle: { color: tk.split } },
        },
        series: spec.series.map((one, i) => ({
          type: spec.kind,
          name: names[i],
          data: days.map((d) => dayValue(spec, d, one.figure)),
          itemStyle: { color: tk.tone[one.tone], borderRadius: spec.kind === 'bar' ? [3, 3, 0, 0] : undefined },
          lineStyle: spec.kind === 'line' ? { width: 2, color: tk.tone[one.tone] } : undefined,
          areaStyle: spec.kind === 'line' && !two ? { color: tk.tone[one.tone], opacity: 0.08 } : undefined,
          showSymbol: days.length <= 31,
          symbolSize: 5,
          barMaxWidth: 28,
        })),
      },
      { notMerge: true },
    );
  }, [spec, days, names, locale, theme]);

  return <div ref={box} className={s.chart} role="img" aria-label={label} data-testid={`chart-${spec.id}`} />;
}
