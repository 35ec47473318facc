import { useTranslation } from 'react-i18next';
import { useNodeRunElapsed, useNodeRunStatus } from './run-store';
import { formatElapsed, StatusIcon } from './trace-view';
import s from './debug.module.css';

export { useNodeRunStatus };

/**
 * What a canvas node shows of the debug run: its status (an icon, and the words for screen readers)
 * and, once it ended, how long it took. The ring itself is the node's `data-run-status` attribute.
 * Reads only this node's values from the run store, so other nodes' changes do not re-render it.
 */
export function NodeRunBadge({ id }: { id: string }) {
  const { t } = useTranslation('debug');
  const status = useNodeRunStatus(id);
  const elapsed = useNodeRunElapsed(id);
  if (!status) return null;
  return (
    <span className={s.nodeBadge} data-testid={`node-run-${id}`} data-status={status}>
      <StatusIcon status={status} />
      {elapsed !== undefined && <span className={s.nodeElapsed}>{formatElapsed(t, elapsed)}</span>}
      <span className={s.srOnly}>{t(`status.${status}`)}</span>
    </span>
  );
}
