/**
 * Which charts the overview draws for an app's mode, and how their figures read. Pure.
 * Chat apps count conversations and messages; workflows count runs (schemas/app-api.ts OverviewDay).
 */
import type { OverviewDay } from '../../../../../schemas/app-api';
import type { FlowMode } from '../../../../../schemas/flow';
import { isChatMode } from '../../../../../schemas/flow';

type Figures = Omit<OverviewDay, 'date'>;
export type Figure = keyof Figures;
export type FigureFormat = 'count' | 'ms' | 'percent';
/** A token of tokens.css that colours a series. */
export type SeriesTone = 'primary' | 'info' | 'success' | 'warning' | 'danger';

export interface ChartSpec {
  /** The i18n key under `overview:charts` and the test id. */
  id: string;
  kind: 'bar' | 'line';
  format: FigureFormat;
  /** One series, or two (average and p95 latency). */
  series: { figure: Figure; tone: SeriesTone }[];
  /** A figure per run (latency, error rate): a day without runs has none, drawn as a gap rather than 0. */
  perRun?: boolean;
}

const CHAT_CHARTS: ChartSpec[] = [
  { id: 'conversations', kind: 'bar', format: 'count', series: [{ figure: 'conversations', tone: 'primary' }] },
  { id: 'messages', kind: 'bar', format: 'count', series: [{ figure: 'messages', tone: 'info' }] },
];
const WORKFLOW_CHARTS: ChartSpec[] = [{ id: 'runs', kind: 'bar', format: 'count', series: [{ figure: 'runs', tone: 'primary' }] }];
const SHARED_CHARTS: ChartSpec[] = [
  { id: 'activeUsers', kind: 'bar', format: 'count', series: [{ figure: 'active_users', tone: 'success' }] },
  { id: 'tokens', kind: 'line', format: 'count', series: [{ figure: 'tokens', tone: 'warning' }] },
  {
    id: 'latency',
    kind: 'line',
    format: 'ms',
    perRun: true,
    series: [
      { figure: 'avg_latency_ms', tone: 'primary' },
      { figure: 'p95_latency_ms', tone: 'info' },
    ],
  },
  { id: 'errorRate', kind: 'line', format: 'percent', perRun: true, series: [{ figure: 'error_rate', tone: 'danger' }] },
];

/** The charts of an app's overview, in order. */
export const chartsFor = (mode: FlowMode): ChartSpec[] => [...(isChatMode(mode) ? CHAT_CHARTS : WORKFLOW_CHARTS), ...SHARED_CHARTS];

/** Nothing ran in the period: the empty state instead of flat charts. */
export const isEmptyOverview = (totals: Figures): boolean => totals.runs === 0 && totals.conversations === 0 && totals.messages === 0;

/**
 * A figure as text in the UI's language: counts grouped (12,345; large ones shortened: 1.2M),
 * latency in ms under a second and in seconds above, rates as percentages.
 * @example formatFigure(1530, 'ms', 'en') // '1.53 s'
 */
export function formatFigure(value: number, format: FigureFormat, locale: string): string {
  if (!Number.isFinite(value)) return '—';
  if (format === 'percent') return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: value > 0 && value < 0.01 ? 2 : 1 }).format(value);
  if (format === 'ms') {
    if (value < 1000) return `${Math.round(value)} ms`;
    return `${new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value / 1000)} s`;
  }
  if (Math.abs(value) >= 100_000) return new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(value);
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** A day's value of a chart's figure; null (a gap) for a per-run figure on a day without runs. */
export const dayValue = (spec: Pick<ChartSpec, 'perRun'>, day: OverviewDay, figure: Figure): number | null => (spec.perRun && day.runs === 0 ? null : day[figure]);

const RATE_STEPS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1];
/** The top of a rate axis: the smallest of 1%, 2%, 5%… 100% that holds the highest rate (quarters read well). */
export const rateAxisMax = (highest: number): number => RATE_STEPS.find((m) => highest <= m) ?? 1;

/** An axis label of a day: `MM-DD`, with the year when the period spans more than one. */
export function dayLabel(date: string, spansYears: boolean): string {
  return spansYears ? date : date.slice(5);
}
