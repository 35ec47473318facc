import { useTranslation } from 'react-i18next';
import type { WebRun } from '../../../../schemas/portal';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { Skeleton } from '../../../ui/skeleton';
import { secondsText } from './workflow-state';
import s from './workflow.module.css';

const TONES = { running: 'info', succeeded: 'success', failed: 'danger', stopped: 'neutral' } as const;

export interface RunHistoryProps {
  /** null while loading. */
  runs: readonly WebRun[] | null;
  activeId: string | null;
  onOpen: (run: WebRun) => void;
}

/** The user's past runs of this workflow, newest first; one opens in the result panel. */
export function RunHistory({ runs, activeId, onOpen }: RunHistoryProps) {
  const { t } = useTranslation('portal');
  if (runs === null)
    return (
      <div className={s.history} aria-busy="true">
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} height={40} />
        ))}
      </div>
    );
  if (runs.length === 0) return <p className={s.muted}>{t('workflow.historyEmpty')}</p>;
  return (
    <ul className={s.history} data-testid="workflow-history">
      {runs.map((run) => (
        <li key={run.id}>
          <button type="button" className={s.historyItem} aria-current={run.id === activeId ? 'true' : undefined} title={t('workflow.openRun')} onClick={() => onOpen(run)} data-testid="workflow-history-run">
            <span className={s.historyTime}>{formatDateTime(run.created_at)}</span>
            <StatusBadge value={run.status} label={t(`workflow.status.${run.status}`)} tones={TONES} />
            <span className={s.historyMeta}>
              {run.steps.length > 0 && `${t('workflow.steps', { count: run.steps.length })} · `}
              {t('workflow.elapsed', { seconds: secondsText(run.elapsed_ms) })}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
