import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DatasetDocument, TaskLog } from '../../../api/datasets-contract';
import { formatDateTime } from '../../../kit/widgets/datetime';
import { Badge, Dialog, DialogBody, DialogContent, DialogHeader, DialogTitle, Spinner } from '../../../ui';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import s from './knowledge.module.css';

const TONE = { info: 'neutral', warn: 'warning', error: 'danger' } as const;

/** The log lines of a unit's processing task (why it failed, what it did). */
export function TaskLogDialog({ workspaceId, datasetId, doc, onClose }: { workspaceId: string; datasetId: string; doc: DatasetDocument | null; onClose: () => void }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const [lines, setLines] = useState<TaskLog[] | null>(null);

  useEffect(() => {
    setLines(null);
    if (!doc) return;
    let live = true;
    api.taskLogs(workspaceId, datasetId, doc).then((l) => live && setLines(l), reportError);
    return () => {
      live = false;
    };
  }, [api, workspaceId, datasetId, doc]);

  return (
    <Dialog open={doc !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent size="lg" closeLabel={t('common:actions.close')} data-testid="task-log-dialog">
        <DialogHeader>
          <DialogTitle>{t('units.logsTitle', { name: doc?.name ?? '' })}</DialogTitle>
        </DialogHeader>
        <DialogBody>
          {lines === null ? (
            <Spinner size={16} label={t('common:states.loading')} />
          ) : lines.length === 0 ? (
            <p className={s.muted}>{t('units.noLogs')}</p>
          ) : (
            <ol className={s.segmentList}>
              {lines.map((l, i) => (
                <li key={i} className={s.segmentHead}>
                  <span>{formatDateTime(l.time)}</span>
                  <Badge variant={TONE[l.level]}>{l.level}</Badge>
                  <span className={s.segmentText}>{l.message}</span>
                </li>
              ))}
            </ol>
          )}
        </DialogBody>
      </DialogContent>
    </Dialog>
  );
}
