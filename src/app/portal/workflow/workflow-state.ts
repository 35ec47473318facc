/**
 * A workflow run as the run page shows it: its steps in the order they started (title and state
 * only: end users do not see a node's inputs and outputs), then its outputs or its error. Pure; the
 * events come from the portal's run stream.
 */
import type { RunError, RunStatus } from '../../../../schemas/run';
import type { WebRun } from '../../../../schemas/portal';
import type { PortalStreamEvent } from '../../../api/portal-stream';

export interface RunStep {
  node_id: string;
  title: string;
  kind: string;
  /** running, succeeded, exception, failed, stopped. */
  status: string;
  elapsed_ms: number;
}

export interface WorkflowRunView {
  runId: string | null;
  status: RunStatus | 'idle';
  steps: RunStep[];
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  error: RunError | null;
  elapsed_ms: number;
}

export const idleRun = (): WorkflowRunView => ({ runId: null, status: 'idle', steps: [], inputs: {}, outputs: {}, error: null, elapsed_ms: 0 });

/** A run that is starting with these inputs. */
export const startingRun = (inputs: Record<string, unknown>): WorkflowRunView => ({ ...idleRun(), status: 'running', inputs });

/** A stored run (the history) as the page shows it. */
export const fromStoredRun = (run: WebRun): WorkflowRunView => ({
  runId: run.id,
  status: run.status,
  steps: run.steps,
  inputs: run.inputs,
  outputs: run.outputs,
  error: run.error,
  elapsed_ms: run.elapsed_ms,
});

function withStep(view: WorkflowRunView, step: Pick<RunStep, 'node_id'> & Partial<RunStep>): WorkflowRunView {
  const i = view.steps.findIndex((s) => s.node_id === step.node_id);
  if (i < 0) return { ...view, steps: [...view.steps, { title: '', kind: '', status: 'running', elapsed_ms: 0, ...step }] };
  const steps = [...view.steps];
  steps[i] = { ...steps[i], ...step };
  return { ...view, steps };
}

/** One event of the run's stream. Steps inside an iteration or loop show once, with their last state. */
export function withRunEvent(view: WorkflowRunView, e: PortalStreamEvent): WorkflowRunView {
  switch (e.type) {
    case 'run_created':
      return { ...view, runId: e.runId };
    case 'node_started':
      return withStep(view, { node_id: e.nodeId, title: e.title, kind: e.kind, status: 'running' });
    case 'node_finished':
      return withStep(view, { node_id: e.nodeId, title: e.title, kind: e.kind, status: e.status, elapsed_ms: e.elapsedMs });
    case 'node_failed':
      return withStep(view, { node_id: e.nodeId, title: e.title, kind: e.kind, status: e.status, elapsed_ms: e.elapsedMs });
    case 'run_finished':
      return { ...view, status: 'succeeded', outputs: e.outputs, elapsed_ms: e.elapsedMs };
    case 'run_failed':
      return { ...view, status: e.status, outputs: e.outputs, error: e.error, elapsed_ms: e.elapsedMs };
    default:
      return view;
  }
}

/** The stream ended or broke without its last event: a run still running failed (or was stopped). */
export function withRunEnd(view: WorkflowRunView, error: RunError | null, stopped: boolean): WorkflowRunView {
  if (view.status !== 'running') return view;
  const steps = view.steps.map((s) => (s.status === 'running' ? { ...s, status: stopped ? 'stopped' : 'failed' } : s));
  return stopped ? { ...view, steps, status: 'stopped' } : { ...view, steps, status: 'failed', error: error ?? { code: 'CLIENT-STREAM', message: '' } };
}

/** A duration in seconds with two decimals; a few milliseconds read "<0.01" (a step that ran is never "0.00"). */
export function secondsText(ms: number): string {
  return ms < 10 ? '<0.01' : (ms / 1000).toFixed(2);
}
