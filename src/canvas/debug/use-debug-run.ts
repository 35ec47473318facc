import { useCallback, useEffect, useRef, useState } from 'react';
import { isAbortError } from '../../api/request';
import type { DraftChatBody, DraftWorkflowBody, RunStreamEvent } from '../../api/runs';
import type { AutosaveController } from '../autosave';
import type { DebugApi } from './debug-api';
import type { RunStore } from './run-store';
import type { RunTrace } from './trace';

/** Why a run did not start or broke off, for the pane to show. */
export type DebugRunError = { kind: 'unsaved' } | { kind: 'conflict' } | { kind: 'request'; error: unknown };

/**
 * Saves what the editor has not saved yet and tells whether the server now holds this draft (a run
 * executes the stored draft, not the screen's copy).
 */
export async function saveBeforeRun(autosave: AutosaveController): Promise<DebugRunError | null> {
  await autosave.flush();
  const snap = autosave.getSnapshot();
  if (snap.status === 'conflict') return { kind: 'conflict' };
  if (snap.status !== 'saved' || snap.dirty) return { kind: 'unsaved' };
  return null;
}

export interface DebugRun {
  running: boolean;
  error: DebugRunError | null;
  /** Starts a run (saving the draft first) and resolves to its trace once the stream ends; undefined if it did not start. */
  start(kind: 'chat', body: DraftChatBody): Promise<RunTrace | undefined>;
  start(kind: 'workflow', body: DraftWorkflowBody): Promise<RunTrace | undefined>;
  /** Asks the server to stop the run, then closes the stream. */
  stop(): Promise<void>;
}

/**
 * One debug run at a time: feeds the stream's events to the run store (canvas statuses and trace),
 * and ends the trace as stopped or failed when the stream breaks off before the run said it ended.
 */
export function useDebugRun(runs: RunStore, api: DebugApi, autosave?: AutosaveController): DebugRun {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<DebugRunError | null>(null);
  const ctrl = useRef<AbortController | null>(null);
  const latest = useRef({ runs, api });
  latest.current = { runs, api };
  useEffect(
    () => () => {
      // Closing the pane mid-run: the server goes on with a run nobody reads unless told to stop.
      if (!ctrl.current) return;
      const { runs: r, api: a } = latest.current;
      const runId = r.getState().trace.runId;
      if (runId) void a.stop(runId).catch(() => {});
      ctrl.current.abort();
    },
    [],
  );

  const start = useCallback(
    async (kind: 'chat' | 'workflow', body: DraftChatBody | DraftWorkflowBody) => {
      if (ctrl.current) return undefined;
      const c = new AbortController();
      ctrl.current = c;
      setError(null);
      setRunning(true);
      try {
        const unsaved = autosave ? await saveBeforeRun(autosave) : null;
        if (unsaved) {
          setError(unsaved);
          return undefined;
        }
        runs.reset();
        const events: AsyncIterable<RunStreamEvent> = kind === 'chat' ? api.chat(body as DraftChatBody, c.signal) : api.workflow(body as DraftWorkflowBody, c.signal);
        for await (const e of events) runs.apply(e);
        runs.markEnded(c.signal.aborted ? 'stopped' : 'failed');
      } catch (e) {
        if (c.signal.aborted || isAbortError(e)) runs.markEnded('stopped');
        else {
          runs.markEnded('failed');
          setError({ kind: 'request', error: e });
        }
      } finally {
        ctrl.current = null;
        setRunning(false);
      }
      return runs.getState().trace;
    },
    [runs, api, autosave],
  ) as DebugRun['start'];

  const stop = useCallback(async () => {
    const c = ctrl.current;
    if (!c) return;
    const runId = runs.getState().trace.runId;
    if (runId) {
      try {
        await api.stop(runId);
      } catch {
        // The run may have ended meanwhile; closing the stream below still stops the pane.
      }
    }
    c.abort();
  }, [runs, api]);

  return { running, error, start, stop };
}
