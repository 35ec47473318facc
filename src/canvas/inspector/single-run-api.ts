import { createContext, useContext } from 'react';
import { listRuns, runDraftNode, stopRun } from '../../api/runs';
import type { AutosaveController } from '../autosave';
import { saveBeforeRun } from '../debug/use-debug-run';
import type { SingleRunResult } from './single-run';

/**
 * What the inspector's "run this node" needs from the server, behind a context: the flow page
 * gives the real API of its app ({@link apiSingleRunApi}); stories and tests script one. Without
 * it the inspector shows no run section (a read-only viewer, a story of the form alone).
 */
export interface SingleRunApi {
  /** The memory key of the app (inputs and results are remembered per app and node). */
  scope: string;
  /** Saves what is pending: the server runs the stored draft. Null when saved, else why not. */
  prepare(): Promise<'unsaved' | 'conflict' | null>;
  run(nodeId: string, inputs: Record<string, unknown>, signal: AbortSignal): Promise<SingleRunResult>;
  /** Stops the node's run going on; false when none was found to stop. */
  stop(nodeId: string): Promise<boolean>;
}

export const SingleRunApiContext = createContext<SingleRunApi | null>(null);
export const useSingleRunApi = () => useContext(SingleRunApiContext);

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The real API for one app. The run call answers only when the node ends, so stop finds the run
 * in the app's running runs (a single-node run of this node) and stops it; the run's row may take
 * a moment to appear, so it looks a few times.
 */
export function apiSingleRunApi(appId: string, workspaceId: string, autosave?: AutosaveController): SingleRunApi {
  const opts = { workspaceId, reaction: 'silent' as const };
  return {
    scope: appId,
    prepare: async () => {
      const e = autosave ? await saveBeforeRun(autosave) : null;
      return e ? (e.kind === 'conflict' ? 'conflict' : 'unsaved') : null;
    },
    run: (nodeId, inputs, signal) => runDraftNode(appId, nodeId, inputs, { ...opts, signal }),
    async stop(nodeId) {
      for (let attempt = 0; attempt < 5; attempt++) {
        const page = await listRuns(appId, { status: 'running', page_size: 50 }, opts);
        const mine = page.list.filter((r) => r.source === 'single-node' && r.node_id === nodeId);
        if (mine.length) {
          const answers = await Promise.all(mine.map((r) => stopRun(appId, r.id, opts)));
          return answers.some((a) => a.stopped);
        }
        await wait(300);
      }
      return false;
    },
  };
}
