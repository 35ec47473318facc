import { Play, Square } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../ui/button';
import type { DebugApi } from './debug-api';
import { RunForm } from './run-form';
import { useRunTrace, type RunStore } from './run-store';
import { missingFields, toRunInputs, type RunField, type RunFormValues } from './start-fields';
import { JsonBlock, TraceView } from './trace-view';
import type { DebugRun } from './use-debug-run';
import s from './debug.module.css';

export interface WorkflowPanelProps {
  api: DebugApi;
  runs: RunStore;
  run: DebugRun;
  fields: readonly RunField[];
}

/** Workflow apps: the start form, run and stop, then the run's outputs and its trace. */
export function WorkflowPanel({ api, runs, run, fields }: WorkflowPanelProps) {
  const { t } = useTranslation('debug');
  const [values, setValues] = useState<RunFormValues>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [started, setStarted] = useState(false);
  const trace = useRunTrace(runs);

  const start = async () => {
    const lacking = missingFields(fields, values);
    setMissing(lacking);
    if (lacking.length) return;
    setStarted(true);
    await run.start('workflow', { inputs: toRunInputs(fields, values) });
  };

  const ended = trace.status !== 'running' && trace.status !== 'pending';
  return (
    <div className={s.workflow} data-testid="debug-workflow">
      <section className={s.section}>
        <h3 className={s.sectionTitle}>{t('inputs.title')}</h3>
        <RunForm fields={fields} values={values} onChange={setValues} missing={missing} upload={api.upload} disabled={run.running} />
        <div className={s.row}>
          {run.running ? (
            <Button variant="danger" size="sm" icon={<Square aria-hidden="true" />} onClick={() => void run.stop()} data-testid="workflow-stop">
              {t('chat.stop')}
            </Button>
          ) : (
            <Button variant="primary" size="sm" icon={<Play aria-hidden="true" />} onClick={() => void start()} data-testid="workflow-run">
              {t('workflow.run')}
            </Button>
          )}
        </div>
      </section>
      {started && trace.roots.length + (trace.runId ? 1 : 0) > 0 && (
        <>
          {ended && (
            <section className={s.section} data-testid="workflow-result">
              <h3 className={s.sectionTitle}>{t('workflow.outputs')}</h3>
              {trace.outputs && Object.keys(trace.outputs).length ? (
                <JsonBlock label={t('workflow.result')} value={trace.outputs} open testId="workflow-outputs" />
              ) : (
                <p className={s.muted}>{t('workflow.noOutputs')}</p>
              )}
            </section>
          )}
          <section className={s.section}>
            <h3 className={s.sectionTitle}>{t('workflow.trace')}</h3>
            <TraceView trace={trace} />
          </section>
        </>
      )}
    </div>
  );
}
