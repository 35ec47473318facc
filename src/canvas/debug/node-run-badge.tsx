import { Hourglass } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNodeRunElapsed, useNodeRunStatus, useNodeRunWaiting } from './run-store';
import { formatElapsed, StatusIcon } from './trace-view';
import s from './debug.module.css';

export { useNodeRunStatus };

/**
 * What a canvas node shows of the debug run: its status (an icon, and the words for screen readers)
 * and, once it ended, how long it took; while it waits for a free sandbox, that (`data-waiting`).
 * The ring itself is the node's `data-run-status` attribute.
 * Reads only this node's values from the run store, so other nodes' changes do not re-render it.
 */
export function NodeRunBadge({ id }: { id: string }) {
  const { t } = useTranslation('debug');
  const status = useNodeRunStatus(id);
  const elapsed = useNodeRunElapsed(id);
  const waiting = useNodeRunWaiting(id);
  if (!status) return null;
  return (
    <span className={s.nodeBadge} data-testid={`node-run-${id}`} data-status={status} {...(waiting ? { 'data-waiting': 'true', title: t('trace.waiting') } : {})}>
      {waiting ? <Hourglass aria-hidden="true" className={s.statusIcon} /> : <StatusIcon status={status} />}
      {elapsed !== undefined && <span className={s.nodeElapsed}>{formatElapsed(t, elapsed)}</span>}
      <span className={s.srOnly}>{waiting ? t('trace.waiting') : t(`status.${status}`)}</span>
    </span>
  );
}
