import { AlertTriangle, Ban, CheckCircle2, CircleDashed, Loader2, SkipForward, XCircle } from 'lucide-react';
import type { TFunction } from 'i18next';
import { createContext, useContext } from 'react';
import { useTranslation } from 'react-i18next';
import type { NodeRunStatus, RunStatus } from '../../../schemas/run';
import { Badge, type BadgeVariant } from '../../ui/badge';
import { cn } from '../../ui/cn';
import { codeText, hasText, tDynamic } from '../../i18n';
import type { RunTrace, TraceItem, TraceRound } from './trace';
import { traceTokens } from './trace';
import s from './debug.module.css';

/**
 * A run's trace: one row per node execution (status, time, tokens) that opens on its inputs,
 * outputs, error and streamed text; iteration and loop executions open on their rounds by index,
 * each round on the executions inside it. Used under each chat answer, after a workflow run and in
 * the log's run details.
 */

type AnyStatus = NodeRunStatus | RunStatus | 'pending';

export const STATUS_TONES: Record<AnyStatus, BadgeVariant> = {
  pending: 'neutral',
  running: 'info',
  succeeded: 'success',
  exception: 'warning',
  failed: 'danger',
  stopped: 'neutral',
  skipped: 'neutral',
};

const ICONS: Record<AnyStatus, typeof CheckCircle2> = {
  pending: CircleDashed,
  running: Loader2,
  succeeded: CheckCircle2,
  exception: AlertTriangle,
  failed: XCircle,
  stopped: Ban,
  skipped: SkipForward,
};

/**
 * The translated title of a node kind (the editor's and the log's registry give it): an untitled
 * node shows by its kind's title, a titled one has its kind's title beside it. Without it the trace
 * shows the node id and the kind id.
 */
export const TraceTitleContext = createContext<((kind: string) => string | undefined) | null>(null);

/** `850 ms`, `12.35 s`. */
export function formatElapsed(t: TFunction<'debug'>, ms: number | undefined): string {
  if (ms === undefined) return '';
  return ms < 1000 ? t('elapsed.ms', { value: Math.round(ms) }) : t('elapsed.s', { value: (ms / 1000).toFixed(2) });
}

export function StatusIcon({ status, className }: { status: AnyStatus; className?: string }) {
  const Icon = ICONS[status] ?? CircleDashed;
  return <Icon aria-hidden="true" className={cn(s.statusIcon, status === 'running' && s.spin, className)} data-status={status} />;
}

export function RunStatusBadge({ status }: { status: AnyStatus }) {
  const { t } = useTranslation('debug');
  return (
    <Badge variant={STATUS_TONES[status] ?? 'neutral'} dot data-testid="run-status">
      {t(`status.${status}`)}
    </Badge>
  );
}

/** A JSON value that opens on demand (closed by default: outputs can be long). */
export function JsonBlock({ label, value, open, testId }: { label: string; value: unknown; open?: boolean; testId?: string }) {
  let text: string;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  } catch {
    text = String(value);
  }
  return (
    <details className={s.json} open={open} data-testid={testId}>
      <summary>{label}</summary>
      <pre>{text}</pre>
    </details>
  );
}

const isEmpty = (v: Record<string, unknown> | undefined) => !v || Object.keys(v).length === 0;

/**
 * An agent team's turn: the agents it went through (the entry agent's `agents` output), when it
 * handed off at least once. Each with its title, and why the one before handed over.
 */
function handoffChain(item: TraceItem): { id: string; title: string; reason?: string }[] | null {
  const agents = item.outputs?.agents;
  if (!Array.isArray(agents) || agents.length < 2) return null;
  return agents.map((a: { id?: unknown; title?: unknown; reason?: unknown }, i) => ({
    id: String(a.id ?? ''),
    title: String(a.title || a.id || ''),
    ...(i > 0 && typeof (agents[i - 1] as { reason?: unknown }).reason === 'string' ? { reason: String((agents[i - 1] as { reason: string }).reason) } : {}),
  }));
}

function HandoffChain({ item }: { item: TraceItem }) {
  const { t } = useTranslation('debug');
  const chain = handoffChain(item);
  if (!chain) return null;
  return (
    <p className={s.muted} data-testid="trace-handoffs">
      {t('trace.handoffs')}{' '}
      {chain.map((a, i) => (
        <span key={`${a.id}-${i}`} data-agent={a.id}>
          {i > 0 && ' → '}
          <strong>{a.title}</strong>
          {a.reason && <span title={a.reason}> ({a.reason})</span>}
        </span>
      ))}
    </p>
  );
}

/**
 * A run or node error: what happened in the reader's language (the code's own text, else its family's:
 * MODEL-…, HTTP-…), the server's message with the details, and the code itself for a bug report.
 */
function RunErrorLine({ error, role }: { error: { code: string; message: string }; role: 'note' | 'alert' }) {
  const { t } = useTranslation('debug');
  const family = error.code.split('-')[0] ?? '';
  const headline = codeText(error.code) ?? (hasText(`debug:trace.errorKind.${family}`) ? tDynamic(`debug:trace.errorKind.${family}`) : t('trace.error'));
  return (
    <p className={s.itemError} role={role} data-testid="trace-error">
      <strong>{headline}</strong>
      {error.message && error.message !== headline ? `: ${error.message}` : ''} <span title={error.code}>{error.code}</span>
    </p>
  );
}

function ItemDetails({ item }: { item: TraceItem }) {
  const { t } = useTranslation('debug');
  return (
    <div className={s.itemBody}>
      {item.error && <RunErrorLine error={item.error} role="note" />}
      {item.retries > 0 && <p className={s.muted}>{t('trace.retries', { count: item.retries })}</p>}
      {item.waitedMs !== undefined && item.waitedMs > 0 && (
        <p className={s.muted} data-testid="trace-waited">
          {t('trace.waited', { elapsed: formatElapsed(t, item.waitedMs) })}
        </p>
      )}
      {item.handle && item.handle !== 'source' && <p className={s.muted}>{t('trace.branch', { handle: item.handle })}</p>}
      <HandoffChain item={item} />
      {!isEmpty(item.inputs) && <JsonBlock label={t('trace.inputs')} value={item.inputs} testId="trace-inputs" />}
      {!isEmpty(item.outputs) && <JsonBlock label={t('trace.outputs')} value={item.outputs} testId="trace-outputs" />}
      {item.status === 'running' && item.text && <JsonBlock label={t('trace.text')} value={item.text} open />}
    </div>
  );
}

function Round({ trace, round, depth }: { trace: RunTrace; round: TraceRound; depth: number }) {
  const { t } = useTranslation('debug');
  return (
    <details className={s.round} data-testid={`trace-round-${round.index}`}>
      <summary>{t('trace.round', { index: round.index + 1 })}</summary>
      {round.variables && !isEmpty(round.variables) && <JsonBlock label={t('trace.loopVariables')} value={round.variables} />}
      <ol className={s.traceList}>
        {round.ids.map((id) => (
          <TraceRow key={id} trace={trace} id={id} depth={depth + 1} />
        ))}
      </ol>
    </details>
  );
}

function TraceRow({ trace, id, depth }: { trace: RunTrace; id: string; depth: number }) {
  const { t } = useTranslation('debug');
  const titleOf = useContext(TraceTitleContext);
  const item = trace.items[id];
  if (!item) return null;
  const tokens = item.usage?.totalTokens;
  const kindName = titleOf?.(item.kind);
  const title = item.title || kindName || item.nodeId;
  const kindLabel = item.title || !kindName ? (kindName ?? item.kind) : undefined;
  // An agent team's turn that a member answered: the last agent of the chain.
  const answeredBy = item.outputs?.answered_by ? handoffChain(item)?.at(-1) : undefined;
  return (
    <li className={s.traceRow} data-testid={`trace-item-${item.nodeId}`} data-status={item.status}>
      <details>
        <summary className={s.traceSummary}>
          <StatusIcon status={item.status} />
          <span className={s.traceTitle}>{title}</span>
          {kindLabel && <span className={s.traceKind}>{kindLabel}</span>}
          {item.rounds && <span className={s.muted}>{t('trace.rounds', { count: item.rounds.length })}</span>}
          {item.status === 'running' && item.waiting && (
            <span className={s.muted} data-testid="trace-waiting" role="status">
              {item.waiting.ahead > 0 ? t('trace.waitingAhead', { count: item.waiting.ahead }) : t('trace.waiting')}
            </span>
          )}
          {answeredBy && (
            <span className={s.muted} data-testid="trace-answered-by">
              {t('trace.answeredBy', { agent: answeredBy.title })}
            </span>
          )}
          <span className={s.traceMeta}>
            {tokens ? <span title={t('trace.tokens')}>{t('trace.tokensCount', { count: tokens })}</span> : null}
            {item.elapsedMs !== undefined && <span title={t('trace.elapsed')}>{formatElapsed(t, item.elapsedMs)}</span>}
          </span>
          <span className={s.srOnly}>{t(`status.${item.status}`)}</span>
        </summary>
        <ItemDetails item={item} />
        {item.rounds && item.rounds.length > 0 && (
          <div className={s.rounds}>
            {item.rounds.map((r) => (
              <Round key={r.index} trace={trace} round={r} depth={depth} />
            ))}
          </div>
        )}
      </details>
    </li>
  );
}

export interface TraceViewProps {
  trace: RunTrace;
  /** Shows the run's status, time, tokens and steps above the nodes (default true). */
  summary?: boolean;
  /** Leaves the status badge out of the summary (the caller shows it already). */
  hideStatus?: boolean;
  className?: string;
}

/** @example <TraceView trace={buildTrace(events)} /> */
export function TraceView({ trace, summary = true, hideStatus, className }: TraceViewProps) {
  const { t } = useTranslation('debug');
  return (
    <div className={cn(s.trace, className)} data-testid="trace-view" data-status={trace.status}>
      {summary && (
        <div className={s.traceHeader}>
          {!hideStatus && <RunStatusBadge status={trace.status} />}
          {trace.elapsedMs !== undefined && (
            <span className={s.muted}>
              {t('trace.total', { elapsed: formatElapsed(t, trace.elapsedMs), tokens: traceTokens(trace), steps: trace.steps ?? Object.keys(trace.items).length })}
            </span>
          )}
        </div>
      )}
      {trace.error && <RunErrorLine error={trace.error} role="alert" />}
      {trace.roots.length === 0 ? (
        <p className={s.muted}>{t('trace.empty')}</p>
      ) : (
        <ol className={s.traceList}>
          {trace.roots.map((id) => (
            <TraceRow key={id} trace={trace} id={id} depth={0} />
          ))}
        </ol>
      )}
    </div>
  );
}
