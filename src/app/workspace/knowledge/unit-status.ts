/**
 * What a knowledge unit's state means on screen (spec 4): upload (uploading, success, failed), then
 * processing (waiting, in queue with its position, segmenting/vectorising with progress, cancelling,
 * cancelled, done, failed), and the graph states (enabled, disabled, analysing, failed, cancelled,
 * not parseable) which only apply once vector analysis succeeded. Pure; no React.
 */
import type { StatusTone } from '../../../../schemas/ui';

/** The fields of a unit this module reads (a subset of the server's document). */
export interface UnitStateInput {
  upload_status?: string | null;
  status: string;
  progress?: number | null;
  queue_position?: number | null;
  graph_status?: string | null;
  error?: string | null;
}

export interface UnitView {
  /** i18n key (namespace knowledge) of the status text. */
  labelKey: string;
  labelParams?: Record<string, unknown>;
  tone: StatusTone;
  /** 0…100, or null for no bar. */
  percent: number | null;
  /** Still moving: the list keeps refreshing. */
  inProgress: boolean;
  /** A running task can be stopped. */
  canStop: boolean;
  /** A queued task can leave the queue. */
  canCancelQueue: boolean;
  /** Vector analysis done: segments, hit test and graph analysis may be used. */
  ready: boolean;
}

const clamp = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? Math.max(0, Math.min(100, n)) : 0);

/** The screen's reading of a unit. Unknown values read as their own key, neutral and idle. */
export function unitView(u: UnitStateInput): UnitView {
  const idle = { inProgress: false, canStop: false, canCancelQueue: false, ready: false };
  if (u.upload_status === 'uploading') return { ...idle, labelKey: 'status.uploading', tone: 'info', percent: clamp(u.progress), inProgress: true };
  if (u.upload_status === 'failed') return { ...idle, labelKey: 'status.uploadFailed', tone: 'danger', percent: null };
  switch (u.status) {
    case 'waiting':
      return { ...idle, labelKey: 'status.waiting', tone: 'warning', percent: 0, inProgress: true, canCancelQueue: true };
    case 'queued':
      return u.queue_position
        ? { ...idle, labelKey: 'status.queuedAt', labelParams: { position: u.queue_position }, tone: 'warning', percent: 0, inProgress: true, canCancelQueue: true }
        : { ...idle, labelKey: 'status.queued', tone: 'warning', percent: 0, inProgress: true, canCancelQueue: true };
    case 'parsing':
    case 'segmenting':
    case 'indexing':
    case 'running':
      return { ...idle, labelKey: `status.${u.status === 'running' ? 'indexing' : u.status}`, labelParams: { pct: Math.round(clamp(u.progress)) }, tone: 'info', percent: clamp(u.progress), inProgress: true, canStop: true };
    case 'cancelling':
      return { ...idle, labelKey: 'status.cancelling', tone: 'warning', percent: clamp(u.progress), inProgress: true };
    case 'cancelled':
      return { ...idle, labelKey: 'status.cancelled', tone: 'neutral', percent: null };
    case 'failed':
      return { ...idle, labelKey: 'status.failed', tone: 'danger', percent: null };
    case 'completed':
    case 'done':
    case 'success':
      return { ...idle, labelKey: 'status.completed', tone: 'success', percent: null, ready: true };
    default:
      return { ...idle, labelKey: `status.${u.status}`, tone: 'neutral', percent: null };
  }
}

export interface GraphView {
  labelKey: string;
  tone: StatusTone;
  inProgress: boolean;
  /** "Graph analysis" may be started (again). */
  canAnalyse: boolean;
}

const GRAPH_ALIASES: Record<string, string> = { none: 'disabled', not_parseable: 'unparseable' };

/** The graph column: only meaningful once vector analysis succeeded (spec 4). */
export function graphView(u: UnitStateInput): GraphView {
  const ready = unitView(u).ready;
  // The server's names (none, not_parseable) read as the screen's (disabled, unparseable).
  const raw = u.graph_status ?? 'disabled';
  const g = GRAPH_ALIASES[raw] ?? raw;
  const tone: Record<string, StatusTone> = { enabled: 'success', analysing: 'info', failed: 'danger', cancelled: 'neutral', unparseable: 'warning', disabled: 'neutral', queued: 'warning' };
  return {
    labelKey: `graph.${g}`,
    tone: tone[g] ?? 'neutral',
    inProgress: g === 'analysing' || g === 'queued',
    canAnalyse: ready && g !== 'analysing' && g !== 'queued' && g !== 'unparseable',
  };
}

/** Whether the list should keep polling: any unit (or its graph) still moving. */
export const anyInProgress = (units: readonly UnitStateInput[]) => units.some((u) => unitView(u).inProgress || graphView(u).inProgress);

/** How often the unit list refreshes while something moves (ms). */
export const POLL_MS = 2000;
