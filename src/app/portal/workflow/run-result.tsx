import { CircleAlert, CircleCheck, CircleDashed, CircleSlash, CircleX, Loader2, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { codeText } from '../../../i18n';
import { MarkdownView } from '../chat/markdown-view';
import { secondsText, type RunStep, type WorkflowRunView } from './workflow-state';
import s from './workflow.module.css';

const STEP_ICONS: Record<string, typeof CircleCheck> = {
  running: Loader2,
  succeeded: CircleCheck,
  exception: TriangleAlert,
  failed: CircleX,
  stopped: CircleSlash,
};

/** The run's steps in order, each with its state and time. */
export function RunSteps({ steps }: { steps: readonly RunStep[] }) {
  const { t } = useTranslation('portal');
  return (
    <ol className={s.steps} data-testid="workflow-steps">
      {steps.map((step) => {
        const Icon = STEP_ICONS[step.status] ?? CircleDashed;
        return (
          <li key={step.node_id} className={s.step} data-status={step.status} data-testid="workflow-step">
            <Icon aria-hidden="true" className={step.status === 'running' ? s.spin : undefined} />
            <span className={s.stepTitle}>{step.title || step.kind}</span>
            <span className={s.stepState}>
              {t(`workflow.status.${step.status}` as 'workflow.status.running', { defaultValue: step.status })}
              {step.status !== 'running' && step.elapsed_ms > 0 && ` · ${t('workflow.seconds', { seconds: secondsText(step.elapsed_ms) })}`}
            </span>
          </li>
        );
      })}
    </ol>
  );
}

/** One output: text as markdown, anything else as JSON. */
function OutputValue({ value }: { value: unknown }) {
  if (typeof value === 'string') return <MarkdownView text={value} />;
  return <pre className={s.json}>{JSON.stringify(value, null, 2)}</pre>;
}

/** The run's outputs (or its error), each under its name. */
export function RunResult({ run }: { run: WorkflowRunView }) {
  const { t } = useTranslation('portal');
  const entries = Object.entries(run.outputs);
  return (
    <div className={s.result} data-testid="workflow-result" data-status={run.status}>
      {run.error && run.status !== 'stopped' && (
        <p className={s.error} role="alert">
          <CircleAlert aria-hidden="true" />
          {t('workflow.runFailed', { message: codeText(run.error.code) ?? run.error.message })}
        </p>
      )}
      {entries.length === 0 && run.status === 'succeeded' && <p className={s.muted}>{t('workflow.outputsEmpty')}</p>}
      {entries.map(([name, value]) => (
        <section key={name} className={s.output} data-testid="workflow-output" data-name={name}>
          <h3 className={s.outputName}>{name}</h3>
          <OutputValue value={value} />
        </section>
      ))}
    </div>
  );
}
