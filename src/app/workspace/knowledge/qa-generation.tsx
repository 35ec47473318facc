import { Sparkles } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { QaGeneration } from '../../../api/datasets-contract';
import { StatusBadge } from '../../../kit/widgets/status-badge';
import { Button, toast, Tooltip } from '../../../ui';
import { NoModelNotice } from '../../shell/no-model-notice';
import { reportError } from '../members/report-error';
import { useKnowledgeApi } from './knowledge-api';
import type { UnitRef } from './segments-panel';
import s from './knowledge.module.css';

/** How often a running Q&A generation is asked for its state (ms). */
export const QA_GENERATION_POLL_MS = 1500;

const ACTIVE = ['queued', 'running', 'cancelling'];
const TONES = { queued: 'warning', running: 'info', cancelling: 'warning', completed: 'success', failed: 'danger', cancelled: 'neutral' } as const;

/** The badge text of a generation's state. */
function useLabel() {
  const { t } = useTranslation('knowledge');
  return (g: QaGeneration) => {
    if (g.status === 'queued') return g.queue_position ? t('qaGen.queuedAt', { position: g.queue_position }) : t('qaGen.queued');
    if (g.status === 'running') return t('qaGen.running', { pct: Math.round(g.progress ?? 0) });
    if (g.status === 'completed' || g.status === 'failed' || g.status === 'cancelled' || g.status === 'cancelling') return t(`qaGen.${g.status}`);
    return g.status;
  };
}

/**
 * "Generate Q&A with AI" on a unit's Q&A screen: starts the unit's Q&A generation (the tenant's
 * default chat model writes pairs from the segments) and shows its state (queued with its place,
 * running with progress, done, failed with the reason) until it ends; then `onDone` reloads the pairs.
 */
export function QaGenerationControl({ workspaceId, datasetId, documentId, onDone }: UnitRef & { onDone: () => void }) {
  const { t } = useTranslation(['knowledge', 'common']);
  const api = useKnowledgeApi();
  const label = useLabel();
  const [gen, setGen] = useState<QaGeneration | null>(null);
  const [starting, setStarting] = useState(false);
  // No chat model: the button is off before the click and the notice says what is missing (issue 28).
  const [noModel, setNoModel] = useState(false);
  const done = useRef(onDone);
  done.current = onDone;
  const active = gen !== null && ACTIVE.includes(gen.status);

  const last = useRef<QaGeneration | null>(null);
  const show = (g: QaGeneration | null) => {
    last.current = g;
    setGen(g);
  };

  const read = useCallback(
    () =>
      api.qaGeneration(workspaceId, datasetId, documentId).then((g) => {
        const before = last.current;
        show(g);
        // Ended since the last look: the new pairs are there.
        if (before && ACTIVE.includes(before.status) && g && !ACTIVE.includes(g.status)) {
          done.current();
          if (g.status === 'completed') toast.success(t('qaGen.finished'));
        }
      }, reportError),
    [api, workspaceId, datasetId, documentId, t],
  );

  useEffect(() => {
    void read();
  }, [read]);

  useEffect(() => {
    let live = true;
    api.hasChatModel().then(
      (has) => live && setNoModel(!has),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api]);

  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => void read(), QA_GENERATION_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, gen, read]);

  const start = async () => {
    setStarting(true);
    try {
      show(await api.startQaGeneration(workspaceId, datasetId, documentId));
      toast.success(t('qaGen.started'));
    } catch (e) {
      reportError(e);
    } finally {
      setStarting(false);
    }
  };

  return (
    <div className={s.inline} data-testid="qa-generation">
      {noModel && <NoModelNotice />}
      {gen && (
        <Tooltip content={gen.error || undefined}>
          <span data-testid="qa-generation-state" data-status={gen.status}>
            <StatusBadge value={gen.status} label={label(gen)} tones={TONES} />
          </span>
        </Tooltip>
      )}
      <Button size="sm" icon={<Sparkles aria-hidden="true" />} loading={starting} disabled={active || noModel} onClick={() => void start()} data-testid="qa-generate">
        {t('qaGen.start')}
      </Button>
    </div>
  );
}
